import { writeFile } from 'node:fs/promises';
import { configJsonSchemaText } from '../config-json-schema.js';

/** Regenerates chainrc.schema.json from the zod schemas (`npm run schema`). */
const target = process.argv[2] ?? 'chainrc.schema.json';
await writeFile(target, await configJsonSchemaText());
process.stderr.write(`wrote ${target}\n`);
