import { Decimal } from 'decimal.js';

/**
 * The chain's decimal (ContractingDecimal / VM Decimal): a BigInt scaled by 10^30,
 * truncated toward zero after every multiplication and division, |x| < 10^61.
 * Never round-trips through a JS number; decimal.js only parses the many string forms.
 */
const SCALE_DIGITS = 30;
const SCALE = 10n ** 30n;
const LIMIT = 10n ** 61n * SCALE;
const DECIMAL_TEXT = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/;

// A private clone so no other user of decimal.js can change our precision or rounding.
const Exact = Decimal.clone({ precision: 200, rounding: Decimal.ROUND_DOWN, toExpNeg: -9e15, toExpPos: 9e15 });

export class DecimalOverflowError extends RangeError {
  constructor(what: string) {
    super(`decimal out of range (|x| must be < 10^61): ${what}`);
    this.name = 'DecimalOverflowError';
  }
}

/**
 * Plain texts by value: every execution output, event and reward prints the same few amounts
 * (fees, rewards, balances just written), each time from a new instance.
 */
const plainTexts = new Map<bigint, string>();
const PLAIN_TEXTS_SIZE = 4096;

export class ChainDecimal {
  /** The value times 10^30, truncated toward zero. */
  readonly scaled: bigint;

  private constructor(scaled: bigint) {
    if (scaled >= LIMIT || scaled <= -LIMIT) throw new DecimalOverflowError(String(scaled));
    this.scaled = scaled;
  }

  static readonly ZERO = new ChainDecimal(0n);
  static readonly ONE = new ChainDecimal(SCALE);

  static fromScaled(scaled: bigint): ChainDecimal {
    return new ChainDecimal(scaled);
  }

  static isDecimalText(text: string): boolean {
    return DECIMAL_TEXT.test(text.trim());
  }

  /** Parses plain, scientific and engineering forms ("1.5", "1E+3", "100E-9"); digits past 30 places are truncated. */
  static parse(text: string): ChainDecimal {
    const t = text.trim();
    if (!DECIMAL_TEXT.test(t)) throw new TypeError(`not a decimal number: ${JSON.stringify(text.slice(0, 80))}`);
    const d = new Exact(t);
    if (d.abs().gte(new Exact(10).pow(61))) throw new DecimalOverflowError(t.slice(0, 80));
    return new ChainDecimal(BigInt(d.times(new Exact(10).pow(SCALE_DIGITS)).toFixed(0, Decimal.ROUND_DOWN)));
  }

