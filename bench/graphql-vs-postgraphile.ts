import 'reflect-metadata';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { BdsDatabase } from '../plugins/bds/database/bds-database.js';
import { prepareSchema } from '../plugins/bds/database/bds-schema.js';
import { createDatabase, hideMigrationTables } from '../test/compat/postgraphile/support/compat-database.js';
import { ensureCompatInstalled } from '../test/compat/postgraphile/support/compat-install.js';
import { postGraphql, startPostgraphile, startSidecar, type ServerProcess } from '../test/compat/postgraphile/support/compat-servers.js';
import { canonicalAnswer } from '../test/compat/postgraphile/support/answer-diff.js';
import { BENCH_POSTGRES_URL as BASE_URL, postgresReachable } from './bench-postgres.js';
import { printTable, type BenchResult } from './bench-result.js';
import { percentile } from './latency.js';
import { ensureBuild } from './production-build.js';

/**
 * chainhost's GraphQL sidecar (compiled build) against the real PostGraphile 5 with upstream's
 * preset (test/compat/postgraphile), both serving one PostgreSQL database in the same run:
 * p50/p99 of representative queries — a lookup, an explorer's 10 latest blocks with their
 * transactions and events, events by condition, a keyset page at 80% depth of a two-column
 * order (each server's own cursor), an aggregate with `totalCount` — and the explorer query's
 * throughput with 16 clients at once. BLOCKS × 10 transactions × 2 events (20,000 transactions
 * by default; CHAIN_BENCH_TRANSACTIONS sets another count, e.g. 200000), generated in SQL and
 * vacuumed. Latency: every request goes out alone, the (query, server) pairs round-robin, so
 * what else the machine does hits both servers alike. Throughput: the servers take turns,
 * two rounds each.
 */
const PER_BLOCK = 10;
const BLOCKS = Math.max(100, Math.round(Number(process.env.CHAIN_BENCH_TRANSACTIONS ?? 20_000) / PER_BLOCK));
/** CHAIN_BENCH_RUNS shortens a trial run; figures come from the default. */
const RUNS = Number(process.env.CHAIN_BENCH_RUNS ?? 500);
const WARMUP = Math.min(50, RUNS);
const CLIENTS = 16;
/** Requests per client and round of the throughput figure. */
const PER_CLIENT = Math.max(5, Math.round(RUNS / 10));

const LOOKUP_HASH = txHash(Math.min(12_345, BLOCKS * PER_BLOCK - 1));
const NESTED = '10 blocks + transactions + events';
const DEEP_ORDER = '[BLOCK_HEIGHT_DESC, TX_INDEX_DESC]';
const DEEP_OFFSET = Math.floor(BLOCKS * PER_BLOCK * 0.8);

interface BenchQuery {
  text: string;
  target?: string;
  /** Variables asked of each server first (its own cursor); the query then runs with them. */
  prepare?: { text: string; variables: (answer: any) => Record<string, unknown> };
}

export const QUERIES: Record<string, BenchQuery> = {
  'lookup transactionByHash': {
    text: `{ transactionByHash(hash: "${LOOKUP_HASH}") { hash blockHeight sender nonce contract function success chiUsed payload } }`,
  },
  [NESTED]: {
    text: `{ allBlocks(first: 10, orderBy: HEIGHT_DESC) { nodes { height blockHash txCount blockTimeIso
      transactionsByBlockHeight { nodes { hash sender contract function success chiUsed eventsByTxHash { nodes { event contract data dataIndexed } } } } } } }`,
    target: 'ratio ≤ 1.1 (issue 31)',
  },
  'events by condition': {
    text: '{ allEvents(condition: {contract: "currency", event: "Transfer", signer: "sender_0007"}, orderBy: ID_DESC, first: 50) { totalCount nodes { id txHash blockHeight data dataIndexed } } }',
  },
  'keyset page at 80% depth, two-column order': {
    prepare: {
      text: `{ allTransactions(first: 1, offset: ${DEEP_OFFSET}, orderBy: ${DEEP_ORDER}) { pageInfo { endCursor } } }`,
      variables: (answer) => ({ after: answer.data.allTransactions.pageInfo.endCursor }),
    },
    text: `query ($after: Cursor) { allTransactions(first: 20, after: $after, orderBy: ${DEEP_ORDER}) { nodes { hash blockHeight txIndex sender } pageInfo { hasNextPage endCursor } } }`,
    target: 'ratio ≤ 1.5 (issue 31)',
  },
  'aggregate with totalCount': {
    text: '{ allTransactions(condition: {sender: "sender_0007"}) { totalCount aggregates { sum { chiUsed } max { blockHeight } distinctCount { contract } } } }',
    target: 'ratio ≤ 1.1 (issue 31)',
  },
};

