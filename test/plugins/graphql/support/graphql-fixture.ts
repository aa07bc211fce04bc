import type { ExecutionResult } from 'graphql';
import { silentLogger } from '../../../../core/logger.js';
// plugins/bds/index.ts does not export the database opener and schema set-up (yet); the
// fixture needs them to build a v7 database. Switch to index.js once it does.
import { BdsDatabase } from '../../../../plugins/bds/database/bds-database.js';
import { prepareSchema } from '../../../../plugins/bds/database/bds-schema.js';
import type { BdsSource } from '../../../../plugins/graphql/database/bds-source.js';
import { createGraphqlEngine, type EngineOptions, type GraphqlEngine } from '../../../../plugins/graphql/graphql-engine.js';
import type { GraphqlContribution } from '../../../../plugins/graphql/graphql-contributions.js';
import { graphqlConfigSchema } from '../../../../plugins/graphql/graphql.config.js';
import { dropSchema, forEachDatabase, TEST_POSTGRES_URL, type TestDatabase } from '../../../support/databases.js';
import { writeFixture } from './fixture-rows.js';

/**
 * A BDS database (PGlite or the PostgreSQL server) created by bds's own schema code, filled
 * with the fixture, and a GraphQL engine reading it through bds's handle — as in a host that
 * runs both plugins. Every SQL statement the engine sends is recorded.
 */
export interface GraphqlFixture {
  db: BdsDatabase;
  source: BdsSource;
  engine: GraphqlEngine;
  /** SQL text of every statement run since the last `resetStatements()`. */
  statements: string[];
  resetStatements(): void;
  /** Executes and fails the test on errors. */
  data(query: string, variables?: Record<string, unknown>): Promise<any>;
  run(query: string, variables?: Record<string, unknown>): Promise<ExecutionResult>;
  close(): Promise<void>;
}

export function engineOptions(overrides: Partial<EngineOptions> = {}): EngineOptions {
  return { ...graphqlConfigSchema.parse({}), ...overrides };
}

export async function openFixture(target: TestDatabase, options: { engine?: Partial<EngineOptions>; contributions?: GraphqlContribution[]; empty?: boolean } = {}): Promise<GraphqlFixture> {
  const db = await BdsDatabase.open({ url: target.url, pgliteDir: target.pgliteDir, schema: target.schema });
  await prepareSchema(db);
  if (!options.empty) await writeFixture(db.knex);
  const source: BdsSource = { knex: db.knex, schema: db.schema, kind: db.kind, describe: () => db.describe(), close: async () => undefined };
  const engine = createGraphqlEngine(source, engineOptions(options.engine), options.contributions ?? [], silentLogger);
  // The cost's table row figures, loaded once as the plugin does at start; their reloads are not the queries' statements.
  await engine.rowEstimates.refresh();
  const statements: string[] = [];
  db.knex.on('query', (q: { sql: string }) => {
    if (!/pg_catalog\.pg_class|count\(\*\)::int AS n FROM \(SELECT 1 FROM/.test(q.sql)) statements.push(q.sql);
  });
  const run = (query: string, variables?: Record<string, unknown>) => engine.execute(query, variables ?? null);
  return {
    db,
    source,
    engine,
    statements,
    resetStatements: () => void statements.splice(0),
    run,
    async data(query, variables) {
      const result = await run(query, variables);
      if (result.errors?.length) throw new Error(`GraphQL errors: ${result.errors.map((e) => e.message).join('; ')}`);
      return JSON.parse(JSON.stringify(result.data, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
    },
    close: () => db.close(),
  };
}

/**
 * One fixture for a whole suite on each database (PGlite in memory; a fresh schema on the
 * PostgreSQL server, dropped afterwards): the data is read-only for these tests, and building
 * it once keeps the suite fast. Skipping when the server is unreachable is forEachDatabase's.
 */
export function forEachFixture(body: (fixture: () => GraphqlFixture, kind: TestDatabase['kind']) => void, options: Parameters<typeof openFixture>[1] = {}): void {
  forEachDatabase((target) => {
    let fixture: GraphqlFixture | undefined;
    let schema: string | null = null;
    before(async function () {
      const db: TestDatabase = target.kind === 'pglite'
        ? { kind: 'pglite', home: '', url: null, pgliteDir: 'memory://', schema: 'public' }
        : { kind: 'postgres', home: '', url: TEST_POSTGRES_URL, pgliteDir: null, schema: (schema = `gql_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`) };
      fixture = await openFixture(db, options);
    });
    after(async function () {
      await fixture?.close();
      if (schema) await dropSchema(schema).catch(() => undefined);
    });
    body(() => {
      if (!fixture) throw new Error('fixture not open');
      return fixture;
    }, target.kind);
  });
}
