import { SourceParseError } from './parse-error.js';

/** Decoded value of one string token: text for str/f-string pieces, byte values for bytes. */
export type StringPiece =
  | { kind: 'str'; value: string }
  | { kind: 'bytes'; value: number[] };

export interface StringPrefix {
  raw: boolean;
  bytes: boolean;
  format: boolean;
  /** Length of the prefix letters. */
  length: number;
  /** Length of the opening (and closing) quote: 1 or 3. */
  quote: number;
}

export function stringPrefix(token: string, offset: number): StringPrefix {
  let length = 0;
  while (length < token.length && /[a-zA-Z]/.test(token[length]!)) length++;
  const letters = token.slice(0, length).toLowerCase();
  if (!/^(r|u|b|br|rb|f|fr|rf)?$/.test(letters)) {
    throw new SourceParseError(offset, `invalid string prefix '${token.slice(0, length)}'`);
  }
  const rest = token.slice(length);
  const quote = rest.startsWith('"""') || rest.startsWith("'''") ? 3 : 1;
  return { raw: letters.includes('r'), bytes: letters.includes('b'), format: letters.includes('f'), length, quote };
}

const SIMPLE_ESCAPES: Record<string, number> = {
  '\\': 0x5c, "'": 0x27, '"': 0x22, a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11,
};

/**
 * Decodes the body of a string literal (between the quotes) as Python does. `offset` is the body's
 * offset in the source, for error positions.
 */
export function decodeStringBody(body: string, offset: number, raw: boolean, bytes: boolean): StringPiece {
  const codes: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    const cp = body.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (ch !== '\\' || raw) {
      if (bytes && cp > 0x7f) throw new SourceParseError(offset + i, 'bytes can only contain ASCII literal characters');
      if (raw && ch === '\\' && i + 1 < body.length) {
        // A raw literal keeps the backslash and the character after it (even a quote).
        codes.push(cp, body.codePointAt(i + 1)!);
        if (body.codePointAt(i + 1)! > 0xffff) i++;
        i++;
        continue;
      }
      codes.push(cp);
      continue;
    }
    const next = body[i + 1];
    if (next === undefined) throw new SourceParseError(offset + i, 'unterminated string literal');
    if (next === '\n') { i++; continue; }
    if (next === '\r') { i += body[i + 2] === '\n' ? 2 : 1; continue; }
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) { codes.push(simple); i++; continue; }
    if (/[0-7]/.test(next)) {
      let digits = next;
      while (digits.length < 3 && /[0-7]/.test(body[i + 1 + digits.length] ?? '')) digits += body[i + 1 + digits.length];
      const value = parseInt(digits, 8);
      if (bytes && value > 0xff) throw new SourceParseError(offset + i, 'invalid octal escape in bytes');
      codes.push(value);
      i += digits.length;
      continue;
    }
    const hexLength = next === 'x' ? 2 : !bytes && next === 'u' ? 4 : !bytes && next === 'U' ? 8 : 0;
    if (hexLength > 0) {
      const digits = body.slice(i + 2, i + 2 + hexLength);
      if (digits.length !== hexLength || !/^[0-9a-fA-F]+$/.test(digits)) {
        throw new SourceParseError(offset + i, `truncated \\${next}${'X'.repeat(hexLength)} escape`);
      }
      const value = parseInt(digits, 16);
      if (value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) {
        throw new SourceParseError(offset + i, 'illegal Unicode character');
      }
      codes.push(value);
      i += 1 + hexLength;
      continue;
    }
    if (!bytes && next === 'N') {
      throw new SourceParseError(offset + i, 'named Unicode escapes (\\N{...}) are not supported');
    }
    // Python keeps an unknown escape as written.
    codes.push(0x5c);
  }
  if (bytes) return { kind: 'bytes', value: codes };
  return { kind: 'str', value: fromCodePoints(codes) };
}

/** Builds a string from code points without exceeding the engine's argument limits. */
export function fromCodePoints(codes: number[]): string {
  let out = '';
  for (let i = 0; i < codes.length; i += 4096) out += String.fromCodePoint(...codes.slice(i, i + 4096));
  return out;
}

export type NumberLiteral =
  | { type: 'int'; value: string }
  | { type: 'float'; value: number }
  | { type: 'complex' };

export function decodeNumber(text: string, offset: number): NumberLiteral {
  const clean = text.replace(/_/g, '');
  // An underscore must sit between two digits (or right after a base prefix).
  const digits = text.replace(/^0[xXoObB]_?/, '0');
  if (/(^_|_$|_[^0-9a-fA-F]|[^0-9a-fA-F]_)/.test(digits)) {
    throw new SourceParseError(offset, `invalid number literal '${text}'`);
  }
  if (/[jJ]$/.test(clean)) return { type: 'complex' };
  if (/^0[xX][0-9a-fA-F]+$/.test(clean)) return { type: 'int', value: BigInt(clean).toString() };
  if (/^0[oO][0-7]+$/.test(clean)) return { type: 'int', value: BigInt(clean).toString() };
  if (/^0[bB][01]+$/.test(clean)) return { type: 'int', value: BigInt(clean).toString() };
  if (/^[0-9]+$/.test(clean)) {
    if (/^0+[1-9]/.test(clean)) {
      throw new SourceParseError(offset, 'leading zeros in decimal integer literals are not permitted');
    }
    return { type: 'int', value: BigInt(clean).toString() };
  }
  if (/^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(clean)) return { type: 'float', value: Number(clean) };
  throw new SourceParseError(offset, `invalid number literal '${text}'`);
}
