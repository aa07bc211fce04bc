import type { ChainValue } from 'chainhost/chain';
import {
  ForeignHash, Hash, Variable, arg, defineContract, logEvent, method, optArg, tuple, type ContractContext,
} from '../contract.js';
import { cmp, eq, gt, gte, lte, sub, truthy } from '../num.js';
import { CON_DEX_SOURCE } from './con-dex.source.js';
import {
  DEFAULT_TRADE_FEE_BPS, DEX_PAIRS, TOKEN_INTERFACE, ZERO_TRADE_FEE_BPS, getAmountIn, getAmountOut, normalizeTokenAmount, quote,
} from './dex-math.js';

/**
 * `con_dex`, the router (dex.md §4): fee tiers by signer, precision normalisation, exact-in
 * single and multi-hop swaps with and without fee-on-transfer support, add/remove liquidity.
 * Follows CON_DEX_SOURCE line by line; every pair call is a cross-contract call to `con_pairs`.
 */

const toksToPair = new ForeignHash(DEX_PAIRS, 'toks_to_pair');
const pairsmap = new ForeignHash(DEX_PAIRS, 'pairs', 0n);
const owner = new Variable('owner');
const feeOnTransferTokens = new Hash('fee_on_transfer_tokens', false);
const zeroFeeSigners = new Hash('zero_fee_signers', false);

const ZeroFeeTraderUpdated = logEvent('ZeroFeeTraderUpdated', { account: { type: 'str', idx: true }, enabled: { type: 'bool' } });

function expired(ctx: ContractContext, deadline: ChainValue): void {
  ctx.assert(cmp(ctx.now, deadline, '<') < 0, 'SNAKX: EXPIRED');
}

function canonicalize(a: ChainValue, b: ChainValue): [ChainValue, ChainValue, boolean] {
  return typeof a === 'string' && typeof b === 'string' && b < a ? [b, a, true] : [a, b, false];
}

function actualBalance(ctx: ContractContext, token: ChainValue, address: ChainValue): ChainValue {
  ctx.assert(typeof token === 'string' && ctx.hasInterface(token, TOKEN_INTERFACE), 'SNAKX: INVALID_TOKEN');
  const b = ctx.call(String(token), 'balance_of', { address });
  return b === null ? 0n : b;
}

function transferIntoPairs(ctx: ContractContext, token: ChainValue, src: string, amount: ChainValue): ChainValue {
  ctx.assert(gt(amount, 0n), 'SNAKX: INSUFFICIENT_INPUT_AMOUNT');
  const before = actualBalance(ctx, token, DEX_PAIRS);
  ctx.call(String(token), 'transfer_from', { amount, to: DEX_PAIRS, main_account: src });
  return sub(actualBalance(ctx, token, DEX_PAIRS), before);
}

function pairTokens(ctx: ContractContext, pair: ChainValue): [ChainValue, ChainValue] {
  const token0 = pairsmap.get(ctx, pair, 'token0');
  const token1 = pairsmap.get(ctx, pair, 'token1');
  ctx.assert(truthy(token0) && truthy(token1), 'SNAKX: INVALID_PAIR');
  return [token0, token1];
}

function asPath(ctx: ContractContext, path: ChainValue): ChainValue[] {
  ctx.assert(Array.isArray(path) && path.length >= 1, 'SNAKX: INVALID_PATH');
  return path as ChainValue[];
}

function validatePath(ctx: ContractContext, src: ChainValue, path: ChainValue[]): ChainValue {
  let current = src;
  for (const pair of path) {
    const [token0, token1] = pairTokens(ctx, pair);
    ctx.assert(eq(current, token0) || eq(current, token1), 'SNAKX: INVALID_PATH');
    current = eq(current, token0) ? token1 : token0;
  }
  return current;
}

function assertPlainPath(ctx: ContractContext, src: ChainValue, path: ChainValue[]): ChainValue {
  let current = src;
  ctx.assert(!truthy(feeOnTransferTokens.get(ctx, current)), 'SNAKX: FEE_TOKEN_REQUIRES_SUPPORTING_ROUTE');
  for (const pair of path) {
    const [token0, token1] = pairTokens(ctx, pair);
    ctx.assert(eq(current, token0) || eq(current, token1), 'SNAKX: INVALID_PATH');
    current = eq(current, token0) ? token1 : token0;
    ctx.assert(!truthy(feeOnTransferTokens.get(ctx, current)), 'SNAKX: FEE_TOKEN_REQUIRES_SUPPORTING_ROUTE');
  }
  return current;
}

