import { ChainDatetime, ChainDecimal, chainRecord, type ChainValue, decodeValue, isChainRecord, parseJsonExact, runtimeJsonText } from 'chainhost/chain';
import type { StateReader } from '../engine/types.js';
import { compareKeys as compare } from './key-order.js';
import type { TextStateReader } from './state-store.js';

/**
 * State values are stored as their runtime encoding text (encoding.md §2: compact,
 * ASCII-escaped, `__fixed__`/`__time__`/`__big_int__` wrappers); the engine reads decoded
 * runtime values. These are the two conversions and the engine-facing reader over text state.
 */
const LONG_DIGITS = /\d{16}/;

export function encodeStateText(value: ChainValue): string {
  const text = runtimeJsonText(value);
  // The next read of this text (the next transaction's balance check) skips the decode.
  if (isImmutable(value)) remember(text, value);
  return text;
}

function copy(value: ChainValue): ChainValue {
  if (Array.isArray(value)) return value.map(copy);
  if (isChainRecord(value)) return chainRecord(Object.keys(value).map((k) => [k, copy(value[k]!)] as const));
  return value;
}

/**
 * Decoded values are cached by text: decoding a decimal is costly, and the engine's code
 * registry recognises contract source by identity. Immutable values (strings, numbers,
 * decimals, datetimes) are shared; dicts and lists are handed out as fresh copies (their
 * immutable leaves shared), so a caller that mutates one cannot change the cache.
 */
const decoded = new Map<string, ChainValue>();
const DECODE_CACHE_SIZE = 50_000;

export function decodeStateText(text: string): ChainValue {
  const hit = decoded.get(text);
  if (hit !== undefined) return isImmutable(hit) ? hit : copy(hit);
  // JSON.parse is several times faster; it is exact unless an integer literal may exceed 2^53.
  const value = decodeValue(LONG_DIGITS.test(text) ? parseJsonExact(text) : JSON.parse(text));
  if (text.length <= 4096) remember(text, isImmutable(value) ? value : copy(value));
  return value;
}

function isImmutable(value: ChainValue): boolean {
  return typeof value !== 'object' || value === null || value instanceof ChainDecimal || value instanceof ChainDatetime;
}

function remember(text: string, value: ChainValue): void {
  if (decoded.size >= DECODE_CACHE_SIZE) decoded.clear();
  decoded.set(text, value);
}

/** Committed-or-pending text state as the engine's StateReader. */
export class DecodingStateReader implements StateReader {
  constructor(private readonly text: TextStateReader, private readonly onRead?: () => void) {}

  get(key: string): ChainValue | undefined {
    this.onRead?.();
    const t = this.text.get(key);
    return t === undefined ? undefined : decodeStateText(t);
  }

  keys(prefix: string, options?: { after?: string; limit?: number }): string[] {
    this.onRead?.();
    return this.text.keys(prefix, options?.after, options?.limit);
  }
}

/**
 * The pending writes of the block being built, over committed state: later transactions in the
 * block read earlier ones' writes. `writes` keeps block write order, last write per key wins.
 */
export class BlockOverlay implements TextStateReader {
  readonly writes = new Map<string, string | null>();

  constructor(private readonly base: TextStateReader) {}

  get height(): number {
    return this.base.height;
  }

  get(key: string): string | undefined {
    const w = this.writes.get(key);
    if (w !== undefined) return w === null ? undefined : w;
    return this.base.get(key);
  }

  keys(prefix: string, after?: string, limit = Number.MAX_SAFE_INTEGER): string[] {
    let touched = false;
    for (const k of this.writes.keys()) if (k.startsWith(prefix)) { touched = true; break; }
    if (!touched) return this.base.keys(prefix, after, limit);
    const merged = new Set(this.base.keys(prefix, after));
    for (const [k, v] of this.writes) {
      if (!k.startsWith(prefix) || (after !== undefined && compare(k, after) <= 0)) continue;
      if (v === null) merged.delete(k);
      else merged.add(k);
    }
    return [...merged].sort(compare).slice(0, limit);
  }

  set(key: string, value: string | null): void {
    this.writes.set(key, value);
  }
}
