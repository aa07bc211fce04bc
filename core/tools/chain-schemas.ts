import { z } from 'zod';
import { AbciQueryError, AbciValueError } from '../chain/abci-value.js';
import { parseJsonExact, type JsonObject, type JsonValue } from '../chain/canonical-json.js';
import { ChainDecimal, DecimalOverflowError } from '../chain/decimal.js';
import { KeyFormatError, normalizePrivateKey } from '../chain/keys.js';
import { NodeUnavailableError, RpcError } from '../chain/rpc/chain-rpc.js';
import { KwargsError, kwargsFromUser } from '../chain/user-kwargs.js';
import { ChainDatetime, ChainTimedelta } from '../chain/values.js';
import { ApiError } from '../errors.js';

/**
 * Zod schemas for the chain arguments every tool shares (wallet, query, crypto, simulate, dex,
 * dashboard), and the JSON-safe output helpers. Input rules are the chain's own (transactions.md
 * §1.2): identifiers for contract and function names, 64 hex for addresses and keys, exact
 * decimals, kwargs through the value codec. Messages name what was expected; a private key's
 * message never contains the key, and other messages quote only short inputs.
 */

const IDENTIFIER = /^[a-zA-Z][a-zA-Z0-9_]*$/;
/** The chain's submission limit for a contract name (transactions.md §1.2); applied to every name. */
export const MAX_NAME_LENGTH = 255;
/** Fractional digits the chain's decimal keeps (encoding.md §3.1); more would be silently dropped. */
export const MAX_DECIMAL_PLACES = 30;
const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Quotes short inputs; long ones only by length (a pasted secret must not come back). */
function shown(value: string): string {
  return value.length <= 40 ? JSON.stringify(value) : `${value.length} characters`;
}

function hexNormalized(value: string): string {
  const t = value.trim();
  return (t.startsWith('0x') || t.startsWith('0X') ? t.slice(2) : t).toLowerCase();
}

// ---- keys and addresses ----------------------------------------------------------------------

/** An account address (Ed25519 public key): 64 hex, optional 0x, any case → lowercase. */
export const addressSchema = z
  .string()
  .max(200)
  .transform((value, ctx) => {
    const hex = hexNormalized(value);
    if (!/^[0-9a-f]{64}$/.test(hex)) {
      ctx.addIssue({ code: 'custom', message: `must be an address: 64 hex characters (an Ed25519 public key); got ${hex.length} characters` });
      return z.NEVER;
    }
    return hex;
  })
  .describe('account address: the 64-hex Ed25519 public key');

/**
 * A private key (32-byte Ed25519 seed as 64 hex, optional 0x) → lowercase hex. Errors say what
 * is wrong and, at most, the length; the key itself is never echoed or logged.
 */
export const privateKeySchema = z
  .string()
  .max(200)
  .transform((value, ctx) => {
    try {
      return normalizePrivateKey(value);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: err instanceof KeyFormatError ? err.message : 'private key must be 64 hex characters' });
      return z.NEVER;
    }
  })
  .describe('private key: 64 hex characters (the 32-byte Ed25519 seed). Used for this call only; never stored, logged or echoed.');

/** A CometBFT tx hash: 64 hex, optional 0x → uppercase (the form nodes and BDS index). */
export const txHashSchema = z
  .string()
  .max(200)
  .transform((value, ctx) => {
    const hex = hexNormalized(value);
    if (!/^[0-9a-f]{64}$/.test(hex)) {
      ctx.addIssue({ code: 'custom', message: `must be a transaction hash: 64 hex characters (optional 0x); got ${shown(value)}` });
      return z.NEVER;
    }
    return hex.toUpperCase();
  })
  .describe('transaction hash: 64 hex characters (the CometBFT hash returned by a send)');

// ---- names and state keys --------------------------------------------------------------------

function identifier(what: string, example: string) {
  return z
    .string()
    .max(MAX_NAME_LENGTH, `${what} must be at most ${MAX_NAME_LENGTH} characters`)
    .refine((v) => IDENTIFIER.test(v), {
      error: (issue) => `${what} must be an identifier (a letter, then letters, digits or _), like ${example}; got ${shown(String(issue.input))}`,
    });
}

/** A contract name by the chain's payload rule: `^[a-zA-Z][a-zA-Z0-9_]*$`, at most 255 characters. */
export const contractNameSchema = identifier('contract name', '"currency" or "con_token"').describe('contract name, e.g. currency or con_token');

/** A function name by the chain's payload rule. */
export const functionNameSchema = identifier('function name', '"transfer"').describe('contract function name, e.g. transfer');

