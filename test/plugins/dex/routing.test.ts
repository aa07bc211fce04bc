import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ChainDecimal } from '../../../core/chain/decimal.js';
import { amountUnit, amountsOut, type Precision } from '../../../plugins/dex/amm.js';
import { PoolGraph, RouteError, bestExactIn, bestExactOut, type PoolState } from '../../../plugins/dex/routing.js';

const D = (s: string | number) => ChainDecimal.parse(String(s));

function pool(pairId: number, a: string, b: string, ra: string | number, rb: string | number): PoolState {
  const [token0, token1, reserve0, reserve1] = a < b ? [a, b, D(ra), D(rb)] : [b, a, D(rb), D(ra)];
  return { pairId, token0, token1, reserve0, reserve1 };
}

/** Every simple path from `from` to `to` of at most `maxHops` pairs. */
function allPaths(pools: PoolState[], from: string, to: string, maxHops: number): number[][] {
  const out: number[][] = [];
  const walk = (token: string, path: number[], seen: Set<string>) => {
    if (path.length >= maxHops) return;
    for (const p of pools) {
      if (p.reserve0.isZero() || p.reserve1.isZero()) continue;
      const other = p.token0 === token ? p.token1 : p.token1 === token ? p.token0 : null;
      if (!other || seen.has(other)) continue;
      if (other === to) out.push([...path, p.pairId]);
      else walk(other, [...path, p.pairId], new Set([...seen, other]));
    }
  };
  walk(from, [], new Set([from]));
  return out;
}

describe('dex routing: best route over liquid pairs', () => {
  const pools = [
    pool(1, 'currency', 'con_a', 1000, 1000),
    pool(2, 'currency', 'con_b', 1000, 2000),
    pool(3, 'con_a', 'con_b', 10, 10), // shallow direct pair
    pool(4, 'con_b', 'con_c', 5000, 5000),
    pool(5, 'con_a', 'con_c', 0, 0), // empty: never routed
  ];
  const graph = new PoolGraph(pools, new Map<string, Precision>([['con_a', 8], ['con_b', null], ['con_c', 2]]));

  it('prefers a deeper 2-hop route to a shallow direct pair (exact in)', () => {
    const r = bestExactIn(graph, 'con_a', 'con_b', D('5'), { maxHops: 3, feeBps: 30 });
    assert.deepEqual(r.best!.path, [1, 2]);
    assert.deepEqual(r.best!.tokens, ['con_a', 'currency', 'con_b']);
    assert.equal(r.considered, 2); // direct [3] and via currency [1, 2]; con_a/con_c is empty
    const direct = bestExactIn(graph, 'con_a', 'con_b', D('5'), { maxHops: 1, feeBps: 30 });
    assert.deepEqual(direct.best!.path, [3]);
    assert.equal(direct.best!.amounts[1]!.lt(r.best!.amounts[2]!), true);
  });

  it('never routes through an empty pair and reports no route', () => {
    const r = bestExactIn(graph, 'con_c', 'con_a', D('1'), { maxHops: 1, feeBps: 30 });
    assert.equal(r.best, null);
    assert.equal(r.considered, 0);
  });

  it('an explicit path is validated like the router does', () => {
    assert.throws(() => bestExactIn(graph, 'con_a', 'con_b', D('1'), { maxHops: 3, feeBps: 30, path: [2] }), (e: RouteError) => e.reason === 'SNAKX: INVALID_PATH');
    assert.throws(() => bestExactIn(graph, 'con_a', 'con_b', D('1'), { maxHops: 3, feeBps: 30, path: [99] }), (e: RouteError) => e.reason === 'SNAKX: INVALID_PAIR');
    assert.throws(() => bestExactIn(graph, 'con_a', 'con_b', D('1'), { maxHops: 3, feeBps: 30, path: [1] }), /path ends at currency/);
    const r = bestExactIn(graph, 'con_a', 'con_b', D('1'), { maxHops: 3, feeBps: 30, path: [3] });
    assert.deepEqual(r.best!.path, [3]);
  });

  it('exact out: the least input that delivers at least the amount, confirmed forwards', () => {
    const want = D('7.25');
    const r = bestExactOut(graph, 'con_a', 'con_c', want, { maxHops: 3, feeBps: 30 });
    const route = r.best!;
    assert.deepEqual(route.path, [1, 2, 4]);
    const input = route.amounts[0]!;
    assert.equal(route.amounts[route.amounts.length - 1]!.gte(want), true);
    assert.equal(input.fractionDigits() <= 8, true, 'input rounded to con_a precision');
    const less = input.minus(amountUnit(8));
    const hops = graph.orient('con_a', route.path).hops;
    const out = amountsOut(less, 8, hops, 30);
    assert.equal(out[out.length - 1]!.lt(want), true, 'one unit less does not deliver');
  });

  it('the search equals brute force over all simple paths (property)', () => {
    const tokens = ['currency', 'con_a', 'con_b', 'con_c', 'con_d'];
    const arb = fc.array(
      fc.record({
        a: fc.integer({ min: 0, max: 4 }), b: fc.integer({ min: 0, max: 4 }),
        ra: fc.integer({ min: 1, max: 1_000_000 }), rb: fc.integer({ min: 1, max: 1_000_000 }),
      }),
      { minLength: 1, maxLength: 9 },
    );
    fc.assert(fc.property(arb, fc.integer({ min: 1, max: 5000 }), fc.constantFrom(0, 30), (specs, amount, fee) => {
      const seen = new Set<string>();
      const ps: PoolState[] = [];
      for (const s of specs) {
        if (s.a === s.b) continue;
        const key = [tokens[s.a], tokens[s.b]].sort().join('/');
        if (seen.has(key)) continue;
        seen.add(key);
        ps.push(pool(ps.length + 1, tokens[s.a]!, tokens[s.b]!, s.ra, s.rb));
      }
      const g = new PoolGraph(ps, new Map());
      const r = bestExactIn(g, 'currency', 'con_d', D(amount), { maxHops: 3, feeBps: fee });
      let best: ChainDecimal | null = null;
      for (const path of allPaths(ps, 'currency', 'con_d', 3)) {
        const out = amountsOut(D(amount), null, g.orient('currency', path).hops, fee);
        const last = out[out.length - 1]!;
        if (!best || last.gt(best)) best = last;
      }
      if (best === null) assert.equal(r.best, null);
      else assert.equal(r.best!.amounts[r.best!.amounts.length - 1]!.toString(), best.toString());
    }), { numRuns: 200 });
  });
});
