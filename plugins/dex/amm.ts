import { ChainDecimal } from 'chainhost/chain';

/**
 * The DEX maths exactly as `con_pairs`, `con_dex` and `con_dex_helper` evaluate it (dex.md
 * §3.4, §4.3-4.4, §5): 30-place decimals truncated toward zero after every `×` and `÷`, in
 * the contracts' evaluation order — `(x × rOut) / (rIn + x)` is not `x × (rOut / (rIn + x))`.
 * Pure functions on ChainDecimal; a failing contract assertion is an AmmError carrying the
 * contract's own message, so quotes fail with the text the chain would give.
 */

/** Trade fee tiers the router knows: 30 bps by default, 0 for zero-fee signers. */
export type FeeBps = 0 | 30;

/** A token's `get_metadata().precision` (an integer ≥ 0), or null when it declares none. */
export type Precision = number | null;

export class AmmError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'AmmError';
  }
}

function check(ok: boolean, reason: string): void {
  if (!ok) throw new AmmError(reason);
}

const D = (text: string): ChainDecimal => ChainDecimal.parse(text);
const ZERO = ChainDecimal.ZERO;
const ONE = ChainDecimal.ONE;
const FACTOR_30 = D('0.997');
const RATE_30 = D('0.003');
const HUNDRED = D('100');
const HELPER_PAD = D('1.0001');
const FIVE = D('5');
export const MINIMUM_LIQUIDITY = D('0.00000001');
export const MAXIMUM_BALANCE = D('100000000000000');

export function isFeeBps(value: number): value is FeeBps {
  return value === 0 || value === 30;
}

/** `(10000 − feeBps) / 10000`: 0.997 or 1 (both exact as the VM's f64). */
export function feeFactor(feeBps: number): ChainDecimal {
  check(isFeeBps(feeBps), 'SNAKX: INVALID_FEE_BPS');
  return feeBps === 30 ? FACTOR_30 : ONE;
}

/** `fee_bps / 10000`, the K check's rate: 0.003 or 0. */
export function feeRate(feeBps: number): ChainDecimal {
  check(isFeeBps(feeBps), 'SNAKX: INVALID_FEE_BPS');
  return feeBps === 30 ? RATE_30 : ZERO;
}

/** `con_dex.getAmountOut`: `x = amountIn × f; (x × reserveOut) / (reserveIn + x)`. */
export function getAmountOut(amountIn: ChainDecimal, reserveIn: ChainDecimal, reserveOut: ChainDecimal, feeBps: number): ChainDecimal {
  const f = feeFactor(feeBps);
  check(amountIn.gt(ZERO), 'SNAKX: INSUFFICIENT_INPUT_AMOUNT');
  check(reserveIn.gt(ZERO) && reserveOut.gt(ZERO), 'SNAKX: INSUFFICIENT_LIQUIDITY');
  const x = amountIn.times(f);
  return x.times(reserveOut).div(reserveIn.plus(x));
}

/** `con_dex.getAmountIn`: `(reserveIn × amountOut) / ((reserveOut − amountOut) × f)`, no +1 rounding. */
export function getAmountIn(amountOut: ChainDecimal, reserveIn: ChainDecimal, reserveOut: ChainDecimal, feeBps: number): ChainDecimal {
  const f = feeFactor(feeBps);
  check(amountOut.gt(ZERO), 'SNAKX: INSUFFICIENT_OUTPUT_AMOUNT');
  check(reserveIn.gt(ZERO) && reserveOut.gt(ZERO) && reserveOut.gt(amountOut), 'SNAKX: INSUFFICIENT_LIQUIDITY');
  return reserveIn.times(amountOut).div(reserveOut.minus(amountOut).times(f));
}

/** `con_dex.quote`: `a × rB / rA`. */
export function quote(a: ChainDecimal, reserveA: ChainDecimal, reserveB: ChainDecimal): ChainDecimal {
  check(a.gt(ZERO), 'SNAKX: INSUFFICIENT_AMOUNT');
  check(reserveA.gt(ZERO) && reserveB.gt(ZERO), 'SNAKX: INSUFFICIENT_LIQUIDITY');
  return a.times(reserveB).div(reserveA);
}

