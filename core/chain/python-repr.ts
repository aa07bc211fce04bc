import { ChainDecimal } from './decimal.js';
import { ChainDatetime, ChainTimedelta, type ChainValue } from './values.js';

/**
 * The Python text forms the node writes for values: `repr` (the `result` of an executed
 * transaction, through `safe_repr`) and `str` (StateChange event attributes). Decimals,
 * datetimes and timedeltas print as the runtime's classes do: engineering notation,
 * "YYYY-MM-DD HH:MM:SS[.ffffff]", "1 day, 0:00:05".
 */

const SAFE_REPR_MAX = 1024;
// Python's str.isprintable() is false for these categories (the ASCII space aside).
const NOT_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

/** Python `repr(value)` of a runtime value. */
export function pythonRepr(value: ChainValue): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return reprString(value);
  if (value instanceof ChainDecimal) return value.toEngString();
  if (value instanceof ChainDatetime || value instanceof ChainTimedelta) return value.toString();
  if (value instanceof Uint8Array) return reprBytes(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.keys(value).map((k) => `${reprString(k)}: ${pythonRepr(value[k]!)}`).join(', ')}}`;
  }
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value); // tolerated: plain JS ints
  throw new TypeError(`pythonRepr: ${typeof value} is not a chain value`);
}

/** Python `str(value)`: strings as themselves, everything else as its repr. */
export function pythonStr(value: ChainValue): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

/** The node's `safe_repr`: repr cut before " at 0x" (memory addresses), else at 1024 characters. */
export function safeRepr(value: ChainValue): string {
  return safeReprText(pythonRepr(value));
}

/** `safe_repr` applied to an already-made repr text, e.g. an exception's. */
export function safeReprText(raw: string): string {
  const at = raw.indexOf(' at 0x');
  if (at >= 0) return raw.slice(0, at) + '>';
  if (raw.length <= SAFE_REPR_MAX) return raw;
  return Array.from(raw).slice(0, SAFE_REPR_MAX).join(''); // Python counts code points
}

/** Python repr of an exception instance: `AssertionError('Insufficient funds')`. */
export function exceptionRepr(className: string, ...args: string[]): string {
  if (args.length === 1) return `${className}(${reprString(args[0]!)})`;
  return `${className}(${args.map(reprString).join(', ')})`;
}

/** Python `repr(str)`: single quotes unless the text has ' and no ", escapes for the unprintable. */
export function reprString(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = q;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === q || ch === '\\') out += '\\' + ch;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + hex(c, 2);
    else if (c < 0x7f) out += ch;
    else if (!NOT_PRINTABLE.test(ch)) out += ch;
    else if (c <= 0xff) out += '\\x' + hex(c, 2);
    else if (c <= 0xffff) out += '\\u' + hex(c, 4);
    else out += '\\U' + hex(c, 8);
  }
  return out + q;
}

/** Python `repr(bytes)`: b'…' with \xNN for everything outside printable ASCII. */
export function reprBytes(bytes: Uint8Array): string {
  let hasSingle = false;
  let hasDouble = false;
  for (const b of bytes) {
    if (b === 0x27) hasSingle = true;
    if (b === 0x22) hasDouble = true;
  }
  const q = hasSingle && !hasDouble ? '"' : "'";
  let out = 'b' + q;
  for (const b of bytes) {
    const ch = String.fromCharCode(b);
    if (ch === q || ch === '\\') out += '\\' + ch;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (b < 0x20 || b >= 0x7f) out += '\\x' + hex(b, 2);
    else out += ch;
  }
  return out + q;
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}
