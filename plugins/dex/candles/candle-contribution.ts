import { databaseReason, type PluginContext, QueryPathError } from 'chainhost/plugin';
import { abciJsonAnswer } from './candle-answer.js';
import { parseCandleQuery } from './candle-params.js';
import { CANDLE_MIGRATIONS, TRADES_TABLE, queryCandles, writeSwapTrades } from './candle-store.js';

/**
 * Contributes the DEX candle projection when the bds plugin is loaded: an indexer writing one
 * trade row per `con_pairs` Swap event, and the query path
 * `/dex_candles/<market_id>/interval=<interval>/limit=<n>` (plus offset, start, end, source,
 * contract) answered from it. Without bds nothing is contributed.
 */
export async function contributeCandles(ctx: PluginContext<unknown>, pairsContract: string): Promise<boolean> {
  // Only a host that loads bds pays for importing it.
  if (!ctx.loadedPlugins.includes('bds')) return false;
  const { bdsIndexers } = await import('../../bds/index.js');
  const bds = ctx.tryUse(bdsIndexers);
  if (!bds) return false;
  bds.addIndexer({
    name: 'dex-candles',
    capability: 'read',
    description: `Swap events of ${pairsContract} as trades (price = token1 per token0, volumes) for /dex_candles`,
    migrations: CANDLE_MIGRATIONS,
    tables: [TRADES_TABLE],
    async apply(block, trx) {
      await writeSwapTrades(trx, block, pairsContract);
    },
  });
  ctx.queryPaths.add({
    pattern: '/dex_candles/<market_id>/interval=<interval>/limit=<n>/offset=<n>/start=<t>/end=<t>/source=<source>/contract=<contract>',
    description: 'OHLCV candles of one DEX pair (market id = con_pairs pair id), newest buckets first, returned oldest first; interval like 5m (1 s … 1 w)',
    capability: 'read',
    async handler(query) {
      const q = parseCandleQuery(query, pairsContract);
      try {
        return abciJsonAnswer(await queryCandles(bds.knex(), q));
      } catch (err) {
        if (err instanceof QueryPathError) throw err;
        throw new QueryPathError(`BDS query failed: ${databaseReason(err)}`);
      }
    },
  });
  return true;
}
