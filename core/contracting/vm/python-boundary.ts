import { VmDateTime, VmTimeDelta } from './datetime.js';
import { VmDict, VmSet, VmTuple, type VmValue } from './values.js';

/**
 * The node hands a transaction's result, writes and events to Python (xian-vm-core
 * python_bindings.rs `vm_to_py`): a datetime becomes `datetime(year, …)` and a timedelta
 * `timedelta(seconds=…)`, whose ranges are narrower than the VM's (chrono's years ±262,143;
 * i64 seconds). A value outside them makes Python raise, and the transaction fails with that
 * exception — so the VM checks before handing values over and fails with Python's own text.
 */
const PY_MIN_YEAR = 1;
const PY_MAX_YEAR = 9999;
const PY_MAX_DELTA_DAYS = 999_999_999n;

function floorDays(seconds: bigint): bigint {
  const q = seconds / 86_400n;
  return seconds % 86_400n !== 0n && seconds < 0n ? q - 1n : q;
}

/** Python's exception text for the first value (depth-first) Python cannot hold, else undefined. */
export function pythonBoundaryError(value: VmValue, seen = new Set<object>()): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (value instanceof VmDateTime) {
    const year = value.parts()[0];
    if (year < PY_MIN_YEAR || year > PY_MAX_YEAR) return `ValueError('year ${year} is out of range')`;
    return undefined;
  }
  if (value instanceof VmTimeDelta) {
    const days = floorDays(value.seconds);
    if (days > PY_MAX_DELTA_DAYS || days < -PY_MAX_DELTA_DAYS) {
      return `OverflowError('days=${days}; must have magnitude <= ${PY_MAX_DELTA_DAYS}')`;
    }
    return undefined;
  }
  // A container may hold itself many times over (`t = (t, t)`): each one is visited once.
  if (seen.has(value)) return undefined;
  let items: readonly VmValue[] | undefined;
  if (Array.isArray(value)) items = value;
  else if (value instanceof VmTuple || value instanceof VmSet) items = value.items;
  else if (value instanceof VmDict) {
    seen.add(value);
    for (const [k, v] of value.entries) {
      const error = pythonBoundaryError(k, seen) ?? pythonBoundaryError(v, seen);
      if (error) return error;
    }
    return undefined;
  }
  if (!items) return undefined;
  seen.add(value);
  for (const item of items) {
    const error = pythonBoundaryError(item, seen);
    if (error) return error;
  }
  return undefined;
}
