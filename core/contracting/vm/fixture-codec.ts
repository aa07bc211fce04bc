import { bytesToHex } from '../../chain/hashes.js';
import { VmError } from './errors.js';
import {
  VmBuiltin, VmBytes, VmContractHandle, VmDateTime, VmDecimal, VmDict, VmEventRef, VmException, VmFunctionRef, VmSet,
  VmStorageRef, VmTimeDelta, VmTuple, VmTypeMarker, pyStr, type VmValue,
} from './values.js';

/**
 * Upstream's parity-fixture encoding of values (tests/parity_fixtures.rs): JSON integers are ints
 * (bigint in JS), other numbers floats, `{"__vm_type__": …}` objects for decimal, datetime,
 * timedelta, big ints and exceptions, `__bytes__`/`__set__`… wrappers, arrays as lists.
 */
export type JsonLike = null | boolean | number | bigint | string | JsonLike[] | { [k: string]: JsonLike };

const U64_MAX = 2n ** 64n - 1n;
const I64_MIN = -(2n ** 63n);

function hexBytes(text: unknown, mutable: boolean): VmBytes {
  if (typeof text !== 'string' || text.length % 2 || !/^[0-9a-fA-F]*$/.test(text)) throw new VmError('invalid hex in bytes value');
  return new VmBytes(Uint8Array.from(Buffer.from(text, 'hex')), mutable);
}

function int(v: unknown, what: string): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  throw new VmError(`${what} must be an integer`);
}

export function fromFixtureJson(v: JsonLike): VmValue {
  if (v === null || typeof v === 'boolean' || typeof v === 'string' || typeof v === 'bigint') return v;
  if (typeof v === 'number') return v;
  if (Array.isArray(v)) return v.map(fromFixtureJson);
  const type = v.__vm_type__;
  if (type === 'int') {
    if (typeof v.value !== 'string' || !/^-?[0-9]+$/.test(v.value)) throw new VmError('int value must be a string of digits');
    return BigInt(v.value);
  }
  if (type === 'decimal') {
    if (typeof v.value !== 'string') throw new VmError('decimal value must be a string');
    return VmDecimal.parse(v.value);
  }
  if (type === 'datetime') {
    const parts = v.parts;
    if (!Array.isArray(parts) || parts.length !== 7) throw new VmError('datetime parts must be 7 integers');
    const p = parts.map((x) => int(x, 'datetime part'));
    return VmDateTime.of(p[0]!, p[1]!, p[2]!, p[3]!, p[4]!, p[5]!, p[6]!);
  }
  if (type === 'timedelta') return VmTimeDelta.fromSeconds(int(v.seconds, 'timedelta seconds'));
  if ('__bytes__' in v) return hexBytes(v.__bytes__, false);
  if ('__bytearray__' in v) return hexBytes(v.__bytearray__, true);
  if (Array.isArray(v.__set__)) return new VmSet(v.__set__.map(fromFixtureJson), false);
  if (Array.isArray(v.__frozenset__)) return new VmSet(v.__frozenset__.map(fromFixtureJson), true);
  return new VmDict(Object.entries(v).map(([k, x]) => [k, fromFixtureJson(x)] as const));
}

/** A Hash key: an array is a tuple (multi-part key). */
export function fromFixtureKey(v: JsonLike): VmValue {
  return Array.isArray(v) ? new VmTuple(v.map(fromFixtureJson)) : fromFixtureJson(v);
}

export function toFixtureJson(v: VmValue): JsonLike {
  if (v === null || typeof v === 'boolean' || typeof v === 'string' || typeof v === 'number') return v;
  if (typeof v === 'bigint') return v >= I64_MIN && v <= U64_MAX ? v : { __vm_type__: 'int', value: v.toString() };
  if (Array.isArray(v)) return v.map(toFixtureJson);
  if (v instanceof VmTuple) return v.items.map(toFixtureJson);
  if (v instanceof VmDecimal) return { __vm_type__: 'decimal', value: v.toString() };
  if (v instanceof VmDateTime) return { __vm_type__: 'datetime', parts: v.parts().map((n) => BigInt(n)) };
  if (v instanceof VmTimeDelta) return { __vm_type__: 'timedelta', seconds: v.seconds };
  if (v instanceof VmBytes) return v.mutable ? { __bytearray__: bytesToHex(v.data) } : { __bytes__: bytesToHex(v.data) };
  if (v instanceof VmSet) return v.frozen ? { __frozenset__: v.items.map(toFixtureJson) } : { __set__: v.items.map(toFixtureJson) };
  if (v instanceof VmDict) {
    const out: { [k: string]: JsonLike } = {};
    for (const [k, x] of v.entries) setField(out, typeof k === 'string' ? k : pyStr(k), toFixtureJson(x));
    return out;
  }
  if (v instanceof VmContractHandle) return v.module;
  if (v instanceof VmStorageRef) return v.binding;
  if (v instanceof VmEventRef) return v.eventName;
  if (v instanceof VmBuiltin || v instanceof VmFunctionRef || v instanceof VmTypeMarker) return v.name;
  const e = v as VmException;
  return { __vm_type__: 'exception', name: e.name, args: e.args.map(toFixtureJson) };
}

/** Sets a field as own data even when the key is `__proto__` (plain objects, safe keys). */
export function setField(o: { [k: string]: JsonLike }, key: string, value: JsonLike): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}
