import { asBigInt, asString, toUsize } from './coerce.js';
import { normalizeSetItems, setContains, valuesEqual } from './compare.js';
import { VmError } from './errors.js';
import { bytesToHex } from '../../chain/hashes.js';
import { byteFromValue, dictGet, iterate, normalizeIndex, normalizeInsertIndex, searchBounds } from './sequences.js';
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
    let rest = value;
    let splits = 0;
    while (maxsplit === null || splits < maxsplit) {
      const i = rest.indexOf(sep);
      if (i < 0) break;
      parts.push(rest.slice(0, i));
      rest = rest.slice(i + sep.length);
      splits++;
    }
    parts.push(rest);
    return parts;
  }
  const chars = Array.from(value);
  let i = 0;
  while (i < chars.length && isWhitespace(chars[i]!)) i++;
  if (i === chars.length) return [];
  if (maxsplit === 0) return [chars.slice(i).join('')];
  const parts: string[] = [];
  let splits = 0;
  while (i < chars.length && (maxsplit === null || splits < maxsplit)) {
    while (i < chars.length && isWhitespace(chars[i]!)) i++;
    if (i === chars.length) break;
    let j = i;
    while (j < chars.length && !isWhitespace(chars[j]!)) j++;
    if (j === chars.length) {
      parts.push(chars.slice(i).join(''));
      return parts;
    }
    parts.push(chars.slice(i, j).join(''));
    i = j;
    while (i < chars.length && isWhitespace(chars[i]!)) i++;
    splits++;
  }
  if (i < chars.length) parts.push(chars.slice(i).join(''));
  return parts;
}

/** `str.format` with `{}` / `{n}` placeholders only. */
export function simpleFormat(template: string, args: readonly VmValue[]): string {
  let out = '';
  let next = 0;
  const chars = Array.from(template);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '{') {
      if (chars[i + 1] === '{') {
        out += '{';
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
      out += pyStr(args[index]!);
    } else if (ch === '}') {
      if (chars[i + 1] === '}') {
        out += '}';
        i++;
      } else throw new VmError("str.format() unmatched '}'");
    } else out += ch;
  }
  return out;
}

function matchCandidates(v: VmValue): string[] {
  if (typeof v === 'string') return [v];
  if (v instanceof VmTuple) return v.items.map(asString);
  throw new VmError(`expected str or tuple[str, ...], found ${typeName(v)}`);
}

function segmentOf(value: string, args: readonly VmValue[]): { chars: string[]; start: number; segment: string } {
  const chars = Array.from(value);
  const [start, end] = searchBounds(chars.length, args[1], args[2]);
  return { chars, start, segment: chars.slice(start, end).join('') };
}

