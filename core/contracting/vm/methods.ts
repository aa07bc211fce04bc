import { ENTRY_BYTES, NEW_ELEMENT_BYTES, TextBuilder, checkTextLength, checkedText, reserveItems, reserveText } from './alloc.js';
import { asBigInt, asString, toUsize } from './coerce.js';
import { ALLOCATION_LIMIT_ERROR, MAX_CONTAINER_LENGTH } from './limits.js';
import { normalizeSetItems, setContains, valuesEqual } from './compare.js';
import { VmError } from './errors.js';
import { bytesToHex } from '../../chain/hashes.js';
import { byteFromValue, codePoints, dictGet, iterate, normalizeIndex, normalizeInsertIndex, searchBounds } from './sequences.js';
import { strictEqual } from './compare.js';
import { VmBytes, VmDict, VmSet, VmTuple, pyStr, typeName, type VmValue } from './values.js';

/**
 * Native methods of str, list, dict, set, bytes (upstream `call_native_method`). A method that
 * mutates returns the new receiver, which the interpreter writes back to the receiver expression.
 */
export type MethodResult = { value: VmValue; receiver?: VmValue };

const noArgs = (args: readonly VmValue[], what: string): void => {
  if (args.length) throw new VmError(`${what}() expects no arguments`);
};

function isWhitespace(ch: string): boolean {
  return /\s/u.test(ch);
}

function splitString(value: string, sep: string | null, maxsplit: number | null): string[] {
  if (sep === '') throw new VmError('empty separator');
  if (sep !== null) {
    if (maxsplit === 0) return [value];
    const parts: string[] = [];
    let from = 0;
    let splits = 0;
    while (maxsplit === null || splits < maxsplit) {
      const i = value.indexOf(sep, from);
      if (i < 0) break;
      if (parts.length >= MAX_CONTAINER_LENGTH) throw new VmError(ALLOCATION_LIMIT_ERROR);
      parts.push(value.slice(from, i));
      from = i + sep.length;
      splits++;
    }
    parts.push(value.slice(from));
    reserveItems(parts.length, NEW_ELEMENT_BYTES);
    return parts;
  }
  const chars = codePoints(value);
  let i = 0;
  while (i < chars.length && isWhitespace(chars[i]!)) i++;
  if (i === chars.length) return [];
  const text = (a: number, b?: number): string => (typeof chars === 'string' ? chars.slice(a, b) : chars.slice(a, b).join(''));
  if (maxsplit === 0) return [text(i)];
  const parts: string[] = [];
  const push = (piece: string): void => {
    if (parts.length >= MAX_CONTAINER_LENGTH) throw new VmError(ALLOCATION_LIMIT_ERROR);
    parts.push(piece);
  };
  let splits = 0;
  while (i < chars.length && (maxsplit === null || splits < maxsplit)) {
    while (i < chars.length && isWhitespace(chars[i]!)) i++;
    if (i === chars.length) break;
    let j = i;
    while (j < chars.length && !isWhitespace(chars[j]!)) j++;
    if (j === chars.length) {
      push(text(i));
      reserveItems(parts.length, NEW_ELEMENT_BYTES);
      return parts;
    }
    push(text(i, j));
    i = j;
    while (i < chars.length && isWhitespace(chars[i]!)) i++;
    splits++;
  }
  if (i < chars.length) push(text(i));
  reserveItems(parts.length, NEW_ELEMENT_BYTES);
  return parts;
}

/** `str.format` with `{}` / `{n}` placeholders only. */
export function simpleFormat(template: string, args: readonly VmValue[]): string {
  const out = new TextBuilder();
  let next = 0;
  const chars = codePoints(template);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '{') {
      if (chars[i + 1] === '{') {
        out.push('{');
        i++;
        continue;
      }
      let token = '';
      for (;;) {
        const inner = chars[++i];
        if (inner === undefined) throw new VmError("str.format() missing closing '}'");
        if (inner === '}') break;
        token += inner;
      }
      let index: number;
      if (!token) index = next++;
      else if (/^[0-9]+$/.test(token)) index = Number(token);
      else throw new VmError(`unsupported str.format() field '${token}'`);
      if (index >= args.length) throw new VmError('str.format() placeholder index out of range');
      out.push(pyStr(args[index]!));
    } else if (ch === '}') {
      if (chars[i + 1] === '}') {
        out.push('}');
        i++;
      } else throw new VmError("str.format() unmatched '}'");
    } else out.push(ch);
  }
  return out.done();
}

