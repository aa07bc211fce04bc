import { asciiJsonString, compactJson, formatJsonPath, sortKeysByCodePoint, type JsonObject, type JsonValue } from './canonical-json.js';
import { ChainDecimal } from './decimal.js';
import { bytesToHex, pythonFromHex, utf8TextOrNull } from './hashes.js';
import type { JsonPathSegment } from './json-parser.js';
import { reprBytes } from './python-repr.js';
import { ChainDatetime, ChainTimedelta, chainRecord, type ChainRecord, type ChainValue } from './values.js';

export { exceptionRepr, pythonRepr, pythonStr, safeRepr, safeReprText } from './python-repr.js';
export { kwargsFromUser, KwargsError } from './user-kwargs.js';

/**
 * The runtime wrappers (encoding.md §2) in both directions, and the node's ABCI JSON
 * normalisation (§4). Wrapper objects become typed values on the way in; on the way out
 * decimals use the `__fixed__` form the runtime writes (`1E+2` for 100).
 */

export class ValueCodecError extends Error {
  constructor(readonly path: string, reason: string) {
    super(`value at ${path}: ${reason}`);
    this.name = 'ValueCodecError';
  }
}

export const WRAPPER_KEYS = ['__fixed__', '__time__', '__delta__', '__bytes__', '__bytearray__', '__set__', '__frozenset__', '__big_int__'] as const;
const WRAPPERS: ReadonlySet<string> = new Set(WRAPPER_KEYS);
const MIN_I64 = -(2n ** 63n);
const MAX_I64 = 2n ** 63n - 1n;
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function isJsonObject(v: unknown): v is JsonObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || proto === Object.prototype;
}

/** The key that makes `obj` a wrapper: the first marker key in key order, as the runtime's convert_dict picks it. */
export function wrapperKey(obj: JsonObject): string | undefined {
  return Object.keys(obj).find((k) => WRAPPERS.has(k));
}

/**
 * JSON (state, kwargs, events) → runtime value. Any object holding a marker key becomes that
 * typed value (other keys ignored), at every depth; sets become arrays. Integers become bigint.
 * Non-integer JS numbers (legacy float state) become decimals through their shortest text.
 */
export function decodeValue(json: unknown): ChainValue {
  // Kwargs and state are nearly always plain: decode them without path bookkeeping, and let the
  // checked decoder take anything else (and name the path of what it refuses).
  try {
    return decodePlain(json, 0);
  } catch (err) {
    if (err !== NOT_PLAIN) throw err;
  }
  return decodeChecked(json);
}

const NOT_PLAIN = Symbol('not plain');
const MAX_PLAIN_DEPTH = 64;

/** `decodeChecked` for strings, safe integers, booleans, null, lists, records and `__fixed__` text; NOT_PLAIN otherwise. */
function decodePlain(v: unknown, depth: number): ChainValue {
  if (v === null || typeof v === 'boolean' || typeof v === 'string' || typeof v === 'bigint') return v;
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v)) return BigInt(v);
    throw NOT_PLAIN;
  }
  if (depth > MAX_PLAIN_DEPTH) throw NOT_PLAIN;
  if (v instanceof ChainDecimal || v instanceof ChainDatetime || v instanceof ChainTimedelta || v instanceof Uint8Array) return v;
  if (Array.isArray(v)) return v.map((item) => decodePlain(item, depth + 1));
  if (!isJsonObject(v)) throw NOT_PLAIN;
  const keys = Object.keys(v);
  for (const key of keys) {
    if (!WRAPPERS.has(key)) continue;
    // The first marker key decides (as in decodeChecked); only decimal text is decoded here.
    const inner = v[key];
    if (key !== '__fixed__' || typeof inner !== 'string') throw NOT_PLAIN;
    try {
      return ChainDecimal.parse(inner);
    } catch {
      throw NOT_PLAIN;
    }
  }
  const out = chainRecord();
  for (const key of keys) out[key] = decodePlain(v[key], depth + 1);
  return out;
}

