import { strict as assert } from 'node:assert';
import { parsePluginOptions } from '../../../core/config/plugin-options.js';
import { bdsPlugin } from '../../../plugins/bds/bds.plugin.js';
import { graphqlPlugin } from '../../../plugins/graphql/graphql.plugin.js';
import { defaultBdsOptions } from '../../../plugins/bds/bds.config.js';
import { BdsService, readDatabaseOptionsOf } from '../../../plugins/bds/bds-service.js';
import { silentLogger } from '../../../core/logger.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BdsDatabase } from '../../../plugins/bds/database/bds-database.js';
import { postgresReachable, TEST_POSTGRES_URL } from '../../support/databases.js';
import { loadTestConfig } from '../../support/test-host.js';
import { freePort as closedPort } from '../../support/free-port.js';

/**
 * The read database's settings and pool, without replication (the replication itself:
 * read-replica.test.ts): where the URL comes from, what it needs, read-only sessions, and a
 * read pool that says at once that its server is unreachable.
 */
describe('BDS read database (CHAIN_BDS_READ_DATABASE_URL)', function () {
  this.timeout(30_000);

  it('is bound from the environment by the bds and graphql plugins, as a secret', async () => {
    const url = 'postgres://reader:read-secret@replica.internal:5432/bds';
    const env = { CHAIN_BDS_READ_DATABASE_URL: url, CHAIN_BDS_DATABASE_URL: 'postgres://w@primary.internal/bds' };
    const loaded = await loadTestConfig({ plugins: { bds: {}, graphql: {} } }, env);
    for (const plugin of [bdsPlugin, graphqlPlugin]) {
      const options = parsePluginOptions(plugin.name, plugin, loaded) as { readDatabaseUrl: string | null; databaseUrl: string | null };
      assert.equal(options.readDatabaseUrl, url, plugin.name);
      assert.equal(options.databaseUrl, 'postgres://w@primary.internal/bds', plugin.name);
      assert.equal(plugin.env?.find((b) => b.variable === 'CHAIN_BDS_READ_DATABASE_URL')?.secret, true, 'redacted in config errors, a placeholder in the connect banner');
    }
    const unset = parsePluginOptions('bds', bdsPlugin, await loadTestConfig({ plugins: { bds: {} } }, {})) as { readDatabaseUrl: string | null };
    assert.equal(unset.readDatabaseUrl, null);
    const db = await BdsDatabase.open({ url, readOnly: true });
    try {
      assert.equal(db.describe(), 'PostgreSQL postgres://reader:***@replica.internal:5432/bds (schema public)', 'what the start log prints');
    } finally {
      await db.close();
    }
  });

  it('the read pool is read-only and named <applicationName>-read', () => {
    const o = defaultBdsOptions({ databaseUrl: 'postgres://primary/bds', readDatabaseUrl: 'postgres://plugin-replica/bds', schema: 'idx' });
    const read = readDatabaseOptionsOf(o, '/home')!;
    assert.equal(read.url, 'postgres://plugin-replica/bds');
    assert.equal(read.readOnly, true);
    assert.equal(read.applicationName, 'chain-bds-read');
    assert.equal(read.schema, 'idx');
    assert.equal(readDatabaseOptionsOf(defaultBdsOptions({ databaseUrl: 'postgres://primary/bds' }), '/home'), null, 'no read URL: reads use the primary');
  });

  it('needs the primary on a PostgreSQL server: PGlite has no replicas', () => {
    assert.throws(() => readDatabaseOptionsOf(defaultBdsOptions({ readDatabaseUrl: 'postgres://replica/bds' }), '/home'), /CHAIN_BDS_READ_DATABASE_URL\) needs the BDS database on a PostgreSQL server \(CHAIN_BDS_DATABASE_URL\)/);
  });

  it('a host that only reads (writer: false) needs a PostgreSQL server, and needs no primary when it has the replica', async () => {
    const open = (options: Record<string, unknown>, databaseUrl: string | null, readDatabaseUrl: string | null) =>
      BdsService.open({ options: defaultBdsOptions({ ...options, databaseUrl, readDatabaseUrl }), home: '/nonexistent-home', source: null as never, log: silentLogger });
    await assert.rejects(open({ writer: false }, null, null), /plugins\.bds\.writer=false reads a PostgreSQL server: set CHAIN_BDS_READ_DATABASE_URL \(a replica\) or CHAIN_BDS_DATABASE_URL/);
    const port = await closedPort();
    for (const [primary, replica, expected] of [[null, `postgres://r@127.0.0.1:${port}/x`, 'replica'], [`postgres://w@127.0.0.1:${port}/y`, null, 'primary']] as const) {
      const home = mkdtempSync(join(tmpdir(), 'chain-bds-reader-'));
      try {
        const s = await BdsService.open({ options: defaultBdsOptions({ writer: false, databaseUrl: primary, readDatabaseUrl: replica }), home, source: null as never, log: silentLogger });
        assert.equal(s.writes, false);
        assert.equal(s.readDb, s.db, `one pool, on the ${expected}`);
        assert.equal(s.readDb.options.readOnly, true);
        assert.equal(s.readDb.options.url, primary ?? replica);
        await s.stop();
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    }
  });

  it('a read pool answers "unreachable" at once when its server refuses connections (the writer pool waits acquireTimeoutMs)', async () => {
    const port = await closedPort();
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    // The writer pool would wait the whole acquireTimeoutMs; "at once" is anything far below it.
    const read = await BdsDatabase.open({ url, readOnly: true, acquireTimeoutMs: 60_000 });
    try {
      const started = Date.now();
      await assert.rejects(read.knex.raw('SELECT 1'), (err: any) => err.code === 'ECONNREFUSED');
      assert.ok(Date.now() - started < 20_000, `failed after ${Date.now() - started} ms`);
    } finally {
      await read.close();
    }
  });

  describe('on the PostgreSQL server', () => {
    before(async function () {
      if (await postgresReachable()) return;
      if (process.env.CHAIN_TEST_REQUIRE_POSTGRES === '1') throw new Error(`PostgreSQL at ${TEST_POSTGRES_URL} unreachable and CHAIN_TEST_REQUIRE_POSTGRES=1`);
      console.log('PostgreSQL server unreachable: read-only session test SKIPPED');
      this.skip();
    });

    it('every session of the read pool is read-only, even on a writable database', async () => {
      const schema = `bds_read_only_${process.pid}`;
      const writer = await BdsDatabase.open({ url: TEST_POSTGRES_URL, schema });
      const reader = await BdsDatabase.open({ url: TEST_POSTGRES_URL, schema, readOnly: true, applicationName: 'chain-bds-read' });
      try {
        await writer.knex.raw(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
        await writer.knex.raw(`CREATE TABLE "${schema}".probe (x int)`);
        await writer.knex.raw(`INSERT INTO "${schema}".probe VALUES (1)`);
        assert.deepEqual((await reader.knex.raw(`SELECT x FROM "${schema}".probe`)).rows, [{ x: 1 }]);
        await assert.rejects(reader.knex.raw(`INSERT INTO "${schema}".probe VALUES (2)`), (err: any) => err.code === '25006');
        await assert.rejects(reader.knex.transaction((trx) => trx.raw(`DELETE FROM "${schema}".probe`)), (err: any) => err.code === '25006');
        assert.deepEqual((await writer.knex.raw(`SELECT count(*)::int AS n FROM "${schema}".probe`)).rows, [{ n: 1 }]);
      } finally {
        await writer.knex.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
        await reader.close();
        await writer.close();
      }
    });
  });
});

