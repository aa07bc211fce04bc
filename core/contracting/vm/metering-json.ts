import { compareStrings } from './compare.js';
import { VmError } from './errors.js';
import { rustFloatDisplay, ryuFloat } from './float-format.js';
import { bytesToHex } from '../../chain/hashes.js';
import { VmBytes, VmDateTime, VmDecimal, VmDict, VmSet, VmTimeDelta, VmTuple, pyStr, typeName, type VmValue } from './values.js';

/**
 * The metering JSON of a value (xian-vm-core metering.rs `vm_value_to_json` → serde_json compact
 * text): the chain charges reads, writes, event fields and return values by its UTF-8 length.
 * Object keys are sorted (serde's BTreeMap), strings raw UTF-8, decimals `{"__fixed__":"1.5"}`.
 */
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

function objectKey(k: VmValue): string {
  if (typeof k === 'string') return k;
  if (typeof k === 'boolean') return k ? 'true' : 'false';
  if (k === null) return 'null';
  if (typeof k === 'bigint') return k.toString();
  if (typeof k === 'number') return rustFloatDisplay(k); // serde prints float keys with Rust Display
  if (k instanceof VmDecimal || k instanceof VmDateTime || k instanceof VmTimeDelta) return k.toString();
  return pyStr(k);
}


function floorDivMod(seconds: bigint): [bigint, bigint] {
  let days = seconds / 86400n;
  let rest = seconds % 86400n;
  if (rest < 0n) {
    rest += 86400n;
    days -= 1n;
  }
  return [days, rest];
}

export function meteringJson(v: VmValue): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean': return v ? 'true' : 'false';
    case 'bigint': return v >= I64_MIN && v <= I64_MAX ? v.toString() : `{"__big_int__":"${v}"}`;
    case 'number':
      if (!Number.isFinite(v)) throw new VmError('cannot encode non-finite float');
      return ryuFloat(v);
    case 'string': return JSON.stringify(v);
  }
  if (Array.isArray(v)) return `[${v.map(meteringJson).join(',')}]`;
  if (v instanceof VmTuple) return `[${v.items.map(meteringJson).join(',')}]`;
  if (v instanceof VmDecimal) return `{"__fixed__":${JSON.stringify(v.toString())}}`;
  if (v instanceof VmDict) {
    const map = new Map<string, string>();
    for (const [k, x] of v.entries) map.set(objectKey(k), meteringJson(x));
    const keys = [...map.keys()].sort(compareStrings);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${map.get(k)}`).join(',')}}`;
  }
  if (v instanceof VmDateTime) return `{"__time__":[${v.parts().join(',')}]}`;
  if (v instanceof VmTimeDelta) {
    const [days, seconds] = floorDivMod(v.seconds);
    return `{"__delta__":[${days},${seconds}]}`;
  }
  if (v instanceof VmBytes) return `{"${v.mutable ? '__bytearray__' : '__bytes__'}":"${bytesToHex(v.data)}"}`;
  if (v instanceof VmSet) return `{"${v.frozen ? '__frozenset__' : '__set__'}":[${v.items.map(meteringJson).join(',')}]}`;
  throw new VmError(`unsupported metering encode value '${typeName(v)}'`);
}

/** UTF-8 byte length of `meteringJson(v)`. */
const NEEDS_ESCAPE_OR_WIDE = /["\\\u0000-\u001f\u0080-\uffff]/;

/**
 * UTF-8 byte length of `meteringJson(v)`, computed without building the text: a value may hold
 * the same container or string many times over (`t = (t, t)` forty times is 2^40 leaves in
 * a few hundred chi), so each distinct container and long string is measured once. The length
 * may be astronomically large; the charge that follows then fails with `Out of chi.` (or the
 * write cap), as on the chain.
 */
export function meteringLength(v: VmValue): number {
  if (typeof v === 'bigint' && v >= -999_999_999n && v <= 999_999_999n) return v.toString().length;
  if (typeof v === 'string' && !NEEDS_ESCAPE_OR_WIDE.test(v)) return v.length + 2;
  if (v instanceof VmDecimal) return v.toString().length + 16; // {"__fixed__":"…"}
  return sizeOf(v, new Map());
}

const SET_WRAPPER = utf8Length('{"__set__":}');
const FROZENSET_WRAPPER = utf8Length('{"__frozenset__":}');

function listSize(items: readonly VmValue[], memo: Map<unknown, number>): number {
  let total = 2 + Math.max(0, items.length - 1);
  for (const item of items) total += sizeOf(item, memo);
  return total;
}

function sizeOf(v: VmValue, memo: Map<unknown, number>): number {
  if (v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'bigint') return meteringJson(v).length;
  const long = typeof v !== 'string' || v.length > 256;
  if (long) {
    const known = memo.get(v);
    if (known !== undefined) return known;
  }
  let size: number;
  if (typeof v === 'string') size = NEEDS_ESCAPE_OR_WIDE.test(v) ? utf8Length(JSON.stringify(v)) : v.length + 2;
  else if (Array.isArray(v)) size = listSize(v, memo);
  else if (v instanceof VmTuple) size = listSize(v.items, memo);
  else if (v instanceof VmSet) size = (v.frozen ? FROZENSET_WRAPPER : SET_WRAPPER) + listSize(v.items, memo);
  else if (v instanceof VmDict) {
    const values = new Map<string, VmValue>();
    for (const [k, x] of v.entries) values.set(objectKey(k), x);
    size = 2 + Math.max(0, values.size - 1);
    for (const [k, x] of values) size += utf8Length(JSON.stringify(k)) + 1 + sizeOf(x, memo);
  } else size = utf8Length(meteringJson(v));
  if (long) memo.set(v, size);
  return size;
}

export function utf8Length(text: string): number {
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  return ascii ? text.length : Buffer.byteLength(text, 'utf8');
}