/**
 * `normalize_token_amount(token, amount, round_up)` (dex.md §4.3): cut to `precision` places;
 * `n / 10^p` is an f64 in the VM that becomes a decimal through its shortest text, so it is
 * computed the same way here (exact while `amount × 10^p` stays below 2^53).
 */
export function normalizeAmount(amount: ChainDecimal, precision: Precision, roundUp = false): ChainDecimal {
  check(!amount.isNegative(), 'SNAKX: NEGATIVE_AMOUNT');
  if (precision === null) return amount;
  const unit = 10n ** BigInt(precision);
  const scaled = amount.times(ChainDecimal.from(unit));
  let n = scaled.toBigInt();
  if (roundUp && ChainDecimal.from(n).lt(scaled)) n += 1n;
  if (precision === 0) return ChainDecimal.from(n);
  return ChainDecimal.from(Number(n) / Number(unit));
}

/** The smallest step of a token amount: 10^-precision, or the decimal's 10^-30. */
export function amountUnit(precision: Precision): ChainDecimal {
  return precision === null ? ChainDecimal.fromScaled(1n) : ChainDecimal.ONE.div(ChainDecimal.from(10n ** BigInt(precision)));
}

/** One oriented hop of a route: reserves as seen from the token going in. */
export interface HopReserves {
  reserveIn: ChainDecimal;
  reserveOut: ChainDecimal;
  /** Precision of the token coming out of this hop. */
  precisionOut: Precision;
}

/**
 * `con_dex.getAmountsOut` (and the single-pair swap): `amountIn` normalised to the source token,
 * then per hop `normalize(next, getAmountOut(prev, rIn, rOut, fee))`. Returns `[amountIn, a1, …]`.
 */
export function amountsOut(amountIn: ChainDecimal, precisionIn: Precision, hops: readonly HopReserves[], feeBps: number): ChainDecimal[] {
  check(hops.length >= 1, 'SNAKX: INVALID_PATH');
  const amounts = [normalizeAmount(amountIn, precisionIn)];
  for (const hop of hops) {
    amounts.push(normalizeAmount(getAmountOut(amounts[amounts.length - 1]!, hop.reserveIn, hop.reserveOut, feeBps), hop.precisionOut));
  }
  return amounts;
}

/**
 * The input each hop needs for `amountOut` to come out of the last one, walking backwards with
 * `getAmountIn` and rounding every required input *up* to its token's precision. The router has
 * no exact-output entry point, so callers confirm the result with `amountsOut` (see routing.ts).
 * Returns `[input, …, amountOut]`.
 */
export function amountsIn(amountOut: ChainDecimal, precisionIn: Precision, hops: readonly HopReserves[], feeBps: number, precisions: readonly Precision[]): ChainDecimal[] {
  check(hops.length >= 1, 'SNAKX: INVALID_PATH');
  // precisions[i] = precision of the token entering hop i (precisions[0] = precisionIn).
  const amounts: ChainDecimal[] = new Array(hops.length + 1);
  amounts[hops.length] = amountOut;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    amounts[i] = normalizeAmount(getAmountIn(amounts[i + 1]!, hop.reserveIn, hop.reserveOut, feeBps), i === 0 ? precisionIn : precisions[i]!, true);
  }
  return amounts;
}

/** The pair's K check: `(b0 − in0 × rate) × (b1 − in1 × rate) ≥ r0 × r1`. */
export function kHolds(reserve0: ChainDecimal, reserve1: ChainDecimal, balance0: ChainDecimal, balance1: ChainDecimal, amount0In: ChainDecimal, amount1In: ChainDecimal, feeBps: number): boolean {
  const rate = feeRate(feeBps);
  return balance0.minus(amount0In.times(rate)).times(balance1.minus(amount1In.times(rate))).gte(reserve0.times(reserve1));
}

// ---- liquidity --------------------------------------------------------------------------------