function decodeChecked(json: unknown): ChainValue {
  const path: JsonPathSegment[] = [];
  const fail = (reason: string): never => { throw new ValueCodecError(formatJsonPath(path), reason); };
  const toInt = (v: unknown, what: string): bigint => {
    if (typeof v === 'bigint') return v;
    if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
    return fail(`${what} must be an integer`);
  };
  const visit = (v: unknown): ChainValue => {
    if (v === null || typeof v === 'boolean' || typeof v === 'string' || typeof v === 'bigint') return v;
    if (typeof v === 'number') {
      if (Number.isInteger(v)) {
        if (!Number.isSafeInteger(v)) fail(`integer ${v} arrived as a JS number and may have lost digits; parse with parseJsonExact`);
        return BigInt(v);
      }
      if (!Number.isFinite(v)) fail(`${v} is not a chain value`);
      return ChainDecimal.from(v);
    }
    if (v instanceof ChainDecimal || v instanceof ChainDatetime || v instanceof ChainTimedelta || v instanceof Uint8Array) return v;
    if (Array.isArray(v)) return v.map((item, i) => within(i, () => visit(item)));
    if (!isJsonObject(v)) return fail(`${(v as object)?.constructor?.name ?? typeof v} is not JSON`);
    const marker = wrapperKey(v);
    if (marker !== undefined) return within(marker, () => unwrap(marker, v[marker]));
    const out = chainRecord();
    for (const key of Object.keys(v)) out[key] = within(key, () => visit(v[key]));
    return out;
  };
  const within = <T>(seg: JsonPathSegment, f: () => T): T => {
    path.push(seg);
    try { return f(); } finally { path.pop(); }
  };
  const unwrap = (marker: string, inner: unknown): ChainValue => {
    try {
      switch (marker) {
        case '__fixed__':
          if (typeof inner === 'string') return ChainDecimal.parse(inner);
          if (typeof inner === 'number' || typeof inner === 'bigint') return ChainDecimal.from(inner);
          return fail('__fixed__ must hold a decimal string');
        case '__big_int__':
          if (typeof inner === 'string' && /^\s*[+-]?[0-9]+\s*$/.test(inner)) return BigInt(inner.trim());
          return toInt(inner, '__big_int__');
        case '__time__': {
          if (!Array.isArray(inner) || inner.length < 3 || inner.length > 7) return fail('__time__ must be a list of 3 to 7 integers');
          const parts = inner.map((p, i) => Number(toInt(p, `__time__[${i}]`)));
          return ChainDatetime.fromParts(...(parts as [number, number, number]));
        }
        case '__delta__':
          if (!Array.isArray(inner) || inner.length !== 2) return fail('__delta__ must be [days, seconds]');
          return new ChainTimedelta(Number(toInt(inner[0], 'days')), Number(toInt(inner[1], 'seconds')));
        case '__bytes__':
        case '__bytearray__':
          if (typeof inner !== 'string') return fail(`${marker} must hold a hex string`);
          return pythonFromHex(inner);
        default: // __set__, __frozenset__: no set type at runtime here, so a list
          if (!Array.isArray(inner)) return fail(`${marker} must hold a list`);
          return inner.map((item, i) => within(i, () => visit(item)));
      }
    } catch (err) {
      if (err instanceof ValueCodecError) throw err;
      return fail((err as Error).message);
    }
  };
  return visit(json);
}

/**
 * Where integers get `{"__big_int__": "…"}`. `runtime`: the runtime's `encode()` (state,
 * events): values outside (-(2^63), 2^63-1), only at the top level, in dict values and in
 * list items directly inside a dict. `wire`: transaction kwargs as chainhost clients send
 * them: every integer outside the JS safe range, at every depth, so no tool loses digits.
 */
export type BigIntScope = 'runtime' | 'wire';

/**
 * Runtime value → JSON with wrappers (datetimes 7 ints, bytes hex). Decimals: `runtime` writes
 * the runtime's own `{"__fixed__":"1E+2"}` (state, events); `wire` writes plain text
 * `{"__fixed__":"100"}` as the official SDK does — the node accepts any decimal text.
 */
export function encodeValue(value: ChainValue, scope: BigIntScope = 'runtime'): JsonValue {
  const tree = toWrapperTree(value, scope === 'wire');
  return scope === 'wire' ? wrapEverywhere(tree) : wrapRuntimeInts(tree);
}

/**
 * The runtime's `encode()` text: compact, ASCII-escaped, keys in insertion order (except that
 * JS objects list integer-like keys first, ascending; Python would keep them where inserted).
 */
export function runtimeJsonText(value: ChainValue): string {
  // The two values every transaction writes (a balance, a nonce), without the tree between.
  if (typeof value === 'bigint') return value > MIN_I64 && value < MAX_I64 ? value.toString() : `{"__big_int__":"${value}"}`;
  if (value instanceof ChainDecimal) return `{"__fixed__":${asciiJsonString(value.toFixedWrapperString())}}`;
  return compactJson(encodeValue(value, 'runtime'), { asciiOnly: true, sortKeys: false });
}

function toWrapperTree(v: ChainValue, plainDecimals: boolean): JsonValue {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return v;
  if (v instanceof ChainDecimal) return wrapper('__fixed__', plainDecimals ? v.toString() : v.toFixedWrapperString());
  if (v instanceof ChainDatetime) return wrapper('__time__', v.parts());
  if (v instanceof ChainTimedelta) return wrapper('__delta__', [v.days, v.seconds]);
  if (v instanceof Uint8Array) return wrapper('__bytes__', bytesToHex(v));
  if (Array.isArray(v)) return v.map((item) => toWrapperTree(item, plainDecimals));
  if (typeof v === 'number') return v; // tolerated: plain JS ints
  const out = Object.create(null) as JsonObject;
  for (const key of Object.keys(v)) out[key] = toWrapperTree(v[key]!, plainDecimals);
  return out;
}

function wrapper(key: string, inner: JsonValue): JsonObject {
  const out = Object.create(null) as JsonObject;
  out[key] = inner;
  return out;
}

function isInt(v: JsonValue): v is number | bigint {
  return typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v));
}

function compactInt(v: bigint): number | bigint {
  return v >= MIN_SAFE && v <= MAX_SAFE ? Number(v) : v;
}

