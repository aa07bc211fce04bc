import { ENTRY_BYTES, reserveItems, reserveTemporary, reserveText } from './alloc.js';
import { asBigInt, checkI64, toUsize } from './coerce.js';
import { setContains, strictEqual, valuesEqual } from './compare.js';
import { VmError } from './errors.js';
import { MAX_BINARY_ALLOCATION_BYTES, MAX_SEQUENCE_LENGTH } from './limits.js';
import { VmBytes, VmDict, VmSet, VmTuple, pyStr, typeName, type VmValue } from './values.js';

/** Iteration, indexing, slicing, membership and dict entry lookup with upstream's semantics. */

/** The 256 byte values as ints, made once (iterating 16 MiB of bytes must not box 16 Mi bigints). */
const BYTE_INTS: readonly bigint[] = Array.from({ length: 256 }, (_, i) => BigInt(i));

export function byteInt(b: number): bigint {
  return BYTE_INTS[b]!;
}

export function iterate(v: VmValue): readonly VmValue[] {
  if (Array.isArray(v)) return v;
  if (v instanceof VmTuple || v instanceof VmSet) return v.items;
  if (v instanceof VmDict) {
    reserveTemporary(v.entries.length);
    return v.entries.map(([k]) => k);
  }
  if (typeof v === 'string') {
    reserveTemporary(v.length);
    return Array.from(v);
  }
  if (v instanceof VmBytes) {
    reserveTemporary(v.data.length);
    return Array.from(v.data, byteInt);
  }
  throw new VmError(`value of type ${typeName(v)} is not iterable`);
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** The code points of `text` as an array, or the text itself when every unit is one code point (no copy). */
export function codePoints(text: string): string | readonly string[] {
  if (!SURROGATE.test(text)) return text;
  reserveTemporary(text.length);
  return Array.from(text);
}

export function byteFromValue(v: VmValue): number {
  let n: bigint;
  if (typeof v === 'bigint') n = v;
  else if (typeof v === 'boolean') n = v ? 1n : 0n;
  else throw new VmError(`a bytes-like object is required, not '${typeName(v)}'`);
  if (n < 0n || n > 255n) throw new VmError('byte must be in range(0, 256)');
  return Number(n);
}

export function containsValue(container: VmValue, needle: VmValue): boolean {
  if (typeof container === 'string') {
    if (typeof needle !== 'string') throw new VmError('string membership requires a string needle');
    return container.includes(needle);
  }
  if (container instanceof VmBytes) {
    if (typeof needle === 'bigint' || typeof needle === 'boolean') return container.data.includes(byteFromValue(needle));
    if (needle instanceof VmBytes) {
      if (!needle.data.length) return true;
      return Buffer.from(container.data).indexOf(Buffer.from(needle.data)) >= 0;
    }
    throw new VmError(`a bytes-like object is required, not '${typeName(needle)}'`);
  }
  if (container instanceof VmSet) return setContains(container.items, needle);
  if (Array.isArray(container) || container instanceof VmTuple) {
    for (const item of Array.isArray(container) ? container : container.items) if (valuesEqual(item, needle)) return true;
    return false;
  }
  if (container instanceof VmDict) {
    for (const [k] of container.entries) if (valuesEqual(k, needle)) return true;
    return false;
  }
  throw new VmError(`membership is not supported for ${typeName(container)}`);
}

export function dictGet(d: VmDict, key: VmValue): VmValue | undefined {
  for (const [k, v] of d.entries) if (strictEqual(k, key)) return v;
  return undefined;
}

/** Replaces the first entry with an equal key in place of order, else appends (a new dict). */
export function dictSet(entries: (readonly [VmValue, VmValue])[], key: VmValue, value: VmValue): void {
  const index = entries.findIndex(([k]) => strictEqual(k, key));
  if (index >= 0) entries[index] = [entries[index]![0], value];
  else entries.push([key, value]);
}

export function normalizeIndex(index: VmValue, length: number): number {
  let raw = asBigInt(index);
  if (raw < 0n) raw += BigInt(length);
  if (raw < 0n || raw >= BigInt(length)) throw new VmError('sequence index out of bounds');
  return Number(raw);
}

export function normalizeInsertIndex(index: VmValue, length: number): number {
  let raw = asBigInt(index);
  if (raw < 0n) raw += BigInt(length);
  if (raw < 0n) return 0;
  if (raw > BigInt(length)) return length;
  return Number(raw);
}

export function searchBounds(length: number, start: VmValue | undefined, end: VmValue | undefined): [number, number] {
  const norm = (v: VmValue | undefined, def: number): number => {
    if (v === undefined) return def;
    let raw = asBigInt(v);
    if (raw < 0n) raw += BigInt(length);
    if (raw < 0n) raw = 0n;
    if (raw > BigInt(length)) raw = BigInt(length);
    return Number(raw);
  };
  const s = norm(start, 0);
  const e = norm(end, length);
  return [s, s > e ? s : e];
}

export function subscript(container: VmValue, index: VmValue): VmValue {
  if (Array.isArray(container)) return container[normalizeIndex(index, container.length)]!;
  if (container instanceof VmTuple) return container.items[normalizeIndex(index, container.items.length)]!;
  if (container instanceof VmDict) {
    const found = dictGet(container, index);
    if (found === undefined) throw new VmError(`missing dict key ${pyStr(index)}`);
    return found;
  }
  if (typeof container === 'string') {
    const chars = codePoints(container);
    return chars[normalizeIndex(index, chars.length)]!;
  }
  if (container instanceof VmBytes) return byteInt(container.data[normalizeIndex(index, container.data.length)]!);
  throw new VmError(`subscript access is not supported for ${typeName(container)}`);
}

/** First position, step and number of positions of a slice (upstream `slice_positions`), without listing them. */
export function sliceRange(length: number, lower: bigint | null, upper: bigint | null, step: bigint | null): [number, number, number] {
  const stepValue = step === null ? 1 : Number(checkI64(step, 'slice step'));
  if (stepValue === 0) throw new VmError('slice step cannot be zero');
  const norm = (v: bigint | null, def: number, allowNegative: boolean): number => {
    if (v === null) return def;
    let raw = Number(checkI64(v, 'slice bound'));
    if (raw < 0) raw += length;
    if (allowNegative) {
      if (raw < -1) raw = -1;
    } else if (raw < 0) raw = 0;
    if (raw > length) raw = length;
    return raw;
  };
  if (stepValue > 0) {
    const start = norm(lower, 0, false);
    const stop = norm(upper, length, false);
    return [start, stepValue, start < stop ? Math.ceil((stop - start) / stepValue) : 0];
  }
  const start = norm(lower, length - 1, true);
  const stop = norm(upper, -1, true);
  return [start, stepValue, start > stop ? Math.ceil((start - stop) / -stepValue) : 0];
}

function sliceItems<T>(items: ArrayLike<T>, lower: bigint | null, upper: bigint | null, step: bigint | null): T[] {
  const [start, stride, n] = sliceRange(items.length, lower, upper, step);
  reserveItems(n);
  if (stride === 1) return Array.prototype.slice.call(items, start, start + n) as T[];
  const out = new Array<T>(n);
  for (let i = 0, at = start; i < n; i++, at += stride) out[i] = items[at]!;
  return out;
}

export function sliceValue(container: VmValue, lower: bigint | null, upper: bigint | null, step: bigint | null): VmValue {
  if (Array.isArray(container)) return sliceItems(container, lower, upper, step);
  if (container instanceof VmTuple) return new VmTuple(sliceItems(container.items, lower, upper, step));
  if (typeof container === 'string') {
    const chars = codePoints(container);
    const [start, stride, n] = sliceRange(chars.length, lower, upper, step);
    reserveText(n);
    if (stride === 1) return typeof chars === 'string' ? chars.slice(start, start + n) : chars.slice(start, start + n).join('');
    const out: string[] = new Array<string>(n);
    for (let i = 0, at = start; i < n; i++, at += stride) out[i] = chars[at]!;
    return out.join('');
  }
  if (container instanceof VmBytes) {
    const data = container.data;
    const [start, stride, n] = sliceRange(data.length, lower, upper, step);
    reserveText(n);
    if (stride === 1) return new VmBytes(data.slice(start, start + n), container.mutable);
    const out = new Uint8Array(n);
    for (let i = 0, at = start; i < n; i++, at += stride) out[i] = data[at]!;
    return new VmBytes(out, container.mutable);
  }
  throw new VmError(`slice access is not supported for ${typeName(container)}`);
}

export function assignSubscript(container: VmValue, index: VmValue, value: VmValue): VmValue {
  if (Array.isArray(container)) {
    reserveItems(container.length);
    const copy = container.slice();
    copy[normalizeIndex(index, copy.length)] = value;
    return copy;
  }
  if (container instanceof VmDict) {
    reserveItems(container.entries.length + 1, ENTRY_BYTES);
    const entries = container.entries.slice();
    dictSet(entries, index, value);
    return new VmDict(entries);
  }
  if (container instanceof VmBytes && container.mutable) {
    reserveText(container.data.length);
    const data = Uint8Array.from(container.data);
    data[normalizeIndex(index, data.length)] = byteFromValue(value);
    return new VmBytes(data, true);
  }
  throw new VmError(`subscript assignment is not supported for ${typeName(container)}`);
}

export function repeatValues(values: readonly VmValue[], count: bigint): VmValue[] {
  if (count < 0n) return [];
  const n = toUsize(count, 'sequence repeat count');
  if (values.length * n > MAX_SEQUENCE_LENGTH) throw new VmError('sequence repetition exceeds the maximum allowed allocation size');
  reserveItems(values.length * n);
  const out: VmValue[] = [];
  for (let i = 0; i < n; i++) for (const v of values) out.push(v);
  return out;
}

export function repeatString(value: string, count: bigint): string {
  if (count < 0n) return '';
  const n = toUsize(count, 'string repeat count');
  if (Buffer.byteLength(value) * n > MAX_BINARY_ALLOCATION_BYTES) {
    throw new VmError('string repetition exceeds the maximum allowed allocation size');
  }
  reserveText(value.length * n);
  return value.repeat(n);
}

export function repeatBytes(data: Uint8Array, count: bigint): Uint8Array {
  if (count < 0n) return new Uint8Array();
  const n = toUsize(count, 'repeat count');
  if (data.length * n > MAX_BINARY_ALLOCATION_BYTES) throw new VmError('binary repetition exceeds the maximum allowed allocation size');
  reserveText(data.length * n);
  const out = new Uint8Array(data.length * n);
  for (let i = 0; i < n; i++) out.set(data, i * data.length);
  return out;
}
