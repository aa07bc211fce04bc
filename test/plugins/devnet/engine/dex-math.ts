import { ChainDecimal, type ChainValue } from '../../../../host/api/chain.js';
import { add, div, eq, gt, lit, mul, sub, type Num } from '../../../../plugins/devnet/engine/num.js';

/**
 * The test oracle for the DEX: the AMM formulas of dex.md §4.4 in the contracts' evaluation
 * order, on Python numbers (num.ts): every `×` and `÷` truncates to 30 places, so
 * `(x × rOut) / (rIn + x)` is not the same as `x × (rOut / (rIn + x))`. The contracts run on the
 * VM; the tests compare what they compute with these figures.
 */

function check(cond: boolean, message: string): asserts cond {
  if (!cond) throw new Error(message);
}

export const DEFAULT_TRADE_FEE_BPS = 30n;
const FEE_FACTOR_30 = lit('0.997');

function isFeeBps(feeBps: ChainValue): boolean {
  return (typeof feeBps === 'bigint' || feeBps instanceof ChainDecimal) && (eq(feeBps, 0n) || eq(feeBps, 30n));
}

function assertFeeBps(feeBps: ChainValue): void {
  check(isFeeBps(feeBps), 'SNAKX: INVALID_FEE_BPS');
}

/** `(10000 − feeBps) / 10000`: 0.997 or 1 (the VM computes an f64; both are exact). */
function feeFactor(feeBps: ChainValue): ChainDecimal {
  assertFeeBps(feeBps);
  return eq(feeBps, 30n) ? FEE_FACTOR_30 : ChainDecimal.ONE;
}

export function getAmountOut(amountIn: ChainValue, reserveIn: ChainValue, reserveOut: ChainValue, feeBps: ChainValue = DEFAULT_TRADE_FEE_BPS): Num {
  const f = feeFactor(feeBps);
  check(gt(amountIn, 0n), 'SNAKX: INSUFFICIENT_INPUT_AMOUNT');
  check(gt(reserveIn, 0n) && gt(reserveOut, 0n), 'SNAKX: INSUFFICIENT_LIQUIDITY');
  const x = mul(amountIn, f);
  return div(mul(x, reserveOut), add(reserveIn, x));
}

export function getAmountIn(amountOut: ChainValue, reserveIn: ChainValue, reserveOut: ChainValue, feeBps: ChainValue = DEFAULT_TRADE_FEE_BPS): Num {
  const f = feeFactor(feeBps);
  check(gt(amountOut, 0n), 'SNAKX: INSUFFICIENT_OUTPUT_AMOUNT');
  check(gt(reserveIn, 0n) && gt(reserveOut, 0n) && gt(reserveOut, amountOut), 'SNAKX: INSUFFICIENT_LIQUIDITY');
  return div(mul(reserveIn, amountOut), mul(sub(reserveOut, amountOut), f));
}

export function quote(amountA: ChainValue, reserveA: ChainValue, reserveB: ChainValue): Num {
  check(gt(amountA, 0n), 'SNAKX: INSUFFICIENT_AMOUNT');
  check(gt(reserveA, 0n) && gt(reserveB, 0n), 'SNAKX: INSUFFICIENT_LIQUIDITY');
  return div(mul(amountA, reserveB), reserveA);
}
