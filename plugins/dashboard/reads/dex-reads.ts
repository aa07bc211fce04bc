import { ChainDecimal, type JsonObject, type JsonValue } from 'chainhost/chain';
import { ApiError } from 'chainhost/plugin';
import { isObject } from './contract-reads.js';
import type { ReadContext } from './node-targets.js';
import { optionalAbciValue } from './optional-value.js';
import { optionalBds, type BdsSection } from './optional-bds.js';
import { listing, listItems, ROWS, type Listing } from './token-reads.js';

/**
 * The DEX as the explorer reads it: the canonical pair registry's public state (dex.md §3.1,
 * `con_pairs.pairs:<id>:…` through `/get`, so it works against any node) and the DEX plugin's
 * public query path `/dex_candles/<pair>/…` (BDS). No DEX plugin internals are used.
 */
export const PAIRS_CONTRACT = 'con_pairs';
export const CANDLE_INTERVALS = ['1m', '5m', '15m', '1h', '4h', '1d', '1w'] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];
const DAY_SECONDS = 86_400;

export interface Pair {
  id: number;
  token0: string;
  token1: string;
  reserve0: string;
  reserve1: string;
  /** token1 per one token0 (the candles' price), exact to 30 places; null while a reserve is 0. */
  price: string | null;
  lp_token: string | null;
  total_supply: string | null;
}

/** A decimal state value as exact plain text ("50E+3" → "50000"); null when unset or not a number. */
export function decimalText(value: JsonValue): string | null {
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  const text = typeof value === 'string' ? value : isObject(value) && typeof value.__fixed__ === 'string' ? value.__fixed__ : null;
  if (text === null || !ChainDecimal.isDecimalText(text)) return null;
  return ChainDecimal.parse(text).toString();
}

function priceOf(reserve0: string, reserve1: string): string | null {
  const r0 = ChainDecimal.parse(reserve0);
  return r0.isZero() ? null : ChainDecimal.parse(reserve1).div(r0).toString();
}

export async function pairCount(r: ReadContext): Promise<number> {
  const n = await optionalAbciValue(r, `/get/${PAIRS_CONTRACT}.pairs_num`);
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/** One pair from node state, or null when the registry has no such id. */
export async function readPair(r: ReadContext, id: number): Promise<Pair | null> {
  const key = (field: string) => optionalAbciValue(r, `/get/${PAIRS_CONTRACT}.pairs:${id}:${field}`);
  const [token0, token1, reserve0, reserve1, lp, supply] = await Promise.all(
    ['token0', 'token1', 'reserve0', 'reserve1', 'lpToken', 'totalSupply'].map(key),
  );
  if (typeof token0 !== 'string' || typeof token1 !== 'string') return null;
  const r0 = decimalText(reserve0) ?? '0';
  const r1 = decimalText(reserve1) ?? '0';
  return {
    id, token0, token1, reserve0: r0, reserve1: r1, price: priceOf(r0, r1),
    lp_token: typeof lp === 'string' ? lp : null, total_supply: decimalText(supply),
  };
}

export interface PairRow extends Pair {
  volume24h: BdsSection<{ token0: string; token1: string; trades: number }>;
}

/** Pairs `offset+1 … offset+limit` (ids ascending) with their 24 h volume from the candles. */
export async function listPairs(r: ReadContext, page: { offset: number; limit: number }, now = Date.now()): Promise<{ total: number; items: PairRow[] }> {
  const total = await pairCount(r);
  const ids: number[] = [];
  for (let id = page.offset + 1; id <= Math.min(total, page.offset + page.limit); id++) ids.push(id);
  const items = await Promise.all(ids.map(async (id) => {
    const [pair, volume24h] = await Promise.all([readPair(r, id), volume(r, id, now)]);
    return pair ? { ...pair, volume24h } : null;
  }));
  return { total, items: items.filter((p): p is PairRow => p !== null) };
}

/**
 * Volume of the last 24 hours: the trades since now − 24 h, bucketed into (at most two) one-week
 * candles and summed exactly — the candles are the DEX plugin's public query path.
 */
async function volume(r: ReadContext, id: number, now: number): Promise<PairRow['volume24h']> {
  const start = Math.floor(now / 1000) - DAY_SECONDS;
  return optionalBds(r, `/dex_candles/${id}/interval=1w/limit=10/start=${start}`, '24 h volume (DEX candles)', (v) => {
    let token0 = ChainDecimal.ZERO;
    let token1 = ChainDecimal.ZERO;
    let trades = 0;
    for (const c of listItems(v)) {
      token0 = token0.plus(decimalText(c.volume_token0) ?? '0');
      token1 = token1.plus(decimalText(c.volume_token1) ?? '0');
      trades += typeof c.trade_count === 'number' ? c.trade_count : 0;
    }
    return { token0: token0.toString(), token1: token1.toString(), trades };
  });
}

export interface PairDetail {
  pair: Pair;
  candles: BdsSection<JsonObject[]>;
  swaps: BdsSection<Listing>;
  liquidity: BdsSection<Listing>;
  volume24h: PairRow['volume24h'];
}

/** The pair page: reserves and price (node), candles of the chosen interval, swaps and liquidity events (BDS). */
export async function pairDetail(r: ReadContext, id: number, interval: CandleInterval, candles: number, now = Date.now()): Promise<PairDetail> {
  const [pair, chart, swaps, liquidity, volume24h] = await Promise.all([
    readPair(r, id),
    optionalBds(r, `/dex_candles/${id}/interval=${interval}/limit=${candles}`, 'the price chart (DEX candles)', listItems),
    optionalBds(r, `/contract_events/${PAIRS_CONTRACT}/limit=${ROWS}/events=Swap/match=pair:${id}`, 'swaps', listing),
    optionalBds(r, `/contract_events/${PAIRS_CONTRACT}/limit=${ROWS}/events=Mint,Burn/match=pair:${id}`, 'liquidity events', listing),
    volume(r, id, now),
  ]);
  if (!pair) throw ApiError.notFound(`DEX pair ${id} not found: ${PAIRS_CONTRACT} has no pair with that id`, { pair: id });
  return { pair, candles: chart, swaps, liquidity, volume24h };
}


/** Pairs that trade `token` (for the token page): scans the token fields of at most `maxScan` pair ids. */
export async function pairsOfToken(r: ReadContext, token: string, maxScan = 200): Promise<Pair[]> {
  const total = Math.min(await pairCount(r), maxScan);
  const matching = await Promise.all(Array.from({ length: total }, async (_, i) => {
    const [t0, t1] = await Promise.all([0, 1].map((n) => optionalAbciValue(r, `/get/${PAIRS_CONTRACT}.pairs:${i + 1}:token${n}`)));
    return t0 === token || t1 === token ? i + 1 : null;
  }));
  const pairs = await Promise.all(matching.filter((id): id is number => id !== null).map((id) => readPair(r, id)));
  return pairs.filter((p): p is Pair => p !== null);
}
