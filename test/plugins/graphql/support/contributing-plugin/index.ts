import { GraphQLBoolean, GraphQLInt, GraphQLNonNull } from 'graphql';
import { definePlugin } from '../../../../../core/plugin.js';
import { graphqlContributions, Sql } from '../../../../../plugins/graphql/index.js';

/**
 * A plugin contributing to GraphQL the way the DEX plugin adds candles: a table of its own
 * (`test_candles`, created by the test) exposed PostGraphile-style, and hand-written root
 * fields that run SQL through the request context (one sleeps, to trip the statement timeout).
 */
export const TEST_CANDLES_DDL = `CREATE TABLE IF NOT EXISTS test_candles (
  market_id TEXT NOT NULL,
  interval TEXT NOT NULL,
  bucket_start TIMESTAMPTZ NOT NULL,
  block_height BIGINT NOT NULL REFERENCES blocks(height),
  open NUMERIC NOT NULL,
  close NUMERIC NOT NULL,
  volume NUMERIC NOT NULL,
  trade_count INTEGER NOT NULL,
  PRIMARY KEY (market_id, interval, bucket_start)
)`;

export default definePlugin({
  name: 'graphql-test-candles',
  description: 'Contributes a candles table and two root fields to GraphQL (tests only).',
  init(ctx) {
    const graphql = ctx.use(graphqlContributions);
    graphql.addTable({
      name: 'test_candles',
      typeName: 'TestCandle',
      pluralTypeName: 'TestCandles',
      columns: [
        { name: 'market_id', type: 'text' },
        { name: 'interval', type: 'text' },
        { name: 'bucket_start', type: 'timestamptz' },
        { name: 'block_height', type: 'bigint' },
        { name: 'open', type: 'numeric' },
        { name: 'close', type: 'numeric' },
        { name: 'volume', type: 'numeric' },
        { name: 'trade_count', type: 'integer' },
      ],
      primaryKey: ['market_id', 'interval', 'bucket_start'],
      foreignKeys: [{ columns: ['block_height'], references: { table: 'blocks', columns: ['height'] } }],
    });
    graphql.addQueryFields({
      name: 'test:candle-count',
      fields: () => ({
        testCandleCount: {
          type: new GraphQLNonNull(GraphQLInt),
          resolve: async (_s, _a, c) => Number((await c.sql.rows(Sql.raw(`SELECT count(*) AS n FROM "${c.dbSchema}"."test_candles"`)))[0]!.n),
        },
        testSleep: {
          type: GraphQLBoolean,
          args: { ms: { type: new GraphQLNonNull(GraphQLInt) } },
          resolve: async (_s, args: { ms: number }, c) => {
            await c.sql.rows(new Sql('SELECT pg_sleep(?::float8 / 1000)', [args.ms]));
            return true;
          },
        },
      }),
    });
  },
});
