import { hasLoneSurrogate } from './hashes.js';
import { parseJsonText, type JsonPathSegment } from './json-parser.js';

export { JsonSyntaxError, parseJsonExact } from './json-parser.js';

/**
 * JSON text exactly as the node writes it. Canonical JSON (transactions.md §2) is what is
 * signed and what travels on the wire: keys sorted by code point at every depth, compact,
 * raw UTF-8, integers only. `compactJson` is the same writer in the node's other modes
 * (ASCII-escaped runtime encoding and ABCI JSON, where integers are unbounded).
 */

export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export class CanonicalJsonError extends Error {
  /** JSON path of the offending value, `$` for the root, e.g. `$.payload.kwargs.amount`. */
  readonly path: string;
  /** What is wrong with it, in words. */
  readonly reason: string;

  constructor(message: string, path: string, reason: string) {
    super(message);
    this.name = 'CanonicalJsonError';
    this.path = path;
    this.reason = reason;
  }
}

const NOT_CANONICAL = 'Transaction bytes are not canonical';
const MAX_CANONICAL_DEPTH = 128;
const MAX_DEPTH = 1000;
const MIN_I64 = -(2n ** 63n);
const MAX_U64 = 2n ** 64n - 1n;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function formatJsonPath(path: readonly JsonPathSegment[]): string {
  let out = '$';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += IDENTIFIER.test(seg) ? `.${seg}` : `[${JSON.stringify(seg.length > 60 ? seg.slice(0, 60) + '…' : seg)}]`;
  }
  return out;
}

/**
 * Orders strings by Unicode code point, as Python's `sorted()` does. The default JS sort
 * compares UTF-16 units and puts astral characters before U+E000..U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}

/**
 * Sorts object keys by code point, in place. The few keys of an object are insertion-sorted:
 * `Array.prototype.sort` allocates scratch space on every call, which for the JSON of every
 * transaction made it the largest source of garbage. Keys are unique, so any sort gives the
 * same order.
 */
export function sortKeysByCodePoint(keys: string[]): string[] {
  if (keys.length > 32) return keys.sort(compareCodePoints);
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && compareCodePoints(keys[j]!, key) > 0) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

/** Moves surrogates (astral characters) above U+E000..U+FFFF; order elsewhere is unchanged. */
function rank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

interface WriteMode {
  canonical: boolean; // int range -(2^63)..2^64-1, depth 128, raw UTF-8 (lone surrogates refused)
  ascii: boolean; // non-ASCII and DEL as \uXXXX, as Python's ensure_ascii
  sortKeys: boolean;
}

/** The canonical text of a JSON value; throws CanonicalJsonError naming the path of what it refuses. */
export function canonicalJson(value: JsonValue): string {
  return write(value, { canonical: true, ascii: false, sortKeys: true });
}

/**
 * Compact JSON as Python's `json.dumps(separators=(",", ":"))`: `asciiOnly` = `ensure_ascii`,
 * `sortKeys` by code point. Integers of any size (ABCI JSON keeps them bare).
 */
export function compactJson(value: JsonValue, options: { asciiOnly: boolean; sortKeys: boolean }): string {
  return write(value, { canonical: false, ascii: options.asciiOnly, sortKeys: options.sortKeys });
}

/**
 * Writes `value`: a lean writer first (no path bookkeeping — every transaction's execution
 * output, state values and signed payload go through here), and only when that meets
 * something it would refuse, the checked writer below, which names the path and the reason.
 * Both accept and refuse exactly the same values and write the same text.
 */
function write(value: JsonValue, mode: WriteMode): string {
  try {
    return writeLean(value, mode, 0);
  } catch (err) {
    if (err !== REFUSED) throw err;
  }
  return writeChecked(value, mode);
}

/** What the lean writer throws at anything the checked writer refuses. */
const REFUSED = Symbol('refused');
const NON_ASCII_TEST = /[\u007f-\uffff]/;

function writeLean(v: unknown, mode: WriteMode, depth: number): string {
  if (depth > (mode.canonical ? MAX_CANONICAL_DEPTH : MAX_DEPTH)) throw REFUSED;
  switch (typeof v) {
    case 'string':
      return quoteLean(v, mode);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      // Finite, integral, not -0 and exact: what the checked writer lets through.
      if (!Number.isSafeInteger(v) || Object.is(v, -0)) throw REFUSED;
      return String(v);
    case 'bigint':
      if (mode.canonical && (v < MIN_I64 || v > MAX_U64)) throw REFUSED;
      return v.toString();
    case 'object': {
      if (v === null) return 'null';
      if (Array.isArray(v)) {
        let out = '[';
        for (let i = 0; i < v.length; i++) {
          if (!(i in v)) throw REFUSED;
          out += (i > 0 ? ',' : '') + writeLean(v[i], mode, depth + 1);
        }
        return out + ']';
      }
      if (!isPlainObject(v)) throw REFUSED;
      const keys = Object.keys(v);
      if (mode.sortKeys) sortKeysByCodePoint(keys);
      let out = '{';
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        out += (i > 0 ? ',' : '') + quoteLean(key, mode) + ':' + writeLean((v as Record<string, unknown>)[key], mode, depth + 1);
      }
      return out + '}';
    }
    default:
      throw REFUSED;
  }
}

