import { ChainDecimal, type ChainValue } from 'chainhost/chain';
import {
  Hash, NUMBER, Variable, arg, defineContract, logEvent, method, optArg, tuple, type ContractContext, type FunctionShape,
  type VariableShape,
} from '../contract.js';
import { add, div, eq, gt, gte, lt, lte, min, mul, sqrt, sub, truthy, type Num } from '../num.js';
import { CON_PAIRS_SOURCE } from './con-pairs.source.js';
import {
  DEX_ROUTER, MAXIMUM_BALANCE, MINIMUM_LIQUIDITY, TOKEN_INTERFACE, assertFeeBps, balanceOf, feeRate, normalizeTokenAmount,
} from './dex-math.js';
import { adjust } from './storage-ops.js';

/**
 * `con_pairs`: pair registry and AMM core (dex.md §3), statement by statement in the order of
 * CON_PAIRS_SOURCE. Pair balances are bookkept (`balance0/1`), reserves follow them after every
 * mint/burn/swap, and the recorded `balances:<token>` detect what was really deposited.
 */

const DEC_ZERO = ChainDecimal.ZERO;

const toksToPair = new Hash('toks_to_pair');
const pairs = new Hash('pairs', 0n);
const pairsNum = new Variable('pairs_num');
const feeTo = new Variable('feeTo');
const owner = new Variable('owner');
const feeEpoch = new Variable('fee_epoch', 0n);
const balances = new Hash('balances', DEC_ZERO);
const registeredLpTokens = new Hash('registered_lp_tokens');
const registeredLpTokenPairs = new Hash('registered_lp_token_pairs', false);
const LOCK = new Variable('LOCK');

const PairCreated = logEvent('PairCreated', { token0: { type: 'str', idx: true }, token1: { type: 'str', idx: true }, pair: { type: 'int' } });
const LpTokenRegistered = logEvent('LpTokenRegistered', { token0: { type: 'str', idx: true }, token1: { type: 'str', idx: true }, lpToken: { type: 'str' } });
const MintEvent = logEvent('Mint', { pair: { type: 'int', idx: true }, amount0: { type: NUMBER }, amount1: { type: NUMBER }, to: { type: 'str', idx: true } });
const BurnEvent = logEvent('Burn', { pair: { type: 'int', idx: true }, amount0: { type: NUMBER }, amount1: { type: NUMBER }, to: { type: 'str', idx: true } });
const SwapEvent = logEvent('Swap', {
  pair: { type: 'int', idx: true },
  amount0In: { type: NUMBER }, amount1In: { type: NUMBER }, amount0Out: { type: NUMBER }, amount1Out: { type: NUMBER },
  to: { type: ['str', 'int'], idx: true },
});
const SyncEvent = logEvent('Sync', { pair: { type: 'int', idx: true }, reserve0: { type: NUMBER }, reserve1: { type: NUMBER } });

const LP_TOKEN_FUNCTIONS: readonly FunctionShape[] = [
  { name: 'change_metadata', args: ['key', 'value'] },
  { name: 'transfer', args: ['amount', 'to'] },
  { name: 'approve', args: ['amount', 'to'] },
  { name: 'transfer_from', args: ['amount', 'to', 'main_account'] },
  { name: 'balance_of', args: ['address'] },
  { name: 'mint', args: ['amount', 'to'] },
  { name: 'burn', args: ['amount'] },
  { name: 'get_metadata', args: [] },
];
const LP_TOKEN_VARIABLES: readonly VariableShape[] = [
  { name: 'balances', kind: 'Hash' }, { name: 'approvals', kind: 'Hash' }, { name: 'metadata', kind: 'Hash' },
];

function requireOwner(ctx: ContractContext): void {
  ctx.assert(eq(ctx.caller, owner.get(ctx)), 'SNAKX: FORBIDDEN');
}

function requireRouter(ctx: ContractContext): void {
  ctx.assert(ctx.caller === DEX_ROUTER, 'SNAKX: FORBIDDEN');
}

function lock(ctx: ContractContext): void {
  ctx.assert(!truthy(LOCK.get(ctx)), 'SNAKX: LOCKED');
  LOCK.set(ctx, true);
}

function unlock(ctx: ContractContext): void {
  LOCK.set(ctx, false);
}

function validToken(ctx: ContractContext, token: ChainValue): boolean {
  return typeof token === 'string' && ctx.hasInterface(token, TOKEN_INTERFACE);
}

