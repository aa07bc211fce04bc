import { ChainDecimal } from 'chainhost/chain';
import {
  AmmError, amountUnit, amountsOut, getAmountIn, getAmountOut, normalizeAmount, type HopReserves, type Precision,
} from './amm.js';

/**
 * Route search over liquid pairs. A route is a simple path of pair ids (no token visited twice)
 * of at most `maxHops` pairs; every candidate is evaluated with the contracts' exact maths, so
 * the best route's amounts are the amounts the router will compute against the same reserves.
 * Exact-in: most output wins. Exact-out: least input wins (walked backwards with getAmountIn,
 * then confirmed forwards, because the router only executes exact-in swaps). Ties: fewer hops,
 * then the lexicographically smaller path.
 */

export interface PoolState {
  pairId: number;
  token0: string;
  token1: string;
  reserve0: ChainDecimal;
  reserve1: ChainDecimal;
}

export interface RouteHop {
  pairId: number;
  tokenIn: string;
  tokenOut: string;
  reserveIn: ChainDecimal;
  reserveOut: ChainDecimal;
  amountIn: ChainDecimal;
  amountOut: ChainDecimal;
}

export interface Route {
  path: number[];
  /** tokens[0] = token in, tokens[last] = token out. */
  tokens: string[];
  /** `[amountIn, a1, …, amountOut]` as the router computes them. */
  amounts: ChainDecimal[];
  hops: RouteHop[];
}

export interface RouteSearchResult {
  best: Route | null;
  /** Complete candidate routes evaluated (failing ones included). */
  considered: number;
  /** Why candidates failed, by contract message (e.g. `SNAKX: INSUFFICIENT_LIQUIDITY`), with counts. */
  failures: Record<string, number>;
}

export class RouteError extends Error {
  constructor(readonly reason: string, message: string) {
    super(message);
    this.name = 'RouteError';
  }
}

interface Edge {
  pool: PoolState;
  other: string;
}

/** Pools indexed by token; only liquid pools (both reserves > 0) are routable. */
export class PoolGraph {
  private readonly adjacency = new Map<string, Edge[]>();
  readonly byId = new Map<number, PoolState>();

  constructor(pools: Iterable<PoolState>, private readonly precisions: ReadonlyMap<string, Precision>) {
    for (const pool of pools) {
      this.byId.set(pool.pairId, pool);
      if (!(pool.reserve0.gt(ChainDecimal.ZERO) && pool.reserve1.gt(ChainDecimal.ZERO))) continue;
      this.edgeList(pool.token0).push({ pool, other: pool.token1 });
      this.edgeList(pool.token1).push({ pool, other: pool.token0 });
    }
    // Deterministic exploration order: by pair id.
    for (const edges of this.adjacency.values()) edges.sort((a, b) => a.pool.pairId - b.pool.pairId);
  }

  private edgeList(token: string): Edge[] {
    let list = this.adjacency.get(token);
    if (!list) this.adjacency.set(token, (list = []));
    return list;
  }

  precision(token: string): Precision {
    return this.precisions.get(token) ?? null;
  }

  hasToken(token: string): boolean {
    return this.adjacency.has(token);
  }

  edges(token: string): readonly Edge[] {
    return this.adjacency.get(token) ?? [];
  }

  /** Follows an explicit path from `tokenIn`; throws RouteError as the router would reject it. */
  orient(tokenIn: string, path: readonly number[]): { tokens: string[]; hops: HopReserves[]; pools: PoolState[] } {
    if (path.length === 0) throw new RouteError('SNAKX: INVALID_PATH', 'a path needs at least one pair id');
    const tokens = [tokenIn];
    const hops: HopReserves[] = [];
    const pools: PoolState[] = [];
    let current = tokenIn;
    for (const id of path) {
      const pool = this.byId.get(id);
      if (!pool) throw new RouteError('SNAKX: INVALID_PAIR', `pair ${id} does not exist`);
      if (current !== pool.token0 && current !== pool.token1) {
        throw new RouteError('SNAKX: INVALID_PATH', `pair ${id} (${pool.token0}/${pool.token1}) does not trade ${current}`);
      }
      const forward = current === pool.token0;
      const next = forward ? pool.token1 : pool.token0;
      hops.push({ reserveIn: forward ? pool.reserve0 : pool.reserve1, reserveOut: forward ? pool.reserve1 : pool.reserve0, precisionOut: this.precision(next) });
      pools.push(pool);
      tokens.push(next);
      current = next;
    }
    return { tokens, hops, pools };
  }
}

