import assert from 'node:assert/strict';
import { decodeAbciQuery } from '../../../../core/chain/abci-value.js';
import { ChainNode } from '../../../../core/chain/node.js';
import type { ResultAbciQuery } from '../../../../core/chain/rpc/cometbft-types.js';
import { parseQueryPath, QueryPathError, type QueryPathDefinition } from '../../../../core/query/query-path.js';
import type { DevAccount } from '../../../../plugins/devnet/node/devnet.js';
import { abciQuery, openDevnet, signedTx, txParam, valueText } from './devnet-fixture.js';

type Opened = Awaited<ReturnType<typeof openDevnet>>;

const contributed: Record<string, QueryPathDefinition> = {
  bds_status: {
    pattern: '/bds_status', description: 'test', capability: 'read',
    handler: () => ({ info: 'dict', text: '{"worker_running":true}' }),
  },
  get: { // may not shadow a core path
    pattern: '/get/<key>', description: 'shadow', capability: 'read',
    handler: () => ({ info: 'str', text: 'shadowed' }),
  },
  broken: {
    pattern: '/broken', description: 'throws', capability: 'read',
    handler: () => { throw new QueryPathError('BDS service is not initialized'); },
  },
  // Answers the wire cannot carry as they are: an empty value, lone surrogates, a keyed answer, and late ones.
  empty_text: {
    pattern: '/empty_text', description: 'empty', capability: 'read',
    handler: () => ({ info: 'str', text: '' }),
  },
  surrogates: {
    pattern: '/surrogates', description: 'lone surrogates', capability: 'read',
    handler: () => ({ info: 'str', text: 'a\uD800b\uDFFFc ✓', key: 'k\uDC00' }),
  },
  late_dict: {
    pattern: '/late_dict', description: 'async', capability: 'read',
    handler: async () => ({ info: 'dict', text: '{"big":123456789012345678901234567890,"x":[1,2]}' }),
  },
  never: {
    pattern: '/never', description: 'hangs', capability: 'read',
    handler: () => new Promise(() => undefined),
  },
  late_failure: {
    pattern: '/late_failure', description: 'async failure', capability: 'read',
    handler: async () => { throw new Error('database unreachable'); },
  },
};

