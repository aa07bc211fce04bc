import { ChainDecimal, type JsonObject } from 'chainhost/chain';
import { ApiError } from 'chainhost/plugin';
import {
  AmmError, addLiquidityAmounts, burnAmounts, mintedLiquidity, minusBps, normalizeAmount, supplyAfterFeeHook,
} from './amm.js';
import { marketError, pairNotFound } from './dex-errors.js';
import { sortTokens, type DexReader } from './dex-state.js';
import {
  PLAN_VERSION, approvalJson, approveCall, deadlineAfter, fixed, type ApprovalNeed, type PlanCall,
} from './plan-calls.js';
import type { StateSnapshot } from './state-snapshot.js';
import type { BuiltPlan } from './swap-plan.js';

/**
 * `dex_plan_add_liquidity` and `dex_plan_remove_liquidity` (mcp.md §4.5): the router calls with
 * minimums derived from the contracts' own maths on current reserves (optimal ratio, protocol
 * fee hook, precision), and exact approvals — both tokens to the router for adding, the pair's
 * LP token to the router for removing — added only when the allowance is short.
 */

interface Common {
  tokenA: string;
  tokenB: string;
  account: string;
  recipient: string;
  slippageBps: number;
  deadlineMinutes: number;
  chainId: string;
  nowMs: number;
}

export interface AddLiquidityRequest extends Common {
  amountADesired: ChainDecimal;
  amountBDesired: ChainDecimal;
}

export interface RemoveLiquidityRequest extends Common {
  liquidity: ChainDecimal;
}

function checkTokens(req: Common, reader: DexReader): void {
  if (req.tokenA === req.tokenB) throw ApiError.badRequest('token_a and token_b must differ (SNAKX: IDENTICAL_ADDRESSES)', { field: 'token_b' });
  if ([reader.contracts.pairs, reader.contracts.router].includes(req.recipient)) {
    throw ApiError.badRequest(`recipient must be an account, not the DEX contract ${req.recipient}`, { field: 'recipient' });
  }
}

function amm<T>(f: () => T, what: string): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof AmmError) throw marketError(err.reason, what);
    throw err;
  }
}

async function approvalsFor(reader: DexReader, s: StateSnapshot, account: string, needs: Array<{ token: string; amount: ChainDecimal }>): Promise<{ calls: PlanCall[]; audit: JsonObject[] }> {
  const router = reader.contracts.router;
  const calls: PlanCall[] = [];
  const audit: JsonObject[] = [];
  for (const n of needs) {
    const current = await reader.allowance(s, n.token, account, router);
    const need: ApprovalNeed = { token: n.token, spender: router, amount: n.amount, current };
    const add = current.lt(n.amount);
    if (add) calls.push(approveCall(n.token, n.amount, router));
    audit.push(approvalJson(need, add));
  }
  return { calls, audit };
}

