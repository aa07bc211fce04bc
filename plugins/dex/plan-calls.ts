import { ChainDatetime, type ChainDecimal, type JsonObject } from 'chainhost/chain';

/**
 * The pieces every plan is made of: contract calls with wire kwargs (decimals as
 * `{"__fixed__": "<exact>"}`, the deadline as the VM's `{"__time__": [Y,M,D,h,m,s,µs]}`), exact
 * approvals, and the absolute deadline. What is in a plan is exactly what gets signed.
 */

export interface PlanCall {
  contract: string;
  function: string;
  kwargs: JsonObject;
}

export const PLAN_VERSION = 1;

export type PlanOperation = 'swap_exact_in' | 'swap_exact_out_intent' | 'add_liquidity' | 'remove_liquidity';

export const SWAP_FUNCTIONS = [
  'swapExactTokenForToken',
  'swapExactTokenForTokenSupportingFeeOnTransferTokens',
  'swapExactTokensForTokens',
  'swapExactTokensForTokensSupportingFeeOnTransferTokens',
] as const;

/** Which operations each submit tool accepts, and the router functions their final call may use. */
export const SUBMIT_KINDS = {
  swap: { operations: ['swap_exact_in', 'swap_exact_out_intent'], functions: SWAP_FUNCTIONS as readonly string[] },
  add_liquidity: { operations: ['add_liquidity'], functions: ['addLiquidity'] },
  remove_liquidity: { operations: ['remove_liquidity'], functions: ['removeLiquidity'] },
} as const satisfies Record<string, { operations: readonly PlanOperation[]; functions: readonly string[] }>;

export type SubmitKind = keyof typeof SUBMIT_KINDS;

export function fixed(amount: ChainDecimal): JsonObject {
  return { __fixed__: amount.toString() };
}

/** `{"__time__": [Y, M, D, h, m, s, µs]}` of a UTC instant (ms resolution). */
export function timeWrapper(ms: number): JsonObject {
  return { __time__: ChainDatetime.fromDate(new Date(ms)).parts() };
}

export interface PlanDeadline {
  ms: number;
  absolute: JsonObject;
  iso: string;
}

/** `now + minutes`, rounded up to a whole second (the VM datetime the contracts compare `now` with). */
export function deadlineAfter(nowMs: number, minutes: number): PlanDeadline {
  const ms = Math.ceil((nowMs + minutes * 60_000) / 1000) * 1000;
  return { ms, absolute: timeWrapper(ms), iso: new Date(ms).toISOString() };
}

/** XSC001 `approve(amount, to)`: sets (not adds to) the allowance — exact, never unlimited. */
export function approveCall(token: string, amount: ChainDecimal, spender: string): PlanCall {
  return { contract: token, function: 'approve', kwargs: { amount: fixed(amount), to: spender } };
}

/** An approval the plan needs, with what was seen on chain when the plan was made. */
export interface ApprovalNeed {
  token: string;
  spender: string;
  amount: ChainDecimal;
  current: ChainDecimal;
}

export function approvalJson(need: ApprovalNeed, added: boolean): JsonObject {
  return { token: need.token, spender: need.spender, required: need.amount.toString(), current_allowance: need.current.toString(), approval_added: added };
}

/** The ms instant of a `{"__time__": [...]}` wrapper, or NaN. */
export function wrapperMs(value: unknown): number {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return NaN;
  const parts = (value as { __time__?: unknown }).__time__;
  if (!Array.isArray(parts) || parts.length < 3 || !parts.every((p) => Number.isInteger(p))) return NaN;
  try {
    return ChainDatetime.fromParts(...(parts as [number, number, number])).toDate().getTime();
  } catch {
    return NaN;
  }
}
