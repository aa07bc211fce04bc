import { strict as assert } from 'node:assert';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BdsService } from '../../../plugins/bds/bds-service.js';
import { Spool } from '../../../plugins/bds/follower/spool.js';
import { forEachDatabase } from '../../support/databases.js';
import { openService, q, waitFor, waitIndexed } from './support/bds-harness.js';
import { assertMatchesChain } from './support/index-fingerprint.js';
import { outageFor } from './support/outage.js';
import { SyntheticChain } from './support/synthetic-chain.js';

describe('BDS follower (bds.md §4)', function () {
  this.timeout(120_000);

  forEachDatabase((target) => {
    let service: BdsService | null = null;
    afterEach(async () => {
      await service?.stop().catch(() => undefined);
      service = null;
    });

    it('follows new blocks in contiguous order; /bds_status shows read-after-write', async function () {
      const chain = new SyntheticChain();
      service = await openService(target.fresh(), chain);
      await service.prepare();
      service.start();
      await waitIndexed(service, 0);
      for (let i = 0; i < 5; i++) {
        chain.mine(1);
        const tx = chain.payload(chain.height).transactions[0]!;
        await waitFor(async () => (await q(service!, '/bds_status')).indexed.indexed_height >= chain.height, 10_000, 'indexed height');
        assert.equal((await q(service, `/tx/${tx.tx_result.hash}`)).block_height, chain.height, 'visible once /bds_status reports its block');
      }
      await assertMatchesChain(service.db.knex, chain);
    });

    it('wakes on the new-block subscription without waiting for the poll', async function () {
      const chain = new SyntheticChain();
      chain.mine(2);
      service = await openService(target.fresh(), chain, { catchupPollMs: 600_000 });
      await service.prepare();
      service.start();
      await waitIndexed(service, 2);
      const started = Date.now();
      chain.mine(1);
      // Polling would take 600 s: a minute is "at once" even on a busy machine.
      await waitIndexed(service, 3, 60_000);
      assert.ok(Date.now() - started < 60_000);
    });

    it('catches up a long backlog in batches', async function () {
      const chain = new SyntheticChain({ txsPerBlock: 10 });
      chain.mine(300);
      service = await openService(target.fresh(), chain, { batchMaxBlocks: 50 });
      await service.prepare();
      service.start();
      await waitIndexed(service, 300, 60_000);
      await assertMatchesChain(service.db.knex, chain);
      assert.equal(service.spool.count, 0, 'spool drained');
    });

    it('replays the spool at start, without the node', async function () {
      const db = target.fresh();
      const chain = new SyntheticChain();
      chain.mine(3);
      service = await openService(db, chain);
      await service.prepare();
      service.start();
      await waitIndexed(service, 3);
      await service.stop();
      chain.mine(4);
      const spool = new Spool(join(db.home, 'bds-spool'));
      for (let h = 4; h <= 7; h++) spool.write(chain.payload(h));
      spool.write(chain.payload(2)); // stale: already indexed, dropped at start
      chain.available = false;
      const fetched = chain.fetchCount;
      service = await openService(db, chain);
      service.start();
      await waitIndexed(service, 7);
      assert.equal(chain.fetchCount, fetched, 'nothing fetched: the spool had it all');
      chain.available = true;
      await assertMatchesChain(service.db.knex, chain);
      await waitFor(() => readdirSync(join(db.home, 'bds-spool')).filter((f) => f.endsWith('.json')).length === 0, 5_000, 'spool emptied');
    });

    it('keeps spooling while the database is down and drains in order when it returns', async function () {
      const outage = await outageFor(target.fresh());
      try {
        const chain = new SyntheticChain({ txsPerBlock: 5 });
        chain.mine(3);
        service = await openService(outage.db, chain, { acquireTimeoutMs: 500, queueMaxSize: 4 });
        await service.prepare();
        service.start();
        await waitIndexed(service, 3);
        await outage.down(service);
        chain.mine(12);
        await waitFor(() => service!.spool.count === 12, 20_000, 'all new blocks spooled');
        const status = await service.status.status();
        assert.equal(status.db_status, 'error');
        assert.ok((status.alerts as any[]).some((a) => a.code === 'db_unavailable' && a.level === 'error'));
        assert.equal(status.spool_pending_count, 12);
        assert.ok((status.queue_depth as number) <= 4, 'memory queue bounded; the spool holds the rest');
        const files = readdirSync(service.spool.dir).filter((f) => f.endsWith('.json')).sort();
        assert.equal(files[0], `${'4'.padStart(20, '0')}-${chain.payload(4).block_meta.hash}.json`);
        await outage.up(service);
        await waitIndexed(service, 15, 30_000);
        assert.equal(service.spool.count, 0);
        await assertMatchesChain(service.db.knex, chain);
        const after = await service.status.status();
        assert.equal(after.db_status, 'ok');
        assert.deepEqual(after.alerts, []);
      } finally {
        await outage.close();
      }
    });

    it('a cold start with the database down spools from genesis and drains when it is back', async function () {
      if (target.kind !== 'postgres') this.skip(); // PGlite is in-process: it cannot be down at start
      const outage = await outageFor(target.fresh());
      try {
        const chain = new SyntheticChain();
        chain.mine(5);
        await outage.down(undefined as unknown as BdsService); // the server proxy needs no service
        service = await openService(outage.db, chain, { acquireTimeoutMs: 500 });
        await assert.rejects(() => service!.prepare());
        service.start();
        await waitFor(() => service!.spool.count === 6, 20_000, 'heights 0..5 spooled while the database is down');
        await outage.up(service); // the worker prepares the schema itself once the database answers
        await waitIndexed(service, 5, 30_000);
        assert.equal(service.spool.count, 0);
        await assertMatchesChain(service.db.knex, chain);
      } finally {
        await outage.close();
      }
    });

    it('reports an unreachable node and resumes when it is back', async function () {
      const chain = new SyntheticChain();
      chain.mine(2);
      service = await openService(target.fresh(), chain);
      await service.prepare();
      service.start();
      await waitIndexed(service, 2);
      chain.available = false;
      chain.mine(3);
      await waitFor(async () => ((await q(service!, '/bds_status')).alerts as any[]).some((a) => a.code === 'fetch_failed'), 10_000, 'fetch alert');
      chain.available = true;
      await waitIndexed(service, 5);
    });

    it('lists pending spool files with /bds_spool', async function () {
      const db = target.fresh();
      const chain = new SyntheticChain();
      chain.mine(4);
      const spool = new Spool(join(db.home, 'bds-spool'));
      for (let h = 1; h <= 4; h++) spool.write(chain.payload(h));
      service = await openService(db, chain);
      const listing = await q(service, '/bds_spool/limit=2/offset=1');
      assert.deepEqual(listing.map((f: any) => f.block_height), [2, 3]);
      assert.deepEqual(Object.keys(listing[0]).sort(), ['app_hash', 'block_hash', 'block_height', 'block_time', 'file', 'size_bytes', 'state_patch_count', 'tx_count']);
      assert.equal(listing[1].state_patch_count, 0);
      assert.ok(existsSync(join(spool.dir, listing[0].file)));
      const status = await service.status.status();
      assert.equal(status.spool_pending_count, 4);
      assert.equal((status.spool_oldest_pending as any).block_height, 1);
      assert.equal((status.spool_newest_pending as any).block_height, 4);
    });

    it('refuses a block that does not extend the indexed chain', async function () {
      const db = target.fresh();
      const chainA = new SyntheticChain({ chainId: 'chain-a' });
      chainA.mine(3);
      service = await openService(db, chainA);
      await service.prepare();
      service.start();
      await waitIndexed(service, 3);
      await service.stop();
      const chainB = new SyntheticChain({ chainId: 'chain-b' });
      chainB.mine(5);
      service = await openService(db, chainB);
      service.start();
      await waitFor(async () => ((await q(service!, '/bds_status')).alerts as any[]).some((a) => a.code === 'block_identity_mismatch'), 10_000, 'mismatch alert');
      assert.equal(service.follower.indexedHeight, 3, 'nothing of the other chain written');
    });
  });
});
