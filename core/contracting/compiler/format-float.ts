/**
 * Float text as upstream writes it. Rust's `f64` Display prints the shortest round-trip digits and
 * never an exponent (`1e20` → `100000000000000000000`); upstream's `format_float` switches to a
 * Python-like exponent form only below 1e-4 (`1e-05`, `1.5e-07`) and appends `.0` to whole numbers.
 */

function shortestDigits(value: number): { negative: boolean; digits: string; exponent: number } {
  const text = Math.abs(value).toExponential();
  const [mantissa, exponent] = text.split('e') as [string, string];
  return { negative: value < 0 || Object.is(value, -0), digits: mantissa.replace('.', ''), exponent: Number(exponent) };
}

/** Rust `format!("{}", value)` for an f64. */
export function rustDisplayFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  if (value === 0) return `${sign}0`;
  const { digits, exponent } = shortestDigits(value);
  const point = exponent + 1;
  let plain: string;
  if (point <= 0) plain = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) plain = digits + '0'.repeat(point - digits.length);
  else plain = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return sign + plain;
}

/** Rust `format!("{:e}", value)` for a finite, non-zero f64. */
function rustLowerExp(value: number): string {
  const { negative, digits, exponent } = shortestDigits(value);
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${negative ? '-' : ''}${mantissa}e${exponent}`;
}

/** Upstream's `format_float` (normalized source, IR float `literal` and float `value`). */
export function formatFloat(value: number): string {
  if (value !== 0 && Math.abs(value) < 0.0001) {
    const rendered = rustLowerExp(value);
    const [mantissa, exponent] = rendered.split('e') as [string, string];
    const trimmed = mantissa.replace(/0+$/, '').replace(/\.$/, '');
    const exponentValue = Number(exponent);
    return `${trimmed}e${exponentValue < 0 ? '-' : '+'}${String(Math.abs(exponentValue)).padStart(2, '0')}`;
  }
  const rendered = rustDisplayFloat(value);
  return /[.eE]/.test(rendered) ? rendered : `${rendered}.0`;
}
