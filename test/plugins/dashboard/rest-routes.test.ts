import assert from 'node:assert/strict';
import { request } from '../../support/test-host.js';
import { bootDashboardHost, RELAXED_LIMITS, transfer, type DashboardHost } from './support/dashboard-host.js';

async function getJson(h: DashboardHost, path: string, status = 200): Promise<any> {
  const res = await request(h.url(path));
  assert.equal(res.status, status, `${path} → ${res.status}: ${res.text.slice(0, 400)}`);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  return res.json;
}

describe('dashboard REST routes (spec part 4, dashboard.md §3–4) against the devnet', function () {
  this.timeout(60_000);
  let h: DashboardHost;
  let sent: { hash: string; height: string };
  let sender: string;

  before(async () => {
    h = await bootDashboardHost({ dashboard: RELAXED_LIMITS });
    sender = h.accounts[0]!.address;
    sent = await transfer(h, 'my_friend', 5);
  });
  after(() => h?.stop());

  describe('node', () => {
    it('/api/config names the configured node and never a secret', async () => {
      const body = await getJson(h, '/api/config');
      assert.equal(body.default_rpc_url, 'http://127.0.0.1:26657');
      assert.equal(body.node, 'in-process');
      assert.equal(body.websocket_path, '/ws');
    });

    it('/api/status is the CometBFT status result', async () => {
      const body = await getJson(h, '/api/status');
      assert.equal(body.node_info.network, h.chainId);
      assert.match(body.sync_info.latest_block_height, /^\d+$/);
      assert.ok(body.validator_info.pub_key.value);
    });

    it('/api/net_info, /api/consensus are verbatim', async () => {
      const net = await getJson(h, '/api/net_info');
      assert.equal(typeof net.listening, 'boolean');
      assert.ok(Array.isArray(net.peers));
      const consensus = await getJson(h, '/api/consensus');
      assert.match(consensus.round_state['height/round/step'], /^\d+\/\d+\/\d+$/);
    });

    it('/api/validators pages (default 100 per page) instead of stopping at 30', async () => {
      const body = await getJson(h, '/api/validators');
      assert.equal(body.validators.length, 1);
      assert.equal(body.total, '1');
      assert.equal((await getJson(h, '/api/validators?page=1&per_page=1')).validators.length, 1);
    });

    it('/api/validator_dashboard has every key, with the local account from the validator key', async () => {
      const body = await getJson(h, '/api/validator_dashboard');
      assert.deepEqual(Object.keys(body).sort(), ['active_validators', 'local_account', 'local_pending_unbonds', 'local_validator', 'open_votes', 'pending_candidates', 'policy']);
      const status = await getJson(h, '/api/status');
      assert.equal(body.local_account, Buffer.from(status.validator_info.pub_key.value, 'base64').toString('hex'));
      assert.ok(Array.isArray(body.active_validators) && Array.isArray(body.open_votes));
    });

    it('/api/monitoring reports perf, BDS and the mempool', async () => {
      const body = await getJson(h, '/api/monitoring');
      assert.equal(typeof body.perf.enabled, 'boolean');
      assert.equal(body.perf.snapshot.parallel_execution_enabled, false);
      assert.deepEqual(body.bds, { enabled: false }, 'no BDS in this host');
      assert.equal(body.unconfirmed_txs.n_txs, '0');
    });
  });

  describe('blocks and transactions', () => {
    it('/api/blockchain lists block metas, highest first, with snake_case bounds', async () => {
      const all = await getJson(h, '/api/blockchain');
      assert.ok(all.block_metas.length >= 2);
      assert.ok(Number(all.block_metas[0].header.height) > Number(all.block_metas[1].header.height));
      const one = await getJson(h, `/api/blockchain?min_height=${sent.height}&max_height=${sent.height}`);
      assert.deepEqual(one.block_metas.map((m: any) => m.header.height), [sent.height]);
    });

    it('/api/block/{height} adds decoded_txs with the CometBFT tx_hash', async () => {
      const body = await getJson(h, `/api/block/${sent.height}`);
      assert.equal(body.block.header.height, sent.height);
      assert.equal(body.decoded_txs.length, 1);
      const tx = body.decoded_txs[0];
      assert.equal(tx.tx_hash, sent.hash);
      assert.equal(tx.payload.contract, 'currency');
      assert.equal(tx.payload.function, 'transfer');
      assert.equal(tx.payload.sender, sender);
      assert.ok(tx.metadata.signature);
    });

    it('/api/block_results/{height} adds data_decoded (the execution output)', async () => {
      const body = await getJson(h, `/api/block_results/${sent.height}`);
      const r = body.txs_results[0];
      assert.equal(r.code, 0);
      assert.equal(r.data_decoded.status, 0);
      assert.ok(r.data_decoded.state.some((w: any) => w.key === 'currency.balances:my_friend'));
      assert.equal(r.data_decoded.events[0].event, 'Transfer');
    });

    it('/api/tx/{hash} adds tx_decoded and tx_result.data_decoded; 0x and lowercase are accepted', async () => {
      for (const form of [sent.hash, `0x${sent.hash.toLowerCase()}`]) {
        const body = await getJson(h, `/api/tx/${form}`);
        assert.equal(body.hash, sent.hash);
        assert.equal(body.height, sent.height);
        assert.equal(body.tx_decoded.payload.kwargs.to, 'my_friend');
        assert.equal(body.tx_decoded.tx_hash, sent.hash);
        assert.equal(body.tx_result.data_decoded.status, 0);
        assert.ok(typeof body.tx_result.data === 'string', 'the raw data stays');
      }
    });

    it('/api/unconfirmed_txs lists the mempool with decoded_txs', async () => {
      const body = await getJson(h, '/api/unconfirmed_txs?limit=5');
      assert.equal(body.n_txs, '0');
      assert.deepEqual(body.decoded_txs, []);
    });
  });

  describe('contracts', () => {
    it('/api/contract/{name} has source, methods, variables and metadata, and no code keys', async () => {
      const body = await getJson(h, '/api/contract/currency');
      assert.equal(body.name, 'currency');
      assert.match(body.source, /def transfer/);
      assert.equal(body.has_original_source, true);
      const transferMethod = body.methods.find((m: any) => m.name === 'transfer');
      assert.deepEqual(transferMethod.arguments.map((a: any) => a.name), ['amount', 'to']);
      assert.ok(body.variables.hashes.includes('balances'));
      assert.equal(body.metadata.name, 'currency');
      assert.equal(body.summary, null, 'the summary needs BDS');
      assert.ok(!('code' in body) && !('runtime_code' in body));
    });

    it('/api/contracts pages and sorts the deployed contracts', async () => {
      const body = await getJson(h, '/api/contracts?limit=3&sort=name&order=asc');
      assert.equal(body.items.length, 3);
      const names = body.items.map((i: any) => i.name);
      assert.deepEqual(names, [...names].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
      assert.equal(body.limit, 3);
      assert.ok(body.total >= 3);
      const next = await getJson(h, '/api/contracts?limit=3&offset=3&sort=name&order=asc');
      assert.notDeepEqual(next.items.map((i: any) => i.name), names);
    });
  });

  describe('ABCI pass-through with decoded key and value', () => {
    it('get/<key>: a key containing "_" and ":"', async () => {
      const body = await getJson(h, '/api/abci_query/get/currency.balances:my_friend');
      assert.equal(body.response.code, 0);
      assert.equal(body.response.key, 'currency.balances:my_friend');
      assert.equal(body.response.value, 5);
      assert.equal(body.response.info, 'int');
      assert.match(body.response.height, /^\d+$/);
    });

    it('get/<key> of an unset key: value null', async () => {
      const body = await getJson(h, '/api/abci_query/get/currency.balances:nobody_here');
      assert.equal(body.response.value, null);
    });

    it('keys/<prefix>/limit=<n> returns the cursor object with next_after', async () => {
      const body = await getJson(h, '/api/abci_query/keys/currency.balances/limit=2');
      assert.equal(body.response.key, 'currency.balances');
      assert.equal(body.response.value.items.length, 2);
      assert.equal(body.response.value.has_more, true);
      assert.equal(body.response.value.next_after, body.response.value.items[1]);
    });

    it('get_next_nonce, contract_source, contract_methods, contract_ir, perf_status', async () => {
      assert.equal((await getJson(h, `/api/abci_query/get_next_nonce/${sender}`)).response.value, 1);
      assert.match((await getJson(h, '/api/abci_query/contract_source/currency')).response.value, /def transfer/);
      assert.ok((await getJson(h, '/api/abci_query/contract_methods/currency')).response.value.methods.length > 0);
      const ir = await getJson(h, '/api/abci_query/contract_ir/currency');
      assert.equal(ir.response.info, 'str');
      assert.equal(typeof (await getJson(h, '/api/abci_query/perf_status')).response.value.enabled, 'boolean');
    });

    it('simulate_tx/<hex> dry-runs a call and discards its writes', async () => {
      const payload = { sender, contract: 'currency', function: 'transfer', kwargs: { amount: 1, to: 'dry_run_friend' } };
      const hex = Buffer.from(JSON.stringify(payload)).toString('hex');
      const body = await getJson(h, `/api/abci_query/simulate_tx/${hex}`);
      assert.equal(body.response.value.status, 0);
      assert.ok(body.response.value.chi_used > 0);
      assert.ok(body.response.value.state.some((w: any) => w.key === 'currency.balances:dry_run_friend'));
      assert.equal((await getJson(h, '/api/abci_query/get/currency.balances:dry_run_friend')).response.value, null);
    });

    it('percent-encoded paths are decoded once', async () => {
      const body = await getJson(h, '/api/abci_query/get/currency.balances%3Amy_friend');
      assert.equal(body.response.key, 'currency.balances:my_friend');
    });
  });

  describe('integers beyond 2^53 stay exact', () => {
    it('renders bigint values as integer literals', async () => {
      const { toJsonText } = await import('../../../plugins/dashboard/http/json-response.js');
      assert.equal(toJsonText({ a: 2n ** 64n, b: [1.5, undefined], c: undefined }), '{"a":18446744073709551616,"b":[1.5,null]}');
    });
  });
});
