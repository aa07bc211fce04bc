import { GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLFieldConfigMap } from 'graphql';
import { parseQueryPath, type PluginContext } from 'chainhost/plugin';
import { parseCandleQuery } from './candle-params.js';
import { TRADES_TABLE, candleResponse, candleSql } from './candle-store.js';

/**
 * The candle projection in GraphQL (only when graphql is loaded): the trades table as
 * `allDexSwapTrades` (PostGraphile-style connection with filters and ordering) and a
 * `dexCandles(marketId, interval, limit, offset, start, end)` root field with the same buckets
 * as `/dex_candles`.
 */
export async function contributeCandleGraphql(ctx: PluginContext<unknown>, pairsContract: string): Promise<boolean> {
  if (!ctx.loadedPlugins.includes('graphql')) return false;
  const { graphqlContributions, Sql } = await import('../../graphql/index.js');
  const graphql = ctx.tryUse(graphqlContributions);
  if (!graphql) return false;
  graphql.addTable({
    name: TRADES_TABLE,
    typeName: 'DexSwapTrade',
    pluralTypeName: 'DexSwapTrades',
    description: `One ${pairsContract} Swap event as a trade: price = token1 per token0, volumes per token (the candle projection).`,
    columns: [
      { name: 'event_id', type: 'bigint', description: 'events.id of the Swap' },
      { name: 'contract', type: 'text' },
      { name: 'pair_id', type: 'bigint' },
      { name: 'block_height', type: 'bigint' },
      { name: 'tx_hash', type: 'text' },
      { name: 'created_at', type: 'timestamptz' },
      { name: 'price', type: 'numeric' },
      { name: 'volume_token0', type: 'numeric' },
      { name: 'volume_token1', type: 'numeric' },
    ],
    primaryKey: ['event_id'],
  });
  graphql.addQueryFields({
    name: 'dex:candles',
    fields(build): GraphQLFieldConfigMap<unknown, import('../../graphql/index.js').GraphqlRequestContext> {
      const Candle = new GraphQLObjectType({
        name: 'DexCandle',
        description: 'One OHLCV bucket of a DEX pair (price = token1 per token0).',
        fields: {
          bucketStart: { type: new GraphQLNonNull(GraphQLString), resolve: (c) => c.bucket_start },
          bucketEnd: { type: new GraphQLNonNull(GraphQLString), resolve: (c) => c.bucket_end },
          open: { type: new GraphQLNonNull(build.scalars.BigFloat) },
          high: { type: new GraphQLNonNull(build.scalars.BigFloat) },
          low: { type: new GraphQLNonNull(build.scalars.BigFloat) },
          close: { type: new GraphQLNonNull(build.scalars.BigFloat) },
          volumeToken0: { type: new GraphQLNonNull(build.scalars.BigFloat), resolve: (c) => c.volume_token0 },
          volumeToken1: { type: new GraphQLNonNull(build.scalars.BigFloat), resolve: (c) => c.volume_token1 },
          tradeCount: { type: new GraphQLNonNull(GraphQLInt), resolve: (c) => c.trade_count },
          firstBlockHeight: { type: new GraphQLNonNull(build.scalars.BigInt), resolve: (c) => String(c.first_block_height) },
          lastBlockHeight: { type: new GraphQLNonNull(build.scalars.BigInt), resolve: (c) => String(c.last_block_height) },
          firstEventId: { type: new GraphQLNonNull(build.scalars.BigInt), resolve: (c) => String(c.first_event_id) },
          lastEventId: { type: new GraphQLNonNull(build.scalars.BigInt), resolve: (c) => String(c.last_event_id) },
        },
      });
      return {
        dexCandles: {
          type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(Candle))),
          description: 'OHLCV buckets of one pair (marketId = con_pairs pair id), the newest `limit` after `offset`, oldest first; interval like "5m" (1 s … 1 w); start/end as unix seconds or ISO-8601.',
          args: {
            marketId: { type: new GraphQLNonNull(GraphQLInt) },
            interval: { type: GraphQLString, defaultValue: '1m' },
            limit: { type: GraphQLInt, defaultValue: 100 },
            offset: { type: GraphQLInt, defaultValue: 0 },
            start: { type: GraphQLString },
            end: { type: GraphQLString },
          },
          resolve: async (_root, args: { marketId: number; interval: string; limit: number; offset: number; start?: string; end?: string }, context) => {
            const segments = [`/dex_candles/${args.marketId}`, `interval=${args.interval}`, `limit=${args.limit}`, `offset=${args.offset}`];
            if (args.start) segments.push(`start=${args.start}`);
            if (args.end) segments.push(`end=${args.end}`);
            const q = parseCandleQuery(parseQueryPath(segments.join('/')), pairsContract);
            const { text, values } = candleSql(q, context.dbSchema);
            return candleResponse(q, await context.sql.rows(new Sql(text, values))).items;
          },
        },
      };
    },
  });
  return true;
}
