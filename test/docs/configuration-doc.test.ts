import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BUILTIN_PLUGINS } from '../../host/builtin-plugins.js';
import {
  allowedOf, builtinPlugins, CONFIG_REFERENCE_PATH, configReferenceMarkdown, defaultOf, descriptionGaps, documentedBindings, hostSection, prose, typeOf,
} from '../../host/config-reference/config-reference.js';
import { schemaKeyComments } from '../../host/config-reference/schema-comments.js';
import { REPO_ROOT } from '../support/test-host.js';

describe('docs/configuration.md', function () {
  this.timeout(60_000);

  it('is what the schemas generate (npm run schema)', async () => {
    const committed = await readFile(path.join(REPO_ROOT, CONFIG_REFERENCE_PATH), 'utf8');
    assert.equal(committed, await configReferenceMarkdown(), 'docs/configuration.md is stale: run `npm run schema`');
  });

  it('describes every key, with no stale or redundant KEY_NOTES entry', async () => {
    assert.deepEqual(await descriptionGaps(), { undescribed: [], staleNotes: [], redundantNotes: [] });
  });

  it('has a row for every host key and every plugin key a variable sets, naming the variable, and a section per built-in plugin', async () => {
    const doc = await configReferenceMarkdown();
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const { binding, key, plugin } of documentedBindings(await builtinPlugins())) {
      assert.match(doc, new RegExp(`^\\| \`${binding.variable}\` \\| \`${escape(key)}\` \\|`, 'm'), `the variables table maps ${binding.variable} to ${key}`);
      const local = plugin ? key.slice(`plugins.${plugin}.`.length) : key;
      assert.match(doc, new RegExp(`^\\| \`${escape(local)}\` \\|[^\\n]*\`${binding.variable}\`[^\\n]*\\|`, 'm'), `${key} row names ${binding.variable}`);
    }
    for (const key of (await hostSection()).keys) assert.ok(doc.includes(`| \`${key.path}\` |`), key.path);
    for (const name of Object.keys(BUILTIN_PLUGINS)) assert.ok(doc.includes(`### \`plugins.${name}\``), name);
    // A plugin's own variable lands in its own options (#16 defect 7: core/ names no plugin key).
    assert.match(doc, /^\| `CHAIN_MCP_DEX_PLAN_TTL_SECONDS` \| `plugins\.dex\.plan\.ttlSeconds` \| integer \| only while the `dex` plugin is loaded \|/m);
    assert.match(doc, /^\| `plan\.ttlSeconds` \| integer \| `300` \| 30\.\.900 \| `CHAIN_MCP_DEX_PLAN_TTL_SECONDS` \| /m);
    assert.match(doc, /^\| `CHAIN_BDS_DATABASE_URL` \| `plugins\.bds\.databaseUrl` \|/m);
    assert.match(doc, /^\| `CHAIN_BDS_DATABASE_URL` \| `plugins\.graphql\.databaseUrl` \|/m);
  });

  describe('rendering', () => {
    it('types, defaults and allowed values from JSON Schema', () => {
      assert.equal(typeOf({ anyOf: [{ type: 'string', minLength: 16 }, { type: 'null' }] }), 'string or null');
      assert.equal(typeOf({ type: 'array', items: { type: 'string' } }), 'array of string');
      assert.equal(typeOf({ type: 'object', additionalProperties: { type: 'object' } }), 'map of object');
      assert.equal(allowedOf({ type: 'integer', minimum: 0, maximum: 65535 }), '0..65535');
      assert.equal(allowedOf({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), '≥ 1');
      assert.equal(allowedOf({ type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }), '');
      assert.equal(allowedOf({ anyOf: [{ type: 'string', minLength: 16 }, { type: 'null' }] }), 'at least 16 characters');
      assert.equal(allowedOf({ type: 'string', enum: ['a', 'b'] }), '`"a"`, `"b"`');
      assert.equal(allowedOf({ type: 'string', pattern: '^a|b$' }), 'matches `^a|b$`');
      assert.equal(defaultOf({ type: 'integer' }), '—');
      assert.equal(defaultOf({ type: 'object', properties: { a: {} }, default: {} }), 'see its keys');
      assert.equal(defaultOf({ anyOf: [{ type: 'object', properties: {} }, { type: 'null' }], default: null }), '`null`');
      assert.equal(prose('under <home>/bds, or `<home>/x`'), 'under &lt;home&gt;/bds, or `<home>/x`');
    });

    it('reads key comments through constants, factories and modifier chains', async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'schema-comments-'));
      try {
        const file = path.join(dir, 'sample.config.ts');
        await writeFile(file, [
          "import { z } from 'zod';",
          'const bucket = (rate: number) => z.strictObject({',
          '  /** Refill per second. */',
          '  rate: z.number().default(rate),',
          '}).prefault({});',
          'const inner = z.strictObject({ /** Inner port. */ port: z.number() });',
          'export const other = z.strictObject({ /** Not this one. */ port: z.number() });',
          'export const sample = z.strictObject({',
          '  /** The http server;',
          '   *  null for none. */',
          '  http: inner.nullable().default(null),',
          '  api: bucket(3),',
          '  // a line comment is not documentation',
          '  plain: z.string(),',
          '});',
        ].join('\n'));
        const comments = schemaKeyComments(file, ['http', 'api', 'plain']);
        assert.deepEqual(Object.fromEntries(comments), {
          'http': 'The http server; null for none.',
          'http.port': 'Inner port.',
          'api.rate': 'Refill per second.',
        });
        assert.throws(() => schemaKeyComments(file, ['missing']), /no zod object schema with exactly the keys missing/);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});
