import type { JsonObject, JsonValue } from './canonical-json.js';
import { ChainDecimal } from './decimal.js';
import { numberDecimalText } from './json-number.js';
import { bytesToHex, hasLoneSurrogate } from './hashes.js';
import { ChainDatetime, ChainTimedelta } from './values.js';

/**
 * Turns kwargs typed by a person or an agent (JSON from a tool call) into wire kwargs the
 * node accepts. JS numbers with a fraction become exact decimals through their own shortest
 * text, never through binary arithmetic; integers JS cannot hold exactly are refused rather
 * than sent with wrong digits; explicit wrappers are checked and normalised.
 */

export class KwargsError extends Error {
  constructor(readonly argument: string, readonly where: string, reason: string) {
    super(where === argument ? `argument '${argument}': ${reason}` : `argument '${argument}' (at ${where}): ${reason}`);
    this.name = 'KwargsError';
  }
}

const ARG_NAME = /^[a-zA-Z][a-zA-Z0-9_]*$/;
const DECIMAL_TEXT = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;
const MAX_PLACES = 30;
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const WRAPPER_NAMES: ReadonlySet<string> = new Set(['__fixed__', '__time__', '__delta__', '__bytes__', '__bytearray__', '__set__', '__frozenset__', '__big_int__']);

/** User JSON → wire kwargs (plain JSON plus wrappers). Throws KwargsError naming the argument. */
export function kwargsFromUser(input: unknown): JsonObject {
  const out = Object.create(null) as JsonObject;
  if (input === undefined) return out;
  if (!isPlainObject(input)) throw new KwargsError('kwargs', 'kwargs', 'kwargs must be a JSON object of named arguments');
  for (const name of Object.keys(input)) {
    if (!ARG_NAME.test(name)) {
      throw new KwargsError(name, name, 'not a valid argument name (a letter, then letters, digits or _)');
    }
    out[name] = userValue((input as Record<string, unknown>)[name], name, name, 0);
  }
  return out;
}

function userValue(v: unknown, arg: string, where: string, depth: number): JsonValue {
  const fail = (reason: string): never => { throw new KwargsError(arg, where, reason); };
  if (depth > 64) fail('nested too deeply');
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    if (hasLoneSurrogate(v)) fail('text contains a lone UTF-16 surrogate, which cannot be sent as UTF-8');
    return v;
  }
  if (typeof v === 'number') return userNumber(v, fail);
  // Typed values from code calling this helper: the same wire forms encodeValue(…, 'wire') gives.
  if (typeof v === 'bigint') return v >= MIN_SAFE && v <= MAX_SAFE ? Number(v) : wrap('__big_int__', v.toString());
  if (v instanceof ChainDecimal) return wrap('__fixed__', v.toString());
  if (v instanceof ChainDatetime) return wrap('__time__', v.parts());
  if (v instanceof ChainTimedelta) return wrap('__delta__', [v.days, v.seconds]);
  if (v instanceof Uint8Array) return wrap('__bytes__', bytesToHex(v));
  if (Array.isArray(v)) return v.map((item, i) => userValue(item, arg, `${where}[${i}]`, depth + 1));
  if (!isPlainObject(v)) return fail(`${typeof v === 'object' ? v?.constructor?.name : typeof v} is not a JSON value`);
  const keys = Object.keys(v);
  const obj = v as Record<string, unknown>;
  const marker = keys.find(isWrapperName);
  if (marker !== undefined) {
    if (keys.length !== 1) fail(`a ${marker} wrapper must be the object's only key`);
    return userWrapper(marker, obj[marker], arg, where, depth, fail);
  }
  const out = Object.create(null) as JsonObject;
  for (const key of keys) {
    if (hasLoneSurrogate(key)) fail('a key contains a lone UTF-16 surrogate');
    out[key] = userValue(obj[key], arg, `${where}.${key}`, depth + 1);
  }
  return out;
}