function sortTokens(a: ChainValue, b: ChainValue): [ChainValue, ChainValue] {
  return typeof a === 'string' && typeof b === 'string' && b < a ? [b, a] : [a, b];
}

function feeIsOn(ctx: ContractContext): boolean {
  return feeTo.get(ctx) !== false;
}

function actualBalance(ctx: ContractContext, token: ChainValue): ChainValue {
  return balanceOf(ctx, String(token), ctx.this);
}

function reserves(ctx: ContractContext, pair: ChainValue): [ChainValue, ChainValue, ChainValue] {
  return [pairs.get(ctx, pair, 'reserve0'), pairs.get(ctx, pair, 'reserve1'), pairs.get(ctx, pair, 'blockTimestampLast')];
}

function safeTransferFromPair(ctx: ContractContext, pair: ChainValue, token: ChainValue, to: ChainValue, value: ChainValue): void {
  ctx.assert(gte(value, 0n) && lte(value, MAXIMUM_BALANCE), 'p2a Invalid value!');
  const prev = actualBalance(ctx, token);
  let side: 'balance0' | 'balance1';
  if (eq(token, pairs.get(ctx, pair, 'token0'))) side = 'balance0';
  else if (eq(token, pairs.get(ctx, pair, 'token1'))) side = 'balance1';
  else return ctx.assert(false, 'p2a Wrong token!');
  ctx.assert(gte(pairs.get(ctx, pair, side), value), 'p2a Not enough coins to send!');
  ctx.call(String(token), 'transfer', { amount: value, to });
  const next = actualBalance(ctx, token);
  ctx.assert(gte(next, 0n), 'p2a Negative balance!');
  adjust(ctx, pairs, [pair, side], sub(next, prev));
  ctx.assert(gte(pairs.get(ctx, pair, side), 0n), side === 'balance0' ? 'p2a Negative pair balance0!' : 'p2a Negative pair balance1!');
}

function safeTransferFromPairToPair(ctx: ContractContext, pair: ChainValue, token: ChainValue, to: ChainValue, value: ChainValue): void {
  ctx.assert(gte(value, 0n) && lte(value, MAXIMUM_BALANCE), 'p2p Invalid value!');
  let side: 'balance0' | 'balance1';
  if (eq(token, pairs.get(ctx, pair, 'token0'))) side = 'balance0';
  else if (eq(token, pairs.get(ctx, pair, 'token1'))) side = 'balance1';
  else return ctx.assert(false, 'p2p Wrong token!');
  ctx.assert(gte(pairs.get(ctx, pair, side), value), 'p2p Not enough coins to send!');
  adjust(ctx, pairs, [pair, side], value, true);
  if (eq(pairs.get(ctx, to, 'token0'), token)) adjust(ctx, pairs, [to, 'balance0'], value);
  else if (eq(pairs.get(ctx, to, 'token1'), token)) adjust(ctx, pairs, [to, 'balance1'], value);
  else ctx.assert(false, 'p2p No token in TO');
  ctx.assert(gte(pairs.get(ctx, pair, side), 0n), 'p2p Negative balance!');
}

function recordBalances(ctx: ContractContext, pair: ChainValue): void {
  const token0 = pairs.get(ctx, pair, 'token0');
  const token1 = pairs.get(ctx, pair, 'token1');
  balances.set(ctx, token0, actualBalance(ctx, token0));
  balances.set(ctx, token1, actualBalance(ctx, token1));
}

function internalUpdate(ctx: ContractContext, pair: ChainValue, balance0: ChainValue, balance1: ChainValue): void {
  ctx.assert(lte(balance0, MAXIMUM_BALANCE) && lte(balance1, MAXIMUM_BALANCE), 'SNAKX: BALANCE OVERFLOW');
  pairs.set(ctx, [pair, 'reserve0'], balance0);
  pairs.set(ctx, [pair, 'reserve1'], balance1);
  pairs.set(ctx, [pair, 'blockTimestampLast'], ctx.now);
  ctx.emit(SyncEvent, { pair, reserve0: balance0, reserve1: balance1 });
}

function internalMint(ctx: ContractContext, pair: ChainValue, to: ChainValue, value: ChainValue): void {
  adjust(ctx, pairs, [pair, 'totalSupply'], value);
  ctx.call(String(pairs.get(ctx, pair, 'lpToken')), 'mint', { amount: value, to });
}

