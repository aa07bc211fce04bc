import { toDecimal } from './coerce.js';
import { VmError } from './errors.js';
import { rustFloatDebug } from './float-format.js';
import {
  VmBuiltin, VmBytes, VmContractHandle, VmDateTime, VmDecimal, VmDict, VmEventRef, VmException, VmFunctionRef,
  VmSet, VmStorageRef, VmTimeDelta, VmTuple, VmTypeMarker, typeName, type VmValue,
} from './values.js';

/** Equality and ordering: strict (Rust's derived `==`), Python-like numeric (`==`, `in`), sorting. */

/** Order of Rust `String` (UTF-8 bytes = code points), not of JS UTF-16 units. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800) x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      if (y >= 0xd800) y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      return x < y ? -1 : 1;
    }
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Container pairs found equal during the current top-level comparison. A value may hold the
 * same container many times over (`t = (t, t)` sixty times is 2^60 leaves for a few thousand
 * chi); with this memo each distinct pair is compared once, so comparing such values costs
 * O(distinct containers) instead of O(leaves).
 */
let equalPairs: Map<object, Set<object>> | null = null;
let comparing = 0;

function memoized(a: object, b: object, compare: () => boolean): boolean {
  if (equalPairs?.get(a)?.has(b)) return true;
  comparing++;
  try {
    const equal = compare();
    if (equal) {
      equalPairs ??= new Map();
      let set = equalPairs.get(a);
      if (!set) equalPairs.set(a, (set = new Set()));
      set.add(b);
    }
    return equal;
  } finally {
    if (--comparing === 0) equalPairs = null;
  }
}

function arraysStrictEqual(a: readonly VmValue[], b: readonly VmValue[]): boolean {
  if (a.length !== b.length) return false;
  if (!a.length) return true;
  return memoized(a, b, () => {
    for (let i = 0; i < a.length; i++) if (!strictEqual(a[i]!, b[i]!)) return false;
    return true;
  });
}

/** Rust's derived `PartialEq` on `VmValue`: same kind, same content (`True != 1`, `1 != decimal('1')`). */
export function strictEqual(a: VmValue, b: VmValue): boolean {
  if (a === b) return typeof a !== 'number' || !Number.isNaN(a);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) return Array.isArray(b) && arraysStrictEqual(a, b);
  if (Array.isArray(b)) return false;
  if (a.constructor !== b.constructor) return false;
  if (a instanceof VmDecimal) return a.scaled === (b as VmDecimal).scaled;
  if (a instanceof VmTuple) return arraysStrictEqual(a.items, (b as VmTuple).items);
  if (a instanceof VmDict) {
    const be = (b as VmDict).entries;
    if (a.entries.length !== be.length) return false;
    return memoized(a, b, () => a.entries.every(([k, v], i) => strictEqual(k, be[i]![0]) && strictEqual(v, be[i]![1])));
  }
  if (a instanceof VmDateTime) return a.micros === (b as VmDateTime).micros;
  if (a instanceof VmTimeDelta) return a.seconds === (b as VmTimeDelta).seconds;
  if (a instanceof VmBytes) return a.mutable === (b as VmBytes).mutable && bytesEqual(a.data, (b as VmBytes).data);
  if (a instanceof VmSet) return a.frozen === (b as VmSet).frozen && arraysStrictEqual(a.items, (b as VmSet).items);
  if (a instanceof VmContractHandle) return a.module === (b as VmContractHandle).module && a.origin === (b as VmContractHandle).origin;
  if (a instanceof VmStorageRef) return a.binding === (b as VmStorageRef).binding && a.storageType === (b as VmStorageRef).storageType;
  if (a instanceof VmEventRef) {
    const o = b as VmEventRef;
    return a.binding === o.binding && a.eventName === o.eventName && strictEqual(a.params, o.params);
  }
  if (a instanceof VmBuiltin || a instanceof VmFunctionRef || a instanceof VmTypeMarker) return a.name === (b as VmBuiltin).name;
  if (a instanceof VmException) return a.name === (b as VmException).name && arraysStrictEqual(a.args, (b as VmException).args);
  return false;
}

function cmp<T>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function cmpFloat(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) throw new VmError('cannot compare NaN values');
  return cmp(a, b);
}

function notOrderComparable(a: VmValue, b: VmValue): VmError {
  return new VmError(`values ${typeName(a)} and ${typeName(b)} are not order-comparable`);
}

