import assert from 'node:assert/strict';
import { ChainDecimal } from '../../../core/chain/decimal.js';
import {
  AmmError, addLiquidityAmounts, amountsOut, burnAmounts, getAmountIn, getAmountOut, helperBuy, helperSell, kHolds, mintedLiquidity,
  minusBps, normalizeAmount, plusBpsCeil, protocolFeeLiquidity, quote,
} from '../../../plugins/dex/amm.js';

const D = (s: string) => ChainDecimal.parse(s);
const eq = (a: ChainDecimal, text: string) => assert.equal(a.toString(), text);

describe('dex amm: the contracts\' maths (dex.md §4.4, §8 vectors)', () => {
  it('getAmountOut with fee 30 and 0', () => {
    eq(getAmountOut(D('10'), D('1000'), D('500'), 30), '4.935790171985306494252304523896');
    eq(getAmountOut(D('10'), D('1000'), D('500'), 0), '4.950495049504950495049504950495');
  });

  it('getAmountIn (no +1 rounding)', () => {
    eq(getAmountIn(D('5'), D('1000'), D('500'), 30), '10.131404313951956880743239820471');
  });

  it('first mint and the LP to the user', () => {
    const supply = D('1000').times(D('500')).sqrt();
    eq(supply, '707.106781186547524400844362104849');
    eq(mintedLiquidity(D('1000'), D('500'), ChainDecimal.ZERO, ChainDecimal.ZERO, ChainDecimal.ZERO), '707.106781176547524400844362104849');
  });

  it('a swap of 10 token0 moves the reserves and passes K; the follow-up vectors', () => {
    const out = getAmountOut(D('10'), D('1000'), D('500'), 30);
    const r0 = D('1000').plus(D('10'));
    const r1 = D('500').minus(out);
    eq(r0, '1010');
    eq(r1, '495.064209828014693505747695476104');
    assert.equal(kHolds(D('1000'), D('500'), r0, r1, D('10'), ChainDecimal.ZERO, 30), true);
    eq(r0.minus(D('10').times(D('0.003'))).times(r1), '500000.000000000000000000000000000756');
    eq(quote(D('100'), r0, r1), '49.016258398813335990668088661');
    eq(getAmountOut(D('5'), r1, r0, 30), '10.06870904111951303840353768309');
  });

  it('refuses like the contracts, with their messages', () => {
    assert.throws(() => getAmountOut(ChainDecimal.ZERO, D('1'), D('1'), 30), (e: AmmError) => e.reason === 'SNAKX: INSUFFICIENT_INPUT_AMOUNT');
    assert.throws(() => getAmountOut(D('1'), ChainDecimal.ZERO, D('1'), 30), /SNAKX: INSUFFICIENT_LIQUIDITY/);
    assert.throws(() => getAmountOut(D('1'), D('1'), D('1'), 25), /SNAKX: INVALID_FEE_BPS/);
    assert.throws(() => getAmountIn(D('500'), D('1000'), D('500'), 30), /SNAKX: INSUFFICIENT_LIQUIDITY/);
    assert.throws(() => getAmountIn(ChainDecimal.ZERO, D('1000'), D('500'), 30), /SNAKX: INSUFFICIENT_OUTPUT_AMOUNT/);
    assert.throws(() => quote(ChainDecimal.ZERO, D('1'), D('1')), /SNAKX: INSUFFICIENT_AMOUNT/);
    assert.throws(() => normalizeAmount(D('-1'), 8), /SNAKX: NEGATIVE_AMOUNT/);
  });

  it('normalises to token precision (truncate, or round up) through the VM\'s f64 division', () => {
    eq(normalizeAmount(D('1.123456789'), 8), '1.12345678');
    eq(normalizeAmount(D('1.123456781'), 8, true), '1.12345679');
    eq(normalizeAmount(D('1.12345678'), 8, true), '1.12345678');
    eq(normalizeAmount(D('7.9'), 0), '7');
    eq(normalizeAmount(D('7.9'), 0, true), '8');
    eq(normalizeAmount(D('0.1'), 1), '0.1');
    eq(normalizeAmount(D('1.5'), null), '1.5');
  });

  it('amountsOut normalises every hop like getAmountsOut', () => {
    const amounts = amountsOut(D('10.123456789'), 8, [
      { reserveIn: D('1000'), reserveOut: D('500'), precisionOut: 8 },
      { reserveIn: D('500'), reserveOut: D('2000'), precisionOut: null },
    ], 30);
    eq(amounts[0]!, '10.12345678');
    assert.equal(amounts[1]!.fractionDigits() <= 8, true);
    eq(amounts[2]!, getAmountOut(amounts[1]!, D('500'), D('2000'), 30).toString());
  });

  it('slippage bounds: minimum truncates, ceiling rounds up', () => {
    eq(minusBps(D('100'), 100), '99');
    eq(minusBps(D('1'), 1), '0.9999');
    eq(plusBpsCeil(D('100'), 100, null), '101');
    eq(plusBpsCeil(D('1.00000001'), 100, 8), '1.01000002');
    eq(plusBpsCeil(ChainDecimal.fromScaled(1n), 1, null), '0.000000000000000000000000000002');
  });

  it('addLiquidity amounts: the optimal ratio with the contract\'s checks', () => {
    const r = addLiquidityAmounts({
      amountADesired: D('100'), amountBDesired: D('100'), amountAMin: ChainDecimal.ZERO, amountBMin: ChainDecimal.ZERO,
      reserveA: D('1000'), reserveB: D('500'), precisionA: null, precisionB: null,
    });
    eq(r.amountA, '100');
    eq(r.amountB, '50');
    const s = addLiquidityAmounts({
      amountADesired: D('100'), amountBDesired: D('20'), amountAMin: ChainDecimal.ZERO, amountBMin: ChainDecimal.ZERO,
      reserveA: D('1000'), reserveB: D('500'), precisionA: null, precisionB: null,
    });
    eq(s.amountA, '40');
    eq(s.amountB, '20');
    assert.throws(() => addLiquidityAmounts({
      amountADesired: D('100'), amountBDesired: D('100'), amountAMin: ChainDecimal.ZERO, amountBMin: D('60'),
      reserveA: D('1000'), reserveB: D('500'), precisionA: null, precisionB: null,
    }), /SNAKX: INSUFFICIENT_B_AMOUNT/);
  });

  it('burn payouts and the protocol fee share', () => {
    const { amount0, amount1 } = burnAmounts(D('10'), D('1000'), D('500'), D('100'), null, null);
    eq(amount0, '100');
    eq(amount1, '50');
    assert.equal(protocolFeeLiquidity(D('100'), D('1000'), D('1000'), D('1000000')).isZero(), true);
    assert.equal(protocolFeeLiquidity(D('100'), D('1100'), D('1100'), D('1000000')).gt(ChainDecimal.ZERO), true);
  });

  it('con_dex_helper buy/sell maths', () => {
    const b = helperBuy(D('5'), D('1000'), D('500'), 30, D('1'));
    eq(b.input, getAmountIn(D('5'), D('1000'), D('500'), 30).times(D('1.01')).times(D('1.0001')).toString());
    eq(b.minimumOutput, '4.95');
    const s = helperSell(D('10'), D('1000'), D('500'), 30, D('1'));
    eq(s.expected, '4.935790171985306494252304523896');
    assert.throws(() => helperBuy(D('5'), D('1000'), D('500'), 30, D('101')), /Slippage must be between 0 and 100%/);
    assert.throws(() => helperSell(ChainDecimal.ZERO, D('1000'), D('500'), 30, D('1')), /Amount must be positive/);
  });
});