function matchCandidates(v: VmValue): string[] {
  if (typeof v === 'string') return [v];
  if (v instanceof VmTuple) return v.items.map(asString);
  throw new VmError(`expected str or tuple[str, ...], found ${typeName(v)}`);
}

function segmentOf(value: string, args: readonly VmValue[]): { start: number; segment: string } {
  if (args.length < 2) return { start: 0, segment: value };
  const chars = codePoints(value);
  const [start, end] = searchBounds(chars.length, args[1], args[2]);
  return { start, segment: typeof chars === 'string' ? chars.slice(start, end) : chars.slice(start, end).join('') };
}

/** Code points in `text` before UTF-16 offset `at`. */
function codePointOffset(text: string, at: number): number {
  let n = 0;
  for (let i = 0; i < at; i++, n++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < at) i++;
  }
  return n;
}

function stringMethod(value: string, method: string, args: readonly VmValue[]): VmValue {
  const alpha = (c: string): boolean => /\p{Alphabetic}/u.test(c);
  switch (method) {
    case 'upper': noArgs(args, 'str.upper'); return checkedText(value.toUpperCase());
    case 'lower': noArgs(args, 'str.lower'); return checkedText(value.toLowerCase());
    case 'isascii': noArgs(args, 'str.isascii'); return /^[\x00-\x7f]*$/.test(value);
    case 'isalpha': noArgs(args, 'str.isalpha'); return value.length > 0 && Array.from(value).every(alpha);
    case 'isdigit': noArgs(args, 'str.isdigit'); return value.length > 0 && /^\p{N}+$/u.test(value);
    case 'islower': {
      noArgs(args, 'str.islower');
      const chars = Array.from(value);
      return chars.some(alpha) && chars.every((c) => !alpha(c) || /\p{Lowercase}/u.test(c));
    }
    case 'isalnum': noArgs(args, 'str.isalnum'); return value.length > 0 && Array.from(value).every((c) => alpha(c) || /\p{N}/u.test(c));
    case 'startswith': case 'endswith': {
      if (args.length < 1 || args.length > 3) throw new VmError(`str.${method}() expects between one and three arguments`);
      const { segment } = segmentOf(value, args);
      const candidates = matchCandidates(args[0]!);
      return candidates.some((c) => (method === 'startswith' ? segment.startsWith(c) : segment.endsWith(c)));
    }
    case 'find': {
      if (args.length < 1 || args.length > 3) throw new VmError('str.find() expects between one and three arguments');
      const needle = asString(args[0]!);
      const { start, segment } = segmentOf(value, args);
      const at = segment.indexOf(needle);
      return at < 0 ? -1n : BigInt(start + codePointOffset(segment, at));
    }
    case 'strip': {
      if (args.length === 0) return value.trim() === value ? value : value.replace(/^\s+|\s+$/gu, '');
      if (args.length !== 1) throw new VmError('str.strip() expects zero or one argument');
      const set = new Set(Array.from(asString(args[0]!)));
      if (!set.size) return value;
      const chars = codePoints(value);
      let a = 0;
      let b = chars.length;
      while (a < b && set.has(chars[a]!)) a++;
      while (b > a && set.has(chars[b - 1]!)) b--;
      return typeof chars === 'string' ? chars.slice(a, b) : chars.slice(a, b).join('');
    }
    case 'replace': {
      if (args.length !== 2 && args.length !== 3) throw new VmError('str.replace() expects two or three arguments');
      const from = asString(args[0]!);
      const to = asString(args[1]!);
      if (args.length === 2) return replaceAll(value, from, to, -1);
      const count = asBigInt(args[2]!);
      return replaceAll(value, from, to, count < 0n ? -1 : toUsize(count, 'str.replace count'));
    }
    case 'join': {
      if (args.length !== 1) throw new VmError('str.join() expects one argument');
      const parts = iterate(args[0]!);
      let length = parts.length > 1 ? value.length * (parts.length - 1) : 0;
      for (const p of parts) length += asString(p).length;
      reserveText(length);
      return parts.join(value);
    }
    case 'split': {
      if (args.length > 2) throw new VmError('str.split() expects between zero and two arguments');
      const sep = args.length && args[0] !== null ? asString(args[0]!) : null;
      let max: number | null = null;
      if (args.length === 2) {
        const m = asBigInt(args[1]!);
        max = m < 0n ? null : toUsize(m, 'str.split maxsplit');
      }
      return splitString(value, sep, max);
    }
    case 'format':
      return simpleFormat(value, args);
  }
  throw new VmError(`unsupported str method '${method}()'`);
}