function txHash(g: number): string {
  return `T${String(g).padStart(63, '0')}`;
}

export async function fill(knex: Knex): Promise<void> {
  await knex.raw(`INSERT INTO blocks SELECT h, 'B' || lpad(h::text, 63, '0'), 1767225600000000000 + h * 1000000000::bigint,
      to_timestamp(1767225600 + h), ${PER_BLOCK}, 'A' || lpad(h::text, 63, '0'), to_timestamp(1767225600 + h)
    FROM generate_series(0, ${BLOCKS - 1}) h`);
  await knex.raw(`INSERT INTO transactions SELECT 'T' || lpad(g::text, 63, '0'), g / ${PER_BLOCK}, 'B' || lpad((g / ${PER_BLOCK})::text, 63, '0'),
      1767225600000000000 + (g / ${PER_BLOCK}) * 1000000000::bigint, g % ${PER_BLOCK}, 'sender_' || lpad((g % 50)::text, 4, '0'), g / 50,
      'currency', 'transfer', g % 31 <> 0, CASE WHEN g % 31 = 0 THEN 1 ELSE 0 END, 20 + g % 7, NULL,
      jsonb_build_object('contract', 'currency', 'function', 'transfer', 'kwargs', jsonb_build_object('amount', jsonb_build_object('__fixed__', '1.5'), 'to', 'bob'), 'nonce', g),
      jsonb_build_object('metadata', jsonb_build_object('signature', md5(g::text)), 'payload', jsonb_build_object('nonce', g)),
      to_timestamp(1767225600 + g / ${PER_BLOCK})
    FROM generate_series(0, ${BLOCKS * PER_BLOCK - 1}) g`);
  await knex.raw(`INSERT INTO events (block_height, tx_hash, tx_index, event_index, contract, event, signer, caller, data_indexed, data, created_at)
    SELECT g / ${PER_BLOCK}, 'T' || lpad(g::text, 63, '0'), g % ${PER_BLOCK}, e, CASE WHEN e = 0 THEN 'currency' ELSE 'con_pairs' END,
      CASE WHEN e = 0 THEN 'Transfer' ELSE 'Swap' END, 'sender_' || lpad((g % 50)::text, 4, '0'), 'sender_' || lpad((g % 50)::text, 4, '0'),
      jsonb_build_object('from', 'sender_' || (g % 50), 'to', 'bob'), jsonb_build_object('amount', jsonb_build_object('__fixed__', '1.5')),
      to_timestamp(1767225600 + g / ${PER_BLOCK})
    FROM generate_series(0, ${BLOCKS * PER_BLOCK - 1}) g, generate_series(0, 1) e ORDER BY g, e`);
  for (const table of ['blocks', 'transactions', 'events']) await knex.raw(`VACUUM (ANALYZE) ${table}`);
}

