import assert from 'node:assert/strict';
import { Devnet } from '../../../plugins/devnet/node/devnet.js';
import { devAccount, expectError, MY_PLUGINS, startHost, tempHome, type RunningHost } from '../wallet/chain-tool-kit.js';
import { everyToolScenarios } from '../wallet/tool-scenarios.js';

/**
 * The tools against a standalone devnet over real HTTP: `devnet.listen` on port 0 and hosts
 * whose `node.url` points at it (no devnet plugin), as with a remote node.
 */
describe('tools against a standalone devnet over HTTP (node.url)', function () {
  this.timeout(60_000);
  let home: Awaited<ReturnType<typeof tempHome>>;
  let devnet: Devnet;
  let rpcUrl: string;
  let running: RunningHost;

  before(async () => {
    home = await tempHome();
    devnet = await Devnet.open({ home: `${home.dir}/devnet` });
    ({ rpcUrl } = await devnet.listen({ host: '127.0.0.1', port: 0, metricsPort: null }));
    running = await startHost(
      { home: `${home.dir}/host`, node: { url: rpcUrl }, plugins: Object.fromEntries(MY_PLUGINS.map((p) => [p, {}])) },
      { unsafe: true },
    );
  });
  after(async () => {
    await running?.stop();
    await devnet?.close();
    await home?.remove();
  });

  everyToolScenarios(() => running.call);

  describe('when CHAIN_ID differs from the node\'s network', () => {
    let other: RunningHost;
    before(async () => {
      other = await startHost(
        { home: `${home.dir}/other`, chainId: 'other-chain-1', includeRaw: true, node: { url: rpcUrl }, plugins: { wallet: {}, query: {} } },
        { unsafe: true },
      );
    });
    after(() => other?.stop());

    it('submitting tools refuse with chain_id_mismatch (409) naming both ids; nothing is sent', async () => {
      const A = devAccount(0);
      const before = await other.call('get_next_nonce', { address: A.address });
      const outcome = await other.call('send_tokens', { private_key: A.privateKey, to_address: devAccount(1).address, amount: '1' });
      const error = expectError(outcome, { code: 'chain_id_mismatch', status: 409, match: /other-chain-1.*chain-local-1/ });
      assert.deepEqual(error.details, { configured_chain_id: 'other-chain-1', node_chain_id: 'chain-local-1' });
      assert.equal((await other.call('get_next_nonce', { address: A.address })).result.nonce, before.result.nonce);
    });

    it('read tools answer with a warning naming CHAIN_ID', async () => {
      const r = await other.call('get_balance', { address: devAccount(0).address });
      assert.equal(r.ok, true);
      assert.equal(r.result.warnings.length, 1);
      assert.match(r.result.warnings[0], /CHAIN_ID is "other-chain-1".*"chain-local-1"/);
      const status = await other.call('get_node_status');
      assert.equal(status.result.chain_id_matches, false);
      assert.equal(status.result.configured_chain_id, 'other-chain-1');
    });

    it('CHAIN_INCLUDE_RAW adds the raw node payloads under raw', async () => {
      const r = await other.call('get_balance', { address: devAccount(0).address });
      assert.equal(r.result.raw.abci_query.info, 'decimal');
      const plain = await running.call('get_balance', { address: devAccount(0).address });
      assert.equal(plain.result.raw, undefined);
    });
  });

  describe('two hosts sending from one key (two nonce lanes on one node)', () => {
    let second: RunningHost;
    before(async () => {
      second = await startHost({ home: `${home.dir}/second`, node: { url: rpcUrl }, plugins: { wallet: {}, query: {} } }, { unsafe: true });
    });
    after(() => second?.stop());

    it('interleaved and concurrent sends all land: the pending-aware node nonce wins over a stale local one', async () => {
      const A = devAccount(5);
      const to = devAccount(6).address;
      const send = (h: RunningHost) => h.call('send_tokens', { private_key: A.privateKey, to_address: to, amount: '1' });
      for (const h of [running, second, running, second]) assert.equal((await send(h)).ok, true);
      const both = await Promise.all([send(running), send(second), send(running)]);
      for (const o of both) assert.equal(o.ok, true, o.error?.message);
      assert.equal((await running.call('get_next_nonce', { address: A.address })).result.nonce, 7);
    });
  });

  describe('when the node is unreachable', () => {
    let dead: RunningHost;
    before(async () => {
      dead = await startHost({ home: `${home.dir}/dead`, node: { url: 'http://127.0.0.1:9' }, plugins: { query: {} } });
    });
    after(() => dead?.stop());

    it('read tools answer 502 node_unavailable', async () => {
      const outcome = await dead.call('get_balance', { address: devAccount(0).address });
      expectError(outcome, { code: 'node_unavailable', status: 502, match: /CHAIN_NODE_URL/ });
    });
  });
});
