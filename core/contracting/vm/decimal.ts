import { VmError } from './errors.js';

/**
 * The chain's decimal: a bigint `scaled` = value × 10^30, |scaled| ≤ 10^91 − 1, truncated
 * toward zero after every `*` and `/` (xian-vm-core values.rs `VmDecimal`).
 */
const SCALE = 30;
const FACTOR = 10n ** 30n;
const HALF_FACTOR = FACTOR / 2n;
const MAX_SCALED = 10n ** 91n - 1n;
const MAX_SCALED_DIGITS = 91;
const DIGITS = /^[0-9]*$/;
const EXPONENT = /^[+-]?[0-9]+$/;
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

export class VmDecimal {
  /** `toString()` memo: storage keys, metering and fixtures all print the plain text. */
  private text: string | undefined;
  private constructor(readonly scaled: bigint) {}

  /** An integer as a decimal, without going through text. */
  static fromInteger(value: bigint): VmDecimal {
    return VmDecimal.fromScaled(value * FACTOR);
  }

  static readonly ZERO = new VmDecimal(0n);
  static readonly ONE = new VmDecimal(FACTOR);

  static fromScaled(scaled: bigint): VmDecimal {
    const abs = scaled < 0n ? -scaled : scaled;
    if (abs > MAX_SCALED) {
      throw new VmError(`decimal value ${plainText(scaled)} exceeds the supported decimal range`);
    }
    return scaled === 0n ? VmDecimal.ZERO : new VmDecimal(scaled);
  }

  /** `decimal('…')` parsing: digits beyond 30 fractional places are truncated. */
  static parse(value: string): VmDecimal {
    const trimmed = value.trim();
    if (!trimmed) throw new VmError('decimal() requires a value');
    let negative = false;
    let unsigned = trimmed;
    if (unsigned.startsWith('-')) {
      negative = true;
      unsigned = unsigned.slice(1);
    } else if (unsigned.startsWith('+')) unsigned = unsigned.slice(1);
    let mantissa = unsigned;
    let exponent = 0n;
    const e = unsigned.search(/[eE]/);
    if (e >= 0) {
      mantissa = unsigned.slice(0, e);
      const expText = unsigned.slice(e + 1);
      if (!EXPONENT.test(expText)) throw new VmError(`invalid decimal exponent '${trimmed}'`);
      exponent = BigInt(expText);
      if (exponent > I64_MAX || exponent < I64_MIN) throw new VmError(`invalid decimal exponent '${trimmed}'`);
    }
    const dot = mantissa.indexOf('.');
    const whole = dot >= 0 ? mantissa.slice(0, dot) : mantissa;
    const fraction = dot >= 0 ? mantissa.slice(dot + 1) : '';
    if (!whole && !fraction) throw new VmError(`invalid decimal literal '${trimmed}'`);
    if (!DIGITS.test(whole) || !DIGITS.test(fraction)) throw new VmError(`invalid decimal literal '${trimmed}'`);
    let digits = whole + fraction;
    let scale = BigInt(fraction.length) - exponent;
    if (scale > BigInt(SCALE)) {
      const trim = scale - BigInt(SCALE);
      if (trim >= BigInt(digits.length)) return VmDecimal.ZERO;
      digits = digits.slice(0, digits.length - Number(trim));
      scale = BigInt(SCALE);
    }
    if (scale < BigInt(SCALE)) {
      const zeros = BigInt(SCALE) - scale;
      const significant = BigInt(digits.replace(/^0+/, '').length) + zeros;
      if (significant > BigInt(MAX_SCALED_DIGITS)) {
        throw new VmError(`decimal value ${trimmed} exceeds the supported decimal range`);
      }
      digits += '0'.repeat(Number(zeros));
    }
    const stripped = digits.replace(/^0+/, '');
    if (!stripped) return VmDecimal.ZERO;
    const scaled = BigInt(stripped);
    return VmDecimal.fromScaled(negative ? -scaled : scaled);
  }

  isZero(): boolean {
    return this.scaled === 0n;
  }

  /** Integer part, truncated toward zero. */
  toBigInt(): bigint {
    return this.scaled / FACTOR;
  }

  toNumber(): number {
    return Number(this.toString());
  }

  add(o: VmDecimal): VmDecimal {
    return VmDecimal.fromScaled(this.scaled + o.scaled);
  }

  sub(o: VmDecimal): VmDecimal {
    return VmDecimal.fromScaled(this.scaled - o.scaled);
  }

  mul(o: VmDecimal): VmDecimal {
    return VmDecimal.fromScaled((this.scaled * o.scaled) / FACTOR);
  }

  div(o: VmDecimal): VmDecimal {
    if (o.scaled === 0n) throw new VmError('division by zero');
    return VmDecimal.fromScaled((this.scaled * FACTOR) / o.scaled);
  }

  mod(o: VmDecimal): VmDecimal {
    if (o.scaled === 0n) throw new VmError('modulo by zero');
    return VmDecimal.fromScaled(this.scaled % o.scaled);
  }

  /** `//` truncates toward zero (decimal('-5') // 2 == -2). */
  floorDiv(o: VmDecimal): VmDecimal {
    if (o.scaled === 0n) throw new VmError('division by zero');
    return VmDecimal.fromScaled((this.scaled / o.scaled) * FACTOR);
  }