/** Printable ASCII without `"` and `\`: written as is in every mode. */
const PLAIN_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

function quoteLean(s: string, mode: WriteMode): string {
  if (PLAIN_TEXT.test(s)) return '"' + s + '"';
  const json = JSON.stringify(s);
  if (mode.ascii) return NON_ASCII_TEST.test(json) ? json.replace(NON_ASCII, escapeUnit) : json;
  if (hasLoneSurrogate(s)) throw REFUSED;
  return json;
}

/** A JSON string literal as Python's `json.dumps(s)` writes it (ensure_ascii). */
export function asciiJsonString(s: string): string {
  if (PLAIN_TEXT.test(s)) return '"' + s + '"';
  const json = JSON.stringify(s);
  return NON_ASCII_TEST.test(json) ? json.replace(NON_ASCII, escapeUnit) : json;
}

function escapeUnit(c: string): string {
  return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
}

function writeChecked(value: JsonValue, mode: WriteMode): string {
  const out: string[] = [];
  const path: JsonPathSegment[] = [];
  const refuse = (reason: string): never => {
    const where = formatJsonPath(path);
    throw new CanonicalJsonError(`JSON value at ${where} refused: ${reason}`, where, reason);
  };
  const visit = (v: unknown, depth: number): void => {
    if (depth > (mode.canonical ? MAX_CANONICAL_DEPTH : MAX_DEPTH)) {
      refuse(`nested deeper than ${mode.canonical ? MAX_CANONICAL_DEPTH : MAX_DEPTH} levels (or circular)`);
    }
    switch (typeof v) {
      case 'string':
        out.push(quote(v, mode, refuse));
        return;
      case 'boolean':
        out.push(v ? 'true' : 'false');
        return;
      case 'number':
        if (!Number.isFinite(v)) refuse(`${v} is not a JSON number`);
        if (!Number.isInteger(v)) refuse(`floats are not allowed (${v}); send decimals as {"__fixed__":"${v}"}`);
        if (Object.is(v, -0)) refuse('negative zero is not an integer literal; use 0');
        if (!Number.isSafeInteger(v)) refuse(`integer ${v} is beyond the exact range of a JS number; pass it as a bigint`);
        out.push(String(v));
        return;
      case 'bigint':
        if (mode.canonical && (v < MIN_I64 || v > MAX_U64)) {
          refuse(`integer ${v} is outside -(2^63)..2^64-1; wrap it as {"__big_int__":"${v}"}`);
        }
        out.push(v.toString());
        return;
      case 'object':
        if (v === null) { out.push('null'); return; }
        if (Array.isArray(v)) {
          out.push('[');
          for (let i = 0; i < v.length; i++) {
            if (i > 0) out.push(',');
            path.push(i);
            if (!(i in v)) refuse('array hole (undefined) is not a JSON value');
            visit(v[i], depth + 1);
            path.pop();
          }
          out.push(']');
          return;
        }
        if (!isPlainObject(v)) {
          refuse(`${(v as object).constructor?.name ?? 'object'} is not a JSON value; encode chain values with encodeValue() first`);
        }
        {
          const keys = Object.keys(v);
          if (mode.sortKeys) sortKeysByCodePoint(keys);
          out.push('{');
          keys.forEach((key, i) => {
            if (i > 0) out.push(',');
            path.push(key);
            out.push(quote(key, mode, refuse), ':');
            visit((v as Record<string, unknown>)[key], depth + 1);
            path.pop();
          });
          out.push('}');
        }
        return;
      default:
        refuse(`${typeof v} is not a JSON value`);
    }
  };
  visit(value, 0);
  return out.join('');
}

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === null || proto === Object.prototype;
}

const NON_ASCII = /[\u007f-\uffff]/g;

function quote(s: string, mode: WriteMode, refuse: (reason: string) => never): string {
  // JSON.stringify escapes exactly as Python does (", \, \b \f \n \r \t, other controls as \u00xx).
  const json = JSON.stringify(s);
  if (mode.ascii) return json.replace(NON_ASCII, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
  if (hasLoneSurrogate(s)) refuse('string contains a lone UTF-16 surrogate, which has no UTF-8 encoding');
  return json;
}

/**
 * Strict parse of text that must already be canonical, as the node decodes transaction bytes:
 * integers exact (bigint beyond the safe range), floats and duplicate keys refused, and the
 * text must re-serialise to itself. Throws JsonSyntaxError (Python's decode message) or
 * CanonicalJsonError whose message is the node's (`Transaction bytes are not canonical`).
 */
export function parseCanonical(text: string): JsonValue {
  const { value, violation } = parseJsonText(text, true);
  if (violation) throw new CanonicalJsonError(violation.message, formatJsonPath(violation.path), violation.reason);
  let again: string;
  try {
    again = canonicalJson(value);
  } catch (err) {
    if (err instanceof CanonicalJsonError) throw new CanonicalJsonError(NOT_CANONICAL, err.path, err.reason);
    throw err;
  }
  if (again !== text) {
    let at = 0;
    while (at < text.length && text[at] === again[at]) at++;
    throw new CanonicalJsonError(NOT_CANONICAL, '$', `differs from its canonical form at character ${at}`);
  }
  return value;
}