/** The protocol-fee hook at the start of mint and burn: 1/6 of √k growth to `feeTo`. */
function internalMintFee(ctx: ContractContext, pair: ChainValue, reserve0: ChainValue, reserve1: ChainValue): boolean {
  const feeOn = feeIsOn(ctx);
  if (!eq(pairs.get(ctx, pair, 'feeEpoch'), feeEpoch.get(ctx))) {
    pairs.set(ctx, [pair, 'feeEpoch'], feeEpoch.get(ctx));
    pairs.set(ctx, [pair, 'kLast'], feeOn ? mul(reserve0, reserve1) : DEC_ZERO);
    return feeOn;
  }
  const kLast = pairs.get(ctx, pair, 'kLast');
  if (feeOn) {
    if (!eq(kLast, 0n)) {
      const rootK = sqrt(mul(reserve0, reserve1));
      const rootKLast = sqrt(kLast);
      if (gt(rootK, rootKLast)) {
        const numerator = mul(pairs.get(ctx, pair, 'totalSupply'), sub(rootK, rootKLast));
        const denominator = add(mul(rootK, 5n), rootKLast);
        const liquidity = div(numerator, denominator);
        if (gt(liquidity, 0n)) internalMint(ctx, pair, feeTo.get(ctx), liquidity);
      }
    }
  } else if (!eq(kLast, 0n)) {
    pairs.set(ctx, [pair, 'kLast'], DEC_ZERO);
  }
  return feeOn;
}

function swapCore(ctx: ContractContext, pair: ChainValue, amount0OutIn: ChainValue, amount1OutIn: ChainValue, to: ChainValue, feeBps: ChainValue, toPair: boolean): void {
  assertFeeBps(feeBps);
  lock(ctx);
  ctx.assert(gt(amount0OutIn, 0n) || gt(amount1OutIn, 0n), 'SNAKX: INSUFFICIENT_OUTPUT_AMOUNT');
  const [reserve0, reserve1] = reserves(ctx, pair);
  ctx.assert(lt(amount0OutIn, reserve0) && lt(amount1OutIn, reserve1), 'SNAKX: INSUFFICIENT_LIQUIDITY');
  const token0 = pairs.get(ctx, pair, 'token0');
  const token1 = pairs.get(ctx, pair, 'token1');
  if (!toPair) ctx.assert(!eq(to, token0) && !eq(to, token1), 'SNAKX: INVALID_TO');

  const amount0Out = normalizeTokenAmount(ctx, String(token0), amount0OutIn);
  const amount1Out = normalizeTokenAmount(ctx, String(token1), amount1OutIn);
  ctx.assert(gt(amount0Out, 0n) || gt(amount1Out, 0n), 'SNAKX: INSUFFICIENT_OUTPUT_AMOUNT');
  ctx.assert(lt(amount0Out, reserve0) && lt(amount1Out, reserve1), 'SNAKX: INSUFFICIENT_LIQUIDITY');

  if (gt(amount0Out, 0n)) {
    if (toPair) safeTransferFromPairToPair(ctx, pair, token0, to, amount0Out);
    else safeTransferFromPair(ctx, pair, token0, to, amount0Out);
  }
  if (gt(amount1Out, 0n)) {
    if (toPair) safeTransferFromPairToPair(ctx, pair, token1, to, amount1Out);
    else safeTransferFromPair(ctx, pair, token1, to, amount1Out);
  }

  const balance0 = pairs.get(ctx, pair, 'balance0');
  const balance1 = pairs.get(ctx, pair, 'balance1');
  const rest0 = sub(reserve0, amount0Out);
  const rest1 = sub(reserve1, amount1Out);
  const amount0In: Num = gt(balance0, rest0) ? sub(balance0, rest0) : 0n;
  const amount1In: Num = gt(balance1, rest1) ? sub(balance1, rest1) : 0n;
  ctx.assert(gt(amount0In, 0n) || gt(amount1In, 0n), 'SNAKX: INSUFFICIENT_INPUT_AMOUNT');
  const rate = feeRate(feeBps);
  const balance0Adjusted = sub(balance0, mul(amount0In, rate));
  const balance1Adjusted = sub(balance1, mul(amount1In, rate));
  ctx.assert(gte(mul(balance0Adjusted, balance1Adjusted), mul(reserve0, reserve1)), 'SNAKX: K');

  internalUpdate(ctx, pair, balance0, balance1);
  if (!toPair) recordBalances(ctx, pair);
  ctx.emit(SwapEvent, { pair, amount0In, amount1In, amount0Out, amount1Out, to });
  unlock(ctx);
}