/**
 * `con_dex.addLiquidity`'s amounts (tokens in sorted order A = token0): both reserves 0 → the
 * desired amounts; else the optimal ratio, each side normalised, with the contract's minimum checks.
 */
export function addLiquidityAmounts(input: {
  amountADesired: ChainDecimal; amountBDesired: ChainDecimal; amountAMin: ChainDecimal; amountBMin: ChainDecimal;
  reserveA: ChainDecimal; reserveB: ChainDecimal; precisionA: Precision; precisionB: Precision;
}): { amountA: ChainDecimal; amountB: ChainDecimal } {
  const aDes = normalizeAmount(input.amountADesired, input.precisionA);
  const bDes = normalizeAmount(input.amountBDesired, input.precisionB);
  const aMin = normalizeAmount(input.amountAMin, input.precisionA);
  const bMin = normalizeAmount(input.amountBMin, input.precisionB);
  check(aDes.gt(ZERO) && bDes.gt(ZERO), 'SNAKX: INSUFFICIENT_AMOUNT');
  if (input.reserveA.isZero() && input.reserveB.isZero()) return { amountA: aDes, amountB: bDes };
  const bOpt = normalizeAmount(quote(aDes, input.reserveA, input.reserveB), input.precisionB);
  if (bOpt.lte(bDes)) {
    check(bOpt.gte(bMin), 'SNAKX: INSUFFICIENT_B_AMOUNT');
    return { amountA: aDes, amountB: bOpt };
  }
  const aOpt = normalizeAmount(quote(bDes, input.reserveB, input.reserveA), input.precisionA);
  check(aOpt.lte(aDes), 'AssertionError');
  check(aOpt.gte(aMin), 'SNAKX: INSUFFICIENT_A_AMOUNT');
  return { amountA: aOpt, amountB: bDes };
}

/** LP minted to `feeTo` by the protocol-fee hook: 1/6 of the √k growth since `kLast`. */
export function protocolFeeLiquidity(totalSupply: ChainDecimal, reserve0: ChainDecimal, reserve1: ChainDecimal, kLast: ChainDecimal): ChainDecimal {
  if (kLast.isZero()) return ZERO;
  const rootK = reserve0.times(reserve1).sqrt();
  const rootKLast = kLast.sqrt();
  if (!rootK.gt(rootKLast)) return ZERO;
  const liquidity = totalSupply.times(rootK.minus(rootKLast)).div(rootK.times(FIVE).plus(rootKLast));
  return liquidity.gt(ZERO) ? liquidity : ZERO;
}

/** The state of the protocol fee a mint or burn sees (`con_pairs.feeTo`, epochs, `kLast`). */
export interface FeeState {
  feeOn: boolean;
  /** The pair's `feeEpoch` equals `con_pairs.fee_epoch`. */
  epochCurrent: boolean;
  kLast: ChainDecimal;
}

/** Total supply after the fee hook at the start of `mint`/`burn`. */
export function supplyAfterFeeHook(totalSupply: ChainDecimal, reserve0: ChainDecimal, reserve1: ChainDecimal, fee: FeeState): ChainDecimal {
  if (!fee.epochCurrent || !fee.feeOn) return totalSupply;
  return totalSupply.plus(protocolFeeLiquidity(totalSupply, reserve0, reserve1, fee.kLast));
}

/** `con_pairs.mint`'s liquidity for deposits `amount0/1` (first mint: √(a0·a1) − MINIMUM_LIQUIDITY). */
export function mintedLiquidity(amount0: ChainDecimal, amount1: ChainDecimal, reserve0: ChainDecimal, reserve1: ChainDecimal, totalSupply: ChainDecimal): ChainDecimal {
  let liquidity: ChainDecimal;
  if (totalSupply.isZero()) {
    liquidity = amount0.times(amount1).sqrt().minus(MINIMUM_LIQUIDITY);
  } else {
    const l0 = amount0.times(totalSupply).div(reserve0);
    const l1 = amount1.times(totalSupply).div(reserve1);
    liquidity = l1.lt(l0) ? l1 : l0;
  }
  check(liquidity.gt(ZERO), 'SNAKX: INSUFFICIENT_LIQUIDITY_MINTED');
  return liquidity;
}

