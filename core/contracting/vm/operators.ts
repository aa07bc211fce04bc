import { asBigInt, checkI64, toDecimal } from './coerce.js';
import { compareBytes, compareStrings, normalizeSetItems, setContains, strictEqual, valuesEqual } from './compare.js';
import { VmError } from './errors.js';
import { countBytes, reserveItems, reserveText } from './alloc.js';
import { bitLength, checkedMul, checkedPow, floorDiv, floorMod, leftShift, rightShift } from './ints.js';
import { containsValue, repeatBytes, repeatString, repeatValues } from './sequences.js';
import { VmBytes, VmDateTime, VmDecimal, VmSet, VmTimeDelta, VmTuple, pyStr, truthy, typeName, type VmValue } from './values.js';

/** Binary, unary and comparison operators (upstream `apply_binary_operator` and friends). */

function coerce(operator: string, v: VmValue, side: string): VmDecimal {
  try {
    return toDecimal(v);
  } catch (err) {
    throw new VmError(
      `binary operator '${operator}' could not coerce ${side} operand ${pyStr(v)} (${typeName(v)}) to decimal: ${(err as Error).message}`,
    );
  }
}

function unsupported(op: string, a: VmValue, b: VmValue): VmError {
  return new VmError(`unsupported ${op} operands ${typeName(a)} and ${typeName(b)}`);
}

function decimalOp(op: string, a: VmValue, b: VmValue): [VmDecimal, VmDecimal] | undefined {
  if (a instanceof VmDecimal) return [a, b instanceof VmDecimal ? b : coerce(op, b, 'right')];
  if (b instanceof VmDecimal) return [coerce(op, a, 'left'), b];
  return undefined;
}

function setOp(a: VmValue, b: VmValue, op: (x: readonly VmValue[], y: readonly VmValue[]) => VmValue[]): VmValue | undefined {
  if (a instanceof VmSet && b instanceof VmSet) {
    reserveItems(a.items.length + b.items.length);
    return new VmSet(normalizeSetItems(op(a.items, b.items)), a.frozen);
  }
  return undefined;
}

/** A big int result is counted by its size (small ones are bounded by chi). */
function builtInt(v: bigint): bigint {
  if (v > 0xffff_ffff_ffff_ffffn || v < -0xffff_ffff_ffff_ffffn) countBytes(Number(bitLength(v)) / 8);
  return v;
}

const intersection = (x: readonly VmValue[], y: readonly VmValue[]): VmValue[] => x.filter((v) => setContains(y, v));
const difference = (x: readonly VmValue[], y: readonly VmValue[]): VmValue[] => x.filter((v) => !setContains(y, v));
const union = (x: readonly VmValue[], y: readonly VmValue[]): VmValue[] => [...x, ...y];
const symmetric = (x: readonly VmValue[], y: readonly VmValue[]): VmValue[] => [...difference(x, y), ...difference(y, x)];

