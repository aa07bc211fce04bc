import { PGlite } from '@electric-sql/pglite';
import knexFactory, { type Knex } from 'knex';
import ClientPGLite from 'knex-pglite';
import { BdsDatabase } from '../plugins/bds/database/bds-database.js';
import { pgliteParsers } from '../plugins/bds/database/pg-types.js';
import { LoopBurstWatch } from '../test/support/main-thread-clock.js';
import type { BenchResult } from './bench-result.js';
import { percentile } from './latency.js';

/**
 * The BDS's PGlite in its own thread (BdsDatabase → knex-pglite → PgliteThread → worker) against
 * PGlite on the calling thread as it ran before (knex-pglite → PGlite), same data, same run:
 * - latency of a point read and of a 1,000-row read (p50/p99, round-robin so load hits both);
 * - the event loop's longest run without turning (main-thread CPU) during a whole-table
 *   aggregate — what the thread is for: the loop keeps serving while PGlite works.
 */
const ROWS = 200_000;
const POINT_RUNS = 2_000;
const RANGE_RUNS = 200;

interface Target {
  name: string;
  knex: Knex;
  close(): Promise<void>;
}

async function inThread(): Promise<Target> {
  const pglite = new PGlite({ parsers: pgliteParsers() });
  await pglite.waitReady;
  await pglite.exec(`SET TIME ZONE 'UTC'`);
  const knex = knexFactory({ client: ClientPGLite as unknown as typeof Knex.Client, connection: { pglite } as unknown as Knex.StaticConnectionConfig, useNullAsDefault: true });
  return { name: 'in-thread PGlite', knex, close: () => knex.destroy() };
}

async function ownThread(): Promise<Target> {
  const db = await BdsDatabase.open({ url: null, pgliteDir: 'memory://' });
  return { name: 'PGlite thread', knex: db.knex, close: () => db.close() };
}

async function load(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE probe AS SELECT g, md5(g::text) AS s, g % 1000 AS k FROM generate_series(1, ${ROWS}) g`);
  await knex.raw(`CREATE UNIQUE INDEX probe_g ON probe (g)`);
  await knex.raw(`VACUUM (ANALYZE) probe`);
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

export async function run(): Promise<BenchResult[]> {
  const targets = [await inThread(), await ownThread()];
  try {
    for (const t of targets) await load(t.knex);
    const point = targets.map(() => [] as number[]);
    const range = targets.map(() => [] as number[]);
    for (let i = 0; i < POINT_RUNS; i++) {
      for (const [j, t] of targets.entries()) point[j]!.push(await timed(() => t.knex.raw(`SELECT g, s FROM probe WHERE g = ?`, [1 + ((i * 7919) % ROWS)])));
    }
    for (let i = 0; i < RANGE_RUNS; i++) {
      const from = 1 + ((i * 104_729) % (ROWS - 1_000));
      for (const [j, t] of targets.entries()) range[j]!.push(await timed(() => t.knex.raw(`SELECT g, s, k FROM probe WHERE g >= ? ORDER BY g LIMIT 1000`, [from])));
    }
    const bursts: number[] = [];
    for (const t of targets) {
      const watch = new LoopBurstWatch();
      await t.knex.raw(`SELECT count(DISTINCT s) AS n, sum(g) AS total FROM probe`);
      bursts.push(watch.maxBurstMs);
      watch.stop();
    }
    for (const list of [...point, ...range]) list.sort((a, b) => a - b);
    const [base, thread] = targets;
    const results: BenchResult[] = [];
    const pair = (name: string, unit: string, value: number, baseline: number, target?: string) =>
      results.push({ name, value, unit, baseline: { name: base!.name, value: baseline }, ratio: baseline > 0 ? value / baseline : undefined, ...(target ? { target } : {}) });
    pair(`point read p50, ${thread!.name}`, 'ms', percentile(point[1]!, 50), percentile(point[0]!, 50));
    pair(`point read p99, ${thread!.name}`, 'ms', percentile(point[1]!, 99), percentile(point[0]!, 99));
    pair(`1,000-row read p50, ${thread!.name}`, 'ms', percentile(range[1]!, 50), percentile(range[0]!, 50));
    pair(`1,000-row read p99, ${thread!.name}`, 'ms', percentile(range[1]!, 99), percentile(range[0]!, 99));
    pair(`loop burst in a ${ROWS / 1000}k-row aggregate, ${thread!.name}`, 'ms CPU', bursts[1]!, bursts[0]!, '< 40 ms');
    return results;
  } finally {
    for (const t of targets) await t.close();
  }
}