function better(a: { amount: ChainDecimal; path: number[] }, b: { amount: ChainDecimal; path: number[] } | null, wantMore: boolean): boolean {
  if (!b) return true;
  const c = a.amount.cmp(b.amount);
  if (c !== 0) return wantMore ? c > 0 : c < 0;
  if (a.path.length !== b.path.length) return a.path.length < b.path.length;
  for (let i = 0; i < a.path.length; i++) if (a.path[i] !== b.path[i]) return a.path[i]! < b.path[i]!;
  return false;
}

function fail(failures: Record<string, number>, err: unknown): void {
  const reason = err instanceof AmmError ? err.reason : err instanceof Error ? err.message : String(err);
  failures[reason] = (failures[reason] ?? 0) + 1;
}

function buildRoute(graph: PoolGraph, tokenIn: string, path: readonly number[], amounts: ChainDecimal[]): Route {
  const { tokens, hops } = graph.orient(tokenIn, path);
  return {
    path: [...path],
    tokens,
    amounts,
    hops: hops.map((h, i) => ({
      pairId: path[i]!, tokenIn: tokens[i]!, tokenOut: tokens[i + 1]!, reserveIn: h.reserveIn, reserveOut: h.reserveOut,
      amountIn: amounts[i]!, amountOut: amounts[i + 1]!,
    })),
  };
}

export interface SearchOptions {
  maxHops: number;
  feeBps: number;
  /** Evaluate only this path (pair ids) instead of searching. */
  path?: readonly number[];
}

/** Best exact-input route: `amountIn` of `tokenIn` → as much `tokenOut` as possible. */
export function bestExactIn(graph: PoolGraph, tokenIn: string, tokenOut: string, amountIn: ChainDecimal, options: SearchOptions): RouteSearchResult {
  const failures: Record<string, number> = {};
  if (options.path) {
    const { tokens, hops } = graph.orient(tokenIn, options.path);
    if (tokens[tokens.length - 1] !== tokenOut) throw new RouteError('SNAKX: INVALID_PATH', `path ends at ${tokens[tokens.length - 1]}, not at ${tokenOut}`);
    try {
      const amounts = amountsOut(amountIn, graph.precision(tokenIn), hops, options.feeBps);
      return { best: buildRoute(graph, tokenIn, options.path, amounts), considered: 1, failures };
    } catch (err) {
      fail(failures, err);
      return { best: null, considered: 1, failures };
    }
  }
  let best: { amount: ChainDecimal; path: number[] } | null = null;
  let considered = 0;
  const start = normalizeAmount(amountIn, graph.precision(tokenIn));
  const visited = new Set<string>([tokenIn]);
  const path: number[] = [];
  const walk = (token: string, amount: ChainDecimal, depth: number): void => {
    for (const { pool, other } of graph.edges(token)) {
      if (visited.has(other)) continue;
      const last = other === tokenOut;
      if (!last && depth + 1 >= options.maxHops) continue;
      const forward = token === pool.token0;
      let out: ChainDecimal;
      try {
        out = normalizeAmount(getAmountOut(amount, forward ? pool.reserve0 : pool.reserve1, forward ? pool.reserve1 : pool.reserve0, options.feeBps), graph.precision(other));
      } catch (err) {
        if (last) { considered++; fail(failures, err); }
        continue;
      }
      path.push(pool.pairId);
      if (last) {
        considered++;
        if (out.isZero()) fail(failures, new AmmError('SNAKX: INSUFFICIENT_OUTPUT_AMOUNT'));
        else if (better({ amount: out, path }, best, true)) best = { amount: out, path: [...path] };
      } else if (!out.isZero()) {
        visited.add(other);
        walk(other, out, depth + 1);
        visited.delete(other);
      }
      path.pop();
    }
  };
  walk(tokenIn, start, 0);
  if (!best) return { best: null, considered, failures };
  const chosen = (best as { amount: ChainDecimal; path: number[] }).path;
  const { hops } = graph.orient(tokenIn, chosen);
  return { best: buildRoute(graph, tokenIn, chosen, amountsOut(amountIn, graph.precision(tokenIn), hops, options.feeBps)), considered, failures };
}

/**
 * The least input of `tokenIn` (rounded up to its precision) whose forward swap along `path`
 * yields at least `amountOut`, starting from the backward estimate. The forward maths is
 * monotone in the input, so a doubling search then a bisection over input units finds it.
 */
