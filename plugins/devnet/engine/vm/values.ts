import { ChainDatetime, ChainDecimal, ChainTimedelta, chainRecord, type ChainValue } from 'chainhost/chain';
import {
  VmBytes, VmDateTime, VmDecimal, VmDict, VmError, VmSet, VmTimeDelta, VmTuple, toFixtureJson, vmStr, type VmValue,
} from 'chainhost/contracting';

/**
 * The bridge between the node's stored values (`ChainValue`: what the state store, the wire
 * codec, BDS and the queries speak) and the VM's value model. Both decimals are bigints scaled
 * by 10^30, so decimals cross without text; datetimes cross by their civil parts. A tuple
 * becomes a list (JSON has no tuple), a set its sorted item list — as the node's encoder does.
 */
export function toVm(v: ChainValue): VmValue {
  if (v === null || typeof v === 'boolean' || typeof v === 'string' || typeof v === 'bigint') return v;
  if (v instanceof ChainDecimal) return VmDecimal.fromScaled(v.scaled);
  if (v instanceof ChainDatetime) {
    const [y, mo, d, h, mi, s, us] = v.parts();
    return VmDateTime.of(BigInt(y), BigInt(mo), BigInt(d), BigInt(h), BigInt(mi), BigInt(s), BigInt(us));
  }
  if (v instanceof ChainTimedelta) return VmTimeDelta.fromSeconds(v.totalMicros() / 1_000_000n);
  if (v instanceof Uint8Array) return new VmBytes(v, false);
  if (Array.isArray(v)) return v.map(toVm);
  return new VmDict(Object.entries(v).map(([k, x]) => [k, toVm(x)] as const));
}

/** Python's `timedelta.max.days`: the node holds timedeltas as Python objects. */
const MAX_TIMEDELTA_DAYS = 999_999_999n;

export function fromVm(v: VmValue): ChainValue {
  if (v === null || typeof v === 'boolean' || typeof v === 'string' || typeof v === 'bigint') return v;
  if (typeof v === 'number') return ChainDecimal.parse(floatText(v));
  if (v instanceof VmDecimal) return ChainDecimal.fromScaled(v.scaled);
  if (v instanceof VmDateTime) {
    const [y, mo, d, h, mi, s, us] = v.parts();
    // The VM's datetimes reach chrono's range; the node's (Python's) stop at years 1-9999.
    if (y < 1 || y > 9999) throw new VmError(`ValueError('year ${y} is out of range')`);
    return ChainDatetime.fromParts(y, mo, d, h, mi, s, us);
  }
  if (v instanceof VmTimeDelta) {
    const days = v.seconds >= 0n ? v.seconds / 86_400n : -((-v.seconds + 86_399n) / 86_400n);
    if (days > MAX_TIMEDELTA_DAYS || days < -MAX_TIMEDELTA_DAYS) {
      throw new VmError(`OverflowError('days=${days}; must have magnitude <= ${MAX_TIMEDELTA_DAYS}')`);
    }
    return ChainTimedelta.fromMicros(v.seconds * 1_000_000n);
  }
  if (v instanceof VmBytes) return v.data;
  if (Array.isArray(v)) return v.map(fromVm);
  if (v instanceof VmTuple) return tuple(v.items.map(fromVm));
  if (v instanceof VmSet) return v.items.map(fromVm);
  if (v instanceof VmDict) return chainRecord(v.entries.map(([k, x]) => [typeof k === 'string' ? k : vmStr(k), fromVm(x)] as const));
  // Handles, storage refs, builtins: their fixture text (a name), as the node's encoder writes them.
  const text = toFixtureJson(v);
  return typeof text === 'string' ? text : vmStr(v);
}

/** Marks a list as a Python tuple (its repr is `(a, b)`; JSON encodes it as a list). */
export const TUPLE = Symbol.for('chain.tuple');

export function tuple(items: ChainValue[]): ChainValue[] {
  Object.defineProperty(items, TUPLE, { value: true, enumerable: false });
  return items;
}

export function isTuple(v: unknown): boolean {
  return Array.isArray(v) && TUPLE in v;
}

/** A float crosses as a decimal of its shortest round-trip text (the chain stores no floats). */
function floatText(n: number): string {
  if (!Number.isFinite(n)) return '0';
  return Number.isInteger(n) ? n.toFixed(0) : String(n).includes('e') ? n.toFixed(30) : String(n);
}
