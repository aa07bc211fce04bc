import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ChainDatetime } from '../../../../core/chain/values.js';
import type { DevAccount } from '../../../../plugins/devnet/node/devnet.js';
import { BlockOverlay, encodeStateText } from '../../../../plugins/devnet/node/state-reader.js';
import { StatePatches } from '../../../../plugins/devnet/node/state-patches.js';
import { StateStore } from '../../../../plugins/devnet/node/state-store.js';
import { decodeData, openDevnet, signedTx, tempHome, txParam, waitFor } from './devnet-fixture.js';

const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();

describe('devnet block production (transactions.md §7, cometbft-rpc.md §4-6)', function () {
  this.timeout(120_000);
  it('blockTimeMs > 0: a block per interval, empty or not, and transactions wait for the next one', async () => {
    const net = await openDevnet({ blockTimeMs: 60 });
    try {
      const [a, b] = net.devnet.accounts() as [DevAccount, DevAccount];
      const start = net.devnet.node.height;
      await waitFor(() => net.devnet.node.height >= start + 3, 5000, 'three interval blocks');
      const tx = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0, kwargs: { amount: 1, to: b.address } });
      const heightAtSend = net.devnet.node.height;
      const sync = await net.devnet.rpc.call<any>('broadcast_tx_sync', { tx: txParam(tx.hex) });
      assert.equal(sync.code, 0);
      // A bound on a hang, not on speed: the block-execution worker may still be loading the engine.
      const found = await waitFor(async () => (await net.devnet.rpc.call<any>('tx', { hash: Buffer.from(tx.hash, 'hex').toString('base64') }).catch(() => undefined)), 60_000, 'the tx');
      assert.equal(found.tx_result.code, 0);
      assert.ok(Number(found.height) > heightAtSend, 'it waited for the next tick');
      const times = await net.devnet.rpc.call<any>('blockchain', { minHeight: String(start + 1), maxHeight: String(start + 3) });
      // RFC 3339 with trailing zeros trimmed ("…40.5Z" < "…40.561Z"): compare at fixed nanosecond width.
      const stamps = times.block_metas.map((m: any) => nanosecondText(m.header.time)).reverse();
      assert.deepEqual(stamps, [...stamps].sort(), 'block times increase');
    } finally {
      await net.close();
    }
  });

  it('a transaction refused inside the block gets code 1 and {"error": …} and keeps its nonce unused', async () => {
    const net = await openDevnet({ config: { pending_nonce_reservation_ttl_seconds: 0.001 } });
    try {
      const [a, b] = net.devnet.accounts() as [DevAccount, DevAccount];
      net.devnet.node.producer.stop();
      const first = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0, kwargs: { amount: 1, to: b.address } });
      const twin = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0, kwargs: { amount: 2, to: b.address } });
      assert.equal((await net.devnet.rpc.call<any>('broadcast_tx_sync', { tx: txParam(first.hex) })).code, 0);
      await new Promise((r) => setTimeout(r, 5)); // the reservation expires, so CheckTx admits the twin
      assert.equal((await net.devnet.rpc.call<any>('broadcast_tx_sync', { tx: txParam(twin.hex) })).code, 0);
      const block = await net.devnet.mine();
      assert.equal(block.txs.length, 2);
      const [ok, refused] = block.txs_results;
      assert.equal(ok!.code, 0);
      assert.equal(refused!.code, 1);
      assert.deepEqual(refused!.events, []);
      assert.equal(Buffer.from(refused!.data!, 'base64').toString(), '{"error": "Invalid transaction in block: Transaction nonce is invalid. Expected 1, got 0"}');
      const again = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 1, kwargs: { amount: 3, to: b.address } });
      assert.equal((await net.devnet.rpc.call<any>('broadcast_tx_sync', { tx: txParam(again.hex) })).code, 0);
      assert.equal((await net.devnet.mine()).txs_results[0]!.code, 0);
    } finally {
      await net.close();
    }
  });

  it('a failing contract call is executed (status 1), charged, and consumes its nonce', async () => {
    const net = await openDevnet();
    try {
      const [a, b] = net.devnet.accounts() as [DevAccount, DevAccount];
      const tx = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0, kwargs: { amount: -5, to: b.address } });
      const r = await net.devnet.rpc.call<any>('broadcast_tx_commit', { tx: txParam(tx.hex) });
      assert.equal(r.tx_result.code, 1);
      const out = decodeData(r.tx_result.data);
      assert.equal(out.status, 1);
      assert.match(out.result, /^AssertionError\('.+'\)$/);
      assert.deepEqual(out.events, []);
      assert.equal(out.rewards, null);
      assert.deepEqual(out.state.map((s: any) => s.key), [`currency.balances:${a.address}`], 'only the fee write');
      assert.deepEqual(r.tx_result.events, [], 'no events for a failed transaction');
      const next = await net.devnet.rpc.call<any>('abci_query', { path: `/get_next_nonce/${a.address}` });
      assert.equal(Buffer.from(next.response.value, 'base64').toString(), '1');
    } finally {
      await net.close();
    }
  });

  it('tx_search by height, hash and event attribute; tx proofs verify against data_hash', async () => {
    const net = await openDevnet();
    try {
      const [a, b, c] = net.devnet.accounts() as [DevAccount, DevAccount, DevAccount];
      const txs = [
        signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0, kwargs: { amount: 1, to: b.address } }),
        signedTx({ privateKey: b.privateKey, sender: b.address, nonce: 0, kwargs: { amount: 1, to: c.address } }),
        signedTx({ privateKey: c.privateKey, sender: c.address, nonce: 0, kwargs: { amount: 1, to: b.address } }),
      ];
      const results = await Promise.all(txs.map((t) => net.devnet.rpc.call<any>('broadcast_tx_commit', { tx: txParam(t.hex) })));
      const height = results[0].height;
      const byHeight = await net.devnet.rpc.call<any>('tx_search', { query: `tx.height=${height}` });
      assert.equal(byHeight.total_count, '3');
      const toB = await net.devnet.rpc.call<any>('tx_search', { query: `Transfer.to='${b.address}'`, order_by: 'desc' });
      assert.deepEqual(toB.txs.map((t: any) => t.hash), [txs[2]!.hash, txs[0]!.hash]);
      const byHash = await net.devnet.rpc.call<any>('tx_search', { query: `tx.hash='${txs[1]!.hash}'`, prove: true });
      assert.equal(byHash.txs[0].hash, txs[1]!.hash);

      const proven = await net.devnet.rpc.call<any>('tx', { hash: Buffer.from(txs[1]!.hash, 'hex').toString('base64'), prove: true });
      const block = await net.devnet.rpc.call<any>('block', { height });
      assert.equal(proven.proof.root_hash, block.block.header.data_hash);
      assert.equal(proven.proof.proof.total, '3');
      // Walk the aunts up (RFC 6962 split, 3 leaves: index 1 sits under the left pair).
      let node = Buffer.from(proven.proof.proof.leaf_hash, 'base64');
      assert.deepEqual(node, sha(Buffer.from([0]), Buffer.from(txs[1]!.hash, 'hex')));
      const aunts = proven.proof.proof.aunts.map((x: string) => Buffer.from(x, 'base64'));
      node = sha(Buffer.from([1]), aunts[0], node);
      node = sha(Buffer.from([1]), node, aunts[1]);
      assert.equal(node.toString('hex').toUpperCase(), block.block.header.data_hash);
      await assert.rejects(net.devnet.rpc.call('tx_search', { query: 'tx.height=' }), (e: any) => e.code === -32603);
      // tx_search and block_search refuse a bad query or order alike, in CometBFT's words.
      for (const method of ['tx_search', 'block_search']) {
        await assert.rejects(net.devnet.rpc.call(method, { query: 'block.height >' }), (e: any) => e.code === -32603, method);
        await assert.rejects(net.devnet.rpc.call(method, { query: 'block.height > 0', order_by: 'sideways' }),
          (e: any) => e.code === -32603 && /expected order_by to be either `asc` or `desc` or empty/.test(JSON.stringify(e.data ?? e.message)), method);
      }
    } finally {
      await net.close();
    }
  });

  it('state patches scheduled at a height are applied there, after the transactions', () => {
    const home = tempHome();
    try {
      const dir = path.join(home.dir, 'state-patches');
      mkdirSync(dir);
      const bundle = {
        version: 1, patch_id: 'fix-balance', activation_height: 7, governance_contract: 'governance', summary: 'fix',
        changes: [{ key: 'currency.balances:alice', value: { __fixed__: '42' }, comment: 'restore' }],
      };
      writeFileSync(path.join(dir, 'fix-balance.json'), JSON.stringify(bundle));
      const probe = new StatePatches(dir, 'chain-local-1', new StateStore([], 6));
      const [listed] = probe.bundles() as Array<{ bundle_hash: string; change_count: number }>;
      assert.equal(listed!.change_count, 1);
      const field = (f: string, v: string | bigint | boolean): [string, string] => [`governance.patches:fix-balance:${f}`, encodeStateText(v)];
      const state = new StateStore([
        ['governance.scheduled_patches:7:fix-balance', encodeStateText(true)],
        field('status', 'approved'), field('bundle_hash', listed!.bundle_hash), field('proposal_id', 3n), field('activation_height', 7n),
      ], 6);
      const patches = new StatePatches(dir, 'chain-local-1', state);
      const scheduled = patches.scheduled(7) as Array<Record<string, unknown>>;
      assert.equal(scheduled[0]!['status'], 'approved');
      assert.equal(scheduled[0]!['local_bundle_available'], true);

      const overlay = new BlockOverlay(state);
      const nanos = 1_767_225_600_000_000_000n;
      const applied = patches.apply(overlay, { chainId: 'chain-local-1', height: 7n, hash: 'ab'.repeat(32), nanos, now: ChainDatetime.fromNanos(nanos) });
      assert.equal(applied.length, 1);
      assert.equal(overlay.get('currency.balances:alice'), '{"__fixed__":"42"}');
      assert.equal(overlay.get('governance.patches:fix-balance:status'), '"applied"');
      assert.match(overlay.get('governance.patches:fix-balance:execution_hash')!, /^"[0-9a-f]{64}"$/);

      const wrong = new StateStore([...state.entries()].map(([k, v]) => (k.endsWith(':bundle_hash') ? [k, encodeStateText('00'.repeat(32))] : [k, v])), 6);
      assert.throws(() => new StatePatches(dir, 'chain-local-1', wrong).apply(new BlockOverlay(wrong), { chainId: 'chain-local-1', height: 7n, hash: 'ab'.repeat(32), nanos, now: ChainDatetime.fromNanos(nanos) }), /state patch bundle hash mismatch for fix-balance/);
    } finally {
      home.remove();
    }
  });
});

describe('applied state patches on the wire', () => {
  it('are announced as a StatePatch finalize-block event that BDS reads back exactly', async () => {
    const { statePatchEvents } = await import('../../../../plugins/devnet/node/block-events.js');
    const { patchesFromEvents, aggregatePatchHash } = await import('../../../../plugins/bds/block/payload-from-rpc.js');
    assert.deepEqual(statePatchEvents([]), [], 'no event in a block without patches');
    const executions = [{ patch_id: 'fix-balance', execution_hash: 'ab'.repeat(32), changes: [{ key: 'currency.balances:x', value: '5' }] }];
    const events = statePatchEvents(executions);
    const read = patchesFromEvents(events);
    assert.deepEqual(JSON.parse(JSON.stringify(read.executions)), executions);
    assert.equal(read.patch_hash, aggregatePatchHash(read.executions));
  });
});

function nanosecondText(time: string): string {
  return time.replace(/(?:\.(\d+))?Z$/, (_m, fraction: string | undefined) => `.${(fraction ?? '').padEnd(9, '0')}Z`);
}