export async function buildAddLiquidityPlan(reader: DexReader, s: StateSnapshot, req: AddLiquidityRequest): Promise<BuiltPlan> {
  checkTokens(req, reader);
  const [token0, token1] = sortTokens(req.tokenA, req.tokenB);
  const reversed = token0 !== req.tokenA;
  const pairId = await reader.pairIdFor(s, req.tokenA, req.tokenB);
  const [precision0, precision1] = await Promise.all([reader.precision(s, token0), reader.precision(s, token1)]);
  const [p0Desired, p1Desired] = reversed ? [req.amountBDesired, req.amountADesired] : [req.amountADesired, req.amountBDesired];
  const warnings: string[] = [];
  let lpToken: string | null;
  let creates = false;
  let reserve0 = ChainDecimal.ZERO;
  let reserve1 = ChainDecimal.ZERO;
  let supply = ChainDecimal.ZERO;
  if (pairId === null) {
    lpToken = await reader.registeredLpToken(s, token0, token1);
    if (!lpToken) {
      throw marketError('SNAKX: LP_TOKEN_NOT_REGISTERED', `there is no ${token0}/${token1} pair and no LP token is registered for it, so adding liquidity cannot create it; the con_pairs owner must registerLpToken first`);
    }
    creates = true;
    warnings.push(`no ${token0}/${token1} pair exists: this call creates it (LP token ${lpToken}) and the deposited amounts set its initial price`);
  } else {
    const pair = await reader.pair(s, pairId);
    if (!pair) throw pairNotFound({ pair_id: pairId });
    lpToken = pair.lpToken;
    reserve0 = pair.reserve0;
    reserve1 = pair.reserve1;
    const fee = await reader.feeState(s, pairId);
    supply = supplyAfterFeeHook(pair.totalSupply, reserve0, reserve1, fee);
  }
  const { amountA: amount0, amountB: amount1 } = amm(() => addLiquidityAmounts({
    amountADesired: p0Desired, amountBDesired: p1Desired, amountAMin: ChainDecimal.ZERO, amountBMin: ChainDecimal.ZERO,
    reserveA: reserve0, reserveB: reserve1, precisionA: precision0, precisionB: precision1,
  }), 'the router would refuse these liquidity amounts');
  const liquidity = amm(() => mintedLiquidity(amount0, amount1, reserve0, reserve1, supply), 'the deposit would mint no liquidity');
  const min0 = normalizeAmount(minusBps(amount0, req.slippageBps), precision0);
  const min1 = normalizeAmount(minusBps(amount1, req.slippageBps), precision1);
  const [amountA, amountB, minA, minB] = reversed ? [amount1, amount0, min1, min0] : [amount0, amount1, min0, min1];
  const [precisionA, precisionB] = reversed ? [precision1, precision0] : [precision0, precision1];
  const desiredA = normalizeAmount(req.amountADesired, precisionA);
  const desiredB = normalizeAmount(req.amountBDesired, precisionB);

  const deadline = deadlineAfter(req.nowMs, req.deadlineMinutes);
  const kwargs: JsonObject = {
    tokenA: req.tokenA,
    tokenB: req.tokenB,
    amountADesired: fixed(desiredA),
    amountBDesired: fixed(desiredB),
    amountAMin: fixed(minA),
    amountBMin: fixed(minB),
    to: req.recipient,
    deadline: deadline.absolute,
    ...(creates && lpToken ? { lpToken } : {}),
  };
  const call: PlanCall = { contract: reader.contracts.router, function: 'addLiquidity', kwargs };
  const approvals = await approvalsFor(reader, s, req.account, [{ token: req.tokenA, amount: desiredA }, { token: req.tokenB, amount: desiredB }]);
  const [flagA, flagB, balA, balB] = await Promise.all([
    reader.feeOnTransfer(s, req.tokenA), reader.feeOnTransfer(s, req.tokenB),
    reader.balance(s, req.tokenA, req.account), reader.balance(s, req.tokenB, req.account),
  ]);
  if (flagA || flagB) warnings.push('a fee-on-transfer token is involved: the pair receives less than is sent and the minimums may not be met');
  if (balA.lt(desiredA)) warnings.push(`the account holds ${balA} ${req.tokenA}, less than the ${desiredA} approved for this deposit`);
  if (balB.lt(desiredB)) warnings.push(`the account holds ${balB} ${req.tokenB}, less than the ${desiredB} approved for this deposit`);
  if (!amountA.eq(desiredA) || !amountB.eq(desiredB)) warnings.push(`at the current ratio the router takes ${amountA} ${req.tokenA} and ${amountB} ${req.tokenB}; the approvals cover the desired amounts`);
  if (req.recipient !== req.account) warnings.push(`the LP tokens go to ${req.recipient}, not to the signing account`);

  const body: JsonObject = {
    plan_version: PLAN_VERSION,
    operation: 'add_liquidity',
    network: { chain_id: req.chainId },
    contracts: { pairs: reader.contracts.pairs, router: reader.contracts.router },
    account: req.account,
    recipient: req.recipient,
    deadline: { absolute: deadline.absolute, iso: deadline.iso },
    pair: { pair_id: pairId, token0, token1, reserve0: reserve0.toString(), reserve1: reserve1.toString(), total_supply: supply.toString(), creates_pair: creates },
    lp_token: lpToken,
    amounts: {
      token_a: req.tokenA,
      token_b: req.tokenB,
      amount_a_desired: desiredA.toString(),
      amount_b_desired: desiredB.toString(),
      amount_a_expected: amountA.toString(),
      amount_b_expected: amountB.toString(),
      amount_a_min: minA.toString(),
      amount_b_min: minB.toString(),
      liquidity_expected: liquidity.toString(),
    },
    slippage: { bps: req.slippageBps },
    fee_on_transfer: { flags: { [req.tokenA]: flagA, [req.tokenB]: flagB } },
    allowance: approvals.audit,
    approvals: approvals.calls as unknown as JsonObject[],
    call: call as unknown as JsonObject,
    calls: [...approvals.calls, call] as unknown as JsonObject[],
    quote_height: s.height,
    warnings,
  };
  return { body, deadline };
}

