import assert from 'node:assert/strict';
import { BOB, D, TestChain, makeTx } from './support.js';

describe('devnet engine: throughput', () => {
  it('executes plain currency transfers far above the node\'s 2,000/s budget (engine only, no signatures)', function () {
    this.timeout(60_000);
    const chain = TestChain.withGenesis({ dex: false });
    const n = 3_000;
    const txs = Array.from({ length: n }, (_, i) => makeTx({
      sender: BOB, contract: 'currency', function: 'transfer', nonce: i,
      kwargs: { amount: D('1.5'), to: (i % 500).toString(16).padStart(64, '0') },
    }));
    const env = chain.env();
    const run = (from: number, to: number): void => {
      for (let i = from; i < to; i++) {
        const out = chain.executor.execute(txs[i]!, env, chain.state);
        assert.equal(out.status, 0);
        chain.state.apply(out.writes);
      }
    };
    run(0, 500); // warm-up
    const started = process.hrtime.bigint();
    run(500, n);
    const perSecond = ((n - 500) * 1e9) / Number(process.hrtime.bigint() - started);
    assert.ok(perSecond > 4_000, `only ${perSecond.toFixed(0)} transfers/s`);
  });
});