function confirmExactOut(graph: PoolGraph, tokenIn: string, path: readonly number[], estimate: ChainDecimal, amountOut: ChainDecimal, feeBps: number): ChainDecimal[] | null {
  const { hops } = graph.orient(tokenIn, path);
  const precisionIn = graph.precision(tokenIn);
  const forward = (input: ChainDecimal): ChainDecimal[] | null => {
    try {
      const amounts = amountsOut(input, precisionIn, hops, feeBps);
      return amounts[amounts.length - 1]!.gte(amountOut) ? amounts : null;
    } catch {
      return null;
    }
  };
  const start = normalizeAmount(estimate, precisionIn, true);
  const direct = forward(start);
  if (direct) return direct;
  const unit = amountUnit(precisionIn).scaled;
  let lo = 0n; // steps known to fail
  let step = 1n;
  let found: ChainDecimal[] | null = null;
  for (let i = 0; i < 64 && !found; i++) {
    found = forward(ChainDecimal.fromScaled(start.scaled + step * unit));
    if (!found) { lo = step; step *= 2n; }
  }
  if (!found) return null;
  let hi = step;
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    const attempt = forward(ChainDecimal.fromScaled(start.scaled + mid * unit));
    if (attempt) { hi = mid; found = attempt; } else lo = mid;
  }
  return found;
}

/** Best exact-output route: the least `tokenIn` that buys at least `amountOut` of `tokenOut`. */
export function bestExactOut(graph: PoolGraph, tokenIn: string, tokenOut: string, amountOut: ChainDecimal, options: SearchOptions): RouteSearchResult {
  const failures: Record<string, number> = {};
  const candidates: Array<{ amount: ChainDecimal; path: number[] }> = [];
  let considered = 0;
  if (options.path) {
    const { tokens, hops } = graph.orient(tokenIn, options.path);
    if (tokens[tokens.length - 1] !== tokenOut) throw new RouteError('SNAKX: INVALID_PATH', `path ends at ${tokens[tokens.length - 1]}, not at ${tokenOut}`);
    considered = 1;
    try {
      let need = amountOut;
      for (let i = hops.length - 1; i >= 0; i--) {
        need = normalizeAmount(getAmountIn(need, hops[i]!.reserveIn, hops[i]!.reserveOut, options.feeBps), graph.precision(tokens[i]!), true);
      }
      candidates.push({ amount: need, path: [...options.path] });
    } catch (err) {
      fail(failures, err);
    }
  } else {
    const visited = new Set<string>([tokenOut]);
    const reversed: number[] = [];
    const walk = (token: string, needed: ChainDecimal, depth: number): void => {
      for (const { pool, other } of graph.edges(token)) {
        if (visited.has(other)) continue;
        const first = other === tokenIn;
        if (!first && depth + 1 >= options.maxHops) continue;
        // The hop trades `other` → `token`.
        const otherIs0 = other === pool.token0;
        let need: ChainDecimal;
        try {
          need = normalizeAmount(getAmountIn(needed, otherIs0 ? pool.reserve0 : pool.reserve1, otherIs0 ? pool.reserve1 : pool.reserve0, options.feeBps), graph.precision(other), true);
        } catch (err) {
          if (first) { considered++; fail(failures, err); }
          continue;
        }
        reversed.push(pool.pairId);
        if (first) {
          considered++;
          candidates.push({ amount: need, path: [...reversed].reverse() });
        } else {
          visited.add(other);
          walk(other, need, depth + 1);
          visited.delete(other);
        }
        reversed.pop();
      }
    };
    walk(tokenOut, amountOut, 0);
  }
  // Confirm forwards, cheapest estimate first. Confirmation may add a few input units, so keep
  // confirming while a candidate's estimate could still beat the best confirmed input.
  candidates.sort((a, b) => (better(a, b, false) ? -1 : better(b, a, false) ? 1 : 0));
  let best: { amount: ChainDecimal; path: number[]; amounts: ChainDecimal[] } | null = null;
  for (const candidate of candidates) {
    if (best && candidate.amount.gt(best.amount)) break;
    const amounts = confirmExactOut(graph, tokenIn, candidate.path, candidate.amount, amountOut, options.feeBps);
    if (!amounts) {
      fail(failures, new AmmError('SNAKX: INSUFFICIENT_OUTPUT_AMOUNT'));
      continue;
    }
    const confirmed = { amount: amounts[0]!, path: candidate.path, amounts };
    if (better(confirmed, best, false)) best = confirmed;
  }
  if (!best) return { best: null, considered, failures };
  return { best: buildRoute(graph, tokenIn, best.path, best.amounts), considered, failures };
}
