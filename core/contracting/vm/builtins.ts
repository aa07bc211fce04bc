import { ENTRY_BYTES, NEW_ELEMENT_BYTES, TextBuilder, checkTextLength, reserveItems, reserveText } from './alloc.js';
import { asBigInt, asString, checkI64, toDecimal, toU32, toUsize } from './coerce.js';
import { compareValues, normalizeSetItems } from './compare.js';
import { VmError } from './errors.js';
import { checkedInt, checkedPow, modPow } from './ints.js';
import { MAX_BINARY_ALLOCATION_BYTES, MAX_INT_STRING_CHARS, MAX_SEQUENCE_LENGTH } from './limits.js';
import { binaryOp } from './operators.js';
import { byteFromValue, codePoints, dictSet, iterate } from './sequences.js';
import {
  VmBuiltin, VmBytes, VmDecimal, VmDict, VmException, VmFunctionRef, VmSet, VmTuple, VmTypeMarker, pyStr, truthy, typeName,
  type VmValue,
} from './values.js';

/** The 37 builtin callables (upstream `call_builtin`); `map`/`filter` call back into the VM. */
export const BUILTIN_NAMES = new Set([
  'len', 'range', 'str', 'bool', 'int', 'float', 'bytes', 'bytearray', 'dict', 'list', 'tuple', 'set', 'frozenset',
  'isinstance', 'issubclass', 'sorted', 'sum', 'min', 'max', 'all', 'any', 'map', 'filter', 'reversed', 'zip', 'pow',
  'format', 'ord', 'abs', 'ascii', 'bin', 'hex', 'oct', 'chr', 'divmod', 'round', 'Exception',
]);

export function builtinNameValue(name: string): VmValue | undefined {
  if (BUILTIN_NAMES.has(name)) return new VmBuiltin(name);
  if (name === 'Any' || name === 'decimal') return new VmTypeMarker(name);
  return undefined;
}

const TYPE_MARKER_BUILTINS = new Set(['str', 'int', 'float', 'bool', 'bytes', 'bytearray', 'list', 'dict', 'tuple', 'set', 'frozenset']);
export function coerceTypeMarker(v: VmValue): VmValue {
  return v instanceof VmBuiltin && TYPE_MARKER_BUILTINS.has(v.name) ? new VmTypeMarker(v.name) : v;
}

export type CallCallable = (callee: VmValue, args: VmValue[]) => VmValue;
type Kwargs = [string, VmValue][];

function expect(cond: boolean, message: string): void {
  if (!cond) throw new VmError(message);
}

function typeMatchesName(v: VmValue, name: string): boolean {
  switch (name) {
    case 'Any': return true;
    case 'bool': return typeof v === 'boolean';
    case 'int': return typeof v === 'bigint';
    case 'float': return typeof v === 'number';
    case 'decimal': return v instanceof VmDecimal;
    case 'datetime.datetime': case 'datetime.timedelta': case 'str': case 'bytes': case 'bytearray': case 'list':
    case 'dict': case 'tuple': case 'set': case 'frozenset':
      return typeName(v) === (name.startsWith('datetime.') ? name.slice(9) : name);
  }
  return false;
}

function typeMatches(v: VmValue, marker: VmValue): boolean {
  if (marker instanceof VmTypeMarker || marker instanceof VmBuiltin) return typeMatchesName(v, marker.name);
  if (marker instanceof VmTuple) return marker.items.some((m) => typeMatches(v, m));
  return false;
}

function markerNames(v: VmValue): string[] {
  if (v instanceof VmTypeMarker || v instanceof VmBuiltin) return [v.name];
  if (v instanceof VmTuple) return v.items.flatMap(markerNames);
  throw new VmError(`issubclass() arg 1 must be a class or tuple of classes, got ${typeName(v)}`);
}