export function binaryOp(op: string, a: VmValue, b: VmValue): VmValue {
  switch (op) {
    case 'add': {
      if (a instanceof VmDateTime && b instanceof VmTimeDelta) return a.addSeconds(b.seconds);
      if (a instanceof VmTimeDelta && b instanceof VmDateTime) return b.addSeconds(a.seconds);
      if (a instanceof VmTimeDelta && b instanceof VmTimeDelta) return a.add(b);
      const d = decimalOp(op, a, b);
      if (d) return d[0].add(d[1]);
      if (typeof a === 'bigint' && typeof b === 'bigint') return builtInt(a + b);
      if (typeof a === 'number' && typeof b === 'number') return a + b;
      if (typeof a === 'bigint' && typeof b === 'number') return Number(a) + b;
      if (typeof a === 'number' && typeof b === 'bigint') return a + Number(b);
      if (typeof a === 'string' && typeof b === 'string') {
        reserveText(a.length + b.length);
        return a + b;
      }
      if (a instanceof VmBytes && b instanceof VmBytes) {
        reserveText(a.data.length + b.data.length);
        const out = new Uint8Array(a.data.length + b.data.length);
        out.set(a.data);
        out.set(b.data, a.data.length);
        return new VmBytes(out, a.mutable);
      }
      if (Array.isArray(a) && Array.isArray(b)) {
        reserveItems(a.length + b.length);
        return a.concat(b);
      }
      if (a instanceof VmTuple && b instanceof VmTuple) {
        reserveItems(a.items.length + b.items.length);
        return new VmTuple(a.items.concat(b.items));
      }
      throw unsupported(op, a, b);
    }
    case 'sub': {
      if (a instanceof VmDateTime && b instanceof VmDateTime) return VmTimeDelta.fromSeconds(a.secondsSince(b));
      if (a instanceof VmTimeDelta && b instanceof VmTimeDelta) return a.sub(b);
      const d = decimalOp(op, a, b);
      if (d) return d[0].sub(d[1]);
      if (typeof a === 'bigint' && typeof b === 'bigint') return builtInt(a - b);
      if (typeof a === 'number' && typeof b === 'number') return a - b;
      if (typeof a === 'bigint' && typeof b === 'number') return Number(a) - b;
      if (typeof a === 'number' && typeof b === 'bigint') return a - Number(b);
      const s = setOp(a, b, difference);
      if (s !== undefined) return s;
      throw unsupported(op, a, b);
    }
    case 'mul': {
      if (a instanceof VmTimeDelta && b instanceof VmTimeDelta) return a.mul(b.seconds);
      if (a instanceof VmTimeDelta && typeof b === 'bigint') return a.mul(checkI64(b, 'timedelta multiplier'));
      if (typeof a === 'bigint' && b instanceof VmTimeDelta) return b.mul(checkI64(a, 'timedelta multiplier'));
      if (Array.isArray(a) && typeof b === 'bigint') return repeatValues(a, b);
      if (typeof a === 'bigint' && Array.isArray(b)) return repeatValues(b, a);
      if (a instanceof VmTuple && typeof b === 'bigint') return new VmTuple(repeatValues(a.items, b));
      if (typeof a === 'bigint' && b instanceof VmTuple) return new VmTuple(repeatValues(b.items, a));
      if (typeof a === 'string' && typeof b === 'bigint') return repeatString(a, b);
      if (typeof a === 'bigint' && typeof b === 'string') return repeatString(b, a);
      if (a instanceof VmBytes && typeof b === 'bigint') return new VmBytes(repeatBytes(a.data, b), a.mutable);
      if (typeof a === 'bigint' && b instanceof VmBytes) return new VmBytes(repeatBytes(b.data, a), b.mutable);
      const d = decimalOp(op, a, b);
      if (d) return d[0].mul(d[1]);
      if (typeof a === 'bigint' && typeof b === 'bigint') return builtInt(checkedMul(a, b));
      if (typeof a === 'number' && typeof b === 'number') return a * b;
      if (typeof a === 'bigint' && typeof b === 'number') return Number(a) * b;
      if (typeof a === 'number' && typeof b === 'bigint') return a * Number(b);
      throw unsupported(op, a, b);
    }
    case 'div': {
      const d = decimalOp(op, a, b);
      if (d) return d[0].div(d[1]);
      if (typeof a === 'bigint' && typeof b === 'bigint') {
        if (b === 0n) throw new VmError('division by zero');
        return Number(a) / Number(b);
      }
      if (typeof a === 'number' && typeof b === 'number') return a / b;
      if (typeof a === 'bigint' && typeof b === 'number') return Number(a) / b;
      if (typeof a === 'number' && typeof b === 'bigint') return a / Number(b);
      throw unsupported(op, a, b);
    }
    case 'floordiv': {
      const d = decimalOp(op, a, b);
      if (d) return d[0].floorDiv(d[1]);
      if (typeof a === 'bigint' && typeof b === 'bigint') return builtInt(floorDiv(a, b));
      throw unsupported(op, a, b);
    }
    case 'mod': {
      const d = decimalOp(op, a, b);
      if (d) return d[0].mod(d[1]);
      if (typeof a === 'bigint' && typeof b === 'bigint') return builtInt(floorMod(a, b));
      throw unsupported(op, a, b);
    }
    case 'pow': {
      if (typeof a === 'bigint' && typeof b === 'bigint') return builtInt(checkedPow(a, b, 'integer exponentiation'));
      const d = decimalOp(op, a, b);
      if (d) return d[0].pow(d[1]);
      if (typeof a === 'number' && typeof b === 'number') return Math.pow(a, b);
      if (typeof a === 'number' && typeof b === 'bigint') return Math.pow(a, Number(b));
      if (typeof a === 'bigint' && typeof b === 'number') return Math.pow(Number(a), b);
      throw unsupported(op, a, b);
    }
    case 'bitand':
      if (typeof a === 'boolean' && typeof b === 'boolean') return a && b;
      return setOp(a, b, intersection) ?? builtInt(asBigInt(a) & asBigInt(b));
    case 'bitor':
      if (typeof a === 'boolean' && typeof b === 'boolean') return a || b;
      return setOp(a, b, union) ?? builtInt(asBigInt(a) | asBigInt(b));
    case 'bitxor':
      if (typeof a === 'boolean' && typeof b === 'boolean') return a !== b;
      return setOp(a, b, symmetric) ?? builtInt(asBigInt(a) ^ asBigInt(b));
    case 'lshift':
      return builtInt(leftShift(asBigInt(a), asBigInt(b)));
    case 'rshift':
      return rightShift(asBigInt(a), asBigInt(b));
  }
  throw new VmError(`unsupported binary operator '${op}'`);
}

