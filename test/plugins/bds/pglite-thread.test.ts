import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BdsDatabase } from '../../../plugins/bds/database/bds-database.js';
import { prepareSchema } from '../../../plugins/bds/database/bds-schema.js';
import { Spool } from '../../../plugins/bds/follower/spool.js';
import { BUILTIN_INDEXERS } from '../../../plugins/bds/indexers/builtin-indexers.js';
import { reindex } from '../../../plugins/bds/maintenance/reindex.js';
import { LoopBurstWatch } from '../../support/main-thread-clock.js';
import { SyntheticChain } from './support/synthetic-chain.js';

/**
 * The embedded database works in a thread of its own: while PGlite runs initdb on a fresh
 * directory, the BDS migrations, a reindex or a whole-table aggregate, this process's event loop
 * never runs longer than BURST_MS of CPU without turning (its own work is posting statements and
 * taking their rows), although PGlite spends seconds of CPU meanwhile. Measured in CPU of the
 * main thread, so a busy machine neither hides a block nor fakes one. In-thread PGlite held the
 * loop for the whole of initdb (seconds) and for each statement.
 */
const BURST_MS = 40;

function processCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1_000;
}

describe('bds: PGlite runs off the event loop', function () {
  this.timeout(600_000);
  let home: string;
  let db: BdsDatabase | null = null;
  let watch: LoopBurstWatch | null = null;

  before(() => {
    home = mkdtempSync(join(tmpdir(), 'chain-bds-pglite-thread-'));
  });
  afterEach(() => watch?.stop());
  after(async () => {
    await db?.close();
    rmSync(home, { recursive: true, force: true });
  });

  /** Runs `work` under a fresh watch; returns the longest loop burst and the process CPU it took (all threads). */
  async function measured(work: () => Promise<void>): Promise<{ burstMs: number; cpuMs: number }> {
    watch?.stop();
    watch = new LoopBurstWatch();
    const cpu = processCpuMs();
    await work();
    const burstMs = watch.maxBurstMs;
    watch.stop();
    return { burstMs, cpuMs: processCpuMs() - cpu };
  }

  it('creates a fresh database (initdb) and applies the BDS migrations without holding the loop', async () => {
    const dir = join(home, 'bds');
    assert.ok(BdsDatabase.isFreshPgliteDir(dir));
    const { burstMs, cpuMs } = await measured(async () => {
      db = await BdsDatabase.open({ url: null, pgliteDir: dir, background: true });
      await db.ready;
      await prepareSchema(db, BUILTIN_INDEXERS);
    });
    // The work happened (initdb alone is over a second of CPU), just not on this loop.
    assert.ok(cpuMs > 500, `initdb and the migrations took ${cpuMs} ms of CPU`);
    assert.ok(burstMs < BURST_MS, `the loop ran ${burstMs.toFixed(1)} ms without turning while PGlite initialised (${cpuMs.toFixed(0)} ms of CPU in all)`);
    assert.equal(BdsDatabase.isFreshPgliteDir(dir), false, 'the data directory is a PostgreSQL one');
  });

  it('answers a whole-table aggregate without holding the loop', async () => {
    await db!.knex.raw(`CREATE TABLE load_probe AS SELECT g, md5(g::text) AS s FROM generate_series(1, 400000) g`);
    let answer: { n: number; distinct: number; total: number } | undefined;
    const { burstMs, cpuMs } = await measured(async () => {
      const r = await db!.knex.raw(`SELECT count(*) AS n, count(DISTINCT s) AS distinct, sum(g) AS total FROM load_probe`);
      answer = r.rows[0];
    });
    assert.deepEqual(answer, { n: 400_000, distinct: 400_000, total: 80_000_200_000 });
    assert.ok(cpuMs > 100, `the aggregate took ${cpuMs} ms of CPU`);
    assert.ok(burstMs < BURST_MS, `the loop ran ${burstMs.toFixed(1)} ms without turning during a ${cpuMs.toFixed(0)} ms aggregate`);
  });

  it('reindexes a chain (COPY batches, every indexer) with the database work off the loop', async () => {
    const chain = new SyntheticChain({ txsPerBlock: 3 });
    chain.mine(60);
    const spool = new Spool(join(home, 'bds-spool'));
    let result: Awaited<ReturnType<typeof reindex>> | undefined;
    const { burstMs } = await measured(async () => {
      result = await reindex({ db: db!, indexers: BUILTIN_INDEXERS, spool, source: chain, batchMaxBlocks: 10 });
    });
    assert.equal(result!.indexed_height, 60);
    const stored = await db!.knex.raw(`SELECT (SELECT max(height) FROM blocks) AS h, (SELECT count(*) FROM transactions WHERE block_height > 0) AS n`);
    // 3 per block, and the state patch's pseudo-transaction
    assert.deepEqual(stored.rows[0], { h: 60, n: 181 }, 'the blocks and transactions the reindex wrote are in the tables');
    assert.ok(burstMs < BURST_MS, `the loop ran ${burstMs.toFixed(1)} ms without turning during the reindex`);
  });

  it('keeps the database\'s SQLSTATE on errors and leaves the statement out of them', async () => {
    const err = await db!.knex.raw(`INSERT INTO blocks SELECT * FROM blocks WHERE height = ?`, [1]).then(() => null, (e: unknown) => e as { code?: string; message: string; query?: unknown; params?: unknown });
    assert.ok(err, 'a duplicate block is refused');
    assert.equal(err.code, '23505');
    assert.equal(err.query, undefined);
    assert.equal(err.params, undefined);
  });

  it('closes: the thread ends and later statements fail with "PGlite is closed", the directory opens again', async () => {
    const thread = db!.pgliteInstance!;
    await db!.close();
    db = null;
    assert.equal(thread.closed, true);
    await assert.rejects(() => thread.query('SELECT 1'), /PGlite is closed/);
    db = await BdsDatabase.open({ url: null, pgliteDir: join(home, 'bds') });
    const r = await db.knex.raw(`SELECT count(*) AS n FROM load_probe`);
    assert.equal(r.rows[0].n, 400_000, 'the data written through the thread is on disk');
  });
});
