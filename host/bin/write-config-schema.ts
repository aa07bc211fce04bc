import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { configJsonSchemaText } from '../config-json-schema.js';
import { CONFIG_REFERENCE_PATH, configReferenceMarkdown } from '../config-reference/config-reference.js';

/**
 * `npm run schema`: regenerates chainrc.schema.json and docs/configuration.md from the zod
 * schemas. Optional arguments name other targets: `[schema file] [reference file]`.
 */
const schemaTarget = process.argv[2] ?? 'chainrc.schema.json';
const referenceTarget = process.argv[3] ?? CONFIG_REFERENCE_PATH;
await writeFile(schemaTarget, await configJsonSchemaText());
process.stderr.write(`wrote ${schemaTarget}\n`);
await mkdir(path.dirname(referenceTarget), { recursive: true });
await writeFile(referenceTarget, await configReferenceMarkdown());
process.stderr.write(`wrote ${referenceTarget}\n`);