const SWAP_COST = 6_000;

export const conPairs = defineContract({
  id: 'con_pairs',
  source: CON_PAIRS_SOURCE,
  storage: [toksToPair, pairs, pairsNum, feeTo, owner, feeEpoch, balances, registeredLpTokens, registeredLpTokenPairs, LOCK],
  events: [PairCreated, LpTokenRegistered, MintEvent, BurnEvent, SwapEvent, SyncEvent],
  constructorMethod: method('constructor', [], (ctx) => {
    pairsNum.set(ctx, 0n);
    owner.set(ctx, ctx.caller);
    feeTo.set(ctx, false);
    feeEpoch.set(ctx, 0n);
    LOCK.set(ctx, false);
  }),
  methods: [
    method('enableFee', [arg('en', 'bool')], (ctx, a) => {
      requireOwner(ctx);
      ctx.assert(typeof a.en === 'boolean', 'SNAKX: INVALID_FEE_STATE');
      if (feeIsOn(ctx) === a.en) return null;
      feeTo.set(ctx, a.en ? owner.get(ctx) : false);
      feeEpoch.set(ctx, add(feeEpoch.get(ctx), 1n));
      return null;
    }),
    method('registerLpToken', [arg('tokenA', 'str'), arg('tokenB', 'str'), arg('lpToken', 'str')], (ctx, a) => {
      requireOwner(ctx);
      ctx.assert(!eq(a.tokenA, a.tokenB), 'SNAKX: IDENTICAL_ADDRESSES');
      const [token0, token1] = sortTokens(a.tokenA!, a.tokenB!);
      ctx.assert(validToken(ctx, token0) && validToken(ctx, token1), 'SNAKX: INVALID_TOKEN');
      ctx.assert(toksToPair.get(ctx, token0, token1) === null, 'SNAKX: PAIR_EXISTS');
      ctx.assert(registeredLpTokens.get(ctx, token0, token1) === null, 'SNAKX: LP_TOKEN_ALREADY_REGISTERED');
      ctx.assert(!truthy(registeredLpTokenPairs.get(ctx, a.lpToken!)), 'SNAKX: LP_TOKEN_ALREADY_REGISTERED');
      ctx.assert(!eq(a.lpToken, token0) && !eq(a.lpToken, token1), 'SNAKX: INVALID_LP_TOKEN');
      ctx.assert(typeof a.lpToken === 'string' && ctx.hasInterface(a.lpToken, LP_TOKEN_FUNCTIONS, LP_TOKEN_VARIABLES), 'SNAKX: INVALID_LP_TOKEN');
      registeredLpTokens.set(ctx, [token0, token1], a.lpToken);
      registeredLpTokenPairs.set(ctx, a.lpToken, true);
      ctx.emit(LpTokenRegistered, { token0, token1, lpToken: a.lpToken });
      return a.lpToken;
    }, 4_000),
    method('registeredLpTokenFor', [arg('tokenA', 'str'), arg('tokenB', 'str')], (ctx, a) => {
      const [token0, token1] = sortTokens(a.tokenA!, a.tokenB!);
      return registeredLpTokens.get(ctx, token0, token1);
    }),
    method('createPair', [arg('tokenA', 'str'), arg('tokenB', 'str'), optArg('lpToken', 'str', null)], (ctx, a) => {
      const tokenA = a.tokenA!;
      const tokenB = a.tokenB!;
      ctx.assert(!eq(tokenA, tokenB), 'SNAKX: IDENTICAL_ADDRESSES');
      ctx.assert(lt(tokenA, tokenB), 'SNAKX: BAD_ORDER');
      ctx.assert(validToken(ctx, tokenA) && validToken(ctx, tokenB), 'SNAKX: INVALID_TOKEN');
      ctx.assert(toksToPair.get(ctx, tokenA, tokenB) === null, 'SNAKX: PAIR_EXISTS');
      const registered = registeredLpTokens.get(ctx, tokenA, tokenB);
      ctx.assert(registered !== null, 'SNAKX: LP_TOKEN_NOT_REGISTERED');
      if (a.lpToken !== null) ctx.assert(eq(a.lpToken, registered), 'SNAKX: LP_TOKEN_MISMATCH');

      const id = add(pairsNum.get(ctx), 1n);
      pairsNum.set(ctx, id);
      pairs.set(ctx, [id, 'token0'], tokenA);
      pairs.set(ctx, [id, 'token1'], tokenB);
      pairs.set(ctx, [id, 'reserve0'], DEC_ZERO);
      pairs.set(ctx, [id, 'reserve1'], DEC_ZERO);
      pairs.set(ctx, [id, 'balance0'], DEC_ZERO);
      pairs.set(ctx, [id, 'balance1'], DEC_ZERO);
      pairs.set(ctx, [id, 'blockTimestampLast'], ctx.now);
      pairs.set(ctx, [id, 'totalSupply'], DEC_ZERO);
      pairs.set(ctx, [id, 'kLast'], DEC_ZERO);
      pairs.set(ctx, [id, 'creationTime'], ctx.now);
      pairs.set(ctx, [id, 'lpToken'], registered);
      pairs.set(ctx, [id, 'feeEpoch'], feeEpoch.get(ctx));
      toksToPair.set(ctx, [tokenA, tokenB], id);
      ctx.emit(PairCreated, { token0: tokenA, token1: tokenB, pair: id });
      return id;
    }, 5_000),
    method('pairFor', [arg('tokenA', 'str'), arg('tokenB', 'str')], (ctx, a) => {
      const [token0, token1] = sortTokens(a.tokenA!, a.tokenB!);
      return toksToPair.get(ctx, token0, token1);
    }),
    method('lpTokenFor', [arg('pair', 'int')], (ctx, a) => {
      ctx.assert(truthy(pairs.get(ctx, a.pair!, 'token0')), 'SNAKX: INVALID_PAIR');
      const lp = pairs.get(ctx, a.pair!, 'lpToken');
      ctx.assert(truthy(lp), 'SNAKX: NO_LP_TOKEN');
      return lp;
    }),
    method('sync2', [arg('pair', 'int'), optArg('amount0', 'float', DEC_ZERO), optArg('amount1', 'float', DEC_ZERO)], (ctx, a) => {
      requireRouter(ctx);
      lock(ctx);
      const pair = a.pair!;
      const token0 = pairs.get(ctx, pair, 'token0');
      const token1 = pairs.get(ctx, pair, 'token1');
      const bal0 = actualBalance(ctx, token0);
      const bal1 = actualBalance(ctx, token1);
      ctx.assert(gte(bal0, add(balances.get(ctx, token0), a.amount0!)), 'SNAKX: token0_missing');
      ctx.assert(gte(bal1, add(balances.get(ctx, token1), a.amount1!)), 'SNAKX: token1_missing');
      adjust(ctx, pairs, [pair, 'balance0'], a.amount0!);
      adjust(ctx, pairs, [pair, 'balance1'], a.amount1!);
      ctx.assert(lte(pairs.get(ctx, pair, 'balance0'), MAXIMUM_BALANCE), 'SNAKX: TokenA OVERFLOW');
      ctx.assert(lte(pairs.get(ctx, pair, 'balance1'), MAXIMUM_BALANCE), 'SNAKX: TokenB OVERFLOW');
      adjust(ctx, balances, [token0], a.amount0!);
      adjust(ctx, balances, [token1], a.amount1!);
      unlock(ctx);
      return null;
    }, 4_000),
    method('getReserves', [arg('pair', 'int')], (ctx, a) => tuple(...reserves(ctx, a.pair!))),
    method('getSurplus', [arg('pair', 'int')], (ctx, a) => tuple(
      sub(pairs.get(ctx, a.pair!, 'balance0'), pairs.get(ctx, a.pair!, 'reserve0')),
      sub(pairs.get(ctx, a.pair!, 'balance1'), pairs.get(ctx, a.pair!, 'reserve1')),
    )),
    method('mint', [arg('pair', 'int'), arg('to', 'str')], (ctx, a) => {
      const pair = a.pair!;
      lock(ctx);
      const [reserve0, reserve1] = reserves(ctx, pair);
      const balance0 = pairs.get(ctx, pair, 'balance0');
      const balance1 = pairs.get(ctx, pair, 'balance1');
      const amount0 = sub(balance0, reserve0);
      const amount1 = sub(balance1, reserve1);
      const feeOn = internalMintFee(ctx, pair, reserve0, reserve1);
      const totalSupply = pairs.get(ctx, pair, 'totalSupply');
      let liquidity: Num;
      if (eq(totalSupply, 0n)) {
        liquidity = sub(sqrt(mul(amount0, amount1)), MINIMUM_LIQUIDITY);
        internalMint(ctx, pair, 'DEAD', MINIMUM_LIQUIDITY);
      } else {
        liquidity = min(div(mul(amount0, totalSupply), reserve0), div(mul(amount1, totalSupply), reserve1));
      }
      ctx.assert(gt(liquidity, 0n), 'SNAKX: INSUFFICIENT_LIQUIDITY_MINTED');
      internalMint(ctx, pair, a.to!, liquidity);
      internalUpdate(ctx, pair, balance0, balance1);
      recordBalances(ctx, pair);
      if (feeOn) pairs.set(ctx, [pair, 'kLast'], mul(balance0, balance1));
      ctx.emit(MintEvent, { pair, amount0, amount1, to: a.to! });
      unlock(ctx);
      return liquidity;
    }, 8_000),
    method('burn', [arg('pair', 'int'), arg('to', 'str')], (ctx, a) => {
      const pair = a.pair!;
      lock(ctx);
      const [reserve0, reserve1] = reserves(ctx, pair);
      const token0 = pairs.get(ctx, pair, 'token0');
      const token1 = pairs.get(ctx, pair, 'token1');
      const balance0 = pairs.get(ctx, pair, 'balance0');
      const balance1 = pairs.get(ctx, pair, 'balance1');
      const lp = String(pairs.get(ctx, pair, 'lpToken'));
      const liquidity = actualBalance(ctx, lp);
      const feeOn = internalMintFee(ctx, pair, reserve0, reserve1);
      const totalSupply = pairs.get(ctx, pair, 'totalSupply');
      const amount0 = normalizeTokenAmount(ctx, String(token0), div(mul(liquidity, balance0), totalSupply));
      const amount1 = normalizeTokenAmount(ctx, String(token1), div(mul(liquidity, balance1), totalSupply));
      ctx.assert(gt(amount0, 0n) && gt(amount1, 0n), 'SNAKX: INSUFFICIENT_LIQUIDITY_BURNED');
      adjust(ctx, pairs, [pair, 'totalSupply'], liquidity, true);
      ctx.assert(gte(pairs.get(ctx, pair, 'totalSupply'), 0n), 'Negative supply!');
      ctx.call(lp, 'burn', { amount: liquidity });
      safeTransferFromPair(ctx, pair, token0, a.to!, amount0);
      safeTransferFromPair(ctx, pair, token1, a.to!, amount1);
      const after0 = pairs.get(ctx, pair, 'balance0');
      const after1 = pairs.get(ctx, pair, 'balance1');
      internalUpdate(ctx, pair, after0, after1);
      recordBalances(ctx, pair);
      if (feeOn) pairs.set(ctx, [pair, 'kLast'], mul(after0, after1));
      ctx.emit(BurnEvent, { pair, amount0, amount1, to: a.to! });
      unlock(ctx);
      return tuple(amount0, amount1);
    }, 8_000),
    method('swap', [arg('pair', 'int'), arg('amount0Out', 'float'), arg('amount1Out', 'float'), arg('to', 'str')], (ctx, a) => {
      swapCore(ctx, a.pair!, a.amount0Out!, a.amount1Out!, a.to!, 30n, false);
      return null;
    }, SWAP_COST),
    method('swapToPair', [arg('pair', 'int'), arg('amount0Out', 'float'), arg('amount1Out', 'float'), arg('to', 'int')], (ctx, a) => {
      swapCore(ctx, a.pair!, a.amount0Out!, a.amount1Out!, a.to!, 30n, true);
      return null;
    }, SWAP_COST),
    method('routerSwap', [arg('pair', 'int'), arg('amount0Out', 'float'), arg('amount1Out', 'float'), arg('to', 'str'), arg('fee_bps', 'int')], (ctx, a) => {
      requireRouter(ctx);
      swapCore(ctx, a.pair!, a.amount0Out!, a.amount1Out!, a.to!, a.fee_bps!, false);
      return null;
    }, SWAP_COST),
    method('routerSwapToPair', [arg('pair', 'int'), arg('amount0Out', 'float'), arg('amount1Out', 'float'), arg('to', 'int'), arg('fee_bps', 'int')], (ctx, a) => {
      requireRouter(ctx);
      swapCore(ctx, a.pair!, a.amount0Out!, a.amount1Out!, a.to!, a.fee_bps!, true);
      return null;
    }, SWAP_COST),
  ],
});