function assertSupportedFeePath(ctx: ContractContext, src: ChainValue, path: ChainValue[]): ChainValue {
  let current = src;
  path.forEach((pair, index) => {
    const [token0, token1] = pairTokens(ctx, pair);
    ctx.assert(eq(current, token0) || eq(current, token1), 'SNAKX: INVALID_PATH');
    current = eq(current, token0) ? token1 : token0;
    if (index < path.length - 1) {
      ctx.assert(!truthy(feeOnTransferTokens.get(ctx, current)), 'SNAKX: UNSUPPORTED_INTERMEDIATE_FEE_TOKEN');
    }
  });
  return current;
}

function tradeFeeBps(ctx: ContractContext, account: ChainValue = null): bigint {
  const who = truthy(account) ? account : ctx.signer;
  return truthy(zeroFeeSigners.get(ctx, who)) ? ZERO_TRADE_FEE_BPS : DEFAULT_TRADE_FEE_BPS;
}

function getReserves(ctx: ContractContext, pair: ChainValue): ChainValue[] {
  return ctx.call(DEX_PAIRS, 'getReserves', { pair }) as ChainValue[];
}

function sync2(ctx: ContractContext, pair: ChainValue, amount0: ChainValue, amount1: ChainValue): void {
  ctx.call(DEX_PAIRS, 'sync2', { pair, amount0, amount1 });
}

function routerSwap(ctx: ContractContext, pair: ChainValue, srcIs0: boolean, amount: ChainValue, to: ChainValue, fee: bigint, toPair: boolean): void {
  ctx.call(DEX_PAIRS, toPair ? 'routerSwapToPair' : 'routerSwap', {
    pair, amount0Out: srcIs0 ? 0n : amount, amount1Out: srcIs0 ? amount : 0n, to, fee_bps: fee,
  });
}

function getAmountsOut(ctx: ContractContext, amountIn: ChainValue, srcIn: ChainValue, path: ChainValue[]): ChainValue[] {
  const fee = tradeFeeBps(ctx);
  let src = srcIn;
  const first = normalizeTokenAmount(ctx, String(src), amountIn);
  validatePath(ctx, src, path);
  const amounts: ChainValue[] = [first];
  path.forEach((pair, x) => {
    const [token0, token1] = pairTokens(ctx, pair);
    const [reserve0, reserve1] = getReserves(ctx, pair);
    let reserveIn: ChainValue;
    let reserveOut: ChainValue;
    if (eq(src, token0)) { reserveIn = reserve0!; reserveOut = reserve1!; src = token1; }
    else { reserveIn = reserve1!; reserveOut = reserve0!; src = token0; }
    amounts.push(normalizeTokenAmount(ctx, String(src), getAmountOut(amounts[x]!, reserveIn, reserveOut, fee)));
  });
  return amounts;
}

function internalSwap(ctx: ContractContext, amounts: ChainValue[], srcIn: ChainValue, path: ChainValue[], to: ChainValue, fee: bigint): void {
  ctx.assert(amounts.length === path.length + 1, 'SNAKX: INVALID_LENGTHS');
  let src = srcIn;
  for (let x = 0; x < path.length - 1; x++) {
    const [token0, token1] = pairTokens(ctx, path[x]!);
    const order = eq(src, token0);
    src = order ? token1 : token0;
    routerSwap(ctx, path[x]!, order, amounts[x + 1]!, path[x + 1]!, fee, true);
  }
  const [token0] = pairTokens(ctx, path[path.length - 1]!);
  routerSwap(ctx, path[path.length - 1]!, eq(src, token0), amounts[amounts.length - 1]!, to, fee, false);
}

function swapSingleSupportingFee(ctx: ContractContext, a: Record<string, ChainValue>): ChainValue {
  expired(ctx, a.deadline!);
  const pair = a.pair!;
  const src = a.src!;
  const tokenOut = assertSupportedFeePath(ctx, src, [pair]);
  const amountIn = normalizeTokenAmount(ctx, String(src), a.amountIn!);
  const amountOutMin = normalizeTokenAmount(ctx, String(tokenOut), a.amountOutMin!);
  const fee = tradeFeeBps(ctx);
  const [token0] = pairTokens(ctx, pair);
  const order = eq(src, token0);
  const before = actualBalance(ctx, tokenOut, a.to!);
  const actualIn = transferIntoPairs(ctx, src, ctx.caller, amountIn);
  if (order) sync2(ctx, pair, actualIn, 0n);
  else sync2(ctx, pair, 0n, actualIn);
  let [reserve0, reserve1] = getReserves(ctx, pair);
  const [sur0, sur1] = ctx.call(DEX_PAIRS, 'getSurplus', { pair }) as ChainValue[];
  if (!order) [reserve0, reserve1] = [reserve1, reserve0];
  const amount = normalizeTokenAmount(ctx, String(tokenOut), getAmountOut(order ? sur0! : sur1!, reserve0!, reserve1!, fee));
  routerSwap(ctx, pair, order, amount, a.to!, fee, false);
  const received = sub(actualBalance(ctx, tokenOut, a.to!), before);
  ctx.assert(gte(received, amountOutMin), 'SNAKX: INSUFFICIENT_OUTPUT_AMOUNT');
  return received;
}

