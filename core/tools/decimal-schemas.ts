import { z } from 'zod';
import { ChainDecimal, DecimalOverflowError } from '../chain/decimal.js';
import { MAX_NUMBER_DIGITS, numberDecimalText } from '../chain/json-number.js';
import { shownInput } from './shown-input.js';

/**
 * Exact decimals in tool inputs, and decimal text as tools print it. Amounts never pass through
 * binary floating point; more fractional digits than the chain keeps is an error, not a silent
 * truncation.
 */

/** Fractional digits the chain's decimal keeps (encoding.md §3.1); more would be silently dropped. */
export const MAX_DECIMAL_PLACES = 30;
const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Fractional digits a decimal text needs, exponent included ("1.25e-3" needs 5). */
export function decimalPlaces(text: string): number {
  const t = text.trim().replace(/^[+-]/, '');
  const [mantissa = '', exp = '0'] = t.split(/[eE]/);
  const frac = (mantissa.split('.')[1] ?? '').replace(/0+$/, '');
  return Math.max(0, frac.length - Number(exp));
}

/** What every decimal input's description says about its form. */
export const DECIMAL_INPUT_RULE = `decimal string (a number: ≤ ${MAX_NUMBER_DIGITS} digits)`;

export interface DecimalSchemaOptions {
  /** `positive` (> 0, the default), `nonNegative` (≥ 0) or `any`. */
  sign?: 'positive' | 'nonNegative' | 'any';
  /** At most this many fractional digits (default 30, the chain's scale). */
  maxPlaces?: number;
  description?: string;
}

/**
 * An exact decimal given as a string ("12.5", "1E+3") or a JSON number, as a ChainDecimal.
 * Numbers are converted through their shortest round-trip text (what the caller wrote in JSON),
 * never through binary arithmetic, and only when that text has at most 15 significant digits
 * (json-number.ts): 0.30000000000000004 is refused with a message asking for a string. More
 * fractional digits than allowed is an error, not a silent truncation. Every tool's amounts and
 * the HTTP API go through this one schema.
 */
export function decimalSchema(options: DecimalSchemaOptions = {}) {
  const sign = options.sign ?? 'positive';
  const maxPlaces = Math.min(options.maxPlaces ?? MAX_DECIMAL_PLACES, MAX_DECIMAL_PLACES);
  return z
    .union([z.string().max(120), z.number()])
    .transform((value, ctx): ChainDecimal => {
      const fail = (message: string): never => {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER as never;
      };
      let text: string;
      if (typeof value === 'number') {
        const exact = numberDecimalText(value);
        if ('problem' in exact) return fail(exact.problem);
        text = exact.text;
      } else {
        text = value.trim();
      }
      if (!DECIMAL_TEXT.test(text)) return fail(`must be a decimal number such as "12.5"; got ${shownInput(String(value))}`);
      if (decimalPlaces(text) > maxPlaces) return fail(`has more than ${maxPlaces} decimal places`);
      let d: ChainDecimal;
      try {
        d = ChainDecimal.parse(text);
      } catch (err) {
        return fail(err instanceof DecimalOverflowError ? 'is too large (must be below 10^61)' : `must be a decimal number; got ${shownInput(text)}`);
      }
      if (sign === 'positive' && !d.gt(0n)) return fail(`must be greater than 0; got ${d.toString()}`);
      if (sign === 'nonNegative' && d.isNegative()) return fail(`must not be negative; got ${d.toString()}`);
      return d;
    })
    .describe(`${options.description ? `${options.description}. ` : ''}${DECIMAL_INPUT_RULE}`);
}

/**
 * Decimal text in any form the chain writes ("999993.05", "1E+6", "1.01E+3", "100E-9") as plain
 * fixed-point text, truncated toward zero at 30 places like ChainDecimal — by string shifting
 * alone, so hot read paths skip big-number parsing. null for text that is not a decimal or is
 * out of the chain's range (|x| ≥ 10^61).
 */
export function plainDecimalText(text: string): string | null {
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?\s*$/.exec(text);
  if (!m || (!m[2] && !m[3])) return null;
  const whole = m[2] ?? '';
  let digits = whole + (m[3] ?? '');
  let point = whole.length + Number(m[4] ?? 0);
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const int = digits.slice(0, point).replace(/^0+/, '') || '0';
  const frac = digits.slice(point, point + MAX_DECIMAL_PLACES).replace(/0+$/, '');
  if (int.length > 61) return null;
  if (int === '0' && frac === '') return '0';
  return `${m[1] === '-' ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}
