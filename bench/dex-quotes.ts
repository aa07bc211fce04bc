import { pathToFileURL } from 'node:url';
import { ChainDecimal } from '../core/chain/decimal.js';
import { PoolGraph, bestExactIn, bestExactOut, type PoolState } from '../plugins/dex/routing.js';
import { printTable, type BenchResult } from './bench-result.js';

/**
 * DEX quote throughput: the best-route search the quote and plan tools run (exact 30-place
 * maths, every simple path of ≤ 3 pairs) over 200 synthetic liquid pairs between 40 tokens,
 * against a single-pair quote in the same run (same code path, explicit one-pair route). The
 * ratio says how many single-pair quotes one full 3-hop search costs.
 */

const TOKENS = 40;
const PAIRS = 200;
const DURATION_MS = 1500;

/** Deterministic pseudo-random numbers (mulberry32), so every run searches the same market. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function syntheticMarket(pairs = PAIRS, tokens = TOKENS, seed = 42): PoolGraph {
  const random = rng(seed);
  const names = Array.from({ length: tokens }, (_, i) => `con_token_${String(i).padStart(3, '0')}`);
  const seen = new Set<string>();
  const pools: PoolState[] = [];
  while (pools.length < pairs) {
    const a = names[Math.floor(random() * tokens)]!;
    const b = names[Math.floor(random() * tokens)]!;
    if (a === b) continue;
    const [token0, token1] = a < b ? [a, b] : [b, a];
    if (seen.has(`${token0}/${token1}`)) continue;
    seen.add(`${token0}/${token1}`);
    const reserve = () => ChainDecimal.parse((10_000 + random() * 1_000_000).toFixed(6));
    pools.push({ pairId: pools.length + 1, token0, token1, reserve0: reserve(), reserve1: reserve() });
  }
  return new PoolGraph(pools, new Map(names.map((n, i) => [n, i % 3 === 0 ? 8 : null])));
}

function rate(run: () => void): { perSecond: number; iterations: number } {
  for (let i = 0; i < 20; i++) run(); // warm-up
  let iterations = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < DURATION_MS) {
    run();
    iterations++;
    elapsed = performance.now() - started;
  }
  return { perSecond: (iterations * 1000) / elapsed, iterations };
}

export async function run(): Promise<BenchResult[]> {
  const graph = syntheticMarket();
  const tokenIn = 'con_token_000';
  const tokenOut = 'con_token_017';
  const amount = ChainDecimal.parse('125.5');
  const direct = [...graph.byId.values()].find((p) => p.token0 === tokenIn || p.token1 === tokenIn)!;
  const directOut = direct.token0 === tokenIn ? direct.token1 : direct.token0;

  const single = rate(() => bestExactIn(graph, tokenIn, directOut, amount, { maxHops: 1, feeBps: 30, path: [direct.pairId] }));
  let considered = 0;
  const searchIn = rate(() => { considered = bestExactIn(graph, tokenIn, tokenOut, amount, { maxHops: 3, feeBps: 30 }).considered; });
  const searchOut = rate(() => bestExactOut(graph, tokenIn, tokenOut, amount, { maxHops: 3, feeBps: 30 }));
  const baseline = { name: 'single-pair quote', value: single.perSecond };
  return [
    { name: 'dex single-pair quote (baseline)', value: single.perSecond, unit: 'quotes/s' },
    {
      name: `dex 3-hop route search, exact in (${PAIRS} pairs, ${considered} routes)`, value: searchIn.perSecond, unit: 'quotes/s',
      baseline, ratio: single.perSecond / searchIn.perSecond, target: '≥ 100 quotes/s',
    },
    {
      name: `dex 3-hop route search, exact out (${PAIRS} pairs)`, value: searchOut.perSecond, unit: 'quotes/s',
      baseline, ratio: single.perSecond / searchOut.perSecond, target: '≥ 50 quotes/s',
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printTable(await run());
}
