import { z } from 'zod';
import { ChainDecimal } from 'chainhost/chain';
import { addressSchema, ApiError, decimalOut, decimalSchema, defineTool, limitSchema, offsetSchema, type ToolDefinition } from 'chainhost/plugin';
import { pairNotFound } from '../dex-errors.js';
import type { DexServices } from '../dex-services.js';
import type { PairRecord } from '../dex-state.js';
import { quoteJson, quoteTrade, type QuoteKind } from '../quote.js';
import { mapLimit } from '../state-snapshot.js';
import { maxHopsSchema, pairIdSchema, pairOut, pathSchema, quoteOut, tokenSchema } from './dex-schemas.js';

/** Read tools over `con_pairs` state: prices, pairs, quotes. */

function ratio(a: ChainDecimal, b: ChainDecimal): string | null {
  return b.isZero() ? null : a.div(b).toString();
}

export function pairJson(p: PairRecord): z.input<typeof pairOut> {
  return {
    pair_id: p.pairId,
    token0: p.token0,
    token1: p.token1,
    reserve0: p.reserve0.toString(),
    reserve1: p.reserve1.toString(),
    total_supply: p.totalSupply.toString(),
    lp_token: p.lpToken,
    block_timestamp_last: p.blockTimestampLast,
    creation_time: p.creationTime,
    price0: p.reserve0.isZero() ? null : ratio(p.reserve1, p.reserve0),
    price1: p.reserve1.isZero() ? null : ratio(p.reserve0, p.reserve1),
  };
}

const MAX_FILTER_SCAN = 5000;