/** `con_pairs.burn`'s payouts: `normalize(token_i, liquidity × balance_i / totalSupply)`. */
export function burnAmounts(liquidity: ChainDecimal, balance0: ChainDecimal, balance1: ChainDecimal, totalSupply: ChainDecimal, precision0: Precision, precision1: Precision): { amount0: ChainDecimal; amount1: ChainDecimal } {
  check(totalSupply.gt(ZERO), 'SNAKX: INSUFFICIENT_LIQUIDITY_BURNED');
  const amount0 = normalizeAmount(liquidity.times(balance0).div(totalSupply), precision0);
  const amount1 = normalizeAmount(liquidity.times(balance1).div(totalSupply), precision1);
  check(amount0.gt(ZERO) && amount1.gt(ZERO), 'SNAKX: INSUFFICIENT_LIQUIDITY_BURNED');
  return { amount0, amount1 };
}

// ---- slippage ---------------------------------------------------------------------------------

const BPS = D('10000');

/** `amount × (1 − bps/10000)`, truncated: the least output a plan accepts. */
export function minusBps(amount: ChainDecimal, bps: number): ChainDecimal {
  return amount.times(ONE.minus(ChainDecimal.from(BigInt(bps)).div(BPS)));
}

/** `amount × (1 + bps/10000)`, rounded *up* to `precision` (exact-out plans' input ceiling). */
export function plusBpsCeil(amount: ChainDecimal, bps: number, precision: Precision): ChainDecimal {
  const exact = amount.times(BPS.plus(ChainDecimal.from(BigInt(bps)))).div(BPS);
  // Truncating division may sit one ulp below the true value; round up at 30 places too.
  const product = amount.scaled * (10_000n + BigInt(bps));
  const up = product % 10_000n === 0n ? exact : ChainDecimal.fromScaled(exact.scaled + 1n);
  return normalizeAmount(up, precision, true);
}

// ---- con_dex_helper -----------------------------------------------------------------------------

/** `1 ± slippage / 100` with a decimal `slippage` (percent), as the helper evaluates it. */
function onePlusPercent(slippagePercent: ChainDecimal, sign: 1 | -1): ChainDecimal {
  const part = slippagePercent.div(HUNDRED);
  return sign > 0 ? ONE.plus(part) : ONE.minus(part);
}

export function checkHelperArguments(amount: ChainDecimal, slippagePercent: ChainDecimal): void {
  check(amount.gt(ZERO), 'Amount must be positive');
  check(slippagePercent.gte(ZERO) && slippagePercent.lte(HUNDRED), 'Slippage must be between 0 and 100%');
}

/** `con_dex_helper.buy`: `getAmountIn(amount, rSell, rBuy, fee) × (1 + s/100) × 1.0001` and the minimum output `amount × (1 − s/100)`. */
export function helperBuy(amount: ChainDecimal, reserveSell: ChainDecimal, reserveBuy: ChainDecimal, feeBps: number, slippagePercent: ChainDecimal): { input: ChainDecimal; minimumOutput: ChainDecimal } {
  checkHelperArguments(amount, slippagePercent);
  const needed = getAmountIn(amount, reserveSell, reserveBuy, feeBps);
  return {
    input: needed.times(onePlusPercent(slippagePercent, 1)).times(HELPER_PAD),
    minimumOutput: amount.times(onePlusPercent(slippagePercent, -1)),
  };
}

/** `con_dex_helper.sell`: expected `getAmountOut(amount, rSell, rBuy, fee)` and the minimum `expected × (1 − s/100)`. */
export function helperSell(amount: ChainDecimal, reserveSell: ChainDecimal, reserveBuy: ChainDecimal, feeBps: number, slippagePercent: ChainDecimal): { expected: ChainDecimal; minimumOutput: ChainDecimal } {
  checkHelperArguments(amount, slippagePercent);
  const expected = getAmountOut(amount, reserveSell, reserveBuy, feeBps);
  return { expected, minimumOutput: expected.times(onePlusPercent(slippagePercent, -1)) };
}
