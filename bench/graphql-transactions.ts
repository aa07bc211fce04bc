import 'reflect-metadata';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { BENCH_POSTGRES_URL as POSTGRES_URL, postgresReachable } from './bench-postgres.js';
import { postLoad } from './http-load.js';
import { printTable, type BenchResult } from './bench-result.js';
import { answerIfBuiltChild, ensureBuild, importBuilt, inBuiltProcess } from './production-build.js';

/** The GraphQL server and the database handle from the compiled build, as `npm start` runs them (production-build.ts). */
async function builtModules() {
  const [{ silentLogger }, { BdsDatabase }, { prepareSchema }, { createGraphqlEngine }, { graphqlConfigSchema }, { createKoaApp }] = await Promise.all([
    importBuilt<typeof import('../core/logger.js')>('core/logger'),
    // plugins/bds/index.ts does not export the opener and schema set-up (yet); switch when it does.
    importBuilt<typeof import('../plugins/bds/database/bds-database.js')>('plugins/bds/database/bds-database'),
    importBuilt<typeof import('../plugins/bds/database/bds-schema.js')>('plugins/bds/database/bds-schema'),
    importBuilt<typeof import('../plugins/graphql/graphql-engine.js')>('plugins/graphql/graphql-engine'),
    importBuilt<typeof import('../plugins/graphql/graphql.config.js')>('plugins/graphql/graphql.config'),
    importBuilt<typeof import('../host/servers/koa-app.js')>('host/servers/koa-app'),
  ]);
  return { silentLogger, BdsDatabase, prepareSchema, createGraphqlEngine, graphqlConfigSchema, createKoaApp };
}

/**
 * `allTransactions(first: 50, condition: {sender})` over HTTP against the same read as direct
 * SQL on the same database handle, in the same run: what the GraphQL layer (HTTP, parse,
 * validate, limits, plan, SQL, serialisation) costs over the query it issues. 20,000
 * transactions from 50 senders (400 each); both sides run with the same concurrency and
 * request count, alternating, best of three rounds each. On the PostgreSQL server when it is reachable, and on PGlite.
 * The server side runs from the compiled build: under tsx its many closures would cost more
 * than they do in production, while the direct side is mostly the pg driver either way.
 */
const TXS = 20_000;
const SENDERS = 50;
// PGlite runs in this thread and serialises every statement: fewer requests, same shape.
const REQUESTS = { postgres: 3_000, pglite: 600 };
const WARMUP = { postgres: 500, pglite: 100 };
const CONCURRENCY = 16;
const ROUNDS = 3;

const SENDER = 'sender7';
const FIELDS = 'hash blockHeight txIndex contract function success chiUsed createdAt';
const QUERY = `query ($sender: String!) { allTransactions(first: 50, condition: {sender: $sender}) { nodes { ${FIELDS} } } }`;
const BODY = JSON.stringify({ query: QUERY, variables: { sender: SENDER } });
// What a hand-written endpoint would run for the same answer (same order: the primary key).
const SQL = `SELECT hash, block_height, tx_index, contract, function, success, chi_used, created_at
  FROM transactions WHERE sender = ? ORDER BY hash ASC LIMIT 50`;


function loadHttp(url: string, count: number): Promise<number> {
  return postLoad({ url, body: BODY, count, concurrency: CONCURRENCY });
}

