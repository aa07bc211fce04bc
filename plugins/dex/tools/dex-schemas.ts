import { z } from 'zod';
import { contractNameSchema, decimalOut, transactionSubmissionOut } from 'chainhost/plugin';

/** Argument and result schemas shared by the DEX tools. */

export const tokenSchema = (what: string) => contractNameSchema.describe(`${what} (token contract)`);

export const pairIdSchema = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).describe('pair id (con_pairs ids start at 1)');

export const MAX_HOPS_LIMIT = 5;

export const pathSchema = z
  .array(pairIdSchema)
  .min(1)
  .max(MAX_HOPS_LIMIT)
  .optional()
  .describe('explicit route as pair ids, in trade order; omit to search the best route');

export const maxHopsSchema = z.number().int().min(1).max(MAX_HOPS_LIMIT).default(3).describe('longest route, in pairs');

export const slippageBpsSchema = z.number().int().min(0).max(10_000).default(100).describe('slippage, basis points (100 = 1 %)');

export function deadlineMinutesSchema(defaultMinutes: number) {
  return z.number().gt(0).max(1440).default(defaultMinutes)
    .describe(`trade deadline, minutes from now (≤ 1440, default ${defaultMinutes}); the plan expires at the earlier of it and its TTL`);
}

export const planIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{32,128}$/, 'must be a plan_id as returned by a dex_plan_* tool (43 URL-safe base64 characters)')
  .describe('plan_id from a dex_plan_* answer');

export const simulateSchema = z.boolean().default(true).describe('dry-run each call first; a failing one stops the submission');

export const decimalOrNull = decimalOut.nullable();

export const pairOut = z.object({
  pair_id: z.number().int(),
  token0: z.string(),
  token1: z.string(),
  reserve0: decimalOut,
  reserve1: decimalOut,
  total_supply: decimalOut,
  lp_token: z.string().nullable(),
  block_timestamp_last: z.string().nullable(),
  creation_time: z.string().nullable(),
  price0: decimalOrNull.describe('token1 per 1 token0 (reserve1 / reserve0), null without liquidity'),
  price1: decimalOrNull.describe('token0 per 1 token1 (reserve0 / reserve1), null without liquidity'),
});

export const hopOut = z.object({
  pair_id: z.number().int(),
  token_in: z.string(),
  token_out: z.string(),
  reserve_in: decimalOut,
  reserve_out: decimalOut,
  amount_in: decimalOut,
  amount_out: decimalOut,
});

export const quoteOut = z.object({
  kind: z.enum(['exact_in', 'exact_out']),
  token_in: z.string(),
  token_out: z.string(),
  path: z.array(z.number().int()),
  tokens: z.array(z.string()),
  amount_in: decimalOut,
  amount_out: decimalOut,
  amount_in_requested: decimalOut.optional(),
  amount_out_requested: decimalOut.optional(),
  amounts: z.array(decimalOut),
  hops: z.array(hopOut),
  fee_bps: z.number().int(),
  mid_price_output: decimalOut.optional().describe('exact_in: the output at the mid price (fee and impact excluded)'),
  mid_price_input: decimalOut.optional().describe('exact_out: the input at the mid price (fee and impact excluded)'),
  price_impact: z.string().describe('1 − amount_out / mid_price_output (exact_in) or 1 − mid_price_input / amount_in (exact_out); includes the trade fee'),
  price_impact_bps: z.number().int(),
  precision: z.object({ token_in: z.number().int().nullable(), token_out: z.number().int().nullable() }),
  account: z.string().nullable(),
  route_candidates_considered: z.number().int(),
  height: z.string(),
  warnings: z.array(z.string()),
});

/** A plan as returned by every dex_plan_* tool. The digest covers `plan` (which includes the timestamps). */
export const issuedPlanOut = z.object({
  plan_id: z.string(),
  plan_digest: z.string().describe('"sha256:" + hex SHA-256 of the canonical JSON of `plan`'),
  plan_status: z.literal('active'),
  issued_at: z.string(),
  expires_at: z.string(),
  operation: z.string(),
  plan: z.looseObject({}).describe('the immutable audit JSON: exact calls (approvals included), amounts, recipient, deadline, warnings'),
  warnings: z.array(z.string()),
});

/** A plan submit's answer: compact by default; `verbose` adds timestamps, dry runs and full receipts. */
export const submitOut = z.object({
  plan_id: z.string(),
  plan_digest: z.string(),
  plan_status: z.literal('consumed'),
  operation: z.string(),
  simulated: z.boolean(),
  success: z.boolean().describe('every call executed successfully'),
  calls_ran: z.number().int().describe('how many of the plan\'s calls executed'),
  total_fee: decimalOut.nullable().describe('what all calls cost in the native currency (null when a chi rate could not be read)'),
  transactions: z.array(transactionSubmissionOut).describe('one submission per call, in order: hash, success, return value, fee, balances written'),
  final_transaction: z.object({ tx_hash: z.string(), function: z.string(), success: z.boolean().nullable(), result: z.string().nullable() })
    .describe('the router call (the last transaction)'),
  // ---- verbose only ----
  issued_at: z.string().optional(),
  expires_at: z.string().optional(),
  plan_version: z.number().int().optional(),
  simulations: z.array(z.unknown()).optional(),
  receipts: z.array(z.unknown()).optional().describe('verbose: one full receipt per call, in order'),
});
