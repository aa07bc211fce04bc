import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeTxResultData } from '../../../core/chain/abci-value.js';
import { ChainNode } from '../../../core/chain/node.js';
import { encodeTransaction, signTransaction } from '../../../core/chain/transaction.js';
import type { BdsService } from '../../../plugins/bds/bds-service.js';
import { ChainBlockSource } from '../../../plugins/bds/block/chain-block-source.js';
import { genesisEntries } from '../../../plugins/bds/block/payload-from-rpc.js';
import { Devnet, type DevAccount } from '../../../plugins/devnet/index.js';
import { forEachDatabase } from '../../support/databases.js';
import { openService, q, waitFor, waitIndexed } from './support/bds-harness.js';

/** Against the in-process devnet (`new ChainNode(devnet.rpc)`): the index must equal what the node serves. */
describe('BDS following the devnet', function () {
  this.timeout(180_000);

  forEachDatabase((target) => {
    let devnet: Devnet;
    let node: ChainNode;
    let home: string;
    let service: BdsService | null = null;

    beforeEach(async function () {
      home = mkdtempSync(join(tmpdir(), 'chain-bds-devnet-'));
      devnet = await Devnet.open({ home, accounts: 3 });
      node = new ChainNode(devnet.rpc);
    });
    afterEach(async function () {
      await service?.stop().catch(() => undefined);
      service = null;
      await devnet.close();
      rmSync(home, { recursive: true, force: true });
    });

    async function transfer(from: DevAccount, to: string, amount: string): Promise<{ hash: string; height: number }> {
      const nonce = Number((await node.query(`/get_next_nonce/${from.address}`)).value?.text ?? '0');
      const signed = signTransaction({ chain_id: devnet.chainId, chi_supplied: 5000, contract: 'currency', function: 'transfer', kwargs: { amount: { __fixed__: amount }, to }, nonce, sender: from.address }, from.privateKey);
      const r = await node.broadcastTxCommit(encodeTransaction(signed).hex);
      assert.equal(r.check_tx.code, 0, r.check_tx.log);
      return { hash: r.hash, height: Number(r.height) };
    }

    /** Every height 0..latest is indexed once, with the node's block hash, app hash and executed transactions. */
    async function assertIndexEqualsNode(s: BdsService): Promise<void> {
      const latest = Number((await node.status()).sync_info.latest_block_height);
      await waitIndexed(s, latest, 60_000);
      const rows = (await s.db.knex.raw(`SELECT height, block_hash, app_hash, tx_count FROM blocks ORDER BY height`)).rows as any[];
      assert.deepEqual(rows.map((r) => Number(r.height)), Array.from({ length: latest + 1 }, (_, i) => i));
      for (let h = 1; h <= latest; h++) {
        const [block, results] = await Promise.all([node.block(h), node.blockResults(h)]);
        assert.equal(rows[h].block_hash, block.block_id.hash.toUpperCase());
        assert.equal(rows[h].app_hash, block.block.header.app_hash.toUpperCase());
        const executed = (results.txs_results ?? []).filter((r) => decodeTxResultData(r.data).kind === 'execution').length;
        assert.equal(Number(rows[h].tx_count), executed, `transactions of block ${h}`);
      }
      const genesis = genesisEntries((await node.genesis()).genesis.app_state);
      const g = await q(s, '/txs_for_block/0');
      assert.equal(g[0].tx_hash, 'GENESIS');
      assert.equal(g[0].result.genesis_entries, genesis.length);
    }

    it('indexes genesis, transfers and failures exactly as the node reports them', async function () {
      const [alice, bob] = devnet.accounts();
      service = await openService(target.fresh(), new ChainBlockSource(node));
      await service.prepare();
      service.start();
      const sent = await transfer(alice!, bob!.address, '12.5');
      const failed = await transfer(bob!, alice!.address, '-1'); // the contract refuses: a failed, indexed transaction
      await waitFor(async () => ((await q(service!, '/bds_status')).indexed.indexed_height ?? -1) >= failed.height, 30_000, 'indexed');
      const tx = await q(service, `/tx/${sent.hash}`);
      const rpc = await node.tx(sent.hash);
      const out = decodeTxResultData(rpc.tx_result.data);
      assert.equal(out.kind, 'execution');
      assert.equal(tx.block_height, sent.height);
      assert.equal(tx.success, true);
      assert.equal(tx.sender, alice!.address);
      assert.equal(String(tx.chi_used), String(out.kind === 'execution' ? out.output.chi_used : ''));
      const writes = await q(service, `/state_for_tx/${sent.hash}`);
      assert.deepEqual(writes.map((w: any) => w.key), out.kind === 'execution' ? out.output.state.map((s) => s.key) : []);
      const events = await q(service, `/events_for_tx/${sent.hash}`);
      assert.equal(events[0].event, 'Transfer');
      const bad = await q(service, `/tx/${failed.hash}`);
      assert.equal(bad.success, false);
      assert.equal(typeof bad.result, 'string');
      const status = await q(service, '/bds_status');
      assert.equal(status.current_block_height, Number((await node.status()).sync_info.latest_block_height));
      await assertIndexEqualsNode(service);
    });

    it('catches up blocks made while it was stopped, then follows live', async function () {
      const [alice, bob] = devnet.accounts();
      const db = target.fresh();
      await transfer(alice!, bob!.address, '1');
      service = await openService(db, new ChainBlockSource(node));
      service.start();
      await waitIndexed(service, Number((await node.status()).sync_info.latest_block_height));
      await service.stop();
      for (let i = 0; i < 4; i++) await transfer(bob!, alice!.address, String(i + 1));
      await devnet.mine(); // an empty block too
      service = await openService(db, new ChainBlockSource(node), { catchupPollMs: 600_000 });
      service.start();
      await assertIndexEqualsNode(service);
      const live = await transfer(alice!, bob!.address, '2');
      await waitIndexed(service, live.height, 60_000); // the new-block subscription, not the 10-minute poll
      assert.equal((await q(service, `/tx/${live.hash}`)).block_height, live.height);
    });
  });
});