export function marketTools(dex: DexServices): ToolDefinition[] {
  const quoteTool = (kind: QuoteKind) => defineTool({
    name: kind === 'exact_in' ? 'dex_quote_exact_in' : 'dex_quote_exact_out',
    title: kind === 'exact_in' ? 'Quote an exact-input swap' : 'Quote an exact-output swap',
    description: kind === 'exact_in'
      ? 'How much token_out an exact amount_in of token_in buys: the best route over liquid pairs (up to max_hops, or the given path), computed with the contracts\' exact 30-place maths, fee tier (the account\'s, else 30 bps) and token precision (outputs rounded down). Returns every hop, the mid-price output, price impact (fee included) and warnings (impact ≥ 500 bps). Amounts are exact decimal strings.'
      : 'How much token_in is needed to receive at least amount_out of token_out: the best (cheapest) route, walked backwards with getAmountIn (required inputs rounded up to token precision) and confirmed forwards. A plan executes it as exact-input (dex_plan_swap mode exact_out).',
    capability: 'read',
    input: z.object({
      token_in: tokenSchema('token sold'),
      token_out: tokenSchema('token bought'),
      ...(kind === 'exact_in'
        ? { amount_in: decimalSchema({ description: 'exact input amount, > 0, decimal string or number' }) }
        : { amount_out: decimalSchema({ description: 'wanted output amount, > 0, decimal string or number' }) }),
      path: pathSchema,
      account: addressSchema.optional().describe('signer whose fee tier applies (default 30 bps)'),
      max_hops: maxHopsSchema,
    }),
    output: quoteOut,
    run: async (args, ctx) => {
      const a = args as typeof args & { amount_in?: ChainDecimal; amount_out?: ChainDecimal };
      const quote = await dex.reader.read((s) => quoteTrade(dex.reader, s, {
        kind, tokenIn: a.token_in, tokenOut: a.token_out, amount: (kind === 'exact_in' ? a.amount_in : a.amount_out)!,
        path: a.path, account: a.account ?? null, maxHops: a.path ? a.path.length : a.max_hops,
      }, dex.market), ctx.signal);
      return quoteJson(quote) as z.input<typeof quoteOut>;
    },
  });

  return [
    defineTool({
      name: 'get_dex_price',
      title: 'DEX spot price',
      description: 'Spot (mid) price of token_contract in base_contract from the pair reserves: `price` = base per 1 token = reserve_base / reserve_token; `price_inverse` = token per 1 base. Excludes the trade fee and price impact (use dex_quote_exact_in for an executable amount). A missing pair is a 404 error.',
      capability: 'read',
      input: z.object({
        token_contract: tokenSchema('token priced'),
        base_contract: tokenSchema('token the price is expressed in').default('currency'),
      }),
      output: z.object({
        token: z.string(),
        base: z.string(),
        pair_id: z.number().int(),
        price: decimalOut.nullable().describe('base per 1 token (reserve_base / reserve_token); null without liquidity'),
        price_direction: z.string(),
        price_inverse: decimalOut.nullable().describe('token per 1 base (reserve_token / reserve_base)'),
        price_inverse_direction: z.string(),
        reserve_token: decimalOut,
        reserve_base: decimalOut,
        height: z.string(),
        warnings: z.array(z.string()),
      }),
      run: async (args, ctx) => dex.reader.read(async (s) => {
        const token = args.token_contract;
        const base = args.base_contract;
        if (token === base) throw ApiError.badRequest('token_contract and base_contract must differ', { field: 'base_contract' });
        const id = await dex.reader.pairIdFor(s, token, base);
        const pair = id === null ? null : await dex.reader.pair(s, id);
        if (!pair) throw pairNotFound({ token, base });
        const [reserveToken, reserveBase] = pair.token0 === token ? [pair.reserve0, pair.reserve1] : [pair.reserve1, pair.reserve0];
        const empty = reserveToken.isZero() || reserveBase.isZero();
        return {
          token, base, pair_id: pair.pairId,
          price: empty ? null : reserveBase.div(reserveToken).toString(),
          price_direction: `${base} per 1 ${token}`,
          price_inverse: empty ? null : reserveToken.div(reserveBase).toString(),
          price_inverse_direction: `${token} per 1 ${base}`,
          reserve_token: reserveToken.toString(),
          reserve_base: reserveBase.toString(),
          height: s.height,
          warnings: empty ? ['the pair has no liquidity, so it has no price'] : [],
        };
      }, ctx.signal),
    }),
    defineTool({
      name: 'dex_list_pairs',
      title: 'List DEX pairs',
      description: 'Pairs of con_pairs in id order with reserves, LP supply, LP token and prices (price0 = token1 per token0, price1 = token0 per token1). Bounded: limit ≤ 500; `token` keeps only pairs trading that token.',
      capability: 'read',
      input: z.object({
        limit: limitSchema(500, 100),
        offset: offsetSchema,
        token: tokenSchema('only pairs with this token').optional(),
      }),
      output: z.object({
        items: z.array(pairOut),
        count: z.number().int(),
        total_pairs: z.number().int(),
        total_matching: z.number().int(),
        limit: z.number().int(),
        offset: z.number().int(),
        token_filter: z.string().nullable(),
        height: z.string(),
      }),
      run: async (args, ctx) => dex.reader.read(async (s) => {
        const total = await dex.reader.pairCount(s);
        let ids: number[];
        let matching: number;
        if (args.token) {
          if (total > MAX_FILTER_SCAN) throw new ApiError(422, 'dex_too_many_pairs', `filtering ${total} pairs by token is not supported (limit ${MAX_FILTER_SCAN}); page without a filter or use dex_get_pair`);
          const all = await dex.reader.allPairTokens(s, total);
          const hits = all.filter((p) => p.token0 === args.token || p.token1 === args.token).map((p) => p.pairId);
          matching = hits.length;
          ids = hits.slice(args.offset, args.offset + args.limit);
        } else {
          matching = total;
          ids = [];
          for (let id = args.offset + 1; id <= total && ids.length < args.limit; id++) ids.push(id);
        }
        const pairs = (await mapLimit(ids, dex.reader.concurrency, (id) => dex.reader.pair(s, id))).filter((p): p is PairRecord => p !== null);
        return {
          items: pairs.map(pairJson), count: pairs.length, total_pairs: total, total_matching: matching,
          limit: args.limit, offset: args.offset, token_filter: args.token ?? null, height: s.height,
        };
      }, ctx.signal),
    }),
    defineTool({
      name: 'dex_get_pair',
      title: 'Get a DEX pair',
      description: 'One pair by `pair_id`, or by `token_a` + `token_b` (either order). Returns {found: true, pair} or {found: false} with what was looked up.',
      capability: 'read',
      input: z.object({
        pair_id: pairIdSchema.optional(),
        token_a: tokenSchema('first token').optional(),
        token_b: tokenSchema('second token').optional(),
      }),
      output: z.object({
        found: z.boolean(),
        pair: pairOut.optional(),
        pair_id: z.number().int().nullable().optional(),
        token_a: z.string().optional(),
        token_b: z.string().optional(),
        height: z.string(),
      }),
      run: async (args, ctx) => {
        const byTokens = args.token_a !== undefined || args.token_b !== undefined;
        if (args.pair_id === undefined && !byTokens) throw ApiError.badRequest('give pair_id, or token_a and token_b', { field: 'pair_id' });
        if (args.pair_id !== undefined && byTokens) throw ApiError.badRequest('give pair_id or token_a + token_b, not both', { field: 'pair_id' });
        if (byTokens && (!args.token_a || !args.token_b)) throw ApiError.badRequest('token_a and token_b are both required', { field: args.token_a ? 'token_b' : 'token_a' });
        return dex.reader.read(async (s) => {
          const id = args.pair_id ?? (await dex.reader.pairIdFor(s, args.token_a!, args.token_b!));
          const pair = id === null ? null : await dex.reader.pair(s, id);
          if (!pair) {
            return { found: false, pair_id: args.pair_id ?? null, ...(byTokens ? { token_a: args.token_a, token_b: args.token_b } : {}), height: s.height };
          }
          return { found: true, pair: pairJson(pair), height: s.height };
        }, ctx.signal);
      },
    }),
    quoteTool('exact_in'),
    quoteTool('exact_out'),
  ];
}
