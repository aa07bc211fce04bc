import { toU32, toUsize } from './coerce.js';
import { VmError } from './errors.js';
import { MAX_INTEGER_BITS, MAX_MODULAR_POW_EXPONENT_BITS } from './limits.js';

/** Integer arithmetic with upstream's size checks, made before the big result is allocated. */

export function bitLength(v: bigint): bigint {
  if (v < 0n) v = -v;
  if (v === 0n) return 0n;
  return BigInt(v.toString(16).length * 4 - Math.clz32(parseInt(v.toString(16)[0]!, 16)) + 28);
}

export function integerLimitError(kind: string): VmError {
  return new VmError(`${kind} exceeds the maximum allowed integer size of ${MAX_INTEGER_BITS} bits`);
}

export function checkedInt(value: bigint, kind: string): bigint {
  if (bitLength(value) > MAX_INTEGER_BITS) throw integerLimitError(kind);
  return value;
}

export function checkedMul(a: bigint, b: bigint): bigint {
  if (a !== 0n && b !== 0n && bitLength(a) + bitLength(b) > MAX_INTEGER_BITS + 1n) {
    throw integerLimitError('integer multiplication');
  }
  return checkedInt(a * b, 'integer multiplication');
}

function isPowerOfTwo(v: bigint): boolean {
  return v > 0n && (v & (v - 1n)) === 0n;
}

export function checkedPow(base: bigint, exponent: bigint, kind: string): bigint {
  let estimate: bigint;
  const absolute = base < 0n ? -base : base;
  if (exponent < 0n || base === 0n || absolute === 1n) estimate = 1n;
  else {
    if (exponent > 0xffffffffffffffffn) throw integerLimitError(kind);
    const baseBits = isPowerOfTwo(absolute) ? bitLength(absolute) - 1n : bitLength(absolute);
    estimate = baseBits * exponent + 1n;
  }
  if (estimate > MAX_INTEGER_BITS) throw integerLimitError(kind);
  return checkedInt(base ** BigInt(toU32(exponent, 'pow exponent')), kind);
}

export function floorDiv(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new VmError('division by zero');
  const q = a / b;
  return (a % b !== 0n) && ((a < 0n) !== (b < 0n)) ? q - 1n : q;
}

export function floorMod(a: bigint, b: bigint): bigint {
  return a - floorDiv(a, b) * b;
}

export function leftShift(a: bigint, n: bigint): bigint {
  if (n < 0n) throw new VmError('negative shift count');
  const shift = toUsize(n, 'shift count');
  if (a !== 0n && bitLength(a) + BigInt(shift) > MAX_INTEGER_BITS) throw integerLimitError('left shift');
  return checkedInt(a << BigInt(shift), 'left shift');
}

export function rightShift(a: bigint, n: bigint): bigint {
  if (n < 0n) throw new VmError('negative shift count');
  if (n > MAX_INTEGER_BITS) throw integerLimitError('right shift count');
  return a >> n;
}

/** `pow(b, e, m)` (num-bigint `modpow`: the result takes the modulus's sign). */
export function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  if (exponent < 0n) throw new VmError('pow() 3rd argument not allowed unless all arguments are integers');
  if (modulus === 0n) throw new VmError('pow() 3rd argument cannot be 0');
  checkedInt(modulus, 'modular exponentiation modulus');
  if (bitLength(exponent) > MAX_MODULAR_POW_EXPONENT_BITS) throw integerLimitError('modular exponentiation exponent');
  const m = modulus < 0n ? -modulus : modulus;
  let result = 1n % m;
  let b = ((base % m) + m) % m;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
    e >>= 1n;
  }
  if (modulus < 0n && result !== 0n) result -= m;
  return checkedInt(result, 'modular exponentiation');
}