/** Upstream `compare_vm_values` (sorted, min, max, numeric equality). */
export function compareValues(a: VmValue, b: VmValue): number {
  if (a instanceof VmDateTime && b instanceof VmDateTime) return a.compare(b);
  if (a instanceof VmTimeDelta && b instanceof VmTimeDelta) return a.compare(b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return cmp(Number(a), Number(b));
  if (a instanceof VmDecimal) return a.compare(toDecimal(b));
  if (b instanceof VmDecimal) return toDecimal(a).compare(b);
  if (typeof a === 'boolean' && typeof b === 'bigint') return cmp(a ? 1n : 0n, b);
  if (typeof a === 'bigint' && typeof b === 'boolean') return cmp(a, b ? 1n : 0n);
  if (typeof a === 'boolean' && typeof b === 'number') return cmpFloat(a ? 1 : 0, b);
  if (typeof a === 'number' && typeof b === 'boolean') return cmpFloat(a, b ? 1 : 0);
  if (typeof a === 'bigint' && typeof b === 'bigint') return cmp(a, b);
  if (typeof a === 'number' && typeof b === 'number') return cmpFloat(a, b);
  if (typeof a === 'bigint' && typeof b === 'number') return cmpFloat(Number(a), b);
  if (typeof a === 'number' && typeof b === 'bigint') return cmpFloat(a, Number(b));
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (a instanceof VmBytes && b instanceof VmBytes) return compareBytes(a.data, b.data);
  throw notOrderComparable(a, b);
}

function isNumeric(v: VmValue): boolean {
  const t = typeof v;
  return t === 'boolean' || t === 'bigint' || t === 'number' || v instanceof VmDecimal;
}

/** Upstream `vm_values_equal`: numbers compare across kinds, containers element-wise. */
export function valuesEqual(a: VmValue, b: VmValue): boolean {
  if (isNumeric(a) && isNumeric(b)) return compareValues(a, b) === 0;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (a instanceof VmSet && b instanceof VmSet) {
    if (a.items.length !== b.items.length) return false;
    return memoized(a, b, () => a.items.every((x) => setContains(b.items, x)));
  }
  if (Array.isArray(a) || a instanceof VmTuple) {
    const same = Array.isArray(a) ? Array.isArray(b) : b instanceof VmTuple;
    if (!same) return false;
    const x = Array.isArray(a) ? a : (a as VmTuple).items;
    const y = Array.isArray(b) ? b : (b as VmTuple).items;
    if (x.length !== y.length) return false;
    return memoized(x, y, () => {
      for (let i = 0; i < x.length; i++) if (!valuesEqual(x[i]!, y[i]!)) return false;
      return true;
    });
  }
  if (a instanceof VmDict && b instanceof VmDict) {
    if (a.entries.length !== b.entries.length) return false;
    return memoized(a, b, () => dictsEqual(a, b));
  }
  if (a instanceof VmBytes && b instanceof VmBytes) return bytesEqual(a.data, b.data);
  return strictEqual(a, b);
}

function dictsEqual(a: VmDict, b: VmDict): boolean {
  {
    for (const [k, v] of a.entries) {
      const match = b.entries.find(([bk]) => {
        try {
          return valuesEqual(k, bk);
        } catch {
          return false;
        }
      });
      if (!match || !valuesEqual(v, match[1])) return false;
    }
    return true;
  }
}

export function setContains(items: readonly VmValue[], needle: VmValue): boolean {
  for (const item of items) if (valuesEqual(item, needle)) return true;
  return false;
}

// ---- set keys: sets are kept sorted by upstream's `VmSetKey` order -------------------------

type SetKey = readonly [number, unknown];
const RANK = { none: 0, bool: 1, int: 2, decimal: 3, float: 4, datetime: 5, timedelta: 6, str: 7, bytes: 8, tuple: 9, frozenset: 10 };

function setKey(v: VmValue, floatText: (x: number) => string, memo = new Map<object, SetKey>()): SetKey {
  if (v === null) return [RANK.none, 0];
  switch (typeof v) {
    case 'boolean': return [RANK.bool, v ? 1 : 0];
    case 'bigint': return [RANK.int, v];
    case 'number': return [RANK.float, floatText(v)];
    case 'string': return [RANK.str, v];
  }
  if (v instanceof VmDecimal) return [RANK.decimal, v.scaled];
  if (v instanceof VmDateTime) return [RANK.datetime, v.micros];
  if (v instanceof VmTimeDelta) return [RANK.timedelta, v.seconds];
  if (v instanceof VmBytes && !v.mutable) return [RANK.bytes, v.data];
  // Keys of a container held many times over are shared, not rebuilt (see `memoized`).
  const known = memo.get(v);
  if (known) return known;
  let key: SetKey | undefined;
  if (v instanceof VmTuple) key = [RANK.tuple, v.items.map((x) => setKey(x, floatText, memo))];
  else if (v instanceof VmSet && v.frozen) key = [RANK.frozenset, v.items.map((x) => setKey(x, floatText, memo))];
  if (key) {
    memo.set(v, key);
    return key;
  }
  throw new VmError(`unhashable type: '${typeName(v)}'`);
}

function compareSetKeys(a: SetKey, b: SetKey): number {
  if (a === b) return 0;
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  const x = a[1];
  const y = b[1];
  if (typeof x === 'string') return compareStrings(x, y as string);
  if (x instanceof Uint8Array) return compareBytes(x, y as Uint8Array);
  if (Array.isArray(x)) {
    const ys = y as SetKey[];
    let order = 0;
    memoized(x, ys, () => {
      const n = Math.min(x.length, ys.length);
      for (let i = 0; i < n; i++) {
        order = compareSetKeys(x[i] as SetKey, ys[i]!);
        if (order) return false;
      }
      order = cmp(x.length, ys.length);
      return order === 0;
    });
    return order;
  }
  return cmp(x as bigint, y as bigint);
}

/** De-duplicate with numeric equality and sort by upstream's set-key order. */
export function normalizeSetItems(values: readonly VmValue[]): VmValue[] {
  const normalized: [VmValue, SetKey][] = [];
  const memo = new Map<object, SetKey>();
  for (const value of values) {
    const key = setKey(value, rustFloatDebug, memo);
    const index = normalized.findIndex(([existing]) => valuesEqual(existing, value));
    if (index >= 0) {
      if (compareSetKeys(key, normalized[index]![1]) < 0) normalized[index] = [value, key];
    } else normalized.push([value, key]);
  }
  normalized.sort((a, b) => compareSetKeys(a[1], b[1]));
  return normalized.map(([v]) => v);
}