const SWAP_ARGS = [arg('amountIn', 'float'), arg('amountOutMin', 'float'), arg('pair', 'int'), arg('src', 'str'), arg('to', 'str'), arg('deadline', 'datetime.datetime')];
const PATH_SWAP_ARGS = [arg('amountIn', 'float'), arg('amountOutMin', 'float'), arg('path', 'list'), arg('src', 'str'), arg('to', 'str'), arg('deadline', 'datetime.datetime')];
const ROUTER_COST = 6_000;

export const conDex = defineContract({
  id: 'con_dex',
  source: CON_DEX_SOURCE,
  imports: [],
  storage: [owner, feeOnTransferTokens, zeroFeeSigners],
  events: [ZeroFeeTraderUpdated],
  constructorMethod: method('constructor', [], (ctx) => {
    owner.set(ctx, ctx.caller);
  }),
  methods: [
    method('set_fee_on_transfer_token', [arg('token', 'str'), arg('enabled', 'bool')], (ctx, a) => {
      ctx.assert(eq(ctx.caller, owner.get(ctx)), 'SNAKX: FORBIDDEN');
      feeOnTransferTokens.set(ctx, a.token!, a.enabled!);
    }),
    method('set_zero_fee_trader', [arg('account', 'str'), arg('enabled', 'bool')], (ctx, a) => {
      ctx.assert(eq(ctx.caller, owner.get(ctx)), 'SNAKX: FORBIDDEN');
      zeroFeeSigners.set(ctx, a.account!, a.enabled!);
      ctx.emit(ZeroFeeTraderUpdated, { account: a.account!, enabled: a.enabled! });
    }),
    method('getTradeFeeBps', [optArg('account', 'str', null)], (ctx, a) => tradeFeeBps(ctx, a.account!)),
    method('getAmountOut', [arg('amountIn', 'float'), arg('reserveIn', 'float'), arg('reserveOut', 'float'), optArg('feeBps', 'int', 30n)],
      (_ctx, a) => getAmountOut(a.amountIn!, a.reserveIn!, a.reserveOut!, a.feeBps!)),
    method('getAmountIn', [arg('amountOut', 'float'), arg('reserveIn', 'float'), arg('reserveOut', 'float'), optArg('feeBps', 'int', 30n)],
      (_ctx, a) => getAmountIn(a.amountOut!, a.reserveIn!, a.reserveOut!, a.feeBps!)),
    method('quote', [arg('a', 'float'), arg('rA', 'float'), arg('rB', 'float')], (_ctx, a) => quote(a.a!, a.rA!, a.rB!)),
    method('getAmountsOut', [arg('amountIn', 'float'), arg('src', 'str'), arg('path', 'list')],
      (ctx, a) => getAmountsOut(ctx, a.amountIn!, a.src!, asPath(ctx, a.path!)), 3_000),
    method('swapExactTokenForToken', SWAP_ARGS, (ctx, a) => {
      expired(ctx, a.deadline!);
      const pair = a.pair!;
      const src = a.src!;
      const tokenOut = assertPlainPath(ctx, src, [pair]);
      const amountIn = normalizeTokenAmount(ctx, String(src), a.amountIn!);
      const amountOutMin = normalizeTokenAmount(ctx, String(tokenOut), a.amountOutMin!);
      const fee = tradeFeeBps(ctx);
      const [token0] = pairTokens(ctx, pair);
      let [reserve0, reserve1] = getReserves(ctx, pair);
      const order = eq(src, token0);
      if (!order) [reserve0, reserve1] = [reserve1, reserve0];
      const amount = normalizeTokenAmount(ctx, String(tokenOut), getAmountOut(amountIn, reserve0!, reserve1!, fee));
      ctx.assert(gte(amount, amountOutMin), 'SNAKX: INSUFFICIENT_OUTPUT_AMOUNT');
      const actualIn = transferIntoPairs(ctx, src, ctx.caller, amountIn);
      if (order) sync2(ctx, pair, actualIn, 0n);
      else sync2(ctx, pair, 0n, actualIn);
      routerSwap(ctx, pair, order, amount, a.to!, fee, false);
      return amount;
    }, ROUTER_COST),
    method('swapExactTokenForTokenSupportingFeeOnTransferTokens', SWAP_ARGS, (ctx, a) => swapSingleSupportingFee(ctx, a), ROUTER_COST),
    method('swapExactTokensForTokens', PATH_SWAP_ARGS, (ctx, a) => {
      expired(ctx, a.deadline!);
      const src = a.src!;
      const path = asPath(ctx, a.path!);
      const tokenOut = assertPlainPath(ctx, src, path);
      const amountIn = normalizeTokenAmount(ctx, String(src), a.amountIn!);
      const amountOutMin = normalizeTokenAmount(ctx, String(tokenOut), a.amountOutMin!);
      const fee = tradeFeeBps(ctx);
      const amounts = getAmountsOut(ctx, amountIn, src, path);
      ctx.assert(gte(amounts[amounts.length - 1], amountOutMin), 'SNAKX: INSUFFICIENT_OUTPUT_AMOUNT');
      const actualIn = transferIntoPairs(ctx, src, ctx.caller, amountIn);
      if (eq(pairsmap.get(ctx, path[0]!, 'token0'), src)) sync2(ctx, path[0]!, actualIn, 0n);
      else sync2(ctx, path[0]!, 0n, actualIn);
      internalSwap(ctx, amounts, src, path, a.to!, fee);
      return amounts[amounts.length - 1]!;
    }, ROUTER_COST),
    method('swapExactTokensForTokensSupportingFeeOnTransferTokens', PATH_SWAP_ARGS, (ctx, a) => {
      const path = asPath(ctx, a.path!);
      if (path.length === 1) {
        return swapSingleSupportingFee(ctx, { ...a, pair: path[0]! });
      }
      expired(ctx, a.deadline!);
      const src = a.src!;
      const tokenOut = assertSupportedFeePath(ctx, src, path);
      const amountIn = normalizeTokenAmount(ctx, String(src), a.amountIn!);
      const amountOutMin = normalizeTokenAmount(ctx, String(tokenOut), a.amountOutMin!);
      const fee = tradeFeeBps(ctx);
      const order = eq(pairsmap.get(ctx, path[0]!, 'token0'), src);
      const before = actualBalance(ctx, tokenOut, a.to!);
      const actualIn = transferIntoPairs(ctx, src, ctx.caller, amountIn);
      if (order) sync2(ctx, path[0]!, actualIn, 0n);
      else sync2(ctx, path[0]!, 0n, actualIn);
      const [sur0, sur1] = ctx.call(DEX_PAIRS, 'getSurplus', { pair: path[0]! }) as ChainValue[];
      const amounts = getAmountsOut(ctx, order ? sur0! : sur1!, src, path);
      ctx.assert(gte(amounts[amounts.length - 1], amountOutMin), 'SNAKX: INSUFFICIENT_OUTPUT_AMOUNT');
      internalSwap(ctx, amounts, src, path, a.to!, fee);
      const received = sub(actualBalance(ctx, tokenOut, a.to!), before);
      ctx.assert(gte(received, amountOutMin), 'SNAKX: INSUFFICIENT_OUTPUT_AMOUNT');
      return received;
    }, ROUTER_COST),
    method('addLiquidity', [
      arg('tokenA', 'str'), arg('tokenB', 'str'), arg('amountADesired', 'float'), arg('amountBDesired', 'float'),
      arg('amountAMin', 'float'), arg('amountBMin', 'float'), arg('to', 'str'), arg('deadline', 'datetime.datetime'),
      optArg('lpToken', 'str', null),
    ], (ctx, a) => {
      expired(ctx, a.deadline!);
      const [tokenA, tokenB, reversed] = canonicalize(a.tokenA!, a.tokenB!);
      let [aDes, bDes, aMin, bMin]: ChainValue[] = [a.amountADesired!, a.amountBDesired!, a.amountAMin!, a.amountBMin!];
      if (reversed) { [aDes, bDes] = [bDes, aDes]; [aMin, bMin] = [bMin, aMin]; }
      aDes = normalizeTokenAmount(ctx, String(tokenA), aDes);
      bDes = normalizeTokenAmount(ctx, String(tokenB), bDes);
      aMin = normalizeTokenAmount(ctx, String(tokenA), aMin);
      bMin = normalizeTokenAmount(ctx, String(tokenB), bMin);
      ctx.assert(gt(aDes, 0n) && gt(bDes, 0n), 'SNAKX: INSUFFICIENT_AMOUNT');

      let pair = toksToPair.get(ctx, tokenA, tokenB);
      if (pair === null) pair = ctx.call(DEX_PAIRS, 'createPair', { tokenA, tokenB, lpToken: a.lpToken! });
      else if (a.lpToken !== null) ctx.assert(eq(a.lpToken, ctx.call(DEX_PAIRS, 'lpTokenFor', { pair })), 'SNAKX: LP_TOKEN_MISMATCH');

      const [reserveA, reserveB] = getReserves(ctx, pair);
      let amountA: ChainValue;
      let amountB: ChainValue;
      if (eq(reserveA, 0n) && eq(reserveB, 0n)) {
        [amountA, amountB] = [aDes, bDes];
      } else {
        const bOpt = normalizeTokenAmount(ctx, String(tokenB), quote(aDes, reserveA!, reserveB!));
        if (lte(bOpt, bDes)) {
          ctx.assert(gte(bOpt, bMin), 'SNAKX: INSUFFICIENT_B_AMOUNT');
          [amountA, amountB] = [aDes, bOpt];
        } else {
          const aOpt = normalizeTokenAmount(ctx, String(tokenA), quote(bDes, reserveB!, reserveA!));
          ctx.assert(lte(aOpt, aDes));
          ctx.assert(gte(aOpt, aMin), 'SNAKX: INSUFFICIENT_A_AMOUNT');
          [amountA, amountB] = [aOpt, bDes];
        }
      }
      const actualA = transferIntoPairs(ctx, tokenA, ctx.caller, amountA);
      const actualB = transferIntoPairs(ctx, tokenB, ctx.caller, amountB);
      sync2(ctx, pair, actualA, actualB);
      ctx.assert(gte(actualA, aMin), 'SNAKX: INSUFFICIENT_A_AMOUNT');
      ctx.assert(gte(actualB, bMin), 'SNAKX: INSUFFICIENT_B_AMOUNT');
      const liquidity = ctx.call(DEX_PAIRS, 'mint', { pair, to: a.to! });
      return reversed ? tuple(actualB, actualA, liquidity) : tuple(actualA, actualB, liquidity);
    }, 8_000),
    method('removeLiquidity', [
      arg('tokenA', 'str'), arg('tokenB', 'str'), arg('liquidity', 'float'), arg('amountAMin', 'float'),
      arg('amountBMin', 'float'), arg('to', 'str'), arg('deadline', 'datetime.datetime'),
    ], (ctx, a) => {
      expired(ctx, a.deadline!);
      const [tokenA, tokenB, reversed] = canonicalize(a.tokenA!, a.tokenB!);
      let [aMin, bMin]: ChainValue[] = [a.amountAMin!, a.amountBMin!];
      if (reversed) [aMin, bMin] = [bMin, aMin];
      aMin = normalizeTokenAmount(ctx, String(tokenA), aMin);
      bMin = normalizeTokenAmount(ctx, String(tokenB), bMin);
      const pair = toksToPair.get(ctx, tokenA, tokenB);
      ctx.assert(pair !== null, 'SNAKX: NO_PAIR');
      const beforeA = actualBalance(ctx, tokenA, a.to!);
      const beforeB = actualBalance(ctx, tokenB, a.to!);
      const lp = ctx.call(DEX_PAIRS, 'lpTokenFor', { pair });
      ctx.call(String(lp), 'transfer_from', { amount: a.liquidity!, to: DEX_PAIRS, main_account: ctx.caller });
      ctx.call(DEX_PAIRS, 'burn', { pair, to: a.to! });
      const actualA = sub(actualBalance(ctx, tokenA, a.to!), beforeA);
      const actualB = sub(actualBalance(ctx, tokenB, a.to!), beforeB);
      ctx.assert(gte(actualA, aMin), 'SNAKX: INSUFFICIENT_A_AMOUNT');
      ctx.assert(gte(actualB, bMin), 'SNAKX: INSUFFICIENT_B_AMOUNT');
      return reversed ? tuple(actualB, actualA) : tuple(actualA, actualB);
    }, 8_000),
  ],
});
