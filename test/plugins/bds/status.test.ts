import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { BdsService } from '../../../plugins/bds/bds-service.js';
import { Spool } from '../../../plugins/bds/follower/spool.js';
import { forEachDatabase } from '../../support/databases.js';
import { openService, q, waitFor, waitIndexed } from './support/bds-harness.js';
import { SyntheticChain } from './support/synthetic-chain.js';

/** `/bds_status` alerts (bds.md §7): each code with its level, threshold and value. */
describe('BDS status alerts', function () {
  this.timeout(60_000);

  forEachDatabase((target) => {
    let service: BdsService | null = null;
    afterEach(async () => {
      await service?.stop().catch(() => undefined);
      service = null;
    });

    it('warns when the spool is large and the disk nearly full', async function () {
      const db = target.fresh();
      const chain = new SyntheticChain();
      chain.mine(4);
      const spool = new Spool(join(db.home, 'bds-spool'));
      for (let h = 1; h <= 4; h++) spool.write(chain.payload(h));
      service = await openService(db, chain, { spoolWarnEntries: 3, spoolWarnBytes: 100, diskFreeWarnBytes: Number.MAX_SAFE_INTEGER });
      const s = await q(service, '/bds_status');
      const byCode = Object.fromEntries((s.alerts as any[]).map((a) => [a.code, a]));
      assert.deepEqual({ ...byCode.spool_entries_high }, { level: 'warning', code: 'spool_entries_high', message: 'BDS spool entry count exceeded warning threshold', threshold: 3, value: 4 });
      assert.equal(byCode.spool_bytes_high.threshold, 100);
      assert.equal(byCode.spool_bytes_high.value, s.spool_total_bytes);
      assert.equal(byCode.disk_free_low.level, 'warning');
      assert.equal(byCode.disk_free_low.value, s.storage.filesystem_free_bytes);
      assert.equal(s.catching_up, true);
      assert.equal(s.worker_running, false, 'not started yet');
    });

    it('raises indexed_height_ahead when the node reports a lower height than the index', async function () {
      const db = target.fresh();
      const chain = new SyntheticChain();
      chain.mine(5);
      service = await openService(db, chain);
      await service.prepare();
      service.start();
      await waitIndexed(service, 5);
      await service.stop();
      const shrunk = new SyntheticChain();
      shrunk.mine(2); // the node was reset to an earlier height
      service = await openService(db, shrunk);
      service.start();
      await waitFor(async () => (await q(service!, '/bds_status')).current_block_height === 2, 60_000, 'node height seen');
      const s = await q(service, '/bds_status');
      assert.equal(s.index_height_delta, -3);
      assert.equal(s.height_lag, 0);
      const ahead = (s.alerts as any[]).find((a) => a.code === 'indexed_height_ahead');
      assert.deepEqual({ ...ahead }, {
        level: 'error', code: 'indexed_height_ahead', message: 'BDS indexed height is ahead of the current chain height',
        current_block_height: 2, indexed_height: 5, value: 3,
      });
    });
  });
});