function textBytes(args: VmValue[], kind: string, mutable: boolean): VmValue {
  if (args.length === 0) return new VmBytes(new Uint8Array(), mutable);
  const [first] = args;
  if (typeof first === 'string') {
    if (args.length === 1) throw new VmError('string argument without an encoding');
    const encoding = asString(args[1]!).toLowerCase();
    if (encoding === 'utf-8' || encoding === 'utf8') {
      reserveText(Buffer.byteLength(first, 'utf8'));
      return new VmBytes(Uint8Array.from(Buffer.from(first, 'utf8')), mutable);
    }
    if (encoding === 'ascii') {
      if (!/^[\x00-\x7f]*$/.test(first)) throw new VmError("'ascii' codec can't encode characters outside ASCII range");
      reserveText(first.length);
      return new VmBytes(Uint8Array.from(Buffer.from(first, 'latin1')), mutable);
    }
    throw new VmError(`unsupported ${kind}() encoding '${encoding}'`);
  }
  if (args.length > 1) throw new VmError('encoding without a string argument');
  if (typeof first === 'bigint') {
    if (first < 0n) throw new VmError('negative count');
    const size = toUsize(first, `${kind}() size`);
    if (size > MAX_BINARY_ALLOCATION_BYTES) throw new VmError(`${kind}() exceeds the maximum allowed allocation size`);
    reserveText(size);
    return new VmBytes(new Uint8Array(size), mutable);
  }
  if (first instanceof VmBytes) {
    reserveText(first.data.length);
    return new VmBytes(Uint8Array.from(first.data), mutable);
  }
  if (Array.isArray(first) || first instanceof VmTuple) {
    const items = Array.isArray(first) ? first : first.items;
    reserveText(items.length);
    return new VmBytes(Uint8Array.from(items, byteFromValue), mutable);
  }
  throw new VmError(`${typeName(first!)} is not bytes-like`);
}

function parseIntText(text: string, base: number): bigint | undefined {
  const t = text.replace(/_/g, '\u0000');
  const m = /^([+-]?)([0-9a-zA-Z]+)$/.exec(t);
  if (!m) return undefined;
  let value = 0n;
  const b = BigInt(base);
  for (const c of m[2]!) {
    const d = parseInt(c, 36);
    if (Number.isNaN(d) || d >= base) return undefined;
    value = value * b + BigInt(d);
  }
  return m[1] === '-' ? -value : value;
}

function formatInt(value: bigint, spec: string): string {
  if (!spec || spec === 'd') return value.toString();
  const type = spec[spec.length - 1]!;
  const widthSpec = spec.slice(0, -1);
  const zeroPad = widthSpec.startsWith('0');
  let width = 0;
  if (widthSpec) {
    if (!/^[0-9]+$/.test(widthSpec)) throw new VmError(`unsupported integer format spec '${spec}'`);
    width = Number(widthSpec);
    checkTextLength(width);
  }
  let rendered: string;
  switch (type) {
    case 'b': rendered = value.toString(2); break;
    case 'o': rendered = value.toString(8); break;
    case 'x': rendered = value.toString(16); break;
    case 'X': rendered = value.toString(16).toUpperCase(); break;
    case 'd': rendered = value.toString(); break;
    default: throw new VmError(`unsupported integer format spec '${spec}'`);
  }
  if (width === 0 || rendered.length >= width) return rendered;
  const sign = rendered.startsWith('-') ? '-' : '';
  const digits = sign ? rendered.slice(1) : rendered;
  const padding = (zeroPad ? '0' : ' ').repeat(width - sign.length - digits.length);
  return zeroPad && sign ? sign + padding + digits : padding + sign + digits;
}