export async function buildRemoveLiquidityPlan(reader: DexReader, s: StateSnapshot, req: RemoveLiquidityRequest): Promise<BuiltPlan> {
  checkTokens(req, reader);
  const pairId = await reader.pairIdFor(s, req.tokenA, req.tokenB);
  if (pairId === null) throw pairNotFound({ token_a: req.tokenA, token_b: req.tokenB });
  const pair = await reader.pair(s, pairId);
  if (!pair) throw pairNotFound({ pair_id: pairId });
  if (!pair.lpToken) throw marketError('SNAKX: NO_LP_TOKEN', `pair ${pairId} has no LP token`);
  const lpToken = pair.lpToken;
  const reversed = pair.token0 !== req.tokenA;
  const [precision0, precision1, fee, lpBalance] = await Promise.all([
    reader.precision(s, pair.token0), reader.precision(s, pair.token1), reader.feeState(s, pairId), reader.balance(s, lpToken, req.account),
  ]);
  if (req.liquidity.gt(pair.totalSupply)) {
    throw ApiError.badRequest(`liquidity ${req.liquidity} exceeds the pair's total LP supply ${pair.totalSupply}`, { field: 'liquidity', total_supply: pair.totalSupply.toString() });
  }
  const supply = supplyAfterFeeHook(pair.totalSupply, pair.reserve0, pair.reserve1, fee);
  const { amount0, amount1 } = amm(() => burnAmounts(req.liquidity, pair.balance0, pair.balance1, supply, precision0, precision1), 'burning this much liquidity pays out nothing');
  const min0 = normalizeAmount(minusBps(amount0, req.slippageBps), precision0);
  const min1 = normalizeAmount(minusBps(amount1, req.slippageBps), precision1);
  const [amountA, amountB, minA, minB] = reversed ? [amount1, amount0, min1, min0] : [amount0, amount1, min0, min1];

  const deadline = deadlineAfter(req.nowMs, req.deadlineMinutes);
  const call: PlanCall = {
    contract: reader.contracts.router,
    function: 'removeLiquidity',
    kwargs: {
      tokenA: req.tokenA, tokenB: req.tokenB, liquidity: fixed(req.liquidity), amountAMin: fixed(minA), amountBMin: fixed(minB),
      to: req.recipient, deadline: deadline.absolute,
    },
  };
  const approvals = await approvalsFor(reader, s, req.account, [{ token: lpToken, amount: req.liquidity }]);
  const warnings: string[] = [];
  if (lpBalance.lt(req.liquidity)) warnings.push(`the account holds ${lpBalance} ${lpToken} LP tokens, less than the ${req.liquidity} to remove`);
  if (fee.feeOn) warnings.push('the protocol fee is on: the burn first mints the fee share of √k growth, which the expected amounts include');
  if (req.recipient !== req.account) warnings.push(`the withdrawn tokens go to ${req.recipient}, not to the signing account`);

  const body: JsonObject = {
    plan_version: PLAN_VERSION,
    operation: 'remove_liquidity',
    network: { chain_id: req.chainId },
    contracts: { pairs: reader.contracts.pairs, router: reader.contracts.router },
    account: req.account,
    recipient: req.recipient,
    deadline: { absolute: deadline.absolute, iso: deadline.iso },
    pair: {
      pair_id: pairId, token0: pair.token0, token1: pair.token1, reserve0: pair.reserve0.toString(), reserve1: pair.reserve1.toString(),
      total_supply: pair.totalSupply.toString(),
    },
    lp_token: lpToken,
    amounts: {
      token_a: req.tokenA,
      token_b: req.tokenB,
      liquidity: req.liquidity.toString(),
      amount_a_expected: amountA.toString(),
      amount_b_expected: amountB.toString(),
      amount_a_min: minA.toString(),
      amount_b_min: minB.toString(),
    },
    slippage: { bps: req.slippageBps },
    allowance: approvals.audit,
    approvals: approvals.calls as unknown as JsonObject[],
    call: call as unknown as JsonObject,
    calls: [...approvals.calls, call] as unknown as JsonObject[],
    quote_height: s.height,
    warnings,
  };
  return { body, deadline };
}
