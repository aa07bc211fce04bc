import assert from 'node:assert/strict';
import { ChainDecimal } from '../../../../core/chain/decimal.js';
import { CURRENCY_SOURCE } from '../../../../plugins/devnet/engine/contracts/currency.js';
import {
  StatePatchError, StatePatchHaltError, applyStatePatches, appliedStatePatches, loadStatePatchBundle, scheduledStatePatches,
  statePatchBundleInventory, type StatePatchBundle,
} from '../../../../plugins/devnet/engine/state-patches.js';
import { BOB, CHAIN_ID, MapState } from './support.js';

const FILE = '/home/.chain/config/state-patches/fix-balance-1.json';

function bundleJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: 1,
    patch_id: 'fix-balance-1',
    activation_height: 10,
    governance_contract: 'governance',
    chain_id: CHAIN_ID,
    summary: 'Fix a balance',
    uri: 'https://example.invalid/p/1',
    changes: [
      { key: `currency.balances:${BOB}`, value: { __fixed__: '5' }, comment: 'restore' },
      { key: 'con_note.flag', value: true, comment: 'é flag' },
    ],
    ...overrides,
  };
}

function schedule(state: MapState, bundle: StatePatchBundle, status = 'approved'): void {
  state.apply([
    { key: 'governance.scheduled_patches:10:fix-balance-1', value: true },
    { key: 'governance.patches:fix-balance-1:status', value: status },
    { key: 'governance.patches:fix-balance-1:proposal_id', value: 3n },
    { key: 'governance.patches:fix-balance-1:bundle_hash', value: bundle.bundle_hash },
    { key: 'governance.patches:fix-balance-1:activation_height', value: 10n },
    { key: 'governance.patches:fix-balance-1:summary', value: 'Fix a balance' },
    { key: 'governance.patches:fix-balance-1:uri', value: 'https://example.invalid/p/1' },
    { key: 'governance.patches:fix-balance-1:emergency', value: false },
  ]);
}

