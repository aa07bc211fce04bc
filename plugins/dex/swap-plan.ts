import type { ChainDecimal, JsonObject } from 'chainhost/chain';
import { ApiError } from 'chainhost/plugin';
import { minusBps, normalizeAmount, plusBpsCeil } from './amm.js';
import { marketError } from './dex-errors.js';
import type { DexReader } from './dex-state.js';
import {
  PLAN_VERSION, approvalJson, approveCall, deadlineAfter, fixed, type ApprovalNeed, type PlanCall, type PlanDeadline, type PlanOperation,
} from './plan-calls.js';
import { hopsJson, quoteTrade, type MarketOptions, type QuoteKind } from './quote.js';
import type { StateSnapshot } from './state-snapshot.js';

/**
 * `dex_plan_swap` (mcp.md §5.1-5.2): a fresh quote becomes the exact router call.
 * Exact-in: `amountIn` = the quoted input, `amountOutMin = quoted_output × (1 − slippage)`.
 * Exact-out ("intent"): the router has no exact-output entry point, so the call is exact-in
 * with `amountIn = ceil(quoted_input × (1 + slippage))` and `amountOutMin` = the requested
 * output; unused headroom becomes extra output (not refunded). Fee-on-transfer tokens
 * (`con_dex.fee_on_transfer_tokens`) select the `…SupportingFeeOnTransferTokens` variants.
 * An approval of exactly `amountIn` to the router is added only when the allowance is short.
 */

export type FeeOnTransferChoice = 'auto' | 'plain' | 'supporting';

export interface SwapPlanRequest {
  tokenIn: string;
  tokenOut: string;
  amount: ChainDecimal;
  mode: QuoteKind;
  account: string;
  recipient: string;
  path?: readonly number[];
  slippageBps: number;
  deadlineMinutes: number;
  feeOnTransfer: FeeOnTransferChoice;
  maxHops: number;
  chainId: string;
  nowMs: number;
}

export interface BuiltPlan {
  body: JsonObject;
  deadline: PlanDeadline;
}