async function loadSql(knex: Knex, count: number): Promise<number> {
  let sent = 0;
  const lane = async () => {
    while (sent < count) {
      sent++;
      const r = await knex.raw(SQL, [SENDER]);
      if (r.rows.length !== 50) throw new Error('direct SQL returned a short page');
      JSON.stringify(r.rows); // a real endpoint would serialise the rows too
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  return count / ((performance.now() - started) / 1000);
}

async function fill(knex: Knex): Promise<void> {
  await knex.raw(`INSERT INTO blocks SELECT g, 'B' || g, 1767225600000000000 + g * 1000000000::bigint, '2026-01-01T00:00:00Z'::timestamptz + g * interval '1 second', 10, 'APP' || g, '2026-01-01T00:00:00Z'::timestamptz + g * interval '1 second' FROM generate_series(0, ${TXS / 10 - 1}) g`);
  await knex.raw(`INSERT INTO transactions SELECT 'T' || lpad(g::text, 63, '0'), g / 10, 'B' || (g / 10), 1767225600000000000 + (g / 10) * 1000000000::bigint, g % 10,
      'sender' || (g % ${SENDERS}), g, 'currency', 'transfer', g % 17 <> 0, CASE WHEN g % 17 = 0 THEN 1 ELSE 0 END, 100 + g % 7, '"ok"'::jsonb,
      jsonb_build_object('contract', 'currency', 'function', 'transfer', 'kwargs', jsonb_build_object('amount', jsonb_build_object('__fixed__', '1.5'), 'to', 'dave'), 'nonce', g),
      jsonb_build_object('metadata', jsonb_build_object('signature', md5(g::text)), 'payload', jsonb_build_object('nonce', g)),
      '2026-01-01T00:00:00Z'::timestamptz + (g / 10) * interval '1 second'
    FROM generate_series(0, ${TXS - 1}) g`);
  await knex.raw('ANALYZE transactions');
}

async function benchOn(kind: 'postgres' | 'pglite'): Promise<BenchResult[]> {
  const { silentLogger, BdsDatabase, prepareSchema, createGraphqlEngine, graphqlConfigSchema, createKoaApp } = await builtModules();
  const schema = kind === 'postgres' ? `gql_bench_${process.pid}` : 'public';
  const db = await BdsDatabase.open({ url: kind === 'postgres' ? POSTGRES_URL : null, pgliteDir: 'memory://', schema });
  let server: http.Server | null = null;
  try {
    await prepareSchema(db);
    await fill(db.knex);
    const options = graphqlConfigSchema.parse({});
    const engine = createGraphqlEngine({ knex: db.knex, schema, kind, describe: () => db.describe(), close: async () => undefined }, options, [], silentLogger);
    const app = createKoaApp({ name: 'graphql', kind: 'query', host: '127.0.0.1', port: 0 }, [{ server: 'graphql', id: 'graphql:http', capability: 'read', router: engine.router() }], silentLogger);
    server = http.createServer(app.callback());
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/graphql`;

    const check = await engine.execute(QUERY, { sender: SENDER });
    if (check.errors || (check.data as any).allTransactions.nodes.length !== 50) throw new Error(`benchmark query failed: ${JSON.stringify(check.errors)}`);
    await loadHttp(url, WARMUP[kind]);
    await loadSql(db.knex, WARMUP[kind]);
    let bestGraphql = 0;
    let bestSql = 0;
    // Alternate the two and keep each one's best round, so drift in the machine hits both alike.
    for (let round = 0; round < ROUNDS; round++) {
      bestGraphql = Math.max(bestGraphql, await loadHttp(url, REQUESTS[kind]));
      bestSql = Math.max(bestSql, await loadSql(db.knex, REQUESTS[kind]));
    }
    const where = kind === 'postgres' ? 'PostgreSQL server' : 'PGlite';
    return [{
      name: `GraphQL allTransactions(first: 50, condition: {sender}) over HTTP, ${where} (${REQUESTS[kind]} req, ${CONCURRENCY} concurrent)`,
      value: bestGraphql,
      unit: 'req/s',
      baseline: { name: 'direct SQL, same handle', value: bestSql },
      ratio: bestSql / bestGraphql,
      target: kind === 'postgres' ? 'ratio ≤ 3' : 'ratio ≤ 2',
    }];
  } finally {
    if (server) await new Promise<void>((resolve) => { server!.close(() => resolve()); server!.closeAllConnections(); });
    if (kind === 'postgres') await db.knex.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await db.close();
  }
}

/** In a process of its own that loads only the build (production-build.ts). */
export async function run(): Promise<BenchResult[]> {
  ensureBuild();
  return inBuiltProcess(fileURLToPath(import.meta.url), runHere);
}

async function runHere(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  if (await postgresReachable()) results.push(...(await benchOn('postgres')));
  else process.stderr.write(`graphql bench: PostgreSQL at ${POSTGRES_URL} unreachable; PGlite only\n`);
  results.push(...(await benchOn('pglite')));
  return results;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly && process.argv[2] === undefined) printTable(await run());
else if (invokedDirectly) await answerIfBuiltChild(runHere);
