import pg from 'pg';
import { parseQueryPath, queryRouteOf, type QueryPathDefinition } from '../core/query/query-path.js';
import { BdsDatabase } from '../plugins/bds/database/bds-database.js';
import { prepareSchema } from '../plugins/bds/database/bds-schema.js';
import { BdsReadReplica } from '../plugins/bds/database/read-replica.js';
import { blockPaths } from '../plugins/bds/query/block-paths.js';
import { replicationUnavailableReason, startReplicationPair } from '../test/support/pg-replication.js';
import type { BenchResult } from './bench-result.js';

/**
 * What a BDS read replica costs, on a real streaming pair made for the run (initdb +
 * pg_basebackup -R, test/support/pg-replication.ts), each figure against the primary in the same
 * run:
 * - replication delay: a committed row until a reader on the standby sees it;
 * - a caught-up read (`/block/<h>` through the query path): the replica's pool against the
 *   primary's (the height check costs nothing once the copy is known to have the height);
 * - read-after-write: `/block/<h>` asked right after the writer committed h, which on the
 *   replica waits for replay (asked again after 1, 2, 4 … at most 25 ms) and on the primary does not.
 */
const BLOCKS = 2000;
const RUNS = 300;
const WRITES = 60;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const sortedOf = (xs: number[]) => [...xs].sort((a, b) => a - b);

async function insertBlock(knex: BdsDatabase['knex'], h: number): Promise<void> {
  await knex.raw(`INSERT INTO blocks SELECT ?, upper(encode(sha256(('b' || ?)::bytea), 'hex')), 1767225600000000000 + ?::bigint * 1000000000,
    to_timestamp(1767225600 + ?), 0, upper(encode(sha256(('a' || ?)::bytea), 'hex')), to_timestamp(1767225600 + ?)`, [h, h, h, h, h, h]);
}

export async function run(): Promise<BenchResult[]> {
  const reason = replicationUnavailableReason();
  if (reason) throw new Error(`bds-read-replica needs a PostgreSQL streaming pair: ${reason}`);
  const pair = await startReplicationPair();
  const schema = 'bench_replica';
  const primary = await BdsDatabase.open({ url: pair.primaryUrl, schema });
  const replicaDb = await BdsDatabase.open({ url: pair.standbyUrl, schema, readOnly: true, applicationName: 'chain-bds-read' });
  try {
    await primary.knex.raw(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await prepareSchema(primary);
    await primary.knex.raw(`INSERT INTO blocks SELECT h, upper(encode(sha256(('b' || h)::bytea), 'hex')), 1767225600000000000 + h::bigint * 1000000000,
      to_timestamp(1767225600 + h), 0, upper(encode(sha256(('a' || h)::bytea), 'hex')), to_timestamp(1767225600 + h) FROM generate_series(0, ${BLOCKS - 1}) h`);
    let written = BLOCKS - 1;
    const replica = new BdsReadReplica(replicaDb, () => written, { waitMs: 5000, pollMs: 25 });
    const deadline = Date.now() + 30_000;
    while (!(await replica.waitForHeight(written, 1000))) {
      // until the standby has replayed the schema too (before that the query fails and the wait ends at once)
      if (Date.now() > deadline) throw new Error('the standby never replayed the initial blocks');
      await new Promise((r) => setTimeout(r, 50));
    }
    const onPrimary = blockPaths({ knex: () => primary.knex, awaitHeight: async () => undefined });
    const onReplica = blockPaths({ knex: () => replicaDb.knex, awaitHeight: (h) => replica.awaitHeight(h) });
    const block = (paths: QueryPathDefinition[]) => paths.find((d) => queryRouteOf(d.pattern) === 'block')!;
    const ask = async (paths: QueryPathDefinition[], h: number) => {
      const answer = await block(paths).handler(parseQueryPath(`/block/${h}`), {});
      if (!answer.text || answer.text === 'null') throw new Error(`/block/${h} answered no block`);
    };

    // 1. Replication delay of one commit, as a separate reader on the standby sees it.
    const watcher = new pg.Client({ connectionString: pair.standbyUrl });
    await watcher.connect();
    const delays: number[] = [];
    try {
      for (let i = 0; i < WRITES; i++) {
        const h = ++written;
        await insertBlock(primary.knex, h);
        const committed = performance.now();
        for (;;) {
          const r = await watcher.query(`SELECT 1 FROM ${schema}.blocks WHERE height = $1`, [h]);
          if (r.rowCount) break;
        }
        delays.push(performance.now() - committed);
      }
    } finally {
      await watcher.end();
    }

    // 2. Caught-up reads, round-robin so the machine's noise hits both alike.
    const times = { primary: [] as number[], replica: [] as number[] };
    for (let i = 0; i < 20; i++) {
      await ask(onPrimary, i);
      await ask(onReplica, i);
    }
    for (let i = 0; i < RUNS; i++) {
      const h = (i * 7919) % BLOCKS;
      let t = performance.now();
      await ask(onPrimary, h);
      times.primary.push(performance.now() - t);
      t = performance.now();
      await ask(onReplica, h);
      times.replica.push(performance.now() - t);
    }

    // 3. Read-after-write: the height the writer just committed.
    const raw = { primary: [] as number[], replica: [] as number[] };
    for (let i = 0; i < WRITES; i++) {
      const h = ++written;
      await insertBlock(primary.knex, h);
      let t = performance.now();
      await ask(onPrimary, h);
      raw.primary.push(performance.now() - t);
      t = performance.now();
      await ask(onReplica, h);
      raw.replica.push(performance.now() - t);
    }

    const d = sortedOf(delays);
    const [p, r] = [sortedOf(times.primary), sortedOf(times.replica)];
    const [wp, wr] = [sortedOf(raw.primary), sortedOf(raw.replica)];
    return [
      { name: 'replication delay: commit → visible on the standby p50', value: percentile(d, 50), unit: 'ms' },
      { name: 'replication delay: commit → visible on the standby p95', value: percentile(d, 95), unit: 'ms' },
      { name: '/block/<h> caught up, via the replica p50', value: percentile(r, 50), unit: 'ms', baseline: { name: 'via the primary', value: percentile(p, 50) }, ratio: percentile(r, 50) / percentile(p, 50), target: 'ratio ≤ 1.2' },
      { name: '/block/<h> caught up, via the replica p99', value: percentile(r, 99), unit: 'ms', baseline: { name: 'via the primary', value: percentile(p, 99) }, ratio: percentile(r, 99) / percentile(p, 99), target: 'informational' },
      { name: '/block/<h> just written (read-after-write), via the replica p50', value: percentile(wr, 50), unit: 'ms', baseline: { name: 'via the primary', value: percentile(wp, 50) }, ratio: percentile(wr, 50) / percentile(wp, 50), target: 'informational: replay + polls (1, 2, 4 … 25 ms)' },
      { name: '/block/<h> just written (read-after-write), via the replica p95', value: percentile(wr, 95), unit: 'ms', baseline: { name: 'via the primary', value: percentile(wp, 95) }, ratio: percentile(wr, 95) / percentile(wp, 95), target: 'informational' },
    ];
  } finally {
    await replicaDb.close();
    await primary.close();
    await pair.stop();
  }
}