export async function buildSwapPlan(reader: DexReader, s: StateSnapshot, req: SwapPlanRequest, market: MarketOptions): Promise<BuiltPlan> {
  if (req.recipient === reader.contracts.pairs || req.recipient === reader.contracts.router) {
    throw ApiError.badRequest(`recipient must be an account, not the DEX contract ${req.recipient}`, { field: 'recipient' });
  }
  const q = await quoteTrade(reader, s, {
    kind: req.mode, tokenIn: req.tokenIn, tokenOut: req.tokenOut, amount: req.amount, path: req.path, account: req.account, maxHops: req.maxHops,
  }, market);
  const route = q.route;
  const router = reader.contracts.router;
  const flags = Object.fromEntries(await Promise.all(route.tokens.map(async (t) => [t, await reader.feeOnTransfer(s, t)] as const)));
  const flaggedTokens = route.tokens.filter((t) => flags[t]);
  const intermediateFlagged = route.tokens.slice(1, -1).filter((t) => flags[t]);
  let supporting: boolean;
  if (req.feeOnTransfer === 'plain') {
    if (flaggedTokens.length) throw marketError('SNAKX: FEE_TOKEN_REQUIRES_SUPPORTING_ROUTE', `fee_on_transfer "plain" cannot trade fee-on-transfer token(s) ${flaggedTokens.join(', ')}; use "auto" or "supporting"`);
    supporting = false;
  } else if (req.feeOnTransfer === 'supporting') {
    supporting = true;
  } else {
    supporting = flaggedTokens.length > 0;
  }
  if (supporting && intermediateFlagged.length) {
    throw marketError('SNAKX: UNSUPPORTED_INTERMEDIATE_FEE_TOKEN', `the route passes through fee-on-transfer token(s) ${intermediateFlagged.join(', ')}; pick a path that avoids them`);
  }
  if (supporting && req.mode === 'exact_out') {
    throw marketError('SNAKX: FEE_TOKEN_REQUIRES_SUPPORTING_ROUTE', 'an exact-output swap cannot use the fee-on-transfer route (its output is only known after the transfer fees); plan it as exact_in');
  }

  const quotedInput = route.amounts[0]!;
  const quotedOutput = route.amounts[route.amounts.length - 1]!;
  const operation: PlanOperation = req.mode === 'exact_in' ? 'swap_exact_in' : 'swap_exact_out_intent';
  const callInput = req.mode === 'exact_in' ? quotedInput : plusBpsCeil(quotedInput, req.slippageBps, q.precisionIn);
  const minimumOutput = req.mode === 'exact_in'
    ? normalizeAmount(minusBps(quotedOutput, req.slippageBps), q.precisionOut)
    : normalizeAmount(req.amount, q.precisionOut);

  const deadline = deadlineAfter(req.nowMs, req.deadlineMinutes);
  const single = route.path.length === 1;
  const fn = (single ? 'swapExactTokenForToken' : 'swapExactTokensForTokens') + (supporting ? 'SupportingFeeOnTransferTokens' : '');
  const kwargs: JsonObject = {
    amountIn: fixed(callInput),
    amountOutMin: fixed(minimumOutput),
    ...(single ? { pair: route.path[0]! } : { path: [...route.path] }),
    src: req.tokenIn,
    to: req.recipient,
    deadline: deadline.absolute,
  };
  const call: PlanCall = { contract: router, function: fn, kwargs };

  const [allowance, balance] = await Promise.all([
    reader.allowance(s, req.tokenIn, req.account, router),
    reader.balance(s, req.tokenIn, req.account),
  ]);
  const need: ApprovalNeed = { token: req.tokenIn, spender: router, amount: callInput, current: allowance };
  const approve = allowance.lt(callInput);
  const approvals: PlanCall[] = approve ? [approveCall(req.tokenIn, callInput, router)] : [];

  const warnings = [...q.warnings];
  if (balance.lt(callInput)) warnings.push(`the account holds ${balance} ${req.tokenIn}, less than the ${callInput} this swap sends; the submit would fail unless it is funded first`);
  if (supporting) warnings.push('fee-on-transfer route: the output is measured after transfer fees and may be below the quote; amountOutMin still protects the trade');
  if (req.mode === 'exact_out') warnings.push(`exact-output intent: ${callInput} ${req.tokenIn} is sent (quoted input + ${req.slippageBps} bps); any output above ${minimumOutput} is kept, nothing is refunded`);
  if (req.recipient !== req.account) warnings.push(`the output goes to ${req.recipient}, not to the signing account`);

  const body: JsonObject = {
    plan_version: PLAN_VERSION,
    operation,
    network: { chain_id: req.chainId },
    contracts: { pairs: reader.contracts.pairs, router },
    account: req.account,
    recipient: req.recipient,
    deadline: { absolute: deadline.absolute, iso: deadline.iso },
    route: { path: [...route.path], tokens: [...route.tokens], hops: hopsJson(route) as JsonObject[] },
    amounts: {
      requested: req.amount.toString(),
      quoted_input: quotedInput.toString(),
      quoted_output: quotedOutput.toString(),
      call_input: callInput.toString(),
      minimum_output: minimumOutput.toString(),
      token_in: req.tokenIn,
      token_out: req.tokenOut,
    },
    fee: { trade_fee_bps: q.feeBps, signer: req.account },
    slippage: { bps: req.slippageBps },
    fee_on_transfer: { choice: req.feeOnTransfer, supporting_route: supporting, flags },
    price_impact: q.priceImpact.toString(),
    price_impact_bps: q.priceImpactBps,
    allowance: approvalJson(need, approve),
    approvals: approvals as unknown as JsonObject[],
    call: call as unknown as JsonObject,
    calls: [...approvals, call] as unknown as JsonObject[],
    quote_height: q.height,
    warnings,
  };
  return { body, deadline };
}