/**
 * Rust `str::replace`/`replacen` (an empty pattern matches between every char). The matches are
 * counted first so that the result's size is checked before anything is built.
 */
function replaceAll(value: string, from: string, to: string, limit: number): string {
  if (limit === 0) return value;
  if (from === '') {
    const chars = codePoints(value);
    const slots = limit < 0 ? chars.length + 1 : Math.min(limit, chars.length + 1);
    checkTextLength(value.length + slots * to.length);
    const out = new TextBuilder();
    for (let i = 0; i <= chars.length; i++) {
      if (i < slots) out.push(to);
      if (i < chars.length) out.push(chars[i]!);
    }
    return out.done();
  }
  let matches = 0;
  for (let at = value.indexOf(from); at >= 0 && (limit < 0 || matches < limit); at = value.indexOf(from, at + from.length)) matches++;
  if (!matches) return value;
  checkTextLength(value.length + matches * (to.length - from.length));
  if (limit < 0) {
    // Size checked: the engine's own replace is now safe (`$` doubled: no replacement patterns).
    reserveText(value.length + matches * (to.length - from.length));
    return value.replaceAll(from, to.replaceAll('$', '$$$$'));
  }
  const out = new TextBuilder();
  let rest = 0;
  for (let n = 0; n < matches; n++) {
    const at = value.indexOf(from, rest);
    out.push(value.slice(rest, at));
    out.push(to);
    rest = at + from.length;
  }
  out.push(value.slice(rest));
  return out.done();
}

function listMethod(values: readonly VmValue[], method: string, args: readonly VmValue[]): MethodResult {
  switch (method) {
    case 'append':
      if (args.length !== 1) throw new VmError('list.append() expects one argument');
      reserveItems(values.length + 1);
      return { value: null, receiver: values.concat([args[0]!]) };
    case 'remove': {
      if (args.length !== 1) throw new VmError('list.remove() expects one argument');
      const index = values.findIndex((v) => strictEqual(v, args[0]!));
      if (index < 0) throw new VmError('list.remove(x): x not in list');
      reserveItems(values.length);
      return { value: null, receiver: values.slice(0, index).concat(values.slice(index + 1)) };
    }
    case 'extend': {
      if (args.length !== 1) throw new VmError('list.extend() expects one argument');
      const extra = iterate(args[0]!);
      reserveItems(values.length + extra.length);
      return { value: null, receiver: values.concat(extra) };
    }
    case 'insert': {
      if (args.length !== 2) throw new VmError('list.insert() expects two arguments');
      const index = normalizeInsertIndex(args[0]!, values.length);
      reserveItems(values.length + 1);
      return { value: null, receiver: values.slice(0, index).concat([args[1]!], values.slice(index)) };
    }
    case 'pop': {
      let index: number;
      if (!args.length) {
        if (!values.length) throw new VmError('pop from empty list');
        index = values.length - 1;
      } else if (args.length === 1) index = normalizeIndex(args[0]!, values.length);
      else throw new VmError('list.pop() accepts at most one argument');
      reserveItems(values.length);
      return { value: values[index]!, receiver: values.slice(0, index).concat(values.slice(index + 1)) };
    }
    case 'count': {
      if (args.length !== 1) throw new VmError('list.count() expects one argument');
      let n = 0n;
      for (const v of values) if (valuesEqual(v, args[0]!)) n++;
      return { value: n };
    }
    case 'index': {
      if (args.length < 1 || args.length > 3) throw new VmError('list.index() expects between one and three arguments');
      const [start, end] = searchBounds(values.length, args[1], args[2]);
      for (let i = start; i < end; i++) if (valuesEqual(values[i]!, args[0]!)) return { value: BigInt(i) };
      throw new VmError('list.index(x): x not in list');
    }
    case 'clear':
      noArgs(args, 'list.clear');
      return { value: null, receiver: [] };
    case 'copy':
      noArgs(args, 'list.copy');
      return { value: values };
  }
  throw new VmError(`unsupported list method '${method}()'`);
}