export function unaryOp(op: string, v: VmValue): VmValue {
  switch (op) {
    case 'not':
      return !truthy(v);
    case 'neg':
      if (typeof v === 'bigint') return builtInt(-v);
      if (typeof v === 'number') return -v;
      if (v instanceof VmDecimal) return v.neg();
      throw new VmError(`unsupported neg operand ${typeName(v)}`);
    case 'pos':
      if (typeof v === 'bigint' || typeof v === 'number' || v instanceof VmDecimal || v instanceof VmTimeDelta) return v;
      throw new VmError(`unsupported pos operand ${typeName(v)}`);
    case 'invert':
      return builtInt(-asBigInt(v) - 1n);
  }
  throw new VmError(`unsupported unary operator '${op}'`);
}


function score(c: number, op: string): boolean {
  switch (op) {
    case 'gt': return c > 0;
    case 'gt_e': return c >= 0;
    case 'lt': return c < 0;
    default: return c <= 0;
  }
}

function floatScore(x: number, y: number, op: string): boolean {
  switch (op) {
    case 'gt': return x > y;
    case 'gt_e': return x >= y;
    case 'lt': return x < y;
    default: return x <= y;
  }
}

function comparisonDecimal(v: VmValue, side: string): VmDecimal {
  try {
    return toDecimal(v);
  } catch (err) {
    throw new VmError(`comparison could not coerce ${side} operand ${pyStr(v)} (${typeName(v)}) to decimal: ${(err as Error).message}`);
  }
}

function isSubset(x: readonly VmValue[], y: readonly VmValue[]): boolean {
  return x.every((v) => setContains(y, v));
}

function orderCompare(op: string, a: VmValue, b: VmValue): boolean {
  if (a instanceof VmSet && b instanceof VmSet) {
    if (op === 'gt') return a.items.length > b.items.length && isSubset(b.items, a.items);
    if (op === 'gt_e') return isSubset(b.items, a.items);
    if (op === 'lt') return a.items.length < b.items.length && isSubset(a.items, b.items);
    return isSubset(a.items, b.items);
  }
  if (a instanceof VmDateTime && b instanceof VmDateTime) return score(a.compare(b), op);
  if (a instanceof VmTimeDelta && b instanceof VmTimeDelta) return score(a.compare(b), op);
  if (a instanceof VmDecimal || b instanceof VmDecimal) {
    const x = a instanceof VmDecimal ? a : comparisonDecimal(a, 'left');
    const y = b instanceof VmDecimal ? b : comparisonDecimal(b, 'right');
    return score(x.compare(y), op);
  }
  if (typeof a === 'bigint' && typeof b === 'bigint') return score(a < b ? -1 : a > b ? 1 : 0, op);
  if (typeof a === 'number' && typeof b === 'number') return floatScore(a, b, op);
  if (typeof a === 'bigint' && typeof b === 'number') return floatScore(Number(a), b, op);
  if (typeof a === 'number' && typeof b === 'bigint') return floatScore(a, Number(b), op);
  if (typeof a === 'string' && typeof b === 'string') return score(compareStrings(a, b), op);
  if (a instanceof VmBytes && b instanceof VmBytes) return score(compareBytes(a.data, b.data), op);
  throw new VmError(`values ${typeName(a)} and ${typeName(b)} are not order-comparable`);
}

export function compareOp(op: string, a: VmValue, b: VmValue): boolean {
  switch (op) {
    case 'eq': return valuesEqual(a, b);
    case 'not_eq': return !valuesEqual(a, b);
    case 'gt': case 'gt_e': case 'lt': case 'lt_e': return orderCompare(op, a, b);
    case 'in': return containsValue(b, a);
    case 'not_in': return !containsValue(b, a);
    case 'is': return strictEqual(a, b);
    case 'is_not': return !strictEqual(a, b);
  }
  throw new VmError(`unsupported compare operator '${op}'`);
}
