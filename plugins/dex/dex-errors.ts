import { ApiError } from 'chainhost/plugin';
import type { PlanState } from './plan-registry.js';

/**
 * The DEX plugin's errors, all ApiErrors (so MCP answers `isError: true` and HTTP a 4xx/5xx with
 * `{"error":{code,message,details}}`), never success payloads. Codes are stable:
 *
 * | code | status | when |
 * |---|---|---|
 * | `plan_not_found` | 404 | no plan with this id was issued by this process (wrong id) |
 * | `plan_lost` | 410 | the id was issued by an earlier server process: plans live in memory and a restart loses them |
 * | `plan_expired` | 410 | the plan outlived its TTL (`CHAIN_MCP_DEX_PLAN_TTL_SECONDS`) or its deadline |
 * | `plan_evicted` | 410 | more than `CHAIN_MCP_DEX_PLAN_MAX_ENTRIES` plans were issued after it (oldest first) |
 * | `plan_consumed` | 409 | a submit already claimed it (replays and concurrent submits) |
 * | `plan_operation_mismatch` | 409 | the plan is for another submit tool (the plan is consumed by the attempt) |
 * | `plan_chain_mismatch` | 409 | the plan's chain id is not the configured/node chain id |
 * | `plan_account_mismatch` | 403 | `private_key` does not belong to the plan's account |
 * | `plan_deadline_passed` | 410 | the plan's trade deadline is not in the future |
 * | `plan_invalid` | 409 | the stored plan fails its integrity or structure checks |
 * | `dex_pair_not_found` | 404 | no pair for the tokens / id |
 * | `dex_no_route` | 422 | no liquid route within `max_hops` delivers the trade |
 * | `dex_market_rejected` | 422 | the contracts' maths refuses the trade (`SNAKX: …` reason in details) |
 * | `dex_simulation_failed` | 422 | a call's dry run returned status 1; nothing of it was sent |
 * | `dex_transaction_failed` | 422 | a sent call failed on chain; earlier calls of the plan stay executed |
 * | `dex_too_many_pairs` | 422 | the pair registry is larger than a full scan allows; pass `path` |
 * | `bds_unavailable` | 503 | `dex_list_events` / candles need the BDS index, which is not loaded or not answering |
 *
 * Every plan error tells the caller to create (and have confirmed) a fresh plan.
 */

export const FRESH_PLAN_HINT = 'create a fresh plan with dex_plan_swap / dex_plan_add_liquidity / dex_plan_remove_liquidity, show it for confirmation, then submit its new plan_id';

const PLAN_STATE_ERRORS: Record<Exclude<PlanState, 'active'> | 'unknown', { status: number; code: string; text: string }> = {
  unknown: { status: 404, code: 'plan_not_found', text: 'no plan with this plan_id was issued by this server process' },
  lost: { status: 410, code: 'plan_lost', text: 'this plan_id was issued by an earlier server process; plans are kept in memory only and a restart loses them' },
  expired: { status: 410, code: 'plan_expired', text: 'the plan has expired' },
  evicted: { status: 410, code: 'plan_evicted', text: 'the plan was evicted because newer plans filled the plan store' },
  consumed: { status: 409, code: 'plan_consumed', text: 'the plan was already consumed by a submission; a plan can be submitted once' },
};

export function planStateError(state: Exclude<PlanState, 'active'> | 'unknown', planId: string, extra: Record<string, unknown> = {}): ApiError {
  const e = PLAN_STATE_ERRORS[state];
  return new ApiError(e.status, e.code, `${e.text}; ${FRESH_PLAN_HINT}`, {
    plan_id: planId, plan_status: state, hint: FRESH_PLAN_HINT, retryable: false, ...extra,
  });
}

/** A failed submit-time check; the plan is already consumed when this is raised. */
export function planCheckError(status: number, code: string, message: string, details: Record<string, unknown>): ApiError {
  return new ApiError(status, code, `${message}; the plan is consumed, ${FRESH_PLAN_HINT}`, {
    plan_status: 'consumed', hint: FRESH_PLAN_HINT, retryable: false, ...details,
  });
}

export function marketError(reason: string, message: string, details: Record<string, unknown> = {}): ApiError {
  return new ApiError(422, 'dex_market_rejected', `${message} (${reason})`, { reason, retryable: false, ...details });
}

export function pairNotFound(details: Record<string, unknown>): ApiError {
  return new ApiError(404, 'dex_pair_not_found', `no DEX pair for ${describe(details)}; dex_list_pairs shows the existing pairs`, details);
}

export function noRoute(message: string, details: Record<string, unknown>): ApiError {
  return new ApiError(422, 'dex_no_route', message, { retryable: false, ...details });
}

export function bdsUnavailable(what: string, cause?: string): ApiError {
  return new ApiError(503, 'bds_unavailable', `${what} needs the BDS index (load the bds plugin); ${cause ?? 'it is not available'}`, { retryable: true });
}

function describe(details: Record<string, unknown>): string {
  return Object.entries(details).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(', ');
}