function setMethod(set: VmSet, method: string, args: readonly VmValue[]): MethodResult {
  const kind = set.frozen ? 'frozenset' : 'set';
  const values = set.items;
  const make = (items: VmValue[]): VmSet => new VmSet(items, set.frozen);
  const other = (): VmValue[] => normalizeSetItems(iterate(args[0]!));
  const one = (): void => {
    if (args.length !== 1) throw new VmError(`${kind}.${method}() expects one argument`);
  };
  const difference = (x: readonly VmValue[], y: readonly VmValue[]): VmValue[] => x.filter((v) => !setContains(y, v));
  if (!set.frozen) {
    switch (method) {
      case 'add': one(); reserveItems(values.length + 1); return { value: null, receiver: make(normalizeSetItems([...values, args[0]!])) };
      case 'remove': {
        one();
        reserveItems(values.length);
        const remaining = difference(values, args);
        if (remaining.length === values.length) throw new VmError(pyStr(args[0]!));
        return { value: null, receiver: make(remaining) };
      }
      case 'discard': one(); reserveItems(values.length); return { value: null, receiver: make(difference(values, args)) };
      case 'pop':
        noArgs(args, 'set.pop');
        if (!values.length) throw new VmError('pop from an empty set');
        reserveItems(values.length);
        return { value: values[0]!, receiver: make(values.slice(1)) };
      case 'clear': noArgs(args, 'set.clear'); return { value: null, receiver: make([]) };
    }
  }
  switch (method) {
    case 'copy': noArgs(args, `${kind}.copy`); return { value: set };
    case 'issubset': one(); return { value: values.every((v) => setContains(other(), v)) };
    case 'issuperset': { one(); const o = other(); return { value: o.every((v) => setContains(values, v)) }; }
    case 'isdisjoint': { one(); const o = other(); return { value: !values.some((v) => setContains(o, v)) }; }
    case 'union': {
      const others = args.map(iterate);
      reserveItems(others.reduce((n, o) => n + o.length, values.length));
      return { value: make(normalizeSetItems(values.concat(...others))) };
    }
    case 'intersection': case 'difference': {
      reserveItems(values.length);
      let result: VmValue[] = [...values];
      for (const a of args) {
        const o = normalizeSetItems(iterate(a));
        result = method === 'intersection' ? result.filter((v) => setContains(o, v)) : difference(result, o);
      }
      return { value: make(result) };
    }
    case 'symmetric_difference': {
      one();
      const o = other();
      reserveItems(values.length + o.length);
      return { value: make(normalizeSetItems([...difference(values, o), ...difference(o, values)])) };
    }
  }
  throw new VmError(`unsupported ${kind} method '${method}()'`);
}