describe('devnet engine: governed state patches (contracts.md §8)', () => {
  // Hashes cross-checked with Python json.dumps(sort_keys=True, separators=(",", ":")) + sha256.
  const BUNDLE_HASH = 'aa4b34bdbb3c22386f19f36fbfa822b70f63ab19db2fd69a0e0cc0bb65b6595b';
  const EXECUTION_HASH = '30c8e39ab4e65b0cb1a1fd1f294ebe17fd5402e915027d8c8c21b47777239ea1';
  const PATCH_HASH = '8a5df51e4b39f4eb7903d75e629d93481e3dfd9a7c53a11db8a2aae4e6498a77';

  it('loads a bundle and computes bundle_hash over the canonical, key-sorted, ASCII-escaped payload', () => {
    const b = loadStatePatchBundle(bundleJson(), FILE);
    assert.equal(b.bundle_hash, BUNDLE_HASH);
    assert.deepEqual(statePatchBundleInventory([b]), [{
      patch_id: 'fix-balance-1', activation_height: 10, governance_contract: 'governance', bundle_hash: BUNDLE_HASH,
      summary: 'Fix a balance', uri: 'https://example.invalid/p/1', chain_id: CHAIN_ID, change_count: 2, file_path: FILE,
    }]);
  });

  it('refuses malformed bundles with the node\'s reasons', () => {
    const bad = (o: Record<string, unknown>) => assert.throws(() => loadStatePatchBundle(bundleJson(o), FILE), StatePatchError);
    bad({ version: 2 });
    bad({ patch_id: 'X' });
    bad({ activation_height: 0 });
    bad({ changes: [] });
    assert.throws(() => loadStatePatchBundle(bundleJson({ changes: [{ key: 'currency.__code__', value: 'x' }] }), FILE), /cannot patch __code__ directly; use __source__/);
    assert.throws(() => loadStatePatchBundle(bundleJson({ changes: [{ key: 'currency.__xian_ir_v1__', value: 'x' }] }), FILE), /cannot patch __xian_ir_v1__ directly/);
    assert.throws(() => loadStatePatchBundle(bundleJson({ changes: [{ key: 'a.b', value: 1 }, { key: 'a.b', value: 2 }] }), FILE), /duplicate key 'a\.b'/);
  });

  it('applies an approved patch at its height: changes (wrappers decoded), then the applied marks', () => {
    const bundle = loadStatePatchBundle(bundleJson(), FILE);
    const state = new MapState();
    schedule(state, bundle);
    const bundles = new Map([[bundle.patch_id, bundle]]);
    assert.deepEqual(scheduledStatePatches(state, 10, bundles), [{
      patch_id: 'fix-balance-1', proposal_id: 3n, bundle_hash: BUNDLE_HASH, activation_height: 10, governance_contract: 'governance',
      summary: 'Fix a balance', uri: 'https://example.invalid/p/1', emergency: false, status: 'approved',
      local_bundle_available: true, local_file_path: FILE,
    }]);

    const applied = applyStatePatches({ state, height: 10, nanos: 123n, blockHash: 'ab'.repeat(32), chainId: CHAIN_ID, bundles });
    assert.equal(applied.patchHash, PATCH_HASH);
    assert.equal(applied.payloads[0]!['execution_hash'], EXECUTION_HASH);
    assert.deepEqual(applied.writes.map((w) => [w.key, String(w.value)]), [
      [`currency.balances:${BOB}`, '5'],
      ['con_note.flag', 'true'],
      ['governance.patches:fix-balance-1:status', 'applied'],
      ['governance.patches:fix-balance-1:applied_block_height', '10'],
      ['governance.patches:fix-balance-1:applied_block_hash', 'ab'.repeat(32)],
      ['governance.patches:fix-balance-1:applied_at_nanos', '123'],
      ['governance.patches:fix-balance-1:execution_hash', EXECUTION_HASH],
    ]);
    assert.ok(applied.writes[0]!.value instanceof ChainDecimal);

    // Once applied it is not applied again, but still reported for BDS.
    state.apply(applied.writes);
    assert.deepEqual(applyStatePatches({ state, height: 10, nanos: 1n, blockHash: null, chainId: CHAIN_ID, bundles }).writes, []);
    assert.equal(appliedStatePatches(state, 10, bundles, CHAIN_ID).patchHash, PATCH_HASH);
  });

  it('halts on a missing bundle, a hash mismatch or a foreign chain id', () => {
    const bundle = loadStatePatchBundle(bundleJson(), FILE);
    const state = new MapState();
    schedule(state, bundle);
    const run = (bundles: Map<string, StatePatchBundle>, chainId = CHAIN_ID) =>
      () => applyStatePatches({ state, height: 10, nanos: 1n, blockHash: null, chainId, bundles });
    assert.throws(run(new Map()), (e: unknown) => e instanceof StatePatchHaltError && e.message === 'missing local state patch bundle for approved patch fix-balance-1');
    const other = loadStatePatchBundle(bundleJson({ summary: 'changed' }), FILE);
    const message = (text: string) => (e: unknown) => e instanceof StatePatchHaltError && e.message === text;
    assert.throws(run(new Map([[other.patch_id, other]])), message(`state patch bundle hash mismatch for fix-balance-1: local=${other.bundle_hash} governed=${BUNDLE_HASH}`));
    assert.throws(run(new Map([[bundle.patch_id, bundle]]), 'chain-other'), message("state patch fix-balance-1 targets chain_id 'chain-local-1'"));
  });

  it('a __source__ change also writes the derived __xian_ir_v1__', () => {
    const bundle = loadStatePatchBundle(bundleJson({ changes: [{ key: 'con_x.__source__', value: CURRENCY_SOURCE, comment: 'code' }] }), FILE);
    const state = new MapState();
    schedule(state, bundle);
    const applied = applyStatePatches({ state, height: 10, nanos: 1n, blockHash: null, chainId: CHAIN_ID, bundles: new Map([[bundle.patch_id, bundle]]) });
    assert.deepEqual(applied.writes.slice(0, 2).map((w) => w.key), ['con_x.__source__', 'con_x.__xian_ir_v1__']);
    const ir = JSON.parse(String(applied.writes[1]!.value));
    assert.equal(ir.module_name, 'con_x');
    const changes = applied.payloads[0]!['changes'] as Array<{ key: string; comment: string }>;
    assert.deepEqual(changes.map((c) => [c.key, c.comment]), [['con_x.__source__', 'code'], ['con_x.__xian_ir_v1__', 'Persisted VM IR for code']]);
  });

  it('ignores schedules that are not approved', () => {
    const bundle = loadStatePatchBundle(bundleJson(), FILE);
    const state = new MapState();
    schedule(state, bundle, 'pending');
    assert.deepEqual(scheduledStatePatches(state, 10, new Map()), []);
    assert.equal(applyStatePatches({ state, height: 10, nanos: 1n, blockHash: null, chainId: CHAIN_ID, bundles: new Map() }).patchHash, null);
  });
});