function stringMethod(value: string, method: string, args: readonly VmValue[]): VmValue {
  const alpha = (c: string): boolean => /\p{Alphabetic}/u.test(c);
  switch (method) {
    case 'upper': noArgs(args, 'str.upper'); return value.toUpperCase();
    case 'lower': noArgs(args, 'str.lower'); return value.toLowerCase();
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
      return at < 0 ? -1n : BigInt(start + Array.from(segment.slice(0, at)).length);
    }
    case 'strip': {
      if (args.length === 0) return value.replace(/^\s+|\s+$/gu, '');
      if (args.length !== 1) throw new VmError('str.strip() expects zero or one argument');
      const set = new Set(Array.from(asString(args[0]!)));
      if (!set.size) return value;
      const chars = Array.from(value);
      let a = 0;
      let b = chars.length;
      while (a < b && set.has(chars[a]!)) a++;
      while (b > a && set.has(chars[b - 1]!)) b--;
      return chars.slice(a, b).join('');
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
      return iterate(args[0]!).map(asString).join(value);
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

/** Rust `str::replace`/`replacen` (an empty pattern matches between every char). */
function replaceAll(value: string, from: string, to: string, limit: number): string {
  if (limit === 0) return value;
  if (from === '') {
    const chars = Array.from(value);
    let out = '';
    let n = 0;
    for (let i = 0; i <= chars.length; i++) {
      if (limit < 0 || n < limit) {
        out += to;
        n++;
      }
      if (i < chars.length) out += chars[i];
    }
    return out;
  }
  if (limit < 0) return value.split(from).join(to);
  let out = '';
  let rest = value;
  for (let n = 0; n < limit; n++) {
    const i = rest.indexOf(from);
    if (i < 0) break;
    out += rest.slice(0, i) + to;
    rest = rest.slice(i + from.length);
  }
  return out + rest;
}

function listMethod(values: readonly VmValue[], method: string, args: readonly VmValue[]): MethodResult {
  switch (method) {
    case 'append':
      if (args.length !== 1) throw new VmError('list.append() expects one argument');
      return { value: null, receiver: [...values, args[0]!] };
    case 'remove': {
      if (args.length !== 1) throw new VmError('list.remove() expects one argument');
      const index = values.findIndex((v) => strictEqual(v, args[0]!));
      if (index < 0) throw new VmError('list.remove(x): x not in list');
      return { value: null, receiver: [...values.slice(0, index), ...values.slice(index + 1)] };
    }
    case 'extend': {
      if (args.length !== 1) throw new VmError('list.extend() expects one argument');
      return { value: null, receiver: [...values, ...iterate(args[0]!)] };
    }
    case 'insert': {
      if (args.length !== 2) throw new VmError('list.insert() expects two arguments');
      const index = normalizeInsertIndex(args[0]!, values.length);
      return { value: null, receiver: [...values.slice(0, index), args[1]!, ...values.slice(index)] };
    }
    case 'pop': {
      let index: number;
      if (!args.length) {
        if (!values.length) throw new VmError('pop from empty list');
        index = values.length - 1;
      } else if (args.length === 1) index = normalizeIndex(args[0]!, values.length);
      else throw new VmError('list.pop() accepts at most one argument');
      return { value: values[index]!, receiver: [...values.slice(0, index), ...values.slice(index + 1)] };
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
      case 'add': one(); return { value: null, receiver: make(normalizeSetItems([...values, args[0]!])) };
      case 'remove': {
        one();
        const remaining = difference(values, args);
        if (remaining.length === values.length) throw new VmError(pyStr(args[0]!));
        return { value: null, receiver: make(remaining) };
      }
      case 'discard': one(); return { value: null, receiver: make(difference(values, args)) };
      case 'pop':
        noArgs(args, 'set.pop');
        if (!values.length) throw new VmError('pop from an empty set');
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
      const merged = [...values];
      for (const a of args) merged.push(...iterate(a));
      return { value: make(normalizeSetItems(merged)) };
    }
    case 'intersection': case 'difference': {
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
      return { value: make(normalizeSetItems([...difference(values, o), ...difference(o, values)])) };
    }
  }
  throw new VmError(`unsupported ${kind} method '${method}()'`);
}

function dictMethod(dict: VmDict, method: string, args: readonly VmValue[]): MethodResult {
  const entries = dict.entries;
  switch (method) {
    case 'keys': noArgs(args, 'dict.keys'); return { value: entries.map(([k]) => k) };
    case 'values': noArgs(args, 'dict.values'); return { value: entries.map(([, v]) => v) };
    case 'items': noArgs(args, 'dict.items'); return { value: entries.map(([k, v]) => new VmTuple([k, v])) };
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
      return { value: entries[index]![1], receiver: new VmDict([...entries.slice(0, index), ...entries.slice(index + 1)]) };
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
        const out = new Uint8Array(data.length + 1);
        out.set(data);
        out[data.length] = byteFromValue(args[0]!);
        return { value: null, receiver: new VmBytes(out, true) };
      }
      case 'extend': {
        if (args.length !== 1) throw new VmError('bytearray.extend() expects one argument');
        const extra = iterate(args[0]!).map(byteFromValue);
        return { value: null, receiver: new VmBytes(Uint8Array.from([...data, ...extra]), true) };
      }
      case 'pop': {
        let index: number;
        if (!args.length) {
          if (!data.length) throw new VmError('pop from empty bytearray');
          index = data.length - 1;
        } else if (args.length === 1) index = normalizeIndex(args[0]!, data.length);
        else throw new VmError('bytearray.pop() accepts at most one argument');
        const out = Uint8Array.from([...data.slice(0, index), ...data.slice(index + 1)]);
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