function wrapRuntimeInt(v: number | bigint): JsonValue {
  const b = BigInt(v);
  return b > MIN_I64 && b < MAX_I64 ? compactInt(b) : wrapper('__big_int__', b.toString());
}

/**
 * Whether `wrapRuntimeInts` would change how `v` is written: an integer anywhere outside the
 * int64 range it leaves bare, or a JS number beyond the exact range or -0 (which it turns
 * into a bigint or 0). Without one, the JSON text of `v` and of its wrapped copy are the same.
 */
export function hasWideRuntimeInts(v: JsonValue): boolean {
  if (typeof v === 'bigint') return !(v > MIN_I64 && v < MAX_I64);
  if (typeof v === 'number') return Number.isInteger(v) && (!Number.isSafeInteger(v) || Object.is(v, -0));
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.some(hasWideRuntimeInts);
  for (const key of Object.keys(v)) if (hasWideRuntimeInts(v[key]!)) return true;
  return false;
}

/** Python `encode()`'s integer pass on JSON: top level, dict values, list items directly in a dict. */
export function wrapRuntimeInts(v: JsonValue): JsonValue {
  if (isInt(v)) return wrapRuntimeInt(v);
  if (isJsonObject(v)) return wrapDictInts(v);
  return v; // a top-level list is left as it is
}

function wrapDictInts(d: JsonObject): JsonObject {
  const out = Object.create(null) as JsonObject;
  for (const key of Object.keys(d)) {
    const v = d[key]!;
    if (isInt(v)) out[key] = wrapRuntimeInt(v);
    else if (isJsonObject(v)) out[key] = wrapDictInts(v);
    else if (Array.isArray(v)) out[key] = v.map((item) => (isJsonObject(item) ? wrapDictInts(item) : isInt(item) ? wrapRuntimeInt(item) : item));
    else out[key] = v;
  }
  return out;
}

function wrapEverywhere(v: JsonValue): JsonValue {
  if (isInt(v)) {
    const b = BigInt(v);
    return b >= MIN_SAFE && b <= MAX_SAFE ? Number(b) : wrapper('__big_int__', b.toString());
  }
  if (Array.isArray(v)) return v.map(wrapEverywhere);
  if (isJsonObject(v)) {
    const out = Object.create(null) as JsonObject;
    for (const key of Object.keys(v)) out[key] = wrapEverywhere(v[key]!);
    return out;
  }
  return v;
}

/**
 * ABCI JSON normalisation as text (query values, `tx_result.data`, simulate output): keys
 * sorted, compact, ASCII-escaped, decimals plain (`1000`), datetimes "YYYY-MM-DD HH:MM:SS",
 * bytes as UTF-8 text or Python's `b'…'`, integers bare at any size (hence text, not an object).
 * Timedeltas print as Python's str (upstream leaves them unhandled; chainhost's choice).
 */
export function abciJsonText(value: ChainValue): string {
  // Written straight from the values (every transaction's execution output comes through here);
  // anything unusual goes the long way, through the tree and the checked writer.
  try {
    return writeAbci(value, 0);
  } catch (err) {
    if (err !== UNUSUAL) throw err;
  }
  return compactJson(toAbciTree(value), { asciiOnly: true, sortKeys: true });
}

const UNUSUAL = Symbol('unusual');
const MAX_ABCI_DEPTH = 1000;

/** `compactJson(toAbciTree(v), {asciiOnly, sortKeys})` in one pass, for plain records, lists and the chain's scalars. */
function writeAbci(v: ChainValue, depth: number): string {
  if (depth > MAX_ABCI_DEPTH) throw UNUSUAL;
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string': return asciiJsonString(v);
    case 'boolean': return v ? 'true' : 'false';
    case 'bigint': return v.toString();
    case 'object': break;
    default: throw UNUSUAL;
  }
  if (v instanceof ChainDecimal || v instanceof ChainDatetime || v instanceof ChainTimedelta) return asciiJsonString(v.toString());
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) {
      if (!(i in v)) throw UNUSUAL;
      out += (i > 0 ? ',' : '') + writeAbci(v[i]!, depth + 1);
    }
    return out + ']';
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== null && proto !== Object.prototype) throw UNUSUAL; // bytes and anything else: the long way
  const keys = sortKeysByCodePoint(Object.keys(v));
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    out += (i > 0 ? ',' : '') + asciiJsonString(key) + ':' + writeAbci((v as ChainRecord)[key]!, depth + 1);
  }
  return out + '}';
}

function toAbciTree(v: ChainValue): JsonValue {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return compactInt(v);
  if (v instanceof ChainDecimal || v instanceof ChainDatetime || v instanceof ChainTimedelta) return v.toString();
  if (v instanceof Uint8Array) return utf8TextOrNull(v) ?? reprBytes(v);
  if (Array.isArray(v)) return v.map(toAbciTree);
  if (typeof v === 'number') return v; // tolerated: plain JS ints
  const out = Object.create(null) as JsonObject;
  for (const key of Object.keys(v)) out[key] = toAbciTree((v as ChainRecord)[key]!);
  return out;
}
