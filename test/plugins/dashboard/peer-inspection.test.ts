import assert from 'node:assert/strict';
import { request } from '../../support/test-host.js';
import { normalizeRpcUrl } from '../../../plugins/dashboard/reads/node-targets.js';
import { bootDashboardHost, RELAXED_LIMITS, transfer, type DashboardHost } from './support/dashboard-host.js';

describe('dashboard peer inspection (?rpc=): only the configured node and its known peers', function () {
  this.timeout(60_000);

  describe('RPC URL normalisation (dashboard.md §1.1)', () => {
    const cases: Array<[string, string | null]> = [
      ['http://127.0.0.1:26657/', 'http://127.0.0.1:26657'],
      ['tcp://0.0.0.0:26657', 'http://0.0.0.0:26657'],
      ['tcp://::1:26657', 'http://[::1]:26657'],
      ['unix://node:26657', 'http://node:26657'],
      ['10.0.0.5:26657', 'http://10.0.0.5:26657'],
      ['https://rpc.example.org/cometbft/', 'https://rpc.example.org/cometbft'],
      ['ftp://example.org', null],
      ['http://user:pw@example.org', null],
      ['http://example.org/?x=1', null],
    ];
    for (const [input, expected] of cases) {
      it(`${input} → ${expected}`, () => assert.equal(normalizeRpcUrl(input), expected));
    }
  });

  describe('against a devnet that also listens on HTTP', () => {
    let h: DashboardHost;
    let rpcUrl: string;
    before(async () => {
      h = await bootDashboardHost({ devnet: { listen: true }, dashboard: { ...RELAXED_LIMITS, peerInspection: { allowListTtlMs: 0 } } });
      await transfer(h, 'peer_friend', 1);
      const status = await h.node.status();
      rpcUrl = status.node_info.other.rpc_address.replace('tcp://', 'http://');
      assert.notEqual(rpcUrl, 'http://127.0.0.1:26657', 'the devnet advertises the port it listens on');
    });
    after(() => h?.stop());

    it('the node\'s own advertised RPC address may be inspected, over HTTP', async () => {
      const res = await request(h.url(`/api/status?rpc=${encodeURIComponent(rpcUrl)}`));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.node_info.network, h.chainId);
      const block = await request(h.url(`/api/block/2?rpc=${encodeURIComponent(rpcUrl.replace('http://', 'tcp://'))}`));
      assert.equal(block.status, 200);
      assert.equal(block.json.decoded_txs.length, 1);
    });

    it('any other address is refused, however it is written', async () => {
      for (const target of ['http://127.0.0.1:1', 'http://localhost:26658', 'http://169.254.169.254/latest', 'http://10.0.0.1:26657']) {
        const res = await request(h.url(`/api/status?rpc=${encodeURIComponent(target)}`));
        assert.equal(res.status, 400, target);
        assert.equal(res.json.error.code, 'unsupported_rpc_target');
      }
    });

    it('/api/config ignores ?rpc=, and the explorer carries ?rpc= on its links', async () => {
      const config = await request(h.url(`/api/config?rpc=${encodeURIComponent('http://10.0.0.1:1')}`));
      assert.equal(config.status, 200);
      const page = await request(h.url(`/explorer?rpc=${encodeURIComponent(rpcUrl)}`));
      assert.equal(page.status, 200);
      assert.match(page.text, /Inspecting peer/);
      assert.ok(page.text.includes(`/explorer/block/2?rpc=${encodeURIComponent(rpcUrl)}`), 'links keep the inspected peer');
      assert.ok(page.text.includes(`name="rpc" value="${rpcUrl}"`), 'and so does the search form');
    });
  });
});
