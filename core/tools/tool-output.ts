import { z } from 'zod';
import type { JsonObject, JsonValue } from '../chain/canonical-json.js';
import { ChainDecimal } from '../chain/decimal.js';
import { ChainDatetime, ChainTimedelta } from '../chain/values.js';

/**
 * What tools return: decoded chain values as JSON a transport can send (no floats, integers
 * beyond 2^53 as digit strings), the shared output schemas, and the transaction outputs every
 * submitting tool shares.
 */

/** A decimal in tool outputs: plain fixed-point text ("1000", "0.0000001"), never a float. */
export const decimalOut = z.string().regex(/^-?\d+(\.\d+)?$/).describe('exact decimal as a string');

/** An integer that may exceed 2^53 in outputs: a number when safe, else its digits as a string. */
export const intOut = z.union([z.number().int(), z.string().regex(/^-?\d+$/)]);

/** Present when the node or the configuration deserve a caveat (e.g. CHAIN_ID mismatch). */
export const warningsOut = z.array(z.string()).optional().describe('caveats about this result, e.g. a CHAIN_ID mismatch');

/** Raw node payloads, only when CHAIN_INCLUDE_RAW is set. */
export const rawOut = z.record(z.string(), z.unknown()).optional().describe('raw node payloads (only with CHAIN_INCLUDE_RAW)');

export function intValue(v: bigint | number): number | string {
  const b = typeof v === 'bigint' ? v : BigInt(v);
  return b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b.toString();
}

/**
 * Any decoded chain value as JSON a transport can send: bigint → number when safe else digits,
 * decimals → plain strings, datetimes/timedeltas → their string forms, bytes → hex. Non-integer
 * JS numbers (never produced by the exact decoders) become their shortest text, not floats.
 */
export function toolJson(value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return intValue(value);
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : String(value);
  if (value instanceof ChainDecimal || value instanceof ChainDatetime || value instanceof ChainTimedelta) return value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  if (Array.isArray(value)) return value.map(toolJson);
  if (typeof value === 'object') {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) out[k] = toolJson(v);
    return out;
  }
  return String(value);
}

/** Adds `warnings` (when any) and `raw` (when CHAIN_INCLUDE_RAW) to a tool result. */
export function withExtras<T extends object>(result: T, extras: { warnings?: readonly string[]; raw?: Record<string, unknown>; includeRaw: boolean }): T {
  const out = { ...result } as Record<string, unknown>;
  if (extras.warnings && extras.warnings.length) out.warnings = [...extras.warnings];
  if (extras.includeRaw && extras.raw) out.raw = toolJson(extras.raw);
  return out as T;
}

// ---- transaction outputs (shared by every submitting tool) -----------------------------------

const stateWriteOut = z.object({ key: z.string(), value: z.unknown() });

/** TxReceipt (core/chain/tx-receipts.ts) as a tool output. */
export const txReceiptOut = z.object({
  tx_hash: z.string(),
  height: intOut,
  index: z.number().int(),
  success: z.boolean(),
  status_code: z.number().int(),
  chi_used: intOut.nullable(),
  result: z.string().nullable().describe("the contract's return value as the node's repr text, or the error"),
  events: z.array(z.unknown()),
  state: z.array(stateWriteOut).describe('state writes; decimals as strings'),
  execution_hash: z.string().nullable(),
  error: z.string().nullable(),
  log: z.string(),
});

// TransactionSubmission (compact by default, full with `verbose`): submission-output.ts.
