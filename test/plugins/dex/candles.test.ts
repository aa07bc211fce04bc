import assert from 'node:assert/strict';
import { PGlite } from '@electric-sql/pglite';
import knexFactory, { type Knex } from 'knex';
import ClientPGLite from 'knex-pglite';
import { parseQueryPath } from '../../../core/query/query-path.js';
import { parseCandleQuery, parseInterval, parseTimeBound } from '../../../plugins/dex/candles/candle-params.js';
import { CANDLE_MIGRATIONS, queryCandles, writeSwapTrades, type SwapEventRow } from '../../../plugins/dex/candles/candle-store.js';
import { numericText, swapTrade } from '../../../plugins/dex/candles/swap-trades.js';

function swap(id: number, pair: number | string, a0In: unknown, a1In: unknown, a0Out: unknown, a1Out: unknown, contract = 'con_pairs'): SwapEventRow {
  return {
    id, contract, event: 'Swap', tx_hash: `H${id}`, data_indexed: { pair: pair as number, to: 'x' },
    data: { amount0In: a0In, amount1In: a1In, amount0Out: a0Out, amount1Out: a1Out } as never,
  };
}

describe('dex candles: Swap events → OHLCV (dex.md §10)', () => {
  describe('parameters', () => {
    it('interval: <int>[s|m|h|d|w], lower-cased (1M = 1 minute), bare = seconds, invalid → 60, clamped to 1…604800', () => {
      assert.equal(parseInterval('5m'), 300);
      assert.equal(parseInterval('1M'), 60);
      assert.equal(parseInterval('15'), 15);
      assert.equal(parseInterval('4h'), 14_400);
      assert.equal(parseInterval('2w'), 604_800);
      assert.equal(parseInterval('0'), 1);
      assert.equal(parseInterval('soon'), 60);
      assert.equal(parseInterval(undefined), 60);
    });

    it('start/end: unix seconds or ISO-8601 (naive = UTC); invalid ignored', () => {
      assert.equal(parseTimeBound('1767268800'), 1767268800);
      assert.equal(parseTimeBound('1767268800.5'), 1767268800.5);
      assert.equal(parseTimeBound('2026-01-01T12:00:00Z'), 1767268800);
      assert.equal(parseTimeBound('2026-01-01T12:00:00'), 1767268800);
      assert.equal(parseTimeBound('2026-01-01T13:00:00+01:00'), 1767268800);
      assert.equal(parseTimeBound('yesterday'), null);
    });

    it('market id must be a positive integer; limit clamps to 0…1000; only the xian_pairs_v1 source', () => {
      const q = parseCandleQuery(parseQueryPath('/dex_candles/7/interval=5m/limit=25/offset=5'), 'con_pairs');
      assert.deepEqual({ ...q }, { marketId: '7', pairId: 7, intervalSeconds: 300, limit: 25, offset: 5, start: null, end: null, source: 'xian_pairs_v1', contract: 'con_pairs' });
      assert.equal(parseCandleQuery(parseQueryPath('/dex_candles/7/limit=5000'), 'con_pairs').limit, 1000);
      assert.equal(parseCandleQuery(parseQueryPath('/dex_candles/7/limit=x'), 'con_pairs').limit, 100);
      for (const bad of ['/dex_candles/0', '/dex_candles/-3', '/dex_candles/abc', '/dex_candles']) {
        assert.throws(() => parseCandleQuery(parseQueryPath(bad), 'con_pairs'), /market id must be positive/);
      }
      assert.throws(() => parseCandleQuery(parseQueryPath('/dex_candles/7/source=other'), 'con_pairs'), /unknown candle source/);
    });
  });

  describe('per trade', () => {
    it('price = amount1Out / amount0In, else amount1In / amount0Out; volumes; the numeric projection', () => {
      assert.deepEqual(swapTrade({ pair: 7 }, { amount0In: '10', amount1In: 0, amount0Out: 0, amount1Out: '4.9' }),
        { pairId: 7, priceNumerator: '4.9', priceDenominator: '10', volume0: '10', volume1: '4.9' });
      assert.deepEqual(swapTrade({ pair: '7' }, { amount0In: 0, amount1In: { __fixed__: '20' }, amount0Out: '40', amount1Out: 0 }),
        { pairId: 7, priceNumerator: '20', priceDenominator: '40', volume0: '40', volume1: '20' });
      assert.equal(swapTrade({ pair: 7 }, { amount0In: 0, amount1In: 0, amount0Out: 0, amount1Out: 0 }), null);
      assert.equal(swapTrade({ to: 'x' }, { amount0In: '1', amount1Out: '1' }), null);
      assert.equal(numericText({ __big_int__: '123' }), '123');
      assert.equal(numericText('1.5E+3'), '1.5E+3');
      assert.equal(numericText('abc'), null);
    });
  });

  describe('projection and query (PGlite)', () => {
    let pglite: PGlite;
    let knex: Knex;
    const t0 = Date.UTC(2026, 0, 1, 12, 0, 0) / 1000;
    const iso = (s: number) => new Date(s * 1000).toISOString();

    before(async () => {
      pglite = new PGlite({ parsers: { 1700: (t: string) => t, 20: (t: string) => Number(t), 1184: (t: string) => t } });
      await pglite.waitReady;
      await pglite.exec(`SET TIME ZONE 'UTC'`);
      knex = knexFactory({ client: ClientPGLite as unknown as typeof Knex.Client, connection: { pglite } as unknown as Knex.StaticConnectionConfig, useNullAsDefault: true });
      for (const m of CANDLE_MIGRATIONS) await m.up(knex);
      // block 100 @ 12:00:10: two trades in pair 7, one in pair 8, one of another contract
      await writeSwapTrades(knex, { height: 100, time_iso: iso(t0 + 10), events: [
        swap(10, 7, '10', 0, 0, '10'), // price 1.0
        swap(11, 7, '10', 0, 0, '12'), // 1.2
        swap(12, 8, '1', 0, 0, '5'),
        swap(13, 7, '1', 0, 0, '99', 'con_other'),
      ] }, 'con_pairs');
      // block 104 @ 12:04:50: 0.9 (token1 in, token0 out: 9 / 10)
      await writeSwapTrades(knex, { height: 104, time_iso: iso(t0 + 290), events: [swap(20, 7, 0, '9', '10', 0)] }, 'con_pairs');
      // block 110 @ 12:05:30: next 5-minute bucket
      await writeSwapTrades(knex, { height: 110, time_iso: iso(t0 + 330), events: [swap(30, 7, '10', 0, 0, '11')] }, 'con_pairs');
    });
    after(async () => {
      await knex.destroy();
      if (!pglite.closed) await pglite.close();
    });

    it('buckets trades: open/close by (time, event id), high/low, volumes, counts, first/last block and event', async () => {
      const out = await queryCandles(knex, parseCandleQuery(parseQueryPath('/dex_candles/7/interval=5m/limit=10'), 'con_pairs')) as any;
      assert.equal(out.available, true);
      assert.equal(out.interval_seconds, 300);
      assert.equal(out.items.length, 2);
      const [first, second] = out.items;
      assert.equal(first.bucket_start, '2026-01-01T12:00:00+00:00');
      assert.equal(first.bucket_end, '2026-01-01T12:05:00+00:00');
      assert.equal(Number(first.open), 1);
      assert.equal(Number(first.high), 1.2);
      assert.equal(Number(first.low), 0.9);
      assert.equal(Number(first.close), 0.9);
      assert.equal(Number(first.volume_token0), 30);
      assert.equal(Number(first.volume_token1), 31);
      assert.equal(first.trade_count, 3);
      assert.deepEqual([first.first_block_height, first.last_block_height, first.first_event_id, first.last_event_id], [100, 104, 10, 20]);
      assert.equal(second.bucket_start, '2026-01-01T12:05:00+00:00');
      assert.equal(Number(second.open), 1.1);
      assert.equal(second.trade_count, 1);
      assert.equal(second.market_id, '7');
      assert.equal(second.source, 'xian_pairs_v1');
    });

    it('pages the newest buckets first but returns them oldest first; start/end filter by block time', async () => {
      const newest = await queryCandles(knex, parseCandleQuery(parseQueryPath('/dex_candles/7/interval=5m/limit=1'), 'con_pairs')) as any;
      assert.deepEqual(newest.items.map((i: any) => i.bucket_start), ['2026-01-01T12:05:00+00:00']);
      const older = await queryCandles(knex, parseCandleQuery(parseQueryPath('/dex_candles/7/interval=5m/limit=1/offset=1'), 'con_pairs')) as any;
      assert.deepEqual(older.items.map((i: any) => i.bucket_start), ['2026-01-01T12:00:00+00:00']);
      const windowed = await queryCandles(knex, parseCandleQuery(parseQueryPath(`/dex_candles/7/interval=1h/start=${t0 + 100}/end=2026-01-01T12:05:00Z`), 'con_pairs')) as any;
      assert.equal(windowed.items.length, 1);
      assert.equal(windowed.items[0].trade_count, 1);
      assert.equal(Number(windowed.items[0].open), 0.9);
    });

    it('is idempotent: re-applying a block changes nothing', async () => {
      const before = await queryCandles(knex, parseCandleQuery(parseQueryPath('/dex_candles/7/interval=1d'), 'con_pairs'));
      await writeSwapTrades(knex, { height: 110, time_iso: iso(t0 + 330), events: [swap(30, 7, '10', 0, 0, '11')] }, 'con_pairs');
      assert.deepEqual(await queryCandles(knex, parseCandleQuery(parseQueryPath('/dex_candles/7/interval=1d'), 'con_pairs')), before);
    });

    it('contract= reads another pair contract\'s swaps', async () => {
      const other = await queryCandles(knex, parseCandleQuery(parseQueryPath('/dex_candles/7/contract=con_other'), 'con_pairs')) as any;
      assert.equal(other.contract, 'con_other');
      assert.equal(other.items.length, 0, 'con_other trades were not projected (only the configured pair contract is)');
    });
  });
});