  neg(): VmDecimal {
    return VmDecimal.fromScaled(-this.scaled);
  }

  abs(): VmDecimal {
    return this.scaled < 0n ? VmDecimal.fromScaled(-this.scaled) : this;
  }

  pow(exponent: VmDecimal): VmDecimal {
    if (exponent.scaled === 0n) return VmDecimal.ONE;
    if (exponent.scaled === HALF_FACTOR) return this.sqrt();
    if (exponent.scaled % FACTOR === 0n) return this.powInteger(exponent.scaled / FACTOR);
    throw new VmError(`unsupported decimal exponent ${exponent.toString()}`);
  }

  private powInteger(exponent: bigint): VmDecimal {
    if (exponent === 0n) return VmDecimal.ONE;
    if (exponent < 0n) {
      if (this.isZero()) throw new VmError('0 cannot be raised to a negative power');
      return VmDecimal.ONE.div(this.powInteger(-exponent));
    }
    let remaining = exponent;
    let base: VmDecimal = this;
    let result = VmDecimal.ONE;
    while (remaining > 0n) {
      if (remaining % 2n === 1n) result = result.mul(base);
      remaining /= 2n;
      if (remaining > 0n) base = base.mul(base);
    }
    return result;
  }

  private sqrt(): VmDecimal {
    if (this.scaled < 0n) throw new VmError('cannot take square root of a negative decimal');
    return VmDecimal.fromScaled(isqrt(this.scaled * FACTOR));
  }

  compare(o: VmDecimal): number {
    return this.scaled < o.scaled ? -1 : this.scaled > o.scaled ? 1 : 0;
  }

  /** Plain text, trailing zeros trimmed: storage, fixtures, `__fixed__` (`1000`, `0.0000001`). */
  toString(): string {
    return (this.text ??= sharedPlainText(this.scaled));
  }

  /** Python `str(Decimal)` of the normalized value: engineering notation (`1E+3`, `1234.5`). */
  pythonStr(): string {
    if (this.scaled === 0n) return '0';
    let coefficient = this.scaled < 0n ? -this.scaled : this.scaled;
    let exponent = -SCALE;
    while (coefficient % 10n === 0n) {
      coefficient /= 10n;
      exponent++;
    }
    const digits = coefficient.toString();
    const adjusted = exponent + digits.length - 1;
    const rendered =
      exponent <= 0 && adjusted >= -6 ? renderPlain(digits, exponent) : renderEngineering(digits, adjusted);
    return this.scaled < 0n ? `-${rendered}` : rendered;
  }
}

function isqrt(value: bigint): bigint {
  if (value <= 0n) return 0n;
  let x0 = value;
  let x1 = (x0 + 1n) / 2n;
  while (x1 < x0) {
    x0 = x1;
    x1 = (x1 + value / x1) / 2n;
  }
  return x0;
}

function trimZeros(fraction: string): string {
  return fraction.replace(/0+$/, '');
}

/**
 * Plain texts by value, shared across instances: a balance written by one transaction is read
 * (and metered by its text length) by the next as a new instance of the same value.
 */
const plainTexts = new Map<bigint, string>();
const PLAIN_TEXTS_SIZE = 4096;

function sharedPlainText(scaled: bigint): string {
  let text = plainTexts.get(scaled);
  if (text === undefined) {
    text = plainText(scaled);
    if (plainTexts.size >= PLAIN_TEXTS_SIZE) plainTexts.clear();
    plainTexts.set(scaled, text);
  }
  return text;
}

function plainText(scaled: bigint): string {
  if (scaled === 0n) return '0';
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString();
  let rendered: string;
  if (digits.length <= SCALE) {
    rendered = `0.${trimZeros('0'.repeat(SCALE - digits.length) + digits)}`;
  } else {
    const split = digits.length - SCALE;
    const fraction = trimZeros(digits.slice(split));
    rendered = fraction ? `${digits.slice(0, split)}.${fraction}` : digits.slice(0, split);
  }
  return negative ? `-${rendered}` : rendered;
}

function renderPlain(digits: string, exponent: number): string {
  if (exponent >= 0) return digits + '0'.repeat(exponent);
  const split = digits.length + exponent;
  if (split > 0) {
    const fraction = trimZeros(digits.slice(split));
    return fraction ? `${digits.slice(0, split)}.${fraction}` : digits.slice(0, split);
  }
  return `0.${trimZeros('0'.repeat(-split) + digits)}`;
}

function renderEngineering(digits: string, adjusted: number): string {
  const engineering = adjusted - (((adjusted % 3) + 3) % 3);
  const integerDigits = adjusted - engineering + 1;
  let coefficient = digits;
  if (coefficient.length < integerDigits) coefficient += '0'.repeat(integerDigits - coefficient.length);
  let mantissa: string;
  if (coefficient.length === integerDigits) mantissa = coefficient;
  else {
    const fraction = trimZeros(coefficient.slice(integerDigits));
    mantissa = fraction ? `${coefficient.slice(0, integerDigits)}.${fraction}` : coefficient.slice(0, integerDigits);
  }
  if (engineering === 0) return mantissa;
  return engineering > 0 ? `${mantissa}E+${engineering}` : `${mantissa}E${engineering}`;
}