export function formatValue(v: VmValue, spec: string): string {
  if (typeof v === 'bigint') return formatInt(v, spec);
  if (!spec && (typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number' || v instanceof VmDecimal || v instanceof VmBytes)) {
    return typeof v === 'string' ? v : pyStr(v);
  }
  throw new VmError(`format() does not support ${typeName(v)} with spec '${spec}'`);
}

/** Escapes `value` character by character into a bounded builder, a chunk at a time. */
function escapeInto(value: string, out: TextBuilder, escape: (ch: string, code: number) => string): void {
  let piece = '';
  for (const ch of value) {
    piece += escape(ch, ch.codePointAt(0)!);
    if (piece.length >= 8192) {
      out.push(piece);
      piece = '';
    }
  }
  out.push(piece);
}

function asciiRepr(value: string): string {
  const out = new TextBuilder();
  out.push("'");
  escapeInto(value, out, (ch, code) => {
    if (ch === "'") return "\\'";
    if (ch === '\\') return '\\\\';
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    if (ch === '\t') return '\\t';
    if (code >= 0x20 && code < 0x7f) return ch;
    if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
    if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, '0')}`;
    return `\\U${code.toString(16).padStart(8, '0')}`;
  });
  out.push("'");
  return out.done();
}

function asciiRender(value: string): string {
  const out = new TextBuilder();
  escapeInto(value, out, (ch, code) => (code < 0x80 ? ch : `\\u{${code.toString(16)}}`));
  return out.done();
}

function roundToFactor(value: bigint, factor: bigint): bigint {
  const quotient = value / factor;
  const remainder = value % factor;
  const half = factor / 2n;
  const abs = remainder < 0n ? -remainder : remainder;
  const adjust = abs >= half ? (value < 0n ? -1n : 1n) : 0n;
  return (quotient + adjust) * factor;
}

function f64ToBigInt(x: number, context: string): bigint {
  if (!Number.isFinite(x)) throw new VmError(`${context} must be finite for integer conversion`);
  return BigInt(Math.trunc(x));
}

/** Rust `f64::round`: half away from zero. */
function roundHalfAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

function roundBuiltin(v: VmValue, digits: number | null): VmValue {
  if (typeof v === 'bigint') {
    if (digits !== null && digits < 0) {
      // A factor with more digits than the value (plus one) rounds it to 0: do not compute 10**huge.
      if (-digits > (v < 0n ? -v : v).toString().length + 1) return 0n;
      return roundToFactor(v, 10n ** BigInt(-digits));
    }
    return v;
  }
  if (typeof v === 'number') {
    if (digits !== null) {
      const scale = Math.pow(10, digits);
      return roundHalfAway(v * scale) / scale;
    }
    return f64ToBigInt(roundHalfAway(v), 'round() input');
  }
  if (v instanceof VmDecimal) {
    if (digits !== null) {
      const exponent = digits >= 0 ? Math.max(0, 30 - digits) : 30 + -digits;
      if (exponent > 93) return VmDecimal.fromScaled(0n); // |scaled| < 10**91: rounds to 0
      return VmDecimal.fromScaled(roundToFactor(v.scaled, 10n ** BigInt(exponent)));
    }
    return f64ToBigInt(roundHalfAway(v.toNumber()), 'round() input');
  }
  throw new VmError(`round() does not support ${typeName(v)}`);
}

function range(args: VmValue[]): VmValue[] {
  let start = 0n;
  let stop: bigint;
  let step = 1n;
  if (args.length === 1) stop = asBigInt(args[0]!);
  else {
    start = asBigInt(args[0]!);
    stop = asBigInt(args[1]!);
    if (args.length === 3) step = asBigInt(args[2]!);
  }
  if (step === 0n) throw new VmError('range() step cannot be zero');
  const values: VmValue[] = [];
  for (let current = start; step > 0n ? current < stop : current > stop; current += step) {
    if (values.length >= MAX_SEQUENCE_LENGTH) throw new VmError('range() exceeds the maximum allowed allocation size');
    values.push(current);
  }
  reserveItems(values.length, NEW_ELEMENT_BYTES);
  return values;
}

export function callBuiltin(name: string, args: VmValue[], kwargs: Kwargs, call: CallCallable): VmValue {
  const noKw = kwargs.length === 0;
  switch (name) {
    case 'len': {
      expect(noKw && args.length === 1, 'len() expects one argument');
      const v = args[0]!;
      if (typeof v === 'string') return BigInt(Array.from(v).length);
      if (v instanceof VmBytes) return BigInt(v.data.length);
      if (Array.isArray(v)) return BigInt(v.length);
      if (v instanceof VmTuple || v instanceof VmSet) return BigInt(v.items.length);
      if (v instanceof VmDict) return BigInt(v.entries.length);
      throw new VmError(`len() does not support ${typeName(v)}`);
    }
    case 'range':
      expect(noKw && args.length >= 1 && args.length <= 3, 'range() expects between one and three positional arguments');
      return range(args);
    case 'str':
      expect(noKw && args.length === 1, 'str() expects one argument');
      return pyStr(args[0]!);
    case 'bytes':
      expect(noKw && args.length <= 3, 'bytes() expects between zero and three positional arguments');
      return textBytes(args, 'bytes', false);
    case 'bytearray':
      expect(noKw && args.length <= 3, 'bytearray() expects between zero and three positional arguments');
      return textBytes(args, 'bytearray', true);
    case 'set': case 'frozenset': {
      expect(noKw && args.length <= 1, `${name}() expects at most one argument`);
      const items = args.length ? iterate(args[0]!) : [];
      reserveItems(items.length);
      return new VmSet(normalizeSetItems(items), name === 'frozenset');
    }
    case 'bool':
      expect(noKw && args.length === 1, 'bool() expects one argument');
      return truthy(args[0]!);
    case 'abs': {
      expect(noKw && args.length === 1, 'abs() expects one argument');
      const v = args[0]!;
      if (typeof v === 'bigint') return v < 0n ? -v : v;
      if (typeof v === 'number') return Math.abs(v);
      if (v instanceof VmDecimal) return v.abs();
      throw new VmError(`abs() does not support ${typeName(v)}`);
    }
    case 'int': {
      expect(noKw && args.length >= 1 && args.length <= 2, 'int() expects one or two positional arguments');
      const v = args[0]!;
      if (args.length === 2) {
        if (typeof v !== 'string') throw new VmError('int() base argument requires a string input');
        if (v.length > MAX_INT_STRING_CHARS) throw intSizeError();
        const base = toU32(asBigInt(args[1]!), 'int() base');
        if (base < 2 || base > 36) throw new VmError('int() base must be between 2 and 36');
        const parsed = parseIntText(v, base);
        if (parsed === undefined) throw new VmError(`cannot convert '${v}' to int with base ${base}`);
        return checkedInt(parsed, 'int()');
      }
      if (typeof v === 'bigint') return checkedInt(v, 'int()');
      if (typeof v === 'boolean') return v ? 1n : 0n;
      if (typeof v === 'number') return checkedInt(f64ToBigInt(v, 'float() input'), 'int()');
      if (v instanceof VmDecimal) return checkedInt(v.toBigInt(), 'int()');
      if (typeof v === 'string' || v instanceof VmBytes) {
        const text = typeof v === 'string' ? v : Buffer.from(v.data).toString('utf8');
        if ((typeof v === 'string' ? v.length : v.data.length) > MAX_INT_STRING_CHARS) throw intSizeError();
        const parsed = parseIntText(text, 10);
        if (parsed === undefined) throw new VmError(`cannot convert '${text}' to int`);
        return checkedInt(parsed, 'int()');
      }
      throw new VmError(`int() does not support ${typeName(v)}`);
    }
    case 'pow': {
      expect(noKw && args.length >= 2 && args.length <= 3, 'pow() expects two or three positional arguments');
      if (args.length === 3) return modPow(asBigInt(args[0]!), asBigInt(args[1]!), asBigInt(args[2]!));
      const [a, b] = args as [VmValue, VmValue];
      if (typeof a === 'bigint' && typeof b === 'bigint') return checkedPow(a, b, 'integer exponentiation');
      if (a instanceof VmDecimal || b instanceof VmDecimal) return toDecimal(a).pow(toDecimal(b));
      if (typeof a === 'number' && typeof b === 'number') return Math.pow(a, b);
      if (typeof a === 'number' && typeof b === 'bigint') return Math.pow(a, Number(b));
      if (typeof a === 'bigint' && typeof b === 'number') return Math.pow(Number(a), b);
      throw new VmError(`pow() does not support ${typeName(a)} and ${typeName(b)}`);
    }
    case 'format':
      expect(noKw && args.length >= 1 && args.length <= 2, 'format() expects one or two positional arguments');
      return formatValue(args[0]!, args.length > 1 ? asString(args[1]!) : '');
    case 'float': {
      expect(noKw && args.length === 1, 'float() expects one argument');
      const v = args[0]!;
      if (typeof v === 'bigint') return Number(v);
      if (typeof v === 'boolean') return v ? 1 : 0;
      if (typeof v === 'number') return v;
      if (v instanceof VmDecimal) return Number(v.toString());
      if (typeof v === 'string' || v instanceof VmBytes) {
        const text = typeof v === 'string' ? v : Buffer.from(v.data).toString('utf8');
        const parsed = parseRustFloat(text);
        if (parsed === undefined) throw new VmError(`cannot convert '${text}' to float`);
        return parsed;
      }
      throw new VmError(`float() does not support ${typeName(v)}`);
    }
    case 'ord': {
      expect(noKw && args.length === 1, 'ord() expects one argument');
      const v = args[0]!;
      if (typeof v !== 'string' && !(v instanceof VmBytes)) throw new VmError(`ord() does not support ${typeName(v)}`);
      const items: ArrayLike<string | number> = typeof v === 'string' ? codePoints(v) : v.data;
      if (!items.length) throw new VmError('ord() expected a character, but string was empty');
      if (items.length > 1) throw new VmError('ord() expected a character, but string of length > 1 found');
      const only = items[0]!;
      return BigInt(typeof only === 'string' ? only.codePointAt(0)! : only);
    }
    case 'ascii':
      expect(noKw && args.length === 1, 'ascii() expects one argument');
      return typeof args[0] === 'string' ? asciiRepr(args[0]) : asciiRender(pyStr(args[0]!));
    case 'bin': case 'hex': case 'oct': {
      expect(noKw && args.length === 1, `${name}() expects one argument`);
      const v = asBigInt(args[0]!);
      const [radix, prefix] = name === 'bin' ? [2, '0b'] : name === 'hex' ? [16, '0x'] : [8, '0o'];
      return v < 0n ? `-${prefix}${(-v).toString(radix)}` : `${prefix}${v.toString(radix)}`;
    }
    case 'chr': {
      expect(noKw && args.length === 1, 'chr() expects one argument');
      const code = toU32(asBigInt(args[0]!), 'chr() input');
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw new VmError(`chr() arg not in range(0x110000): ${code}`);
      return String.fromCodePoint(code);
    }
    case 'divmod':
      expect(noKw && args.length === 2, 'divmod() expects two arguments');
      return new VmTuple([binaryOp('floordiv', args[0]!, args[1]!), binaryOp('mod', args[0]!, args[1]!)]);
    case 'Exception':
      expect(noKw, 'Exception() does not accept keyword arguments');
      return new VmException('Exception', args);
    case 'dict': {
      expect(args.length <= 1, 'dict() accepts at most one positional argument');
      const entries: (readonly [VmValue, VmValue])[] = [];
      const initial = args[0];
      if (initial !== undefined) {
        if (initial instanceof VmDict) {
          reserveItems(initial.entries.length + kwargs.length, ENTRY_BYTES);
          for (const entry of initial.entries) entries.push(entry);
        } else if (Array.isArray(initial) || initial instanceof VmTuple) {
          reserveItems((Array.isArray(initial) ? initial.length : initial.items.length) + kwargs.length, ENTRY_BYTES);
          for (const item of Array.isArray(initial) ? initial : initial.items) {
            const pair = Array.isArray(item) ? item : item instanceof VmTuple ? item.items : null;
            if (!pair || pair.length !== 2) throw new VmError(`dict() expected key/value pairs, got ${typeName(item)}`);
            entries.push([pair[0]!, pair[1]!]);
          }
        } else throw new VmError(`dict() does not support ${typeName(initial)}`);
      }
      for (const [k, v] of kwargs) dictSet(entries, k, v);
      return new VmDict(entries);
    }
    case 'list': case 'tuple': {
      expect(args.length <= 1 && noKw, `${name}() accepts at most one positional argument`);
      const source = args.length ? iterate(args[0]!) : [];
      reserveItems(source.length);
      const items = source.slice();
      return name === 'list' ? items : new VmTuple(items);
    }
    case 'sorted': {
      expect(args.length === 1 && noKw, 'sorted() expects one positional argument');
      const source = iterate(args[0]!);
      reserveItems(source.length);
      if (sortableWithoutError(source)) return source.slice().sort(compareValues);
      const ordered: VmValue[] = [];
      for (const v of source) {
        let at = ordered.length;
        for (let i = 0; i < ordered.length; i++) {
          if (compareValues(v, ordered[i]!) < 0) {
            at = i;
            break;
          }
        }
        ordered.splice(at, 0, v);
      }
      return ordered;
    }
    case 'sum': {
      expect(noKw && args.length >= 1 && args.length <= 2, 'sum() expects one or two positional arguments');
      let total: VmValue = args.length > 1 ? args[1]! : 0n;
      for (const v of iterate(args[0]!)) total = binaryOp('add', total, v);
      return total;
    }
    case 'min': case 'max': {
      expect(noKw && args.length >= 1, `${name}() expects at least one positional argument`);
      const values = args.length === 1 ? iterate(args[0]!) : args;
      if (!values.length) throw new VmError(`${name}() received no values`);
      let best: VmValue = values[0]!;
      for (let i = 1; i < values.length; i++) {
        const v = values[i]!;
        const c = compareValues(v, best);
        if (name === 'min' ? c < 0 : c > 0) best = v;
      }
      return best;
    }
    case 'all': case 'any': {
      expect(args.length === 1 && noKw, `${name}() expects one positional argument`);
      const values = iterate(args[0]!);
      return name === 'all' ? values.every(truthy) : values.some(truthy);
    }
    case 'map': {
      expect(noKw && args.length >= 2, 'map() must have at least two arguments');
      const fn = args[0]!;
      if (!(fn instanceof VmBuiltin || fn instanceof VmFunctionRef)) throw new VmError('map() must have a callable first argument');
      const iterables = args.slice(1).map(iterate);
      const length = Math.min(...iterables.map((x) => x.length));
      reserveItems(length, NEW_ELEMENT_BYTES);
      const out: VmValue[] = [];
      for (let i = 0; i < length; i++) out.push(call(fn, iterables.map((x) => x[i]!)));
      return out;
    }
    case 'filter': {
      expect(noKw && args.length === 2, 'filter() expects two positional arguments');
      const fn = args[0]!;
      const values = iterate(args[1]!);
      reserveItems(values.length);
      if (fn === null) return values.filter(truthy);
      if (!(fn instanceof VmBuiltin || fn instanceof VmFunctionRef)) throw new VmError('filter() must have a callable first argument or None');
      return values.filter((v) => truthy(call(fn as VmValue, [v])));
    }
    case 'reversed':
      expect(args.length === 1 && noKw, 'reversed() expects one positional argument');
      const source = iterate(args[0]!);
      reserveItems(source.length);
      return source.slice().reverse();
    case 'zip': {
      expect(args.length >= 1 && noKw, 'zip() expects one or more positional arguments');
      const iterables = args.map(iterate);
      const length = Math.min(...iterables.map((x) => x.length));
      reserveItems(length, NEW_ELEMENT_BYTES + iterables.length * 8);
      const out: VmValue[] = [];
      for (let i = 0; i < length; i++) out.push(new VmTuple(iterables.map((x) => x[i]!)));
      return out;
    }
    case 'isinstance':
      expect(args.length === 2 && noKw, 'isinstance() expects two positional arguments');
      return typeMatches(args[0]!, args[1]!);
    case 'issubclass': {
      expect(args.length === 2 && noKw, 'issubclass() expects two positional arguments');
      const candidates = markerNames(args[0]!);
      const targets = markerNames(args[1]!);
      return candidates.some((c) => targets.some((t) => c === t || t === 'Any' || (c === 'bool' && t === 'int')));
    }
    case 'round': {
      expect(noKw && args.length >= 1 && args.length <= 2, 'round() expects one or two positional arguments');
      let digits: number | null = null;
      if (args.length === 2) {
        const n = checkI64(asBigInt(args[1]!), 'round() ndigits');
        if (n < -(2n ** 31n) || n >= 2n ** 31n) throw new VmError('round() ndigits is out of supported range');
        digits = Number(n);
      }
      return roundBuiltin(args[0]!, digits);
    }
  }
  throw new VmError(`unsupported builtin '${name}'`);
}

const DECIMAL_SAFE_INT = 10n ** 60n;

/**
 * True when every pair of `values` compares without an error (one order class: numbers without
 * NaN — ints small enough to become decimals when decimals are present, floats finite then —
 * or all str, all bytes, all datetimes, all timedeltas). Such a list sorts with a stable sort,
 * O(n log n), giving the same order as the chain's insertion sort; any other list errors on
 * its first cross-class comparison, which the insertion sort reaches after O(n) steps.
 */
function sortableWithoutError(values: readonly VmValue[]): boolean {
  if (values.length < 2) return true;
  const first = values[0]!;
  const kind = typeof first === 'string' ? 'str' : first instanceof VmBytes ? 'bytes' : typeName(first);
  if (kind === 'str' || kind === 'bytes' || kind === 'datetime' || kind === 'timedelta') {
    return values.every((v) => (kind === 'bytes' ? v instanceof VmBytes : typeName(v) === kind));
  }
  let decimals = false;
  for (const v of values) {
    if (v instanceof VmDecimal) decimals = true;
    else if (typeof v === 'number') {
      if (Number.isNaN(v)) return false;
    } else if (typeof v !== 'bigint' && typeof v !== 'boolean') return false;
  }
  if (!decimals) return true;
  return values.every((v) => (typeof v === 'bigint' ? v < DECIMAL_SAFE_INT && v > -DECIMAL_SAFE_INT : typeof v !== 'number' || Number.isFinite(v) && Math.abs(v) < 1e60));
}

function intSizeError(): VmError {
  return new VmError(`int() input exceeds the maximum allowed length of ${MAX_INT_STRING_CHARS} characters`);
}

/** Rust `str::parse::<f64>`: decimal or exponent text, `inf`/`infinity`/`nan` (any case), no spaces. */
function parseRustFloat(text: string): number | undefined {
  if (/^[+-]?(inf|infinity)$/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(text)) return NaN;
  if (!/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(text)) return undefined;
  return Number(text);
}