async function timed(server: ServerProcess, body: string): Promise<number> {
  const started = performance.now();
  const answer = await postGraphql(server.url, body);
  const elapsed = performance.now() - started;
  const errors = (answer.body as { errors?: unknown }).errors;
  if (answer.status !== 200 || errors) throw new Error(`${server.name} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  return elapsed;
}

/** `clients` clients each sending `perClient` requests one after another; the wall time of all of them, in ms. */
async function concurrent(server: ServerProcess, body: string, clients: number, perClient: number): Promise<number> {
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    for (let i = 0; i < perClient; i++) await timed(server, body);
  }));
  return performance.now() - started;
}

export async function run(): Promise<BenchResult[]> {
  if (!(await postgresReachable(BASE_URL))) {
    process.stderr.write(`graphql-vs-postgraphile: PostgreSQL at ${BASE_URL} unreachable; PostGraphile needs the server, skipped\n`);
    return [];
  }
  ensureBuild();
  ensureCompatInstalled();
  const database = await createDatabase(BASE_URL, 'chain_bench_pgcompat');
  const servers: ServerProcess[] = [];
  try {
    const db = await BdsDatabase.open({ url: database.url, pgliteDir: null, schema: 'public' });
    try {
      await prepareSchema(db);
      await fill(db.knex);
    } finally {
      await db.close();
    }
    await hideMigrationTables(database.url);
    const reference = await startPostgraphile(database.url);
    servers.push(reference);
    const ours = await startSidecar(database.url, { built: true });
    servers.push(ours);

    // Each server's request bodies: a query with `prepare` runs with variables from that server's own answer.
    const bodyFor = async (server: ServerProcess, q: BenchQuery) => {
      if (!q.prepare) return JSON.stringify({ query: q.text });
      const answer = await postGraphql(server.url, JSON.stringify({ query: q.prepare.text }));
      return JSON.stringify({ query: q.text, variables: q.prepare.variables(answer.body) });
    };
    const pairs: Array<{ name: string; server: ServerProcess; body: string; times: number[] }> = [];
    for (const [name, q] of Object.entries(QUERIES)) {
      for (const server of [reference, ours]) pairs.push({ name, server, body: await bodyFor(server, q), times: [] });
    }
    // Same work on both sides? Say so when the answers differ (the differential test has the details).
    for (const name of Object.keys(QUERIES)) {
      const [a, b] = [reference, ours].map((server) => pairs.find((p) => p.name === name && p.server === server)!);
      const [theirs, mine] = [await postGraphql(reference.url, a!.body), await postGraphql(ours.url, b!.body)];
      if (canonicalAnswer(theirs) !== canonicalAnswer(mine)) process.stderr.write(`graphql-vs-postgraphile: the answers to "${name}" differ between the servers\n`);
    }
    for (let i = 0; i < WARMUP; i++) for (const p of pairs) await timed(p.server, p.body);
    for (let i = 0; i < RUNS; i++) for (const p of pairs) p.times.push(await timed(p.server, p.body));

    const stats = (name: string, server: ServerProcess) => {
      const sorted = pairs.find((p) => p.name === name && p.server === server)!.times.sort((a, b) => a - b);
      return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    };
    const size = `${BLOCKS * PER_BLOCK} transactions`;
    const results: BenchResult[] = [];
    for (const [name, q] of Object.entries(QUERIES)) {
      const [theirs, mine] = [stats(name, reference), stats(name, ours)];
      for (const p of ['p50', 'p99'] as const) {
        results.push({
          name: `GraphQL ${name} ${p} (${RUNS} sequential runs, round-robin, ${size})`,
          value: mine[p],
          unit: 'ms',
          baseline: { name: 'PostGraphile 5, same database', value: theirs[p] },
          ratio: mine[p] / theirs[p],
          ...(p === 'p50' && q.target ? { target: q.target } : {}),
        });
      }
    }
    // Throughput of the explorer query with 16 clients at once, the servers taking turns.
    const nestedBody = JSON.stringify({ query: QUERIES[NESTED]!.text });
    const served = new Map<ServerProcess, { requests: number; ms: number }>([[reference, { requests: 0, ms: 0 }], [ours, { requests: 0, ms: 0 }]]);
    await concurrent(reference, nestedBody, CLIENTS, Math.min(PER_CLIENT, 10));
    await concurrent(ours, nestedBody, CLIENTS, Math.min(PER_CLIENT, 10));
    for (let round = 0; round < 2; round++) {
      for (const server of round === 0 ? [reference, ours] : [ours, reference]) {
        const ms = await concurrent(server, nestedBody, CLIENTS, PER_CLIENT);
        const total = served.get(server)!;
        total.requests += CLIENTS * PER_CLIENT;
        total.ms += ms;
      }
    }
    const perSecond = (server: ServerProcess) => (served.get(server)!.requests / served.get(server)!.ms) * 1000;
    results.push({
      name: `GraphQL ${NESTED} throughput, ${CLIENTS} clients (${2 * CLIENTS * PER_CLIENT} requests per server, alternating, ${size})`,
      value: perSecond(ours),
      unit: 'req/s',
      baseline: { name: 'PostGraphile 5, same database', value: perSecond(reference) },
      ratio: perSecond(reference) / perSecond(ours),
      target: 'ratio ≤ 1.0, i.e. ours ≥ PostGraphile (issue 31)',
    });
    return results;
  } finally {
    for (const s of servers.reverse()) await s.stop().catch(() => undefined);
    await database.drop().catch(() => undefined);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  printTable(await run());
}
