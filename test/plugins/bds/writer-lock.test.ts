import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import pg from 'pg';
import type { BdsService } from '../../../plugins/bds/bds-service.js';
import { BdsDatabase } from '../../../plugins/bds/database/bds-database.js';
import { Spool } from '../../../plugins/bds/follower/spool.js';
import { WriterLock, WriterLockHeldError, WriterLockLostError } from '../../../plugins/bds/follower/writer-lock.js';
import { BUILTIN_INDEXERS } from '../../../plugins/bds/indexers/builtin-indexers.js';
import { reindex } from '../../../plugins/bds/maintenance/reindex.js';
import { forEachDatabase, TEST_POSTGRES_URL, type TestDatabase } from '../../support/databases.js';
import { openService, q, waitFor, waitIndexed } from './support/bds-harness.js';
import { SyntheticChain } from './support/synthetic-chain.js';

/**
 * Issue #19 item 3: terminating the writer lock's session (an idle_session_timeout, a firewall,
 * pg_terminate_backend) left the worker writing without the lock, and `chain-bds-reindex
 * --reset` ran beside it. PostgreSQL server only: PGlite's lock is its data directory's lock
 * file, held by the one process that opened it, with no session another process could end.
 */
const LOCK_CLASS = 0x62647300;

/** The backend holding the BDS writer lock of `schema`, or null. */
async function lockHolder(admin: pg.Client, schema: string): Promise<number | null> {
  const r = await admin.query(
    `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1::bigint::oid AND objsubid = 2
       AND objid = ((hashtext($2)::bigint + 4294967296) % 4294967296)::oid`,
    [LOCK_CLASS, schema],
  );
  return r.rows[0]?.pid ?? null;
}

describe('BDS writer lock that cannot be lost silently (issue #19)', function () {
  this.timeout(120_000);

  forEachDatabase((target) => {
    let service: BdsService | null = null;
    let admin: pg.Client | null = null;
    const extra: Array<{ close(): Promise<void> }> = [];
    beforeEach(async function () {
      if (target.kind !== 'postgres') this.skip(); // PGlite: one process owns the data directory; nothing to lose
      admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await admin.connect();
    });
    afterEach(async () => {
      await service?.stop().catch(() => undefined);
      service = null;
      for (const x of extra.splice(0)) await x.close().catch(() => undefined);
      await admin?.end().catch(() => undefined);
      admin = null;
    });

    async function running(db: TestDatabase, chain: SyntheticChain): Promise<BdsService> {
      service = await openService(db, chain, { retryDelayMs: 100, catchupPollMs: 100 });
      await service.prepare();
      service.start();
      await waitIndexed(service, chain.height);
      return service;
    }

    it('a terminated lock session is noticed: verify() fails and the loss is reported once', async function () {
      const db = target.fresh();
      const handle = await BdsDatabase.open({ url: db.url, pgliteDir: null, schema: db.schema });
      extra.push(handle);
      const losses: WriterLockLostError[] = [];
      const lock = new WriterLock(handle, { onLost: (e) => losses.push(e), checkIntervalMs: 200 });
      await lock.ensure();
      extra.push({ close: () => lock.release() });
      const pid = await lockHolder(admin!, db.schema);
      assert.ok(pid, 'the lock is held');
      await admin!.query('SELECT pg_terminate_backend($1, 5000)', [pid]);
      await assert.rejects(() => lock.verify(), WriterLockLostError);
      await waitFor(() => losses.length > 0, 5_000, 'onLost');
      assert.equal(losses.length, 1);
      assert.match(losses[0]!.message, /writer lock .* was lost/);
      assert.equal(lock.held, false);
    });

    it('a write whose lock session died is rolled back before commit', async function () {
      const chain = new SyntheticChain();
      chain.mine(2);
      const s = await running(target.fresh(), chain);
      await s.follower.stop(); // hold the writer still; write by hand below
      chain.mine(1);
      await admin!.query('SELECT pg_terminate_backend($1, 5000)', [await lockHolder(admin!, s.db.schema)]);
      await assert.rejects(() => s.writer.write([chain.payload(3)]), WriterLockLostError);
      assert.equal(Number((await s.db.knex.raw('SELECT max(height) AS h FROM blocks')).rows[0].h), 2, 'block 3 was not committed');
    });

    it('losing the lock to another writer stops writing at once with writer_lock_lost; it resumes when the lock is free', async function () {
      const chain = new SyntheticChain();
      chain.mine(3);
      const s = await running(target.fresh(), chain);
      const pid = await lockHolder(admin!, s.db.schema);
      // Another writer queues for the lock first, so when the worker's session dies the lock goes
      // to it, not to the worker reconnecting (a try-lock after the kill races the worker and, on
      // a quiet machine, loses).
      const thief = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await thief.connect();
      extra.push({ close: () => thief.end() });
      const thiefPid = (await thief.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      const taken = thief.query('SELECT pg_advisory_lock($1, hashtext($2))', [LOCK_CLASS, s.db.schema]);
      await waitFor(async () => (await admin!.query('SELECT 1 FROM pg_locks WHERE locktype = $1 AND pid = $2 AND NOT granted', ['advisory', thiefPid])).rowCount === 1, 5_000, 'the other writer to queue for the lock');
      assert.equal((await admin!.query('SELECT pg_terminate_backend($1, 5000) AS killed', [pid])).rows[0].killed, true);
      await taken;
      assert.equal(await lockHolder(admin!, s.db.schema), thiefPid, 'the other writer holds the lock');
      chain.mine(4);
      await waitFor(async () => (await q(s, '/bds_status')).alerts.some((a: any) => a.code === 'writer_lock_lost'), 10_000, 'writer_lock_lost in /bds_status');
      assert.ok((await s.status.activeAlertCodes()).has('writer_lock_lost'), 'and on /metrics (bds_alert{code="writer_lock_lost"})');
      await new Promise((r) => setTimeout(r, 600));
      assert.equal(Number((await s.db.knex.raw('SELECT max(height) AS h FROM blocks')).rows[0].h), 3, 'nothing written without the lock');
      assert.equal((await q(s, '/bds_status')).indexed.indexed_height, 3);

      await thief.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_CLASS, s.db.schema]);
      await waitIndexed(s, 7);
      assert.ok(!(await q(s, '/bds_status')).alerts.some((a: any) => a.code === 'writer_lock_lost'), 'the alert clears once the lock is back');
    });

    it('after its lock session is killed the worker re-acquires the lock, so chain-bds-reindex --reset still refuses', async function () {
      const chain = new SyntheticChain();
      chain.mine(3);
      const fresh = target.fresh();
      const s = await running(fresh, chain);
      const before = await lockHolder(admin!, s.db.schema);
      await admin!.query('SELECT pg_terminate_backend($1, 5000)', [before]);
      await waitFor(async () => {
        const now = await lockHolder(admin!, s.db.schema);
        return now !== null && now !== before;
      }, 10_000, 'the worker to take the lock again');
      const other = await BdsDatabase.open({ url: fresh.url, pgliteDir: null, schema: fresh.schema });
      extra.push(other);
      await assert.rejects(
        () => reindex({ db: other, indexers: BUILTIN_INDEXERS, spool: new Spool(join(fresh.home, 'reindex-spool')), source: chain, reset: true }),
        WriterLockHeldError,
      );
      chain.mine(2);
      await waitIndexed(s, 5);
    });
  });
});
