import { abciJsonText, ChainDecimal, type ChainValue, isChainRecord, pythonStr } from 'chainhost/chain';
import type { QueryAnswer } from 'chainhost/plugin';

/**
 * A handler result as the node encodes it into `abci_query` (abci-query.md §3.1): the `info`
 * type tag and the value text — `True`/`False`, plain strings, integer digits, decimals in
 * engineering form, dicts and lists as ABCI JSON, anything else as Python `str()`.
 */
export function answerOf(value: ChainValue | undefined, key?: string): QueryAnswer {
  const withKey = (a: QueryAnswer): QueryAnswer => (key === undefined ? a : { ...a, key });
  if (value === undefined || value === null) return withKey({ info: '', text: null });
  if (typeof value === 'boolean') return withKey({ info: 'bool', text: value ? 'True' : 'False' });
  if (typeof value === 'string') return withKey({ info: 'str', text: value });
  if (typeof value === 'bigint') return withKey({ info: 'int', text: value.toString() });
  if (value instanceof ChainDecimal) return withKey({ info: 'decimal', text: value.toEngString() });
  if (Array.isArray(value)) return withKey({ info: 'list', text: abciJsonText(value) });
  if (isChainRecord(value)) return withKey({ info: 'dict', text: abciJsonText(value) });
  return withKey({ info: 'str', text: pythonStr(value) });
}

/** A plain JS result (numbers, objects) for handlers that build dicts: numbers must be integers. */
export function jsonAnswer(value: unknown, key?: string): QueryAnswer {
  return answerOf(toChainValue(value), key);
}

export function toChainValue(value: unknown): ChainValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') {
    if (Number.isInteger(value)) return BigInt(value);
    return ChainDecimal.from(value);
  }
  if (typeof value === 'boolean' || typeof value === 'string' || typeof value === 'bigint') return value;
  if (value instanceof ChainDecimal || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map(toChainValue);
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    if (proto !== null && proto !== Object.prototype) return value as ChainValue; // Datetime, Timedelta
    const out = Object.create(null) as Record<string, ChainValue>;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) if (v !== undefined) out[k] = toChainValue(v);
    return out;
  }
  return String(value);
}

/** Python `json.dumps(sort_keys=True, separators=(",", ":"))` of plain JS data with real floats (perf statistics). */
export function plainJsonText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : JSON.stringify(value);
  if (typeof value === 'string') return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map(plainJsonText).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
  return `{${keys.map((k) => `${plainJsonText(k)}:${plainJsonText(obj[k])}`).join(',')}}`;
}
