import assert from 'node:assert/strict';
import { BOB, D, TestChain, makeTx } from './support.js';

/**
 * A long run of plain transfers through the engine (no signatures): each one succeeds and is
 * applied, and the balances add up. How many per second is a benchmark, not a test — it depends
 * on what else the machine runs: see bench/devnet-throughput.ts (committed transfers and direct
 * engine calls, each against a baseline measured in the same run).
 */
describe('devnet engine: throughput', () => {
  it('executes 3,000 plain currency transfers in sequence, each applied to the next one\'s state', function () {
    this.timeout(300_000); // a hang only; a busy machine may take minutes
    const chain = TestChain.withGenesis({ dex: false });
    const n = 3_000;
    const recipients = 500;
    const to = (i: number) => (i % recipients).toString(16).padStart(64, '0');
    const env = chain.env();
    for (let i = 0; i < n; i++) {
      const out = chain.executor.execute(makeTx({ sender: BOB, contract: 'currency', function: 'transfer', nonce: i, kwargs: { amount: D('1.5'), to: to(i) } }), env, chain.state);
      assert.equal(out.status, 0, `transfer ${i}: ${String(out.result)}`);
      chain.state.apply(out.writes);
    }
    for (const r of [0, 1, recipients - 1]) {
      assert.equal(String(chain.get(`currency.balances:${to(r)}`)), String(D('9')), `recipient ${r} got 6 transfers of 1.5`);
    }
  });
});
