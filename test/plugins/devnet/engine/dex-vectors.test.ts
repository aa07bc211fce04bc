import assert from 'node:assert/strict';
import { ChainDecimal } from '../../../../core/chain/decimal.js';
import { getAmountIn, getAmountOut, quote } from './dex-math.js';
import { addLiquidity, approve, dexChain } from './dex-fixture.js';
import { ALICE, BOB, D, DEADLINE, str, type TestChain } from './support.js';

/** dex.md §8: every vector, through the pure formulas and through the deployed contracts. */
describe('devnet engine: DEX numerical vectors (dex.md §8)', () => {
  describe('quote formulas', () => {
    it('getAmountOut(10, 1000, 500, 30) = 4.935790171985306494252304523896', () => {
      assert.equal(str(getAmountOut(D('10'), D('1000'), D('500'), 30n)), '4.935790171985306494252304523896');
    });
    it('getAmountOut(10, 1000, 500, 0) = 4.950495049504950495049504950495', () => {
      assert.equal(str(getAmountOut(D('10'), D('1000'), D('500'), 0n)), '4.950495049504950495049504950495');
    });
    it('getAmountIn(5, 1000, 500, 30) = 10.131404313951956880743239820471', () => {
      assert.equal(str(getAmountIn(D('5'), D('1000'), D('500'), 30n)), '10.131404313951956880743239820471');
    });
    it('the same through con_dex exports (int arguments too)', () => {
      const chain = dexChain();
      const call = (fn: string, kwargs: Record<string, ChainDecimal | bigint>) => str(chain.send(BOB, 'con_dex', fn, kwargs).result);
      // int arguments: fee_factor is int / int, a float on the chain's VM, so the quote is float arithmetic.
      assert.equal(call('getAmountOut', { amountIn: 10n, reserveIn: 1000n, reserveOut: 500n }), '4.935790171985307');
      assert.equal(call('getAmountOut', { amountIn: D('10'), reserveIn: D('1000'), reserveOut: D('500'), feeBps: 0n }), '4.950495049504950495049504950495');
      assert.equal(call('getAmountIn', { amountOut: D('5'), reserveIn: D('1000'), reserveOut: D('500'), feeBps: 30n }), '10.131404313951956880743239820471');
      assert.equal(chain.send(BOB, 'con_dex', 'getAmountOut', { amountIn: 10n, reserveIn: 1000n, reserveOut: 500n, feeBps: 25n }).error, 'SNAKX: INVALID_FEE_BPS');
    });
  });

  describe('a pool of 1000 token0 / 500 token1, then a 10 token0 swap', () => {
    let chain: TestChain;
    before(() => {
      chain = dexChain();
      const added = addLiquidity(chain, ALICE, 'con_aaa', 'con_bbb', '1000', '500');
      assert.equal(added.status, 0, added.error);
    });

    it('first mint: totalSupply = sqrt(1000 × 500) = 707.106781186547524400844362104849', () => {
      assert.equal(chain.text('con_pairs.pairs:1:totalSupply'), '707.106781186547524400844362104849');
      assert.equal(chain.text('con_lp_ab.metadata:total_supply'), '707.106781186547524400844362104849');
    });

    it('the provider gets sqrt − 0.00000001 = 707.106781176547524400844362104849; DEAD holds 0.00000001', () => {
      assert.equal(chain.text(`con_lp_ab.balances:${ALICE}`), '707.106781176547524400844362104849');
      assert.equal(chain.text('con_lp_ab.balances:DEAD'), '0.00000001');
    });

    it('after swapping 10 token0 in: reserve0 = 1010 (wrapper 1.01E+3), reserve1 = 495.064209828014693505747695476104', () => {
      approve(chain, BOB, 'con_aaa', D('10'));
      const out = chain.send(BOB, 'con_dex', 'swapExactTokenForToken', {
        amountIn: D('10'), amountOutMin: D('4.9'), pair: 1n, src: 'con_aaa', to: BOB, deadline: DEADLINE,
      });
      assert.equal(out.status, 0, out.error);
      assert.equal(str(out.result), '4.935790171985306494252304523896');
      const r0 = chain.get('con_pairs.pairs:1:reserve0') as ChainDecimal;
      assert.equal(r0.toString(), '1010');
      assert.equal(r0.toFixedWrapperString(), '1.01E+3');
      assert.equal(chain.text('con_pairs.pairs:1:reserve1'), '495.064209828014693505747695476104');
    });

    it('K check of that swap: (1010 − 10 × 0.003) × reserve1 = 500000.000000000000000000000000000756 ≥ 500000', () => {
      const balance0Adjusted = D('1010').minus(D('10').times(D('0.003')));
      const product = balance0Adjusted.times(D('495.064209828014693505747695476104'));
      assert.equal(product.toString(), '500000.000000000000000000000000000756');
      assert.ok(product.gte(D('1000').times(D('500'))));
    });

    it('quote(100, 1010, 495.064209828014693505747695476104) = 49.016258398813335990668088661', () => {
      assert.equal(str(quote(D('100'), D('1010'), D('495.064209828014693505747695476104'))), '49.016258398813335990668088661');
      assert.equal(str(chain.send(BOB, 'con_dex', 'quote', { a: D('100'), rA: D('1010'), rB: D('495.064209828014693505747695476104') }).result),
        '49.016258398813335990668088661');
    });

    it('next swap getAmountOut(5, 495.064209828014693505747695476104, 1010, 30) = 10.06870904111951303840353768309', () => {
      assert.equal(str(getAmountOut(D('5'), D('495.064209828014693505747695476104'), D('1010'), 30n)), '10.06870904111951303840353768309');
      approve(chain, BOB, 'con_bbb', D('5'));
      const out = chain.send(BOB, 'con_dex', 'swapExactTokenForToken', {
        amountIn: D('5'), amountOutMin: D('0'), pair: 1n, src: 'con_bbb', to: BOB, deadline: DEADLINE,
      });
      assert.equal(out.status, 0, out.error);
      assert.equal(str(out.result), '10.06870904111951303840353768309');
    });
  });
});