function dictMethod(dict: VmDict, method: string, args: readonly VmValue[]): MethodResult {
  const entries = dict.entries;
  switch (method) {
    case 'keys': noArgs(args, 'dict.keys'); reserveItems(entries.length); return { value: entries.map(([k]) => k) };
    case 'values': noArgs(args, 'dict.values'); reserveItems(entries.length); return { value: entries.map(([, v]) => v) };
    case 'items':
      noArgs(args, 'dict.items');
      reserveItems(entries.length, ENTRY_BYTES + NEW_ELEMENT_BYTES);
      return { value: entries.map(([k, v]) => new VmTuple([k, v])) };
    case 'get':
      if (args.length === 1) return { value: dictGet(dict, args[0]!) ?? null };
      if (args.length === 2) return { value: dictGet(dict, args[0]!) ?? args[1]! };
      throw new VmError('dict.get() expects one or two arguments');
    case 'pop': {
      if (args.length !== 1 && args.length !== 2) throw new VmError('dict.pop() expects one or two arguments');
      const index = entries.findIndex(([k]) => strictEqual(k, args[0]!));
      if (index < 0) {
        if (args.length === 1) throw new VmError(`missing dict key ${pyStr(args[0]!)}`);
        return { value: args[1]!, receiver: dict };
      }
      reserveItems(entries.length, ENTRY_BYTES);
      return { value: entries[index]![1], receiver: new VmDict(entries.slice(0, index).concat(entries.slice(index + 1))) };
    }
    case 'clear': noArgs(args, 'dict.clear'); return { value: null, receiver: new VmDict([]) };
    case 'copy': noArgs(args, 'dict.copy'); return { value: dict };
  }
  throw new VmError(`unsupported dict method '${method}()'`);
}

function bytesMethod(b: VmBytes, method: string, args: readonly VmValue[]): MethodResult {
  const kind = b.mutable ? 'bytearray' : 'bytes';
  if (method === 'hex') {
    noArgs(args, `${kind}.hex`);
    return { value: bytesToHex(b.data) };
  }
  if (b.mutable) {
    const data = b.data;
    switch (method) {
      case 'append': {
        if (args.length !== 1) throw new VmError('bytearray.append() expects one argument');
        reserveText(data.length + 1);
        const out = new Uint8Array(data.length + 1);
        out.set(data);
        out[data.length] = byteFromValue(args[0]!);
        return { value: null, receiver: new VmBytes(out, true) };
      }
      case 'extend': {
        if (args.length !== 1) throw new VmError('bytearray.extend() expects one argument');
        const source = args[0]!;
        const extra = source instanceof VmBytes ? source.data : iterate(source);
        reserveText(data.length + extra.length);
        const out = new Uint8Array(data.length + extra.length);
        out.set(data);
        if (extra instanceof Uint8Array) out.set(extra, data.length);
        else for (let i = 0; i < extra.length; i++) out[data.length + i] = byteFromValue(extra[i]!);
        return { value: null, receiver: new VmBytes(out, true) };
      }
      case 'pop': {
        let index: number;
        if (!args.length) {
          if (!data.length) throw new VmError('pop from empty bytearray');
          index = data.length - 1;
        } else if (args.length === 1) index = normalizeIndex(args[0]!, data.length);
        else throw new VmError('bytearray.pop() accepts at most one argument');
        reserveText(data.length);
        const out = new Uint8Array(data.length - 1);
        out.set(data.subarray(0, index));
        out.set(data.subarray(index + 1), index);
        return { value: BigInt(data[index]!), receiver: new VmBytes(out, true) };
      }
      case 'clear': noArgs(args, 'bytearray.clear'); return { value: null, receiver: new VmBytes(new Uint8Array(), true) };
      case 'copy': noArgs(args, 'bytearray.copy'); return { value: b };
    }
  }
  throw new VmError(`unsupported ${kind} method '${method}()'`);
}

export function callMethod(receiver: VmValue, method: string, args: readonly VmValue[], hasKwargs: boolean): MethodResult {
  if (hasKwargs) throw new VmError(`native method '${method}()' does not accept keyword arguments`);
  if (Array.isArray(receiver)) return listMethod(receiver, method, args);
  if (typeof receiver === 'string') return { value: stringMethod(receiver, method, args) };
  if (receiver instanceof VmDict) return dictMethod(receiver, method, args);
  if (receiver instanceof VmSet) return setMethod(receiver, method, args);
  if (receiver instanceof VmBytes) return bytesMethod(receiver, method, args);
  throw new VmError(`value of type ${typeName(receiver)} has no native method '${method}()'`);
}