/**
 * A full state key `<contract>.<variable>[:<key_part>…]` as `/get/<key>` takes it. Names may
 * start with `_` (`__n.<address>:`, `con_x.__source__`); key parts may hold anything but `/`,
 * which the node's path grammar splits on.
 */
export const stateKeySchema = z
  .string()
  .min(3)
  .max(1024)
  .refine((v) => /^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*(:[^/]*)*$/.test(v), {
    error: (issue) =>
      `must be a state key <contract>.<variable>[:<key>…] without "/", like currency.balances:<address>; got ${shown(String(issue.input))}`,
  })
  .describe('state key: <contract>.<variable>[:<key>[:<key>…]], e.g. currency.balances:<address>');

/** A key prefix for `/keys/<prefix>`: starts with a contract name; no `/`. */
export const stateKeyPrefixSchema = z
  .string()
  .min(1)
  .max(1024)
  .refine((v) => /^[A-Za-z_][A-Za-z0-9_]*(\.[^/]*)?$/.test(v), {
    error: (issue) => `must be a state key prefix starting with a contract name and without "/", like currency.balances; got ${shown(String(issue.input))}`,
  })
  .describe('state key prefix, e.g. currency.balances (plain string prefix; include ":" to match whole key parts)');

// ---- numbers ---------------------------------------------------------------------------------

/** Fractional digits a decimal text needs, exponent included ("1.25e-3" needs 5). */
export function decimalPlaces(text: string): number {
  const t = text.trim().replace(/^[+-]/, '');
  const [mantissa = '', exp = '0'] = t.split(/[eE]/);
  const frac = (mantissa.split('.')[1] ?? '').replace(/0+$/, '');
  return Math.max(0, frac.length - Number(exp));
}

export interface DecimalSchemaOptions {
  /** `positive` (> 0, the default), `nonNegative` (≥ 0) or `any`. */
  sign?: 'positive' | 'nonNegative' | 'any';
  /** At most this many fractional digits (default 30, the chain's scale). */
  maxPlaces?: number;
  description?: string;
}

/**
 * An exact decimal given as a string ("12.5", "1E+3") or a JSON number, as a ChainDecimal.
 * Numbers are converted through their shortest round-trip text (what the caller wrote in JSON),
 * never through binary arithmetic; more fractional digits than allowed is an error, not a
 * silent truncation.
 */
export function decimalSchema(options: DecimalSchemaOptions = {}) {
  const sign = options.sign ?? 'positive';
  const maxPlaces = Math.min(options.maxPlaces ?? MAX_DECIMAL_PLACES, MAX_DECIMAL_PLACES);
  return z
    .union([z.string().max(120), z.number()])
    .transform((value, ctx): ChainDecimal => {
      const fail = (message: string): never => {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER as never;
      };
      const text = typeof value === 'number' ? String(value) : value.trim();
      if (!DECIMAL_TEXT.test(text)) return fail(`must be a decimal number such as "12.5"; got ${shown(String(value))}`);
      if (decimalPlaces(text) > maxPlaces) return fail(`has more than ${maxPlaces} decimal places`);
      let d: ChainDecimal;
      try {
        d = ChainDecimal.parse(text);
      } catch (err) {
        return fail(err instanceof DecimalOverflowError ? 'is too large (must be below 10^61)' : `must be a decimal number; got ${shown(text)}`);
      }
      if (sign === 'positive' && !d.gt(0n)) return fail(`must be greater than 0; got ${d.toString()}`);
      if (sign === 'nonNegative' && d.isNegative()) return fail(`must not be negative; got ${d.toString()}`);
      return d;
    })
    .describe(options.description ?? 'exact decimal, as a string ("12.5") or a JSON number; converted exactly, never through floating point');
}

/**
 * Decimal text in any form the chain writes ("999993.05", "1E+6", "1.01E+3", "100E-9") as plain
 * fixed-point text, truncated toward zero at 30 places like ChainDecimal — by string shifting
 * alone, so hot read paths skip big-number parsing. null for text that is not a decimal or is
 * out of the chain's range (|x| ≥ 10^61).
 */
