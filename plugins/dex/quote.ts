import { ChainDecimal } from 'chainhost/chain';
import { ApiError } from 'chainhost/plugin';
import { AmmError, type FeeBps, type Precision } from './amm.js';
import type { DexReader } from './dex-state.js';
import { marketError, noRoute } from './dex-errors.js';
import { PoolGraph, RouteError, bestExactIn, bestExactOut, type Route } from './routing.js';
import type { StateSnapshot } from './state-snapshot.js';

/**
 * Quotes: read the pools a route could use (one consistent snapshot), search the best route
 * with the contracts' exact maths, and describe it — hops, fee tier, price impact, warnings.
 * Amounts are what the router computes against the same reserves; every decimal leaves here as
 * an exact string.
 */

export type QuoteKind = 'exact_in' | 'exact_out';

export interface QuoteRequest {
  kind: QuoteKind;
  tokenIn: string;
  tokenOut: string;
  /** exact_in: the input; exact_out: the wanted output. */
  amount: ChainDecimal;
  path?: readonly number[];
  /** The signer whose fee tier applies (router trades use the signer's tier). */
  account?: string | null;
  maxHops: number;
}

export interface Quote {
  kind: QuoteKind;
  tokenIn: string;
  tokenOut: string;
  requested: ChainDecimal;
  route: Route;
  feeBps: FeeBps;
  account: string | null;
  considered: number;
  /** exact_in: the output at the mid price (no fee, no impact); exact_out: the input at the mid price. */
  midAmount: ChainDecimal;
  priceImpact: ChainDecimal;
  priceImpactBps: number;
  warnings: string[];
  height: string;
  precisionIn: Precision;
  precisionOut: Precision;
}

export const HIGH_IMPACT_BPS = 500;

export interface MarketOptions {
  /** A full scan reads at most this many pairs; larger registries need an explicit `path`. */
  maxScanPairs: number;
}

/** The pools any route of ≤ maxHops from `tokenIn` can touch (or exactly the pairs of `path`). */
export async function loadGraph(reader: DexReader, s: StateSnapshot, tokenIn: string, maxHops: number, options: MarketOptions, path?: readonly number[]): Promise<{ graph: PoolGraph; totalPairs: number }> {
  const totalPairs = await reader.pairCount(s);
  let candidates: Array<{ pairId: number; token0: string; token1: string; lpToken: string | null }>;
  if (path) {
    const rows = await Promise.all([...new Set(path)].map(async (id) => {
      const t = id >= 1 && id <= totalPairs ? await reader.pairTokens(s, id) : null;
      return t ? { pairId: id, ...t } : null;
    }));
    candidates = rows.filter((r): r is NonNullable<typeof r> => r !== null);
  } else {
    if (totalPairs > options.maxScanPairs) {
      throw new ApiError(422, 'dex_too_many_pairs', `the DEX has ${totalPairs} pairs, more than a route search scans (${options.maxScanPairs}); pass an explicit path of pair ids`, { total_pairs: totalPairs, max_scan_pairs: options.maxScanPairs });
    }
    const all = await reader.allPairTokens(s, totalPairs);
    // Tokens within maxHops − 1 hops of tokenIn; only pairs touching them can be on a route.
    const near = new Set([tokenIn]);
    let frontier = [tokenIn];
    for (let d = 0; d < maxHops - 1 && frontier.length; d++) {
      const next: string[] = [];
      for (const p of all) {
        for (const [a, b] of [[p.token0, p.token1], [p.token1, p.token0]] as const) {
          if (frontier.includes(a) && !near.has(b)) { near.add(b); next.push(b); }
        }
      }
      frontier = next;
    }
    candidates = all.filter((p) => near.has(p.token0) || near.has(p.token1));
  }
  const pools = await reader.reserves(s, candidates);
  const precisions = await reader.precisions(s, pools.flatMap((p) => [p.token0, p.token1]));
  return { graph: new PoolGraph(pools, precisions), totalPairs };
}

