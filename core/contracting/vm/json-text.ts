import { parse } from 'lossless-json';
import { ryuFloat } from './float-format.js';
import type { JsonLike } from './fixture-codec.js';

/**
 * JSON text where integers and floats stay distinct, as serde_json keeps them: an integer
 * lexeme parses to a bigint, any other number to a JS number (parsed by lossless-json so no
 * digit is lost on the way), and a number prints back as serde would (`1.0`, `1e20`).
 */
const INTEGER = /^-?(0|[1-9][0-9]*)$/;

export function parseJsonText(text: string): JsonLike {
  return parse(text, null, (lexeme: string) => (INTEGER.test(lexeme) ? BigInt(lexeme) : Number(lexeme))) as JsonLike;
}

export function stringifyJson(value: JsonLike, indent = ''): string {
  const nl = indent ? '\n' : '';
  const walk = (v: JsonLike, pad: string): string => {
    if (v === null) return 'null';
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'number') return Number.isFinite(v) ? ryuFloat(v) : 'null';
    if (typeof v === 'string') return JSON.stringify(v);
    const inner = pad + indent;
    if (Array.isArray(v)) {
      if (!v.length) return '[]';
      return `[${nl}${v.map((x) => inner + walk(x, inner)).join(`,${nl}`)}${nl}${pad}]`;
    }
    const keys = Object.keys(v);
    if (!keys.length) return '{}';
    const sep = indent ? ': ' : ':';
    return `{${nl}${keys.map((k) => `${inner}${JSON.stringify(k)}${sep}${walk(v[k]!, inner)}`).join(`,${nl}`)}${nl}${pad}}`;
  };
  return walk(value, '');
}

