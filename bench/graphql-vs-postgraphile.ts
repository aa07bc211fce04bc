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
 * p50/p99 of three representative queries — a lookup, an explorer's 10 latest blocks with
 * their transactions and events, and events by condition. 2,000 blocks × 10 transactions × 2
 * events, generated in SQL and vacuumed. Every request goes out alone (one at a time), the six
 * (query, server) pairs round-robin, so what else the machine does hits both servers alike.
 */
const BLOCKS = 2_000;
const PER_BLOCK = 10;
/** CHAIN_BENCH_RUNS shortens a trial run; figures come from the default. */
const RUNS = Number(process.env.CHAIN_BENCH_RUNS ?? 500);
const WARMUP = Math.min(50, RUNS);

const LOOKUP_HASH = txHash(12_345);
export const QUERIES: Record<string, { text: string; target?: string }> = {
  'lookup transactionByHash': {
    text: `{ transactionByHash(hash: "${LOOKUP_HASH}") { hash blockHeight sender nonce contract function success chiUsed payload } }`,
  },
  '10 blocks + transactions + events': {
    text: `{ allBlocks(first: 10, orderBy: HEIGHT_DESC) { nodes { height blockHash txCount blockTimeIso
      transactionsByBlockHeight { nodes { hash sender contract function success chiUsed eventsByTxHash { nodes { event contract data dataIndexed } } } } } } }`,
    target: 'ratio ≤ 1.2 (issue 15)',
  },
  'events by condition': {
    text: '{ allEvents(condition: {contract: "currency", event: "Transfer", signer: "sender_0007"}, orderBy: ID_DESC, first: 50) { totalCount nodes { id txHash blockHeight data dataIndexed } } }',
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

    const pairs = Object.entries(QUERIES).flatMap(([name, q]) => [reference, ours].map((server) => ({
      name, server, body: JSON.stringify({ query: q.text }), times: [] as number[],
    })));
    // Same work on both sides? Say so when the answers differ (the differential test has the details).
    for (const [name, q] of Object.entries(QUERIES)) {
      const body = JSON.stringify({ query: q.text });
      const [theirs, mine] = [await postGraphql(reference.url, body), await postGraphql(ours.url, body)];
      if (canonicalAnswer(theirs) !== canonicalAnswer(mine)) process.stderr.write(`graphql-vs-postgraphile: the answers to "${name}" differ between the servers\n`);
    }
    for (let i = 0; i < WARMUP; i++) for (const p of pairs) await timed(p.server, p.body);
    for (let i = 0; i < RUNS; i++) for (const p of pairs) p.times.push(await timed(p.server, p.body));

    const stats = (name: string, server: ServerProcess) => {
      const sorted = pairs.find((p) => p.name === name && p.server === server)!.times.sort((a, b) => a - b);
      return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    };
    const results: BenchResult[] = [];
    for (const [name, q] of Object.entries(QUERIES)) {
      const [theirs, mine] = [stats(name, reference), stats(name, ours)];
      for (const p of ['p50', 'p99'] as const) {
        results.push({
          name: `GraphQL ${name} ${p} (${RUNS} sequential runs, round-robin)`,
          value: mine[p],
          unit: 'ms',
          baseline: { name: 'PostGraphile 5, same database', value: theirs[p] },
          ratio: mine[p] / theirs[p],
          ...(p === 'p50' && q.target ? { target: q.target } : {}),
        });
      }
    }
    return results;
  } finally {
    for (const s of servers.reverse()) await s.stop().catch(() => undefined);
    await database.drop().catch(() => undefined);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  printTable(await run());
}
