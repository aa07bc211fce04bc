import assert from 'node:assert/strict';
import { compactJson } from '../../../core/chain/canonical-json.js';
import type { ChainNode } from '../../../core/chain/node.js';
import { ApiError } from '../../../core/errors.js';
import { QueryPathRegistry } from '../../../core/query/query-path-registry.js';
import type { DexServices } from '../../../plugins/dex/dex-services.js';
import { DEFAULT_DEX_CONTRACTS, DexReader } from '../../../plugins/dex/dex-state.js';
import { eventSources } from '../../../plugins/dex/dex-events.js';
import { listIndexedEvents } from '../../../plugins/dex/event-history.js';

interface Row { id: number; contract: string; event: string; data: string; data_indexed: unknown }

/** A BDS stand-in: `/events/<c>/<e>/limit=/after_id=` over an in-memory table, as bds.md §6.3 answers it. */
function fakeBds(rows: Row[]): QueryPathRegistry {
  const registry = new QueryPathRegistry();
  registry.list.add('bds', {
    pattern: '/events/<contract>/<event>/limit=<n>/after_id=<cursor>',
    description: 'test',
    capability: 'read',
    handler(q) {
      const [contract, event] = q.parts;
      const after = Number(q.params.after_id ?? 0);
      const limit = Number(q.params.limit ?? 100);
      const items = rows.filter((r) => r.contract === contract && r.event === event && r.id > after).sort((a, b) => a.id - b.id).slice(0, limit);
      return { info: 'list', text: compactJson(items as never, { asciiOnly: true, sortKeys: true }) };
    },
  });
  return registry;
}

function services(registry: QueryPathRegistry | null, node: Partial<ChainNode> = {}): DexServices {
  const n = node as ChainNode;
  return {
    node: n, reader: new DexReader(n), registry: null as never, chainId: 'chain-local-1', market: { maxScanPairs: 500 }, now: Date.now,
    sender: () => { throw new Error('unused'); }, guard: null, waitTimeoutMs: 1000, includeRaw: false, blockTime: null, safetyBlocks: 2, queryPaths: () => registry, signers: null as never,
  };
}

describe('dex events: indexed history with the after_id cursor', () => {
  const names = ['Swap', 'Sync', 'Mint'];
  const rows: Row[] = Array.from({ length: 30 }, (_, i) => ({
    id: i + 1, contract: 'con_pairs', event: names[i % 3]!, data: JSON.stringify({ n: i + 1 }), data_indexed: { pair: 1 },
  }));
  rows.push({ id: 31, contract: 'con_dex', event: 'ZeroFeeTraderUpdated', data: '{"enabled":true}', data_indexed: { account: 'a' } });

  it('sources: every DEX event by default; narrowed by contract/event; LP tokens need an event', () => {
    const all = eventSources(DEFAULT_DEX_CONTRACTS);
    assert.equal(Array.isArray(all) && all.length, 7);
    assert.deepEqual(eventSources(DEFAULT_DEX_CONTRACTS, 'con_pairs', 'Swap'), [{ contract: 'con_pairs', event: 'Swap' }]);
    assert.deepEqual(eventSources(DEFAULT_DEX_CONTRACTS, undefined, 'Swap'), [{ contract: 'con_pairs', event: 'Swap' }]);
    assert.match((eventSources(DEFAULT_DEX_CONTRACTS, 'con_pairs', 'Transfer') as { error: string }).error, /not Transfer/);
    assert.match((eventSources(DEFAULT_DEX_CONTRACTS, 'con_lp_x') as { error: string }).error, /give event/);
    assert.deepEqual(eventSources(DEFAULT_DEX_CONTRACTS, 'con_lp_x', 'Transfer'), [{ contract: 'con_lp_x', event: 'Transfer' }]);
  });

  it('merges the sources by id; paging with next_after_id visits every event once, in order', async () => {
    const dex = services(fakeBds(rows));
    const sources = eventSources(DEFAULT_DEX_CONTRACTS) as Array<{ contract: string; event: string }>;
    const seen: number[] = [];
    let cursor = 0;
    for (let page = 0; page < 10; page++) {
      const p = await listIndexedEvents(dex, sources, 7, cursor);
      if (!p.items.length) break;
      seen.push(...p.items.map((i) => i.id));
      assert.equal(p.nextAfterId, p.items[p.items.length - 1]!.id);
      cursor = p.nextAfterId;
    }
    assert.deepEqual(seen, Array.from({ length: 31 }, (_, i) => i + 1));
    const empty = await listIndexedEvents(dex, sources, 7, cursor);
    assert.equal(empty.items.length, 0);
    assert.equal(empty.nextAfterId, cursor, 'an empty page keeps the cursor');
  });

  it('decodes JSONB sent as JSON text', async () => {
    const p = await listIndexedEvents(services(fakeBds(rows)), [{ contract: 'con_pairs', event: 'Swap' }], 1, 0);
    assert.deepEqual(p.items[0]!.data, { n: 1 });
  });

  it('without a local BDS it asks the node; a node without BDS paths is 503 bds_unavailable', async () => {
    const node = {
      query: async () => ({ code: 1, log: 'Unknown query path: events', info: '', key: '', height: '5', codespace: '', value: null }),
    } as unknown as ChainNode;
    await assert.rejects(listIndexedEvents(services(null, node), [{ contract: 'con_pairs', event: 'Swap' }], 10, 0),
      (e: ApiError) => e.code === 'bds_unavailable' && e.status === 503 && /load the bds plugin/.test(e.message));
  });
});
