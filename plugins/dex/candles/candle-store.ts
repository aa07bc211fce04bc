import type { Knex } from 'knex';
import type { JsonValue } from 'chainhost/chain';
import type { CandleQuery } from './candle-params.js';
import { CANDLE_SOURCE } from './candle-params.js';
import { swapTrade } from './swap-trades.js';

/**
 * The candle projection in the BDS database: one `dex_swap_trades` row per Swap event of the
 * pair contract (price and volumes as NUMERIC, computed by PostgreSQL), written per block inside
 * the BDS write transaction, idempotently (`ON CONFLICT (event_id) DO NOTHING`), so live
 * following, reindex and replays agree. Candles are bucketed from it at query time for any
 * interval: open/close by `(created_at, event_id)`, high/low, volumes, trade count, first/last
 * block and event — exactly the shape of dex.md §10.
 */

export const TRADES_TABLE = 'dex_swap_trades';

export const CANDLE_MIGRATIONS = [
  {
    name: '0001_dex_swap_trades',
    async up(knex: Knex): Promise<void> {
      await knex.raw(`CREATE TABLE IF NOT EXISTS ${TRADES_TABLE} (
        event_id BIGINT PRIMARY KEY,
        contract TEXT NOT NULL,
        pair_id BIGINT NOT NULL,
        block_height BIGINT NOT NULL,
        tx_hash TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        price NUMERIC NOT NULL,
        volume_token0 NUMERIC NOT NULL,
        volume_token1 NUMERIC NOT NULL
      )`);
      await knex.raw(`CREATE INDEX IF NOT EXISTS idx_dex_swap_trades_market ON ${TRADES_TABLE} (contract, pair_id, created_at, event_id)`);
    },
    async down(knex: Knex): Promise<void> {
      await knex.raw(`DROP TABLE IF EXISTS ${TRADES_TABLE}`);
    },
  },
];

export interface SwapEventRow {
  id: number | bigint;
  contract: string;
  event: string;
  tx_hash: string;
  data_indexed: JsonValue;
  data: JsonValue;
}

/** Writes the block's Swap trades of `contract`. */
export async function writeSwapTrades(trx: Knex.Transaction | Knex, block: { height: number; time_iso: string; events: readonly SwapEventRow[] }, contract: string): Promise<number> {
  let written = 0;
  for (const e of block.events) {
    if (e.contract !== contract || e.event !== 'Swap') continue;
    const trade = swapTrade(e.data_indexed, e.data);
    if (!trade) continue;
    await trx.raw(
      `INSERT INTO ${TRADES_TABLE} (event_id, contract, pair_id, block_height, tx_hash, created_at, price, volume_token0, volume_token1)
       VALUES (?, ?, ?, ?, ?, ?::timestamptz, ?::numeric / ?::numeric, ?::numeric, ?::numeric)
       ON CONFLICT (event_id) DO NOTHING`,
      [String(e.id), contract, trade.pairId, block.height, e.tx_hash, block.time_iso, trade.priceNumerator, trade.priceDenominator, trade.volume0, trade.volume1] as Knex.RawBinding[],
    );
    written++;
  }
  return written;
}

export interface CandleItem {
  source: string;
  market_id: string;
  pair_id: number;
  bucket_start: string;
  bucket_end: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume_token0: string;
  volume_token1: string;
  trade_count: number;
  first_block_height: number;
  last_block_height: number;
  first_event_id: number;
  last_event_id: number;
}

function iso(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** The candle SELECT (newest `limit` buckets after `offset`, ordered oldest first) with `?` bindings. */
export function candleSql(q: CandleQuery, schema?: string): { text: string; values: Knex.RawBinding[] } {
  const table = schema ? `"${schema.replace(/"/g, '""')}".${TRADES_TABLE}` : TRADES_TABLE;
  const where: string[] = ['contract = ?::text', 'pair_id = ?::bigint'];
  const bindings: Knex.RawBinding[] = [q.contract, q.pairId];
  if (q.start !== null) { where.push('created_at >= to_timestamp(?::double precision)'); bindings.push(q.start); }
  if (q.end !== null) { where.push('created_at < to_timestamp(?::double precision)'); bindings.push(q.end); }
  return {
    text: `WITH t AS (
       SELECT price, volume_token0, volume_token1, created_at, event_id, block_height,
              (floor(extract(epoch FROM created_at) / ?::bigint) * ?::bigint)::bigint AS bucket
       FROM ${table} WHERE ${where.join(' AND ')}
     ), b AS (
       SELECT bucket,
              (array_agg(price ORDER BY created_at, event_id))[1] AS open,
              max(price) AS high,
              min(price) AS low,
              (array_agg(price ORDER BY created_at DESC, event_id DESC))[1] AS close,
              sum(volume_token0) AS volume_token0,
              sum(volume_token1) AS volume_token1,
              count(*)::int AS trade_count,
              min(block_height) AS first_block_height,
              max(block_height) AS last_block_height,
              (array_agg(event_id ORDER BY created_at, event_id))[1] AS first_event_id,
              (array_agg(event_id ORDER BY created_at DESC, event_id DESC))[1] AS last_event_id
       FROM t GROUP BY bucket ORDER BY bucket DESC LIMIT ?::bigint OFFSET ?::bigint
     )
     SELECT * FROM b ORDER BY bucket ASC`,
    values: [q.intervalSeconds, q.intervalSeconds, ...bindings, q.limit, q.offset],
  };
}

/** Rows of `candleSql` as the `/dex_candles` response (dex.md §10). */
export function candleResponse(q: CandleQuery, rows: ReadonlyArray<Record<string, unknown>>): Record<string, unknown> & { items: CandleItem[] } {
  const items: CandleItem[] = rows.map((r) => {
    const start = Number(r.bucket);
    return {
      source: CANDLE_SOURCE,
      market_id: q.marketId,
      pair_id: q.pairId,
      bucket_start: iso(start),
      bucket_end: iso(start + q.intervalSeconds),
      open: String(r.open),
      high: String(r.high),
      low: String(r.low),
      close: String(r.close),
      volume_token0: String(r.volume_token0),
      volume_token1: String(r.volume_token1),
      trade_count: Number(r.trade_count),
      first_block_height: Number(r.first_block_height),
      last_block_height: Number(r.last_block_height),
      first_event_id: Number(r.first_event_id),
      last_event_id: Number(r.last_event_id),
    };
  });
  return {
    available: true,
    source: CANDLE_SOURCE,
    contract: q.contract,
    market_id: q.marketId,
    pair_id: q.pairId,
    interval_seconds: q.intervalSeconds,
    limit: q.limit,
    offset: q.offset,
    items,
  };
}

/** The newest `limit` buckets after `offset`, returned oldest first. */
export async function queryCandles(knex: Knex, q: CandleQuery): Promise<Record<string, unknown>> {
  const { text, values } = candleSql(q);
  const result = await knex.raw(text, values);
  return candleResponse(q, (result.rows ?? result) as Array<Record<string, unknown>>);
}
