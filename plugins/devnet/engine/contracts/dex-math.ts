import { ChainDecimal, type ChainValue, isChainRecord } from 'chainhost/chain';
import type { ContractContext, FunctionShape } from '../contract.js';
import { check } from '../errors.js';
import { add, div, eq, gt, gte, lit, lt, mul, sub, toInt, type Num } from '../num.js';

/**
 * The AMM formulas of dex.md §4.4 in the contracts' evaluation order, on Python numbers
 * (num.ts): every `×` and `÷` truncates to 30 places, so `(x × rOut) / (rIn + x)` is not the
 * same as `x × (rOut / (rIn + x))`. Shared by con_pairs, con_dex and con_dex_helper.
 */

export const DEX_PAIRS = 'con_pairs';
export const DEX_ROUTER = 'con_dex';
export const DEFAULT_TRADE_FEE_BPS = 30n;
export const ZERO_TRADE_FEE_BPS = 0n;
export const MINIMUM_LIQUIDITY = lit('0.00000001');
export const MAXIMUM_BALANCE = lit('1e14');
const FEE_FACTOR_30 = lit('0.997');
const FEE_RATE_30 = lit('0.003');

export const TOKEN_INTERFACE: readonly FunctionShape[] = [
  { name: 'transfer_from', args: ['amount', 'to', 'main_account'] },
  { name: 'transfer', args: ['amount', 'to'] },
  { name: 'balance_of', args: ['address'] },
];

function isFeeBps(feeBps: ChainValue): boolean {
  return (typeof feeBps === 'bigint' || feeBps instanceof ChainDecimal) && (eq(feeBps, 0n) || eq(feeBps, 30n));
}

export function assertFeeBps(feeBps: ChainValue): void {
  check(isFeeBps(feeBps), 'SNAKX: INVALID_FEE_BPS');
}

/** `(10000 − feeBps) / 10000`: 0.997 or 1 (the VM computes an f64; both are exact). */
export function feeFactor(feeBps: ChainValue): ChainDecimal {
  assertFeeBps(feeBps);
  return eq(feeBps, 30n) ? FEE_FACTOR_30 : ChainDecimal.ONE;
}

/** `fee_bps / 10000` for the K check: 0.003 or 0. */
export function feeRate(feeBps: ChainValue): ChainDecimal {
  assertFeeBps(feeBps);
  return eq(feeBps, 30n) ? FEE_RATE_30 : ChainDecimal.ZERO;
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

/**
 * `normalize_token_amount(token, amount, round_up=False)` (dex.md §4.3): amounts of a token that
 * exports `get_metadata()` with an integer `precision ≥ 0` are cut to that many places (an f64
 * `n / 10^p` in the VM, a decimal through its shortest text here); others pass unchanged.
 */
export function normalizeTokenAmount(ctx: ContractContext, token: string, amount: ChainValue, roundUp = false): ChainValue {
  check(gte(amount, 0n), 'SNAKX: NEGATIVE_AMOUNT');
  if (!ctx.exports(token, 'get_metadata')) return amount;
  const md = ctx.call(token, 'get_metadata');
  const p = isChainRecord(md) ? md['precision'] : undefined;
  if (typeof p !== 'bigint' || p < 0n) return amount;
  const unit = 10n ** p;
  const scaled = mul(amount, unit);
  let n = toInt(scaled);
  if (roundUp && lt(n, scaled)) n += 1n;
  return p === 0n ? n : div(n, unit);
}

/** `t.balance_of(address)`, None → 0 (the router's and the pair core's measured balances). */
export function balanceOf(ctx: ContractContext, token: string, address: string): ChainValue {
  const b = ctx.call(token, 'balance_of', { address });
  return b === null ? 0n : b;
}