export function plainDecimalText(text: string): string | null {
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?\s*$/.exec(text);
  if (!m || (!m[2] && !m[3])) return null;
  const whole = m[2] ?? '';
  let digits = whole + (m[3] ?? '');
  let point = whole.length + Number(m[4] ?? 0);
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const int = digits.slice(0, point).replace(/^0+/, '') || '0';
  const frac = digits.slice(point, point + MAX_DECIMAL_PLACES).replace(/0+$/, '');
  if (int.length > 61) return null;
  if (int === '0' && frac === '') return '0';
  return `${m[1] === '-' ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

/** A bounded page size. */
export function limitSchema(max: number, defaultValue: number) {
  return z.number().int().min(1).max(max).default(defaultValue).describe(`page size, 1 to ${max} (default ${defaultValue})`);
}

export const offsetSchema = z.number().int().min(0).max(1_000_000).default(0).describe('rows to skip (default 0)');

// ---- kwargs ----------------------------------------------------------------------------------

/**
 * Contract call arguments: a JSON object (or a string holding one) → wire kwargs through the
 * value codec: fractional numbers become exact `{"__fixed__"}` decimals, integers beyond 2^53
 * must be `{"__big_int__":"…"}`, wrappers (`__fixed__`, `__time__`, …) are checked. Errors name
 * the argument and where inside it the problem is.
 */
export const kwargsSchema = z
  .union([z.record(z.string(), z.unknown()), z.string().max(1_000_000)])
  .optional()
  .transform((value, ctx): JsonObject => {
    let input: unknown = value ?? {};
    if (typeof input === 'string') {
      try {
        input = input.trim() === '' ? {} : parseJsonExact(input);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `kwargs text is not valid JSON: ${(err as Error).message}` });
        return z.NEVER;
      }
    }
    try {
      return kwargsFromUser(input);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: err instanceof KwargsError ? err.message : `kwargs: ${(err as Error).message}` });
      return z.NEVER;
    }
  })
  .describe('function arguments as a JSON object, e.g. {"amount": "1.5", "to": "<address>"}; decimals exact (strings or numbers), datetimes as {"__time__":[Y,M,D,h,m,s,µs]}');

// ---- outputs ---------------------------------------------------------------------------------

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

// ---- node failures as tool errors ------------------------------------------------------------

/**
 * A failure talking to the node as the ApiError a tool throws: unreachable → 502
 * `node_unavailable`; a JSON-RPC or query error → 502 `node_error` with the node's text;
 * an ApiError passes through; anything else is rethrown (a bug, reported as 500).
 */
export function nodeApiError(err: unknown, what: string): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof NodeUnavailableError) {
    return new ApiError(502, 'node_unavailable', `${what}: ${err.message}; check CHAIN_NODE_URL and that the node is running`, { url: err.url, retryable: true });
  }
  if (err instanceof RpcError) return new ApiError(502, 'node_error', `${what}: the node answered with an error: ${err.message}`, { rpc_code: err.code });
  if (err instanceof AbciQueryError) return new ApiError(502, 'node_error', `${what}: ${err.message}`, { path: err.path, code: err.code });
  if (err instanceof AbciValueError) return new ApiError(502, 'node_error', `${what}: the node answered a value this tool cannot read: ${err.message}`);
  if (err instanceof Error && err.name === 'AbortError') return ApiError.timeout(`${what}: aborted`);
  throw err;
}

/** Runs a node call, turning its failures into ApiErrors (see nodeApiError). */
export async function nodeCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw nodeApiError(err, what);
  }
}

// ---- transaction outputs (shared by every submitting tool) -----------------------------------

const stateWriteOut = z.object({ key: z.string(), value: z.unknown() });

/** TxReceipt (core/chain/transaction-submitter.ts) as a tool output. */
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

/** TransactionSubmission (the anchor's field names, plus the dry run and the receipt). */
export const transactionSubmissionOut = z.object({
  submitted: z.boolean(),
  accepted: z.boolean().describe('CheckTx accepted the transaction'),
  finalized: z.boolean().describe('the transaction is in a block (receipt present)'),
  tx_hash: z.string(),
  mode: z.literal('checktx'),
  wait_for_tx: z.boolean(),
  chain_id: z.string(),
  sender: z.string(),
  contract: z.string(),
  function: z.string(),
  kwargs: z.unknown().describe('the kwargs as sent on the wire (decimals as {"__fixed__": "…"})'),
  nonce: intOut,
  chi_supplied: intOut,
  chi_estimated: intOut.nullable(),
  message: z.string(),
  response: z.object({ code: z.number().int(), log: z.string(), codespace: z.string(), hash: z.string() }),
  simulation: z.object({ status: z.number().int(), result: z.string(), chi_used: intOut, state: z.array(stateWriteOut) }).nullable(),
  receipt: txReceiptOut.nullable(),
  warnings: warningsOut,
  raw: rawOut,
});
