import type { JsonObject, JsonValue } from 'chainhost/chain';
import { ApiError } from 'chainhost/plugin';
import { FRESH_PLAN_HINT, planCheckError } from './dex-errors.js';
import { PLAN_VERSION, SUBMIT_KINDS, wrapperMs, type PlanCall, type SubmitKind } from './plan-calls.js';

/**
 * What a submit re-checks on a plan it has already claimed (consumed), in this order
 * (mcp.md §5.5): version and operation fit the submit tool; chain id; the signing key is the
 * plan's account; the deadline is ahead; only `approve` calls to the router precede the final
 * call; the final call is a whitelisted router function whose deadline and recipient are the
 * plan's. Each failure is a 4xx ApiError telling the caller to create a fresh plan.
 */

export interface SubmitContext {
  kind: SubmitKind;
  /** CHAIN_ID of this server. */
  chainId: string;
  /** Address of the signer given to the submit. */
  signer: string;
  /** How the submit named its signer (`account "alice" (<address>)` or `private_key`); default private_key. */
  signerLabel?: string;
  nowMs: number;
}

export interface CheckedPlan {
  operation: string;
  calls: PlanCall[];
  deadlineMs: number;
}

function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isCall(v: JsonValue | undefined): v is JsonObject & { contract: string; function: string; kwargs: JsonObject } {
  return isObject(v) && typeof v.contract === 'string' && typeof v.function === 'string' && isObject(v.kwargs);
}

export function checkPlanForSubmit(planId: string, plan: Readonly<JsonObject>, ctx: SubmitContext): CheckedPlan {
  const fail = (status: number, code: string, message: string, extra: Record<string, unknown> = {}): never => {
    throw planCheckError(status, code, message, { plan_id: planId, ...extra });
  };
  const allowed = SUBMIT_KINDS[ctx.kind];
  if (plan.plan_version !== PLAN_VERSION) fail(409, 'plan_invalid', `plan_version ${JSON.stringify(plan.plan_version)} is not supported (expected ${PLAN_VERSION})`);
  const operation = String(plan.operation);
  if (!(allowed.operations as readonly string[]).includes(operation)) {
    fail(409, 'plan_operation_mismatch', `this is a ${operation} plan; dex_submit_${ctx.kind} submits ${allowed.operations.join(' or ')} plans`, { operation });
  }
  const network = isObject(plan.network) ? plan.network : {};
  if (network.chain_id !== ctx.chainId) {
    fail(409, 'plan_chain_mismatch', `the plan is for chain ${JSON.stringify(network.chain_id)} but this server submits to ${JSON.stringify(ctx.chainId)}`, { plan_chain_id: network.chain_id ?? null, chain_id: ctx.chainId });
  }
  if (plan.account !== ctx.signer) {
    const named = ctx.signerLabel && ctx.signerLabel !== 'private_key' ? ctx.signerLabel : `private_key (${ctx.signer})`;
    fail(403, 'plan_account_mismatch', `${named} is not the account the plan was made for: the plan belongs to account ${String(plan.account)}`, { plan_account: plan.account ?? null, signer: ctx.signer });
  }
  const deadline = isObject(plan.deadline) ? plan.deadline : {};
  const deadlineMs = wrapperMs(deadline.absolute);
  if (!Number.isFinite(deadlineMs)) fail(409, 'plan_invalid', 'the plan has no readable deadline');
  if (deadlineMs <= ctx.nowMs) {
    fail(410, 'plan_deadline_passed', `the plan's deadline ${String(deadline.iso)} has passed`, { deadline: deadline.iso ?? null });
  }
  const contracts = isObject(plan.contracts) ? plan.contracts : {};
  const router = contracts.router;
  const calls = plan.calls;
  if (typeof router !== 'string' || !Array.isArray(calls) || calls.length === 0 || !calls.every(isCall)) {
    fail(409, 'plan_invalid', 'the plan has no well-formed calls');
  }
  const list = calls as Array<JsonObject & { contract: string; function: string; kwargs: JsonObject }>;
  const final = list[list.length - 1]!;
  list.slice(0, -1).forEach((c, i) => {
    if (c.function !== 'approve' || c.kwargs.to !== router || Object.keys(c.kwargs).sort().join(',') !== 'amount,to') {
      fail(409, 'plan_invalid', `call ${i} is ${c.contract}.${c.function}; only exact approve(amount, to=${String(router)}) calls may precede the final call`);
    }
  });
  if (final.contract !== router || !(allowed.functions as readonly string[]).includes(final.function)) {
    fail(409, 'plan_invalid', `the final call ${final.contract}.${final.function} is not a ${ctx.kind} call of the router ${String(router)}`);
  }
  if (wrapperMs(final.kwargs.deadline) !== deadlineMs) fail(409, 'plan_invalid', "the final call's deadline is not the plan's deadline");
  if (final.kwargs.to !== plan.recipient) fail(409, 'plan_invalid', "the final call's recipient is not the plan's recipient");
  if (!isCall(plan.call) || plan.call.function !== final.function) fail(409, 'plan_invalid', 'the plan call and the last of its calls differ');
  return {
    operation,
    calls: list.map((c) => ({ contract: c.contract, function: c.function, kwargs: c.kwargs })),
    deadlineMs,
  };
}

export interface DeadlineMargin {
  nowMs: number;
  /** One block, measured from the node. */
  blockMs: number;
  /** Blocks of margin beyond one per call. */
  safetyBlocks: number;
}

/**
 * Right after a plan is claimed, before anything is sent: its deadline must leave one block per
 * call (each waits for the previous one's block) plus the safety blocks. Otherwise a late submit
 * could execute the approval (fee paid, allowance set) and then see the router call fail with
 * `SNAKX: EXPIRED`. Throws 409 `plan_expiring`; nothing is sent, and the plan stays consumed
 * (spec §3: the first attempt consumes it), so the answer says to create a fresh one.
 */
export function assertDeadlineMargin(planId: string, plan: Readonly<JsonObject>, margin: DeadlineMargin): void {
  const deadline = isObject(plan.deadline) ? plan.deadline : {};
  const deadlineMs = wrapperMs(deadline.absolute);
  if (!Number.isFinite(deadlineMs)) return; // the checks after the claim report an unreadable deadline
  const calls = Array.isArray(plan.calls) ? plan.calls.length : 1;
  const neededMs = Math.ceil((calls + margin.safetyBlocks) * margin.blockMs);
  const leftMs = deadlineMs - margin.nowMs;
  if (leftMs >= neededMs) return;
  throw new ApiError(409, 'plan_expiring',
    `the plan's deadline ${String(deadline.iso)} is ${Math.max(0, Math.floor(leftMs / 1000))} s away, less than the ${Math.ceil(neededMs / 1000)} s its ` +
    `${calls} call(s) plus ${margin.safetyBlocks} safety block(s) need at ${margin.blockMs} ms per block; nothing was sent. ` +
    `The plan is consumed: create a fresh plan (a fresh quote and deadline) and submit it promptly`,
    {
      plan_id: planId, plan_status: 'consumed', deadline: deadline.iso ?? null, time_left_ms: leftMs, needed_ms: neededMs,
      block_time_ms: margin.blockMs, calls, safety_blocks: margin.safetyBlocks, retryable: false, hint: FRESH_PLAN_HINT,
    });
}
