import { ChainDatetime, ChainDecimal, ChainTimedelta, type ChainValue, isChainRecord } from 'chainhost/chain';
import { ContractError } from './errors.js';

/**
 * Python numeric semantics for native contracts. Contract code mixes ints and decimals the way
 * the Python source does, and the stored type is visible on the wire (an int balance is a JSON
 * number in the execution output, a decimal a string), so the native contracts keep it:
 * int ∘ int → int, anything with a decimal → decimal (30-place truncation, encoding.md §3.1).
 * `int / int` is a binary f64 in the VM; it becomes a decimal through its shortest string.
 */
export type Num = bigint | ChainDecimal;

export function isNum(v: unknown): v is Num {
  return typeof v === 'bigint' || v instanceof ChainDecimal;
}

/** Python's type name of a runtime value, for TypeError texts. */
export function pyTypeName(v: ChainValue | undefined): string {
  if (v === null || v === undefined) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'bigint') return 'int';
  if (v instanceof ChainDecimal) return 'decimal';
  if (v instanceof ChainDatetime) return 'datetime';
  if (v instanceof ChainTimedelta) return 'timedelta';
  if (v instanceof Uint8Array) return 'bytes';
  if (Array.isArray(v)) return 'list';
  if (isChainRecord(v)) return 'dict';
  return 'object';
}

function operand(v: ChainValue | undefined, op: string, other: ChainValue | undefined, left: boolean): Num {
  if (typeof v === 'bigint' || v instanceof ChainDecimal) return v;
  if (typeof v === 'boolean') return v ? 1n : 0n; // bool is an int subclass in Python
  const [a, b] = left ? [v, other] : [other, v];
  throw new ContractError('TypeError', `unsupported operand type(s) for ${op}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

export function toDecimal(v: Num): ChainDecimal {
  return typeof v === 'bigint' ? ChainDecimal.from(v) : v;
}

export function add(a: ChainValue | undefined, b: ChainValue | undefined): Num {
  const x = operand(a, '+', b, true);
  const y = operand(b, '+', a, false);
  if (typeof x === 'bigint' && typeof y === 'bigint') return x + y;
  return toDecimal(x).plus(toDecimal(y));
}

export function sub(a: ChainValue | undefined, b: ChainValue | undefined): Num {
  const x = operand(a, '-', b, true);
  const y = operand(b, '-', a, false);
  if (typeof x === 'bigint' && typeof y === 'bigint') return x - y;
  return toDecimal(x).minus(toDecimal(y));
}

export function mul(a: ChainValue | undefined, b: ChainValue | undefined): Num {
  const x = operand(a, '*', b, true);
  const y = operand(b, '*', a, false);
  if (typeof x === 'bigint' && typeof y === 'bigint') return x * y;
  return toDecimal(x).times(toDecimal(y));
}

/** True division. int / int is an f64 in the VM, converted to a decimal through its shortest text. */
export function div(a: ChainValue | undefined, b: ChainValue | undefined): ChainDecimal {
  const x = operand(a, '/', b, true);
  const y = operand(b, '/', a, false);
  if ((typeof y === 'bigint' && y === 0n) || (y instanceof ChainDecimal && y.isZero())) {
    throw new ContractError('ZeroDivisionError', 'division by zero');
  }
  if (typeof x === 'bigint' && typeof y === 'bigint') return ChainDecimal.from(Number(x) / Number(y));
  return toDecimal(x).div(toDecimal(y));
}

/** `x ** 0.5`: floor square root for decimals; an f64 for ints (as Python's int ** 0.5). */
export function sqrt(a: ChainValue | undefined): ChainDecimal {
  const x = operand(a, '** or pow()', 0.5 as never, true);
  if (typeof x === 'bigint') return ChainDecimal.from(Math.sqrt(Number(x)));
  return x.sqrt();
}

export function cmp(a: ChainValue | undefined, b: ChainValue | undefined, op = '<'): -1 | 0 | 1 {
  if (a instanceof ChainDatetime && b instanceof ChainDatetime) return a.cmp(b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (!(isNum(a) || typeof a === 'boolean') || !(isNum(b) || typeof b === 'boolean')) {
    throw new ContractError('TypeError', `'${op}' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
  }
  const x = operand(a, op, b, true);
  const y = operand(b, op, a, false);
  if (typeof x === 'bigint' && typeof y === 'bigint') return x < y ? -1 : x > y ? 1 : 0;
  return toDecimal(x).cmp(toDecimal(y));
}

export const gt = (a: ChainValue | undefined, b: ChainValue | undefined): boolean => cmp(a, b, '>') > 0;
export const gte = (a: ChainValue | undefined, b: ChainValue | undefined): boolean => cmp(a, b, '>=') >= 0;
export const lt = (a: ChainValue | undefined, b: ChainValue | undefined): boolean => cmp(a, b, '<') < 0;
export const lte = (a: ChainValue | undefined, b: ChainValue | undefined): boolean => cmp(a, b, '<=') <= 0;

/** Python `==` for runtime values (numbers compare across int/decimal). */
export function eq(a: ChainValue | undefined, b: ChainValue | undefined): boolean {
  if ((isNum(a) || typeof a === 'boolean') && (isNum(b) || typeof b === 'boolean')) return cmp(a, b) === 0;
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a instanceof ChainDatetime && b instanceof ChainDatetime) return a.cmp(b) === 0;
  return a === b;
}

/** Python truthiness. */
export function truthy(v: ChainValue | undefined): boolean {
  if (v === null || v === undefined || v === false) return false;
  if (typeof v === 'bigint') return v !== 0n;
  if (v instanceof ChainDecimal) return !v.isZero();
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof Uint8Array) return v.length > 0;
  if (isChainRecord(v)) return Object.keys(v).length > 0;
  return true;
}

/** Python `min(a, b)`: the first of equal values. */
export function min(a: Num, b: Num): Num {
  return cmp(b, a) < 0 ? b : a;
}

/** Python `int(x)` for a number: truncation toward zero. */
export function toInt(v: ChainValue | undefined): bigint {
  if (typeof v === 'bigint') return v;
  if (v instanceof ChainDecimal) return v.toBigInt();
  if (typeof v === 'boolean') return v ? 1n : 0n;
  throw new ContractError('TypeError', `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(v)}'`);
}

/** A decimal literal in contract source ("0.997", "1e14"): exact, as the VM executes float literals. */
export function lit(text: string): ChainDecimal {
  return ChainDecimal.parse(text);
}

/** `1 ± x / 100` where x is a contract argument: an f64 when x is an int, a decimal otherwise. */
export function onePlusPercent(x: Num, sign: 1 | -1): ChainDecimal {
  if (typeof x === 'bigint') return ChainDecimal.from(1 + (sign * Number(x)) / 100);
  const part = x.div(100n);
  return sign > 0 ? ChainDecimal.ONE.plus(part) : ChainDecimal.ONE.minus(part);
}
