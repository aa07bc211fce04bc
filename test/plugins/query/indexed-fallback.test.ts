import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { forEachDatabase } from '../../support/databases.js';
import { freePort } from '../../support/free-port.js';
import type { TestHost } from '../../support/test-host.js';
import { devAccount, NO_GRAPHQL, startHost, tempHome, type RunningHost } from '../wallet/chain-tool-kit.js';

/**
 * Upstream's fallback order for the indexed reads (mcp.md §4.6: the BDS path first, then the
 * fallback): one devnet with BDS and chainhost's GraphQL server over its database; a tool host
 * reading the node directly (the BDS paths answer) and one reading it through a proxy that
 * hides the BDS paths ("Unknown query path", as a node without BDS answers). Both read the same
 * chain and the same index, so each fallback answer must equal the BDS answer.
 */
const BDS_ROUTES = new Set([
  'bds_status', 'developer_rewards', 'blocks', 'block', 'block_by_hash', 'tx', 'txs_for_block', 'txs_by_sender', 'txs_by_contract',
  'events_for_tx', 'events', 'state_history', 'state_for_tx', 'state_for_block', 'token_balances', 'token_contracts', 'shielded_output_tags',
  'shielded_wallet_history',
]);

describe('query tools: the indexed reads fall back as upstream lists (BDS, then RPC or GraphQL)', function () {
  this.timeout(180_000);
  const A = devAccount(0);
  const B = devAccount(1);

  forEachDatabase((target) => {
    let indexer: TestHost;
    let proxy: http.Server;
    let home: Awaited<ReturnType<typeof tempHome>>;
    let direct: RunningHost;
    let fallback: RunningHost;
    let noGraphql: RunningHost;
    const sent: Array<{ tx_hash: string; height: number }> = [];

    before(async function () {
      const db = target.fresh({ suite: true });
      const { bootTestHost } = await import('../../support/test-host.js');
      const nodePort = await freePort();
      indexer = await bootTestHost({
        home: db.home,
        plugins: {
          devnet: { listen: true, port: nodePort, metricsPort: null, printAccounts: false },
          bds: { ...(db.url ? { databaseUrl: db.url } : {}), schema: db.schema },
          graphql: { host: '127.0.0.1', port: 0 },
        },
      });
      const rpcUrl = `http://127.0.0.1:${nodePort}`;
      const graphqlUrl = `${indexer.host.serverUrl('graphql')}/graphql`;
      proxy = await hideBdsPaths(rpcUrl);
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      home = await tempHome();
      direct = await startHost({ home: `${home.dir}/d`, node: { url: rpcUrl }, plugins: { wallet: {}, query: {} } }, { unsafe: true });
      fallback = await startHost({ home: `${home.dir}/f`, node: { url: proxyUrl }, plugins: { query: { graphqlUrl } } });
      noGraphql = await startHost({ home: `${home.dir}/n`, node: { url: proxyUrl }, plugins: { query: { graphqlUrl: NO_GRAPHQL } } });
      for (const amount of ['1.5', '2']) {
        const r = await direct.call('send_tokens', { private_key: A.privateKey, to_address: B.address, amount });
        assert.equal(r.error, undefined, JSON.stringify(r.error));
        sent.push({ tx_hash: r.result.tx_hash, height: Number(r.result.height ?? r.result.receipt?.height) });
      }
      const top = Math.max(...sent.map((s) => s.height));
      for (let i = 0; ; i++) {
        const s = await direct.call('get_bds_status');
        if (Number(s.result?.indexed_height ?? -1) >= top) break;
        if (i > 300) throw new Error(`BDS did not index block ${top}: ${JSON.stringify(s)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
    after(async () => {
      await direct?.stop();
      await fallback?.stop();
      await noGraphql?.stop();
      await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
      await indexer?.stop();
      await home?.remove();
    });

    /** The same tool call through the BDS path and through the fallback: both succeed with equal answers. */
    async function same(tool: string, args: Record<string, unknown>) {
      const [bds, other] = [await direct.call(tool, args), await fallback.call(tool, args)];
      assert.equal(bds.error, undefined, `${tool} via BDS: ${JSON.stringify(bds.error)}`);
      assert.equal(other.error, undefined, `${tool} via the fallback: ${JSON.stringify(other.error)}`);
      assert.deepEqual(other.result, bds.result, `${tool}(${JSON.stringify(args)})`);
      return bds.result;
    }

    it('get_bds_status on a node without BDS answers from the node\'s /status: available false and a warning alert', async () => {
      const bds = await direct.call('get_bds_status');
      const status = await noGraphql.call('get_bds_status');
      assert.equal(status.error, undefined, JSON.stringify(status.error));
      assert.deepEqual({ ...status.result, alerts: undefined }, {
        available: false, worker_running: false, catchup_running: false, catching_up: false, queue_depth: 0,
        current_block_height: bds.result.current_block_height, height_lag: null, indexed_height: null, spool_pending_count: 0, db_status: 'unavailable', alerts: undefined,
      });
      assert.deepEqual(status.result.alerts.map((a: { level: string; code: string }) => [a.level, a.code]), [['warning', 'bds_unavailable']]);
      assert.match(status.result.alerts[0].message, /no BDS block index \(it answers "Unknown query path: no_bds_here"\)/);
    });

    it('list_blocks, get_block and get_block_by_hash read the node\'s blocks: the same blocks the index holds, GraphQL or not', async () => {
      const blocks = await same('list_blocks', { limit: 3 });
      assert.deepEqual(blocks.items.map((b: { height: number }) => b.height), [3, 2, 1]);
      await same('list_blocks', { limit: 2, offset: 1 });
      await same('list_blocks', { limit: 5, offset: 50 });
      const block = await same('get_block', { height: sent[0]!.height });
      assert.equal(block.found, true);
      assert.equal(block.block.tx_count, 1);
      await same('get_block_by_hash', { block_hash: block.block.block_hash.toLowerCase() });
      assert.deepEqual((await same('get_block', { height: 999 })), { found: false, block: null });
      assert.deepEqual((await same('get_block_by_hash', { block_hash: 'CD'.repeat(32) })), { found: false, block: null });
      // The RPC fallback needs no GraphQL.
      assert.deepEqual((await noGraphql.call('get_block', { height: sent[0]!.height })).result, block);
    });

    it('transactions come from GraphQL as the BDS paths give them: by hash, for a block (height or hash), by sender, by contract', async () => {
      const tx = await same('get_indexed_tx', { tx_hash: sent[0]!.tx_hash.toLowerCase() });
      assert.equal(tx.transaction.tx_hash, sent[0]!.tx_hash);
      assert.deepEqual(tx.transaction.payload.kwargs, { amount: { __fixed__: '1.5' }, to: B.address }, 'JSON columns arrive decoded');
      const forBlock = await same('list_txs_for_block', { block_ref: sent[1]!.height });
      assert.deepEqual(forBlock.items.map((t: { tx_hash: string }) => t.tx_hash), [sent[1]!.tx_hash]);
      const hash = (await direct.call('get_block', { height: sent[1]!.height })).result.block.block_hash;
      await same('list_txs_for_block', { block_ref: hash.toLowerCase() });
      assert.deepEqual(await same('list_txs_for_block', { block_ref: 'EF'.repeat(32) }), { items: [] });
      const bySender = await same('list_txs_by_sender', { sender: A.address });
      assert.deepEqual(bySender.items.map((t: { tx_hash: string }) => t.tx_hash), [sent[1]!.tx_hash, sent[0]!.tx_hash], 'newest first');
      await same('list_txs_by_sender', { sender: A.address, limit: 1, offset: 1 });
      await same('list_txs_by_contract', { contract: 'currency' });
      await same('list_txs_by_contract', { contract: 'currency', limit: 1 });
    });

    it('events come from GraphQL as the BDS paths give them, data decoded', async () => {
      const forTx = await same('get_events_for_tx', { tx_hash: sent[0]!.tx_hash });
      assert.deepEqual(forTx.items.map((e: { event: string; data: unknown }) => [e.event, e.data]), [['Transfer', { amount: '1.5' }]]);
      const newest = await same('list_events', { contract: 'currency', event: 'Transfer' });
      assert.equal(newest.items.length, 2);
      await same('list_events', { contract: 'currency', event: 'Transfer', after_id: 0, limit: 1 });
    });

    it('state changes come from GraphQL as the BDS paths give them: history, of a transaction, of a block (height, hash, genesis)', async () => {
      const history = await same('get_state_history', { key: `currency.balances:${B.address}` });
      assert.deepEqual(history.items.map((c: { value: unknown }) => c.value), ['1000003.5', '1000001.5', { __fixed__: '1E+6' }], 'newest first, genesis last, values decoded');
      await same('get_state_history', { key: `currency.balances:${B.address}`, limit: 1, offset: 1 });
      const forTx = await same('get_state_for_tx', { tx_hash: sent[0]!.tx_hash });
      assert.ok(forTx.items.length >= 2, JSON.stringify(forTx));
      await same('get_state_for_block', { block_ref: sent[1]!.height });
      const hash = (await direct.call('get_block', { height: sent[1]!.height })).result.block.block_hash;
      await same('get_state_for_block', { block_ref: hash });
      const genesis = await same('get_state_for_block', { block_ref: 0 });
      assert.ok(genesis.items.length > 10, `genesis writes the initial state (${genesis.items.length} changes)`);
    });

    it('get_developer_rewards sums the developer rewards GraphQL lists exactly as the BDS path does', async () => {
      const rewards = await same('get_developer_rewards', { recipient_key: A.address });
      assert.equal(rewards.reward_count, 2, JSON.stringify(rewards));
      assert.deepEqual([rewards.tx_count, rewards.contract_count, rewards.first_block_height, rewards.last_block_height], [2, 1, sent[0]!.height, sent[1]!.height]);
      assert.match(rewards.total_rewards, /^\d+\.\d+$/);
      assert.deepEqual(await same('get_developer_rewards', { recipient_key: 'nobody' }), {
        recipient_key: 'nobody', total_rewards: '0', reward_count: 0, tx_count: 0, contract_count: 0,
        first_block_height: null, last_block_height: null, first_reward_at: null, last_reward_at: null,
      });
    });

    it('without GraphQL the GraphQL-backed reads say plainly that the node has no BDS and why GraphQL could not stand in', async () => {
      for (const [tool, args] of [
        ['get_developer_rewards', { recipient_key: A.address }], ['list_txs_for_block', { block_ref: 1 }], ['list_txs_by_sender', { sender: A.address }],
        ['list_txs_by_contract', { contract: 'currency' }], ['get_events_for_tx', { tx_hash: sent[0]!.tx_hash }], ['get_state_for_tx', { tx_hash: sent[0]!.tx_hash }],
        ['get_state_for_block', { block_ref: 1 }],
      ] as const) {
        const r = await noGraphql.call(tool, args);
        assert.equal(r.error?.code, 'bds_unavailable', `${tool}: ${JSON.stringify(r)}`);
        assert.equal(r.status, 503);
        assert.match(r.error!.message, new RegExp(`^${tool} needs the BDS block index, and the node has no BDS .*the GraphQL fallback at http://127\\.0\\.0\\.1:9/graphql did not answer either`));
      }
      // The shielded feeds have no fallback in the reference.
      const shielded = await fallback.call('list_shielded_output_tags', { tag_value: 'x' });
      assert.equal(shielded.error?.code, 'bds_unavailable');
      assert.doesNotMatch(shielded.error!.message, /GraphQL/);
    });

    // Last: it adds blocks the tests above do not expect.
    it('list_blocks over more than one RPC page (the node answers 20 block metas a call) equals the BDS listing', async () => {
      const [C, D] = [devAccount(2), devAccount(3)];
      let top = 0;
      for (let i = 0; i < 25; i++) {
        const r = await direct.call('send_tokens', { private_key: C.privateKey, to_address: D.address, amount: '1' });
        assert.equal(r.error, undefined, JSON.stringify(r.error));
        top = Number(r.result.height);
      }
      for (let i = 0; Number((await direct.call('get_bds_status')).result?.indexed_height ?? -1) < top; i++) {
        if (i > 300) throw new Error(`BDS did not index block ${top}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const all = await same('list_blocks', { limit: top });
      assert.deepEqual(all.items.map((b: { height: number }) => b.height), Array.from({ length: top }, (_, i) => top - i), 'every block down to 1, newest first');
      await same('list_blocks', { limit: 22, offset: 3 });
      await same('list_blocks', { limit: 2, offset: top - 2 });
      // Only the index has the genesis pseudo-block (height 0); the node's blocks start at 1.
      const [indexed, node] = [await direct.call('list_blocks', { limit: 1000 }), await fallback.call('list_blocks', { limit: 1000 })];
      assert.deepEqual(node.result.items, indexed.result.items.filter((b: { height: number }) => b.height > 0));
    });
  });
});

/**
 * The node as one without BDS shows it: JSON-RPC passed through, except that an `abci_query` of
 * a BDS route asks for a route the node does not have, so the node itself answers "Unknown query path".
 */
async function hideBdsPaths(rpcUrl: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', async () => {
      try {
        const body = JSON.parse(text);
        const path = body?.method === 'abci_query' ? String(body.params?.path ?? '') : '';
        if (BDS_ROUTES.has(path.split('/')[1] ?? '')) body.params.path = `/no_bds_here${path}`;
        const answer = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
      } catch (err) {
        res.writeHead(502).end(String(err));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
