import { VmError } from './errors.js';
import { rustFloatDisplay } from './float-format.js';
import { VmContractHandle, VmDecimal, typeName, type VmValue } from './values.js';

/** Conversions the interpreter applies to operands and arguments, with upstream's error texts. */
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

export function asBigInt(v: VmValue): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (v instanceof VmDecimal) return v.toBigInt();
  throw new VmError(`expected int-compatible value, got ${typeName(v)}`);
}

export function checkI64(value: bigint, context: string): bigint {
  if (value < I64_MIN || value > I64_MAX) throw new VmError(`${context} exceeds the supported i64 range`);
  return value;
}

/** Upstream `as_i64`: int, bool or decimal (truncated), within i64. */
export function asI64(v: VmValue): bigint {
  if (typeof v === 'bigint') return checkI64(v, 'integer value');
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (v instanceof VmDecimal) return checkI64(v.toBigInt(), `decimal value ${v.toString()}`);
  throw new VmError(`expected int-compatible value, got ${typeName(v)}`);
}

export function toUsize(value: bigint, context: string): number {
  if (value < 0n) throw new VmError(`${context} must be non-negative`);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new VmError(`${context} exceeds the supported usize range`);
  return Number(value);
}

export function toU32(value: bigint, context: string): number {
  if (value < 0n) throw new VmError(`${context} must be non-negative`);
  if (value > 0xffffffffn) throw new VmError(`${context} exceeds the supported u32 range`);
  return Number(value);
}

export function asString(v: VmValue): string {
  if (typeof v === 'string') return v;
  throw new VmError(`expected string value, got ${typeName(v)}`);
}

export function asContractHandle(v: VmValue): VmContractHandle {
  if (v instanceof VmContractHandle) return v;
  throw new VmError(`expected contract handle, got ${typeName(v)}`);
}

/** Upstream `VmDecimal::from_vm_value`: a float goes through its Rust `Display` text first. */
export function toDecimal(v: VmValue): VmDecimal {
  if (v instanceof VmDecimal) return v;
  if (typeof v === 'bigint') return VmDecimal.fromInteger(v);
  if (typeof v === 'number') return VmDecimal.parse(rustFloatDisplay(v));
  if (typeof v === 'boolean') return v ? VmDecimal.ONE : VmDecimal.ZERO;
  if (typeof v === 'string') return VmDecimal.parse(v);
  throw new VmError(`expected decimal-compatible value, got ${typeName(v)}`);
}
