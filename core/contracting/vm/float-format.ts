/**
 * The three ways the chain prints an f64, each from Rust: `Display` (no exponent, `1` for 1.0;
 * used when a float becomes a decimal), `Debug` (`1.0`, `1e20`, `1e-7`; Python-like `str()` of a
 * float inside the VM) and serde_json/ryu (`1.0`, `1e20`; storage and metering JSON). JS gives the
 * same shortest round-trip digits; only the layout differs.
 */

/** Shortest round-trip digits and the exponent e with value = 0.d1d2… × 10^e. */
function shortestDigits(x: number): { digits: string; point: number } {
  const [mantissa, exp] = Math.abs(x).toExponential().split('e');
  const digits = mantissa!.replace('.', '');
  return { digits, point: Number(exp) + 1 };
}

function special(x: number): string | undefined {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return undefined;
}

function plain(digits: string, point: number, minFraction: number): string {
  let whole: string;
  let fraction: string;
  if (point <= 0) {
    whole = '0';
    fraction = '0'.repeat(-point) + digits;
  } else if (point >= digits.length) {
    whole = digits + '0'.repeat(point - digits.length);
    fraction = '';
  } else {
    whole = digits.slice(0, point);
    fraction = digits.slice(point);
  }
  if (fraction.length < minFraction) fraction += '0'.repeat(minFraction - fraction.length);
  return fraction ? `${whole}.${fraction}` : whole;
}

function sign(x: number): string {
  return x < 0 || Object.is(x, -0) ? '-' : '';
}

/** Rust `format!("{}", x)`. */
export function rustFloatDisplay(x: number): string {
  const s = special(x);
  if (s) return s;
  if (x === 0) return `${sign(x)}0`;
  const { digits, point } = shortestDigits(x);
  return sign(x) + plain(digits, point, 0);
}

/** Rust `format!("{:?}", x)`: exponent form below 1e-4 and from 1e16 on. */
export function rustFloatDebug(x: number): string {
  const s = special(x);
  if (s) return s;
  if (x === 0) return `${sign(x)}0.0`;
  const abs = Math.abs(x);
  const { digits, point } = shortestDigits(x);
  if (abs < 1e-4 || abs >= 1e16) {
    const mantissa = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
    return `${sign(x)}${mantissa}e${point - 1}`;
  }
  return sign(x) + plain(digits, point, 1);
}

/** serde_json's number text for a finite f64 (ryu `format_finite`). */
export function ryuFloat(x: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const { digits, point: kk } = shortestDigits(x);
  const length = digits.length;
  const k = kk - length;
  let body: string;
  if (k >= 0 && kk <= 16) body = digits + '0'.repeat(k) + '.0';
  else if (kk > 0 && kk <= 16) body = `${digits.slice(0, kk)}.${digits.slice(kk)}`;
  else if (kk > -5 && kk <= 0) body = `0.${'0'.repeat(-kk)}${digits}`;
  else if (length === 1) body = `${digits}e${kk - 1}`;
  else body = `${digits[0]}.${digits.slice(1)}e${kk - 1}`;
  return sign(x) + body;
}