describe('devnet abci_query (abci-query.md)', function () {
  let net: Opened;
  let accounts: DevAccount[];

  before(async () => {
    net = await openDevnet({
      accounts: 5,
      queryResolver: (path) => {
        const query = parseQueryPath(path);
        const definition = contributed[query.route];
        return definition ? { definition, query } : undefined;
      },
    });
    accounts = net.devnet.accounts();
    const [a, b] = accounts as [DevAccount, DevAccount];
    await net.devnet.rpc.call('broadcast_tx_commit', { tx: txParam(signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0, kwargs: { amount: 1, to: b.address } }).hex) });
  });
  after(async () => net.close());

  const height = async () => Number((await net.devnet.rpc.call<any>('status')).sync_info.latest_block_height);

  describe('height and prove (§1.1)', () => {
    it('height 0 and the exact committed height answer; the envelope reports the committed height', async () => {
      const h = await height();
      for (const asked of ['0', String(h)]) {
        const r = await abciQuery(net.devnet, '/health', { height: asked });
        assert.equal(r.code, 0);
        assert.equal(valueText(r), 'OK');
        assert.equal(r.height, String(h));
      }
    });

    it('any other height is refused with the explanation', async () => {
      const h = await height();
      const r = await abciQuery(net.devnet, '/health', { height: String(h - 1) });
      assert.equal(r.code, 1);
      assert.equal(r.log, `Unsupported query height ${h - 1}; only 0 or the latest committed height ${h} can be queried`);
      assert.equal(r.value, null);
      assert.equal(r.height, String(h));
    });

    it('prove=true is refused', async () => {
      const r = await abciQuery(net.devnet, '/health', { prove: true });
      assert.equal(r.code, 1);
      assert.equal(r.log, 'Query proofs are not supported; send prove=false');
    });
  });

  describe('routing and errors (§2-3)', () => {
    it('unknown path: code 1, value AA==, Unknown query path', async () => {
      const r = await abciQuery(net.devnet, '/nope/x');
      assert.deepEqual([r.code, r.value, r.info, r.log], [1, 'AA==', '', 'Unknown query path: nope']);
    });

    it('contributed paths answer after the core ones and never shadow them', async () => {
      assert.equal(valueText(await abciQuery(net.devnet, '/bds_status')), '{"worker_running":true}');
      const get = await abciQuery(net.devnet, `/get/currency.balances:${accounts[2]!.address}`);
      assert.equal(get.info, 'decimal');
    });

    it('a handler failure is code 1 with no value and a short reason', async () => {
      const r = await abciQuery(net.devnet, '/broken');
      assert.deepEqual([r.code, r.value, r.key, r.log], [1, null, null, 'BDS service is not initialized']);
      const bad = await abciQuery(net.devnet, '/scheduled_state_patches/abc');
      assert.equal(bad.code, 1);
      assert.equal(bad.value, null);
    });
  });

  describe('in-process decoded answers (ChainRpc.abciQueryDecoded)', () => {
    it('equal decoding the wire answer, for every kind of answer', async () => {
      const h = await height();
      const asked: Array<{ path: string; height?: number; prove?: boolean }> = [
        { path: `/get/currency.balances:${accounts[0]!.address}` },
        { path: '/get/currency.balances:nobody' },
        { path: '/get/rewards.S:value' },
        { path: '/get/chi_cost.S:value' },
        { path: '/contract_methods/currency' },
        { path: '/keys/currency.balances:?limit=2' },
        { path: '/health' }, { path: '/ping' },
        { path: '/nope/x' }, { path: '/broken' }, { path: '/scheduled_state_patches/abc' },
        { path: '/bds_status' }, { path: '/empty_text' }, { path: '/surrogates' }, { path: '/late_dict' }, { path: '/late_failure' },
        { path: '/health', height: h }, { path: '/health', height: h - 1 }, { path: '/health', prove: true },
      ];
      for (const { path, height: at = 0, prove = false } of asked) {
        const wire = await net.devnet.rpc.call<ResultAbciQuery>('abci_query', { path, data: '', height: String(at), prove });
        const decoded = await net.devnet.rpc.abciQueryDecoded({ path, height: at, prove });
        assert.deepEqual(decoded, decodeAbciQuery(wire), `${path} at ${at}${prove ? ' with prove' : ''}`);
      }
      const surrogates = await net.devnet.rpc.abciQueryDecoded({ path: '/surrogates', height: 0, prove: false });
      assert.deepEqual([surrogates.value?.text, surrogates.key], ['a\uFFFDb\uFFFDc ✓', 'k\uFFFD']);
      const late = await net.devnet.rpc.abciQueryDecoded({ path: '/late_dict', height: 0, prove: false });
      assert.deepEqual({ ...(late.value?.json as object) }, { big: 123456789012345678901234567890n, x: [1, 2] });
    });

    it('the node service reads through it, and its answers are never shared between calls', async () => {
      const node = new ChainNode(net.devnet.rpc);
      const path = `/get/currency.balances:${accounts[1]!.address}`;
      const first = await node.query(path);
      assert.deepEqual(first, decodeAbciQuery(await net.devnet.rpc.call<ResultAbciQuery>('abci_query', { path, data: '', height: '0', prove: false })));
      first.value!.text = 'changed';
      assert.notEqual((await node.query(path)).value?.text, 'changed');
      await assert.rejects(node.query(path, { data: 'xyz' }), /data must be hex bytes/);
      await assert.rejects(node.query(path, { height: -1 }), /height must be an integer from 0/);
      await assert.rejects(node.query(path, { signal: AbortSignal.abort(new Error('caller gave up')) }), /caller gave up/);
    });

    it('an answer still pending ends at the caller\'s deadline or abort, on both paths', async () => {
      const node = new ChainNode(net.devnet.rpc);
      await assert.rejects(node.query('/never', { timeoutMs: 50 }), /no answer within 50 ms/);
      await assert.rejects(node.abciQuery('/never', { timeoutMs: 50 }), /no answer within 50 ms/);
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('tool timed out')), 20);
      await assert.rejects(node.query('/never', { signal: controller.signal }), /tool timed out/);
    });
  });

  describe('core paths and value encodings (§3.1, §4)', () => {
    it('/get of a missing key has no value and info ""', async () => {
      const r = await abciQuery(net.devnet, '/get/currency.balances:nobody');
      assert.deepEqual([r.code, r.value, r.info], [0, null, '']);
    });

    it('/get of a dict uses the ABCI JSON normalisation; strings are raw', async () => {
      const rate = await abciQuery(net.devnet, '/get/chi_cost.S:value');
      assert.equal(rate.info, 'int');
      assert.equal(valueText(rate), '20');
      const split = await abciQuery(net.devnet, '/get/rewards.S:value');
      assert.equal(split.info, 'list');
      assert.equal(valueText(split), '["0.3","0.01","0.01","0.68"]');
      const src = await abciQuery(net.devnet, '/contract_source/currency');
      assert.equal(src.info, 'str');
      assert.match(valueText(src)!, /balances = Hash\(default_value=0\)/);
    });

    it('/ping, /health, /perf_status', async () => {
      assert.equal(valueText(await abciQuery(net.devnet, '/ping')), '{"status":"online"}');
      const perf = await abciQuery(net.devnet, '/perf_status');
      assert.equal(perf.info, 'dict');
      const body = JSON.parse(valueText(perf)!);
      assert.equal(body.enabled, false);
      assert.equal(body.pid, process.pid);
      assert.deepEqual(body.recent_blocks, []);
      assert.equal(body.parallel_execution_min_transactions, 8);
    });

    it('/contract_methods, /contract_vars, /contract_ir, /contract_info, /contracts', async () => {
      const methods = JSON.parse(valueText(await abciQuery(net.devnet, '/contract_methods/currency'))!);
      const transfer = methods.methods.find((m: any) => m.name === 'transfer');
      assert.deepEqual(transfer.arguments, [{ name: 'amount', type: 'float' }, { name: 'to', type: 'str' }]);
      const vars = JSON.parse(valueText(await abciQuery(net.devnet, '/contract_vars/currency'))!);
      assert.ok(vars.hashes.includes('balances'));
      const ir = await abciQuery(net.devnet, '/contract_ir/currency');
      assert.equal(ir.info, 'str');
      assert.equal(JSON.parse(valueText(ir)!).ir_version, 'xian_ir_v1');
      const info = JSON.parse(valueText(await abciQuery(net.devnet, '/contract_info/currency'))!);
      assert.equal(info.name, 'currency');
      assert.equal(info.has_source, true);
      assert.match(info.submitted_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const list = JSON.parse(valueText(await abciQuery(net.devnet, '/contracts/limit=2/sort=name/order=asc'))!);
      assert.equal(list.limit, 2);
      assert.equal(list.items.length, 2);
      assert.ok(list.total >= 5);
      assert.equal(list.sort, 'name');
      assert.equal(list.order, 'asc');
      assert.ok(list.items[0].name.toLowerCase() <= list.items[1].name.toLowerCase());
      assert.equal((await abciQuery(net.devnet, '/contract_source/con_nothing')).value, null);
    });

    it('validators_* paths answer as a node without a validators contract does', async () => {
      for (const path of ['/validators_policy', '/validators_active', '/validators_candidates', `/validators_validator/${accounts[0]!.address}`, '/validators_vote/1']) {
        const r = await abciQuery(net.devnet, path);
        assert.deepEqual([r.code, r.value, r.info], [0, null, ''], path);
      }
      for (const path of [`/validators_pending_unbonds/${accounts[0]!.address}`, '/validators_open_votes/limit=5', '/validators_vote_records/1']) {
        assert.equal(valueText(await abciQuery(net.devnet, path)), '[]', path);
      }
      assert.equal((await abciQuery(net.devnet, '/validators_vote/x')).code, 1, 'a bad id is a handler error');
    });

    it('/state_patch_bundles and /scheduled_state_patches/<h> answer lists', async () => {
      assert.equal(valueText(await abciQuery(net.devnet, '/state_patch_bundles')), '[]');
      const sched = await abciQuery(net.devnet, '/scheduled_state_patches/5');
      assert.equal(sched.info, 'list');
      assert.equal(valueText(sched), '[]');
    });
  });

  it('/perf_status with CHAIN_PERF_ENABLED=1 reports block timings', async () => {
    const saved = process.env.CHAIN_PERF_ENABLED;
    process.env.CHAIN_PERF_ENABLED = '1';
    const perfNet = await openDevnet({ accounts: 1 }).finally(() => {
      if (saved === undefined) delete process.env.CHAIN_PERF_ENABLED;
      else process.env.CHAIN_PERF_ENABLED = saved;
    });
    try {
      await perfNet.devnet.mine();
      const body = JSON.parse(valueText(await abciQuery(perfNet.devnet, '/perf_status'))!);
      assert.equal(body.enabled, true);
      assert.equal(body.chain_id, 'chain-local-1');
      assert.ok(body.recent_blocks.length >= 2);
      const stat = body.global_metrics.finalize_block;
      assert.deepEqual(Object.keys(stat).sort(), ['avg_ms', 'count', 'max_ms', 'min_ms', 'p95_ms', 'recent_sample_count', 'total_ms']);
      assert.ok(stat.count >= 2);
    } finally {
      await perfNet.close();
    }
  });

  describe('/keys cursor (§5)', () => {
    it('pages in UTF-8 order, with next_after only while more remain', async () => {
      const all = accounts.map((a) => a.address).sort();
      const seen: string[] = [];
      let after: string | null = null;
      for (let page = 0; page < 10; page++) {
        const r = await abciQuery(net.devnet, `/keys/currency.balances/limit=2${after ? `/after=${after}` : ''}`);
        assert.equal(r.info, 'dict');
        assert.equal(Buffer.from(r.key!, 'base64').toString(), 'currency.balances');
        const body = JSON.parse(valueText(r)!);
        assert.deepEqual(Object.keys(body), ['after', 'has_more', 'items', 'limit', 'next_after', 'prefix']);
        assert.equal(body.after, after);
        assert.equal(body.limit, 2);
        seen.push(...body.items);
        if (!body.has_more) {
          assert.equal(body.next_after, null);
          break;
        }
        assert.equal(body.next_after, body.items[body.items.length - 1]);
        after = body.next_after;
      }
      const balances = seen.filter((k) => /^[0-9a-f]{64}$/.test(k));
      assert.deepEqual(balances, all.filter((x) => balances.includes(x)));
      assert.ok(all.every((x) => seen.includes(x)));
      assert.deepEqual(seen, [...seen].sort());
    });

    it('a full-key cursor works the same as a suffix; limit is clamped to 1…200', async () => {
      const first = JSON.parse(valueText(await abciQuery(net.devnet, '/keys/currency.balances:/limit=1'))!);
      const suffix = first.items[0];
      const bySuffix = JSON.parse(valueText(await abciQuery(net.devnet, `/keys/currency.balances:/limit=1/after=${suffix}`))!);
      const byKey = JSON.parse(valueText(await abciQuery(net.devnet, `/keys/currency.balances:/limit=1/after=currency.balances:${suffix}`))!);
      assert.deepEqual(bySuffix.items, byKey.items);
      assert.notEqual(bySuffix.items[0], suffix);
      assert.equal(JSON.parse(valueText(await abciQuery(net.devnet, '/keys/currency.balances/limit=0'))!).limit, 1);
      assert.equal(JSON.parse(valueText(await abciQuery(net.devnet, '/keys/currency.balances/limit=5000'))!).limit, 200);
    });
  });
});