export async function quoteTrade(reader: DexReader, s: StateSnapshot, req: QuoteRequest, options: MarketOptions): Promise<Quote> {
  if (req.tokenIn === req.tokenOut) throw ApiError.badRequest('token_in and token_out must differ', { field: 'token_out' });
  if (!req.amount.gt(ChainDecimal.ZERO)) throw ApiError.badRequest('the amount must be greater than 0', { field: req.kind === 'exact_in' ? 'amount_in' : 'amount_out' });
  const [feeBps, loaded] = await Promise.all([
    reader.feeBps(s, req.account ?? null),
    loadGraph(reader, s, req.tokenIn, req.maxHops, options, req.path),
  ]);
  const { graph } = loaded;
  const precisionIn = req.path ? graph.precision(req.tokenIn) : await reader.precision(s, req.tokenIn);
  const precisionOut = req.path ? graph.precision(req.tokenOut) : await reader.precision(s, req.tokenOut);
  let result;
  try {
    result = req.kind === 'exact_in'
      ? bestExactIn(graph, req.tokenIn, req.tokenOut, req.amount, { maxHops: req.maxHops, feeBps, path: req.path })
      : bestExactOut(graph, req.tokenIn, req.tokenOut, req.amount, { maxHops: req.maxHops, feeBps, path: req.path });
  } catch (err) {
    if (err instanceof RouteError) throw marketError(err.reason, err.message, { path: req.path ?? null });
    if (err instanceof AmmError) throw marketError(err.reason, 'the DEX contracts would refuse this trade');
    throw err;
  }
  if (!result.best) {
    const details = { token_in: req.tokenIn, token_out: req.tokenOut, max_hops: req.maxHops, route_candidates_considered: result.considered, failures: result.failures, path: req.path ?? null };
    if (result.considered === 0) {
      throw noRoute(`no liquid route from ${req.tokenIn} to ${req.tokenOut} within ${req.maxHops} hop(s); dex_list_pairs shows the pairs`, details);
    }
    const reason = Object.keys(result.failures)[0] ?? 'SNAKX: INSUFFICIENT_LIQUIDITY';
    throw marketError(reason, `no route can ${req.kind === 'exact_in' ? 'swap' : 'deliver'} ${req.amount} of ${req.kind === 'exact_in' ? req.tokenIn : req.tokenOut}`, details);
  }
  const route = result.best;
  const amountIn = route.amounts[0]!;
  const amountOut = route.amounts[route.amounts.length - 1]!;
  // Mid price along the route: Π reserveOut / reserveIn (fee and impact excluded).
  let midOut = amountIn;
  let midIn = amountOut;
  for (const hop of route.hops) midOut = midOut.times(hop.reserveOut).div(hop.reserveIn);
  for (let i = route.hops.length - 1; i >= 0; i--) midIn = midIn.times(route.hops[i]!.reserveIn).div(route.hops[i]!.reserveOut);
  const ONE = ChainDecimal.ONE;
  // Impact includes the trade fee: the share of value lost against the mid price.
  const impact = req.kind === 'exact_in'
    ? (midOut.isZero() ? ChainDecimal.ZERO : ONE.minus(amountOut.div(midOut)))
    : (amountIn.isZero() ? ChainDecimal.ZERO : ONE.minus(midIn.div(amountIn)));
  const impactBps = Number(impact.times(ChainDecimal.from(10_000n)).plus(ChainDecimal.parse('0.5')).toBigInt());
  const warnings: string[] = [];
  if (!req.account) warnings.push('no account given: the default 30 bps fee tier is assumed; the router charges the signer\'s tier');
  if (impactBps >= HIGH_IMPACT_BPS) warnings.push(`high price impact: ${impactBps} bps against the mid price (fee included)`);
  if (req.kind === 'exact_in' && !amountIn.eq(req.amount)) {
    warnings.push(`amount_in ${req.amount} is cut to ${amountIn} by ${req.tokenIn}'s precision (${precisionIn} places)`);
  }
  if (req.kind === 'exact_out') {
    warnings.push('the router has no exact-output entry point: the trade executes as exact-input with the quoted input; output above the request is kept, nothing is refunded');
    if (amountOut.gt(req.amount)) warnings.push(`at the quoted input the route delivers ${amountOut}, slightly more than the requested ${req.amount} (rounding to token precision)`);
  }
  return {
    kind: req.kind, tokenIn: req.tokenIn, tokenOut: req.tokenOut, requested: req.amount, route, feeBps, account: req.account ?? null,
    considered: result.considered, midAmount: req.kind === 'exact_in' ? midOut : midIn, priceImpact: impact, priceImpactBps: impactBps,
    warnings, height: s.height, precisionIn, precisionOut,
  };
}

export function hopsJson(route: Route): Array<Record<string, unknown>> {
  return route.hops.map((h) => ({
    pair_id: h.pairId, token_in: h.tokenIn, token_out: h.tokenOut, reserve_in: h.reserveIn.toString(), reserve_out: h.reserveOut.toString(),
    amount_in: h.amountIn.toString(), amount_out: h.amountOut.toString(),
  }));
}

export function quoteJson(q: Quote): Record<string, unknown> {
  const amounts = q.route.amounts;
  return {
    kind: q.kind,
    token_in: q.tokenIn,
    token_out: q.tokenOut,
    path: q.route.path,
    tokens: q.route.tokens,
    amount_in: amounts[0]!.toString(),
    amount_out: amounts[amounts.length - 1]!.toString(),
    ...(q.kind === 'exact_out' ? { amount_out_requested: q.requested.toString() } : { amount_in_requested: q.requested.toString() }),
    amounts: amounts.map(String),
    hops: hopsJson(q.route),
    fee_bps: q.feeBps,
    ...(q.kind === 'exact_in' ? { mid_price_output: q.midAmount.toString() } : { mid_price_input: q.midAmount.toString() }),
    price_impact: q.priceImpact.toString(),
    price_impact_bps: q.priceImpactBps,
    precision: { token_in: q.precisionIn, token_out: q.precisionOut },
    account: q.account,
    route_candidates_considered: q.considered,
    height: q.height,
    warnings: q.warnings,
  };
}
