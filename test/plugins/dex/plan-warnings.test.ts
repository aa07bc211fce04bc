import assert from 'node:assert/strict';
import type * as Kit from './support/dex-host.js';
import type { DexChain, DexHost } from './support/dex-host.js';

/** Issue #18 item 5: plan tools warn on a CHAIN_ID mismatch as the read tools do. */
describe('dex_plan_*: CHAIN_ID mismatch warning', function () {
  this.timeout(60_000);
  let kit: typeof Kit;
  let chain: DexChain;
  let h: DexHost;

  before(async () => {
    kit = await import('./support/dex-host.js');
    chain = await kit.openDevnet();
    h = await kit.startDexHost(chain, { plugins: { dex: {}, query: {} }, unsafe: false, env: { CHAIN_ID: 'chain-elsewhere-9' } });
  });
  after(async () => {
    await h?.stop();
    await chain?.close();
  });

  it('a plan made under a CHAIN_ID the node does not have carries the same warning as a read', async () => {
    const A = kit.devAccount(1);
    const read = kit.ok(await h.mcp('get_balance', { address: A.address }));
    assert.match(read.warnings.join(' '), /CHAIN_ID is "chain-elsewhere-9"/);
    const plan = kit.ok(await h.mcp('dex_plan_swap', { token_in: 'currency', token_out: 'con_test_token', amount: '1', account: A.address, recipient: A.address }));
    assert.equal(plan.plan.network.chain_id, 'chain-elsewhere-9');
    assert.match(plan.warnings.join(' '), /CHAIN_ID is "chain-elsewhere-9" but the node's network .* "chain-local-1".*refused at submit/);
    const lp = kit.ok(await h.mcp('dex_plan_add_liquidity', {
      token_a: 'currency', token_b: 'con_test_token', amount_a_desired: '1', amount_b_desired: '1', account: A.address, recipient: A.address,
    }));
    assert.match(lp.warnings.join(' '), /CHAIN_ID is "chain-elsewhere-9"/);
  });
});
