import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '../../../../core/logger.js';
// See graphql-fixture.ts: bds's opener and schema set-up are not on its index.ts yet.
import { BdsDatabase } from '../../../../plugins/bds/database/bds-database.js';
import { prepareSchema } from '../../../../plugins/bds/database/bds-schema.js';
import { Host } from '../../../../host/host.js';
import { dropSchema, TEST_POSTGRES_URL, type TestDatabaseKind } from '../../../support/databases.js';
import { loadTestConfig, postJson, type RawResponse } from '../../../support/test-host.js';
import { TEST_CANDLES_DDL } from './contributing-plugin/index.js';
import { writeFixture } from './fixture-rows.js';

export const CONTRIBUTING_PLUGIN = join(fileURLToPath(new URL('.', import.meta.url)), 'contributing-plugin');

/**
 * A BDS database with the fixture (and the contributed `test_candles` table), closed again so
 * the GraphQL plugin opens it itself, as the standalone `chain-graphql` does: a PGlite
 * directory under a temp home, or a fresh schema on the PostgreSQL server.
 */
export interface PreparedDatabase {
  kind: TestDatabaseKind;
  home: string;
  url: string | null;
  schema: string;
  remove(): Promise<void>;
}

export async function prepareDatabase(kind: TestDatabaseKind): Promise<PreparedDatabase> {
  const home = mkdtempSync(join(tmpdir(), `chain-graphql-${kind}-`));
  const url = kind === 'postgres' ? TEST_POSTGRES_URL : null;
  const schema = kind === 'postgres' ? `gql_http_${process.pid}_${Math.random().toString(36).slice(2, 10)}` : 'public';
  const db = await BdsDatabase.open({ url, pgliteDir: join(home, 'bds'), schema });
  try {
    await prepareSchema(db);
    await writeFixture(db.knex);
    await db.knex.raw(TEST_CANDLES_DDL);
    await db.knex.raw(`INSERT INTO test_candles VALUES ('1', '5m', '2026-01-01T00:00:00Z', 1, 1.5, 2.5, 10, 3), ('1', '5m', '2026-01-01T00:05:00Z', 2, 2.5, 2.25, 4, 1), ('2', '5m', '2026-01-01T00:00:00Z', 1, 7, 7, 1, 1)`);
  } finally {
    await db.close();
  }
  return {
    kind, home, url, schema,
    remove: async () => {
      if (kind === 'postgres') await dropSchema(schema).catch(() => undefined);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export interface GraphqlHost {
  host: Host;
  url: string;
  post(body: unknown, headers?: Record<string, string>): Promise<RawResponse>;
  stop(): Promise<void>;
}

/** A host with the graphql plugin (and the contributing test plugin) on a free loopback port. */
export async function bootGraphqlHost(db: PreparedDatabase, graphql: Record<string, unknown> = {}, env: Record<string, string> = {}): Promise<GraphqlHost> {
  const config = {
    home: db.home,
    plugins: {
      graphql: { host: '127.0.0.1', port: 0, schema: db.schema, ...graphql },
      [CONTRIBUTING_PLUGIN]: {},
    },
  };
  const loaded = await loadTestConfig(config, { ...(db.url ? { CHAIN_BDS_DATABASE_URL: db.url } : {}), ...env });
  const host = await Host.create(loaded, { log: silentLogger });
  try {
    await host.start();
  } catch (err) {
    // A refused bind fails after the plugins started: release what they opened.
    await host.stop();
    throw err;
  }
  const url = `${host.serverUrl('graphql')}/graphql`;
  return { host, url, post: (body, headers) => postJson(url, body, headers), stop: () => host.stop() };
}
