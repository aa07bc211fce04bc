import { compareCodePoints, type JsonValue } from 'chainhost/chain';

/**
 * Compact JSON text for BDS storage (JSONB parameters, spool files) and query answers. Unlike
 * the canonical writer it never refuses a value the chain already produced: bigints are written
 * as exact integer literals, and a float (legacy chains) keeps its shortest JS form instead of
 * failing the block forever. `sortKeys` + `asciiOnly` give the node's ABCI dict/list encoding
 * (abci-query.md §3.1).
 */
export interface JsonTextOptions {
  sortKeys?: boolean;
  asciiOnly?: boolean;
}

const NON_ASCII = /[\u007f-\uffff]/g;

export function jsonText(value: unknown, options: JsonTextOptions = {}): string {
  if (!options.sortKeys && !options.asciiOnly) {
    // Hot path (every JSONB parameter, every spool file): the native serializer, which throws on
    // a bigint — then once more with exact integer literals spliced in.
    try {
      return JSON.stringify(value) ?? 'null';
    } catch (err) {
      if (!(err instanceof TypeError)) throw err;
      return JSON.stringify(value, bigintReplacer).replace(BIGINT_MARK, '$1') ?? 'null';
    }
  }
  const out: string[] = [];
  write(value, options, out, 0);
  return out.join('');
}

const BIGINT_MARK = /"\\u0000\\u0001bigint:(-?\d+)"/g;

function bigintReplacer(_key: string, v: unknown): unknown {
  return typeof v === 'bigint' ? `\u0000\u0001bigint:${v}` : v;
}

/** The ABCI `dict`/`list` value text: keys sorted by code point, compact, ASCII-escaped. */
export function abciDictText(value: unknown): string {
  return jsonText(value, { sortKeys: true, asciiOnly: true });
}

function quote(s: string, ascii: boolean | undefined): string {
  const json = JSON.stringify(s);
  return ascii ? json.replace(NON_ASCII, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')) : json;
}

function write(v: unknown, options: JsonTextOptions, out: string[], depth: number): void {
  if (depth > 1000) throw new RangeError('JSON value nested deeper than 1000 levels (or circular)');
  switch (typeof v) {
    case 'string':
      out.push(quote(v, options.asciiOnly));
      return;
    case 'boolean':
      out.push(v ? 'true' : 'false');
      return;
    case 'bigint':
      out.push(v.toString());
      return;
    case 'number':
      out.push(Number.isFinite(v) ? String(v) : 'null');
      return;
    case 'undefined':
      out.push('null');
      return;
    case 'object': {
      if (v === null) { out.push('null'); return; }
      if (Array.isArray(v)) {
        out.push('[');
        v.forEach((item, i) => {
          if (i) out.push(',');
          write(item, options, out, depth + 1);
        });
        out.push(']');
        return;
      }
      if (v instanceof Date) { out.push(quote(v.toISOString(), options.asciiOnly)); return; }
      const record = v as Record<string, unknown>;
      const keys = Object.keys(record).filter((k) => record[k] !== undefined);
      if (options.sortKeys) keys.sort(compareCodePoints);
      out.push('{');
      keys.forEach((key, i) => {
        if (i) out.push(',');
        out.push(quote(key, options.asciiOnly), ':');
        write(record[key], options, out, depth + 1);
      });
      out.push('}');
      return;
    }
    default:
      out.push('null');
  }
}

export type { JsonValue };
