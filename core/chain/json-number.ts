/**
 * JSON numbers given where an exact decimal is meant. A number is accepted only when its
 * shortest round-trip text — what JSON.stringify writes and what the caller most likely typed —
 * has at most 15 significant digits: every such text survives the trip through a binary double
 * unchanged, so it is the number the caller meant. Longer texts are what floating-point
 * arithmetic leaves behind (`0.1 + 0.2` → 0.30000000000000004) or digits the double already
 * lost; those must come as decimal strings.
 */

/** Decimal digits an IEEE double carries for any text (DBL_DIG). */
export const MAX_NUMBER_DIGITS = 15;

/** Significant digits of a decimal text ("0.00120" → 2, "1.5e-7" → 2, "1000" → 1). */
export function significantDigits(text: string): number {
  const mantissa = text.trim().replace(/^[+-]/, '').split(/[eE]/)[0] ?? '';
  const digits = mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return digits.length;
}

/** The exact decimal text of a JSON number, or why it must be sent as a string instead. */
export function numberDecimalText(n: number): { text: string } | { problem: string } {
  if (!Number.isFinite(n)) return { problem: `${n} is not a decimal number` };
  if (Number.isSafeInteger(n)) return { text: String(n) };
  const text = String(n);
  const digits = significantDigits(text);
  if (digits <= MAX_NUMBER_DIGITS) return { text };
  return {
    problem: `the JSON number ${text} has ${digits} significant digits, more than the ${MAX_NUMBER_DIGITS} a JSON number carries exactly ` +
      `(it looks like a floating-point result such as 0.1 + 0.2 or a number that already lost digits); send the exact amount as a decimal string instead, e.g. "${suggestion(n)}"`,
  };
}

function suggestion(n: number): string {
  return String(Number(n.toPrecision(MAX_NUMBER_DIGITS)));
}