function userNumber(n: number, fail: (reason: string) => never): JsonValue {
  if (!Number.isFinite(n)) return fail(`${n} is not a number the chain can hold`);
  if (Number.isInteger(n)) {
    if (!Number.isSafeInteger(n)) {
      return fail(`integer ${n} is beyond ±(2^53-1), where JSON numbers lose digits; send it as {"__big_int__":"<digits>"}`);
    }
    return n === 0 ? 0 : n; // folds -0
  }
  const exact = numberDecimalText(n);
  return 'problem' in exact ? fail(exact.problem) : fixed(exact.text, fail);
}

function fixed(text: string, fail: (reason: string) => never): JsonObject {
  if (!DECIMAL_TEXT.test(text)) return fail(`${JSON.stringify(text.slice(0, 40))} is not a decimal number`);
  if (decimalPlaces(text) > MAX_PLACES) fail(`more than ${MAX_PLACES} decimal places; the chain would silently drop the rest`);
  try {
    // Plain fixed-point text ("5000000", not the runtime's "5E+6"): the node accepts any decimal
    // text, and a person shown the signed payload reads it as written.
    return wrap('__fixed__', ChainDecimal.parse(text).toString());
  } catch (err) {
    return fail((err as Error).message);
  }
}

/** Fractional digits a decimal text needs, exponent included ("1.25e-3" needs 5). */
function decimalPlaces(text: string): number {
  const t = text.trim().replace(/^[+-]/, '');
  const [mantissa = '', exp = '0'] = t.split(/[eE]/);
  const frac = (mantissa.split('.')[1] ?? '').replace(/0+$/, '');
  return Math.max(0, frac.length - Number(exp));
}

function isWrapperName(key: string): boolean {
  return WRAPPER_NAMES.has(key);
}

function wrap(marker: string, value: JsonValue): JsonObject {
  const out = Object.create(null) as JsonObject;
  out[marker] = value;
  return out;
}

function userWrapper(marker: string, inner: unknown, arg: string, where: string, depth: number, fail: (reason: string) => never): JsonValue {
  const ints = (count: [number, number]): number[] => {
    if (!Array.isArray(inner) || inner.length < count[0] || inner.length > count[1] || !inner.every(Number.isSafeInteger)) {
      return fail(`${marker} must be a list of ${count[0] === count[1] ? count[0] : `${count[0]} to ${count[1]}`} integers`);
    }
    return inner as number[];
  };
  switch (marker) {
    case '__fixed__':
      if (typeof inner === 'number') {
        const exact = numberDecimalText(inner);
        return 'problem' in exact ? fail(exact.problem) : fixed(exact.text, fail);
      }
      if (typeof inner !== 'string') return fail('__fixed__ must hold a decimal string such as "1.5"');
      return fixed(inner, fail);
    case '__big_int__':
      if (typeof inner !== 'string' || !/^\s*[+-]?\d+\s*$/.test(inner)) return fail('__big_int__ must hold an integer string such as "18446744073709551616"');
      return wrap(marker, BigInt(inner.trim()).toString());
    case '__time__': {
      const parts = ints([3, 7]);
      try { ChainDatetime.fromParts(...(parts as [number, number, number])); } catch (err) { fail((err as Error).message); }
      return wrap(marker, parts);
    }
    case '__delta__':
      return wrap(marker, ints([2, 2]));
    case '__bytes__':
    case '__bytearray__':
      if (typeof inner !== 'string' || inner.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(inner)) return fail(`${marker} must hold an even number of hex characters`);
      return wrap(marker, inner.toLowerCase());
    default: // __set__, __frozenset__
      if (!Array.isArray(inner)) return fail(`${marker} must hold a list`);
      return wrap(marker, inner.map((item, i) => userValue(item, arg, `${where}.${marker}[${i}]`, depth + 1)));
  }
}

function isPlainObject(v: unknown): v is object {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || proto === Object.prototype;
}
