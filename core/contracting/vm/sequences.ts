import { asBigInt, checkI64, toUsize } from './coerce.js';
import { setContains, strictEqual, valuesEqual } from './compare.js';
import { VmError } from './errors.js';
import { MAX_BINARY_ALLOCATION_BYTES, MAX_SEQUENCE_LENGTH } from './limits.js';
import { VmBytes, VmDict, VmSet, VmTuple, pyStr, typeName, type VmValue } from './values.js';

/** Iteration, indexing, slicing, membership and dict entry lookup with upstream's semantics. */

export function iterate(v: VmValue): readonly VmValue[] {
  if (Array.isArray(v)) return v;
  if (v instanceof VmTuple || v instanceof VmSet) return v.items;
  if (v instanceof VmDict) return v.entries.map(([k]) => k);
  if (typeof v === 'string') return Array.from(v);
  if (v instanceof VmBytes) return Array.from(v.data, (b) => BigInt(b));
  throw new VmError(`value of type ${typeName(v)} is not iterable`);
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
    const chars = Array.from(container);
    return chars[normalizeIndex(index, chars.length)]!;
  }
  if (container instanceof VmBytes) return BigInt(container.data[normalizeIndex(index, container.data.length)]!);
  throw new VmError(`subscript access is not supported for ${typeName(container)}`);
}

export function slicePositions(length: number, lower: bigint | null, upper: bigint | null, step: bigint | null): number[] {
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
  const positions: number[] = [];
  if (stepValue > 0) {
    const stop = norm(upper, length, false);
    for (let i = norm(lower, 0, false); i < stop; i += stepValue) positions.push(i);
    return positions;
  }
  const stop = norm(upper, -1, true);
  for (let i = norm(lower, length - 1, true); i > stop; i += stepValue) positions.push(i);
  return positions;
}

export function sliceValue(container: VmValue, lower: bigint | null, upper: bigint | null, step: bigint | null): VmValue {
  if (Array.isArray(container)) return slicePositions(container.length, lower, upper, step).map((i) => container[i]!);
  if (container instanceof VmTuple) {
    return new VmTuple(slicePositions(container.items.length, lower, upper, step).map((i) => container.items[i]!));
  }
  if (typeof container === 'string') {
    const chars = Array.from(container);
    return slicePositions(chars.length, lower, upper, step).map((i) => chars[i]!).join('');
  }
  if (container instanceof VmBytes) {
    const data = container.data;
    return new VmBytes(Uint8Array.from(slicePositions(data.length, lower, upper, step), (i) => data[i]!), container.mutable);
  }
  throw new VmError(`slice access is not supported for ${typeName(container)}`);
}

export function assignSubscript(container: VmValue, index: VmValue, value: VmValue): VmValue {
  if (Array.isArray(container)) {
    const copy = container.slice();
    copy[normalizeIndex(index, copy.length)] = value;
    return copy;
  }
  if (container instanceof VmDict) {
    const entries = container.entries.slice();
    dictSet(entries, index, value);
    return new VmDict(entries);
  }
  if (container instanceof VmBytes && container.mutable) {
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
  const out: VmValue[] = [];
  for (let i = 0; i < n; i++) out.push(...values);
  return out;
}

export function repeatString(value: string, count: bigint): string {
  if (count < 0n) return '';
  const n = toUsize(count, 'string repeat count');
  if (Buffer.byteLength(value) * n > MAX_BINARY_ALLOCATION_BYTES) {
    throw new VmError('string repetition exceeds the maximum allowed allocation size');
  }
  return value.repeat(n);
}

export function repeatBytes(data: Uint8Array, count: bigint): Uint8Array {
  if (count < 0n) return new Uint8Array();
  const n = toUsize(count, 'repeat count');
  if (data.length * n > MAX_BINARY_ALLOCATION_BYTES) throw new VmError('binary repetition exceeds the maximum allowed allocation size');
  const out = new Uint8Array(data.length * n);
  for (let i = 0; i < n; i++) out.set(data, i * data.length);
  return out;
}