  static from(value: ChainDecimal | bigint | number | string): ChainDecimal {
    if (value instanceof ChainDecimal) return value;
    if (typeof value === 'bigint') return new ChainDecimal(value * SCALE);
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw new TypeError(`not a finite number: ${value}`);
      // Shortest round-trip text, as Python converts a float meeting a Decimal.
      return ChainDecimal.parse(Number.isInteger(value) ? BigInt(value).toString() : String(value));
    }
    return ChainDecimal.parse(value);
  }

  plus(o: ChainDecimal | bigint | number | string): ChainDecimal {
    return new ChainDecimal(this.scaled + ChainDecimal.from(o).scaled);
  }
  minus(o: ChainDecimal | bigint | number | string): ChainDecimal {
    return new ChainDecimal(this.scaled - ChainDecimal.from(o).scaled);
  }
  times(o: ChainDecimal | bigint | number | string): ChainDecimal {
    return new ChainDecimal((this.scaled * ChainDecimal.from(o).scaled) / SCALE);
  }
  div(o: ChainDecimal | bigint | number | string): ChainDecimal {
    const d = ChainDecimal.from(o).scaled;
    if (d === 0n) throw new RangeError('decimal division by zero');
    return new ChainDecimal((this.scaled * SCALE) / d);
  }
  /** Floor square root on the scaled value, as the VM computes `x ** 0.5`. */
  sqrt(): ChainDecimal {
    if (this.scaled < 0n) throw new RangeError('square root of a negative decimal');
    return new ChainDecimal(isqrt(this.scaled * SCALE));
  }
  /** Integer power by square-and-multiply, truncating after every multiplication. */
  pow(exponent: number): ChainDecimal {
    if (!Number.isInteger(exponent) || exponent < 0) throw new RangeError(`unsupported decimal exponent ${exponent}`);
    let result = ChainDecimal.ONE;
    let base: ChainDecimal = this;
    let e = exponent;
    while (e > 0) {
      if (e & 1) result = result.times(base);
      e >>= 1;
      if (e > 0) base = base.times(base);
    }
    return result;
  }
  neg(): ChainDecimal {
    return new ChainDecimal(-this.scaled);
  }
  abs(): ChainDecimal {
    return this.scaled < 0n ? this.neg() : this;
  }
  cmp(o: ChainDecimal | bigint | number | string): -1 | 0 | 1 {
    const b = ChainDecimal.from(o).scaled;
    return this.scaled < b ? -1 : this.scaled > b ? 1 : 0;
  }
  eq(o: ChainDecimal | bigint | number | string): boolean { return this.cmp(o) === 0; }
  lt(o: ChainDecimal | bigint | number | string): boolean { return this.cmp(o) < 0; }
  lte(o: ChainDecimal | bigint | number | string): boolean { return this.cmp(o) <= 0; }
  gt(o: ChainDecimal | bigint | number | string): boolean { return this.cmp(o) > 0; }
  gte(o: ChainDecimal | bigint | number | string): boolean { return this.cmp(o) >= 0; }
  isZero(): boolean { return this.scaled === 0n; }
  isNegative(): boolean { return this.scaled < 0n; }
  isInteger(): boolean { return this.scaled % SCALE === 0n; }
  /** Truncates toward zero, as Python's int(Decimal). */
  toBigInt(): bigint { return this.scaled / SCALE; }
  /** Number of significant fractional digits (0..30). */
  fractionDigits(): number {
    const { exponent } = this.normalized();
    return exponent < 0 ? -exponent : 0;
  }
  /** Truncates toward zero to `places` fractional digits. */
  truncate(places: number): ChainDecimal {
    if (places >= SCALE_DIGITS) return this;
    const unit = 10n ** BigInt(SCALE_DIGITS - places);
    return new ChainDecimal((this.scaled / unit) * unit);
  }

  /** ABCI JSON normalisation and tool outputs: plain fixed-point, no exponent, "-0" → "0" ("1000", "0.0000001"). */
  toString(): string {
    let text = plainTexts.get(this.scaled);
    if (text === undefined) {
      text = this.plainText();
      if (plainTexts.size >= PLAIN_TEXTS_SIZE) plainTexts.clear();
      plainTexts.set(this.scaled, text);
    }
    return text;
  }

  private plainText(): string {
    const negative = this.scaled < 0n;
    const abs = negative ? -this.scaled : this.scaled;
    const whole = abs / SCALE;
    const frac = (abs % SCALE).toString().padStart(SCALE_DIGITS, '0').replace(/0+$/, '');
    if (whole === 0n && frac === '') return '0';
    return `${negative ? '-' : ''}${whole}${frac ? '.' + frac : ''}`;
  }
  toJSON(): string { return this.toString(); }

  /** Python `str(d.normalize())`: the `__fixed__` wrapper form ("1E+2", "1.01E+3", "1E-7", "123.45"). */
  toFixedWrapperString(): string {
    const { digits, exponent, negative } = this.normalized();
    if (digits === '0') return '0';
    return (negative ? '-' : '') + pythonSci(digits, exponent);
  }

  /** Python `d.normalize().to_eng_string()`: `/get` of a bare decimal, reprs, StateChange attributes ("100", "1E+3", "100E-9"). */
  toEngString(): string {
    const { digits, exponent, negative } = this.normalized();
    if (digits === '0') return '0';
    return (negative ? '-' : '') + pythonEng(digits, exponent);
  }

  /** Coefficient digits and exponent with trailing zeros removed (Python normalize()). */
  private normalized(): { digits: string; exponent: number; negative: boolean } {
    const negative = this.scaled < 0n;
    let digits = (negative ? -this.scaled : this.scaled).toString();
    let exponent = -SCALE_DIGITS;
    if (digits === '0') return { digits, exponent: 0, negative: false };
    const stripped = digits.replace(/0+$/, '');
    exponent += digits.length - stripped.length;
    digits = stripped;
    return { digits, exponent, negative };
  }
}

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  // Newton's method from a power of two above the root decreases monotonically to the floor root.
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** Python Decimal.__str__ (scientific) for a normalized coefficient and exponent. */
function pythonSci(digits: string, exponent: number): string {
  const adjusted = exponent + digits.length - 1;
  if (exponent <= 0 && adjusted >= -6) return placeDot(digits, digits.length + exponent);
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${mantissa}E${adjusted >= 0 ? '+' : ''}${adjusted}`;
}

/** Python Decimal.to_eng_string: exponent a multiple of three, 1..3 digits before the dot. */
function pythonEng(digits: string, exponent: number): string {
  const adjusted = exponent + digits.length - 1;
  if (exponent <= 0 && adjusted >= -6) return placeDot(digits, digits.length + exponent);
  let dotPlace = 1;
  let exp = adjusted;
  const shift = ((adjusted % 3) + 3) % 3;
  dotPlace += shift;
  exp -= shift;
  let coeff = digits;
  if (coeff.length < dotPlace) coeff = coeff.padEnd(dotPlace, '0');
  const mantissa = coeff.length > dotPlace ? `${coeff.slice(0, dotPlace)}.${coeff.slice(dotPlace)}` : coeff;
  return exp === 0 ? mantissa : `${mantissa}E${exp > 0 ? '+' : ''}${exp}`;
}

function placeDot(digits: string, intLength: number): string {
  if (intLength <= 0) return `0.${'0'.repeat(-intLength)}${digits}`;
  if (intLength >= digits.length) return digits + '0'.repeat(intLength - digits.length);
  return `${digits.slice(0, intLength)}.${digits.slice(intLength)}`;
}
