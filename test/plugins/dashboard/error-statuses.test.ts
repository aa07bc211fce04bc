import assert from 'node:assert/strict';
import net from 'node:net';
import { request, type RawResponse } from '../../support/test-host.js';
import { bootDashboardHost, RELAXED_LIMITS, SLOW_NODE_PLUGIN, transfer, type DashboardHost } from './support/dashboard-host.js';
import { slowNode } from './support/slow-node.plugin.js';

function assertError(res: RawResponse, status: number, code: string, message?: RegExp): void {
  assert.equal(res.status, status, res.text.slice(0, 400));
  assert.deepEqual(Object.keys(res.json ?? {}), ['error'], 'the one error shape');
  assert.equal(res.json.error.code, code);
  assert.equal(typeof res.json.error.message, 'string');
  assert.ok('details' in res.json.error);
  if (message) assert.match(res.json.error.message, message);
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('dashboard error statuses: never an unexplained 500', function () {
  this.timeout(60_000);

  describe('with the default simulate.maxPayloadHexChars (16,384)', () => {
    let d: DashboardHost;
    before(async () => { d = await bootDashboardHost({ dashboard: { ...RELAXED_LIMITS } }); });
    after(() => d?.stop());

    it('a simulate_tx URL over Node\'s 16 KiB header cap reaches the route: a payload at the cap runs, one past it is 413 payload_too_large', async () => {
      const atCap = Buffer.from(JSON.stringify({ pad: 'x'.repeat(8192 - 10) })).toString('hex'); // 16,384 hex characters
      assert.equal(atCap.length, 16_384);
      const ran = await request(d.url('/api/abci_query/simulate_tx/' + atCap));
      assert.equal(ran.status, 200, ran.text.slice(0, 300));
      assert.match(ran.text, /simulation payload missing sender/, 'the node answered the dry run');
      assertError(await request(d.url('/api/abci_query/simulate_tx/' + 'ab'.repeat(9_000))), 413, 'payload_too_large', /18000 hex characters; at most 16384/);
    });
  });

  describe('with the devnet', () => {
    let h: DashboardHost;
    let height: string;
    before(async () => {
      h = await bootDashboardHost({ dashboard: { ...RELAXED_LIMITS, simulate: { maxPayloadHexChars: 64 } } });
      ({ height } = await transfer(h, 'someone', 1));
    });
    after(() => h?.stop());
    const get = (p: string) => request(h.url(p));

    it('a block above the chain height is 404', async () => {
      assertError(await get(`/api/block/${Number(height) + 1000}`), 404, 'not_found', /block \d+ not found/);
      assertError(await get(`/api/block_results/${Number(height) + 1000}`), 404, 'not_found');
    });

    it('an unknown transaction is 404', async () => {
      assertError(await get(`/api/tx/${'AB'.repeat(32)}`), 404, 'not_found', /transaction (AB){32} not found/);
    });

    it('a name with nothing deployed under it is 404', async () => {
      assertError(await get('/api/contract/con_does_not_exist'), 404, 'not_found', /contract con_does_not_exist not found/);
    });

    it('a simulate_tx payload over simulate.maxPayloadHexChars is 413 payload_too_large naming hex_payload', async () => {
      const res = await get('/api/abci_query/simulate_tx/' + 'ab'.repeat(40));
      assertError(res, 413, 'payload_too_large', /80 hex characters; at most 64/);
      assert.equal(res.json.error.details.parameter, 'hex_payload');
    });

    it('a request line beyond the server\'s header cap is 431 payload_too_large in the error shape, not Node\'s bare 431', async () => {
      assertError(await get('/api/abci_query/simulate_tx/' + 'ab'.repeat(200_000)), 431, 'payload_too_large', /exceed \d+ bytes/);
    });

    it('bad parameters are 400s that name the parameter', async () => {
      const cases: Array<[string, string]> = [
        ['/api/block/abc', 'height'],
        ['/api/block/0', 'height'],
        ['/api/block_results/-1', 'height'],
        ['/api/tx/xyz', 'hash'],
        ['/api/contract/bad-name!', 'name'],
        ['/api/contracts?limit=501', 'limit'],
        ['/api/contracts?limit=ten', 'limit'],
        ['/api/contracts?offset=-1', 'offset'],
        ['/api/contracts?sort=size', 'sort'],
        ['/api/contracts?order=up', 'order'],
        ['/api/contracts?limit=1&limit=2', 'limit'],
        ['/api/recent_events?limit=100000', 'limit'],
        ['/api/addresses?limit=-5', 'limit'],
        ['/api/blockchain?min_height=x', 'min_height'],
        ['/api/blockchain?min_height=9&max_height=3', 'min_height'],
        ['/api/validators?per_page=101', 'per_page'],
        ['/api/unconfirmed_txs?limit=1000', 'limit'],
        ['/api/address/a%2Fb', 'address'],
        ['/api/abci_query/simulate_tx/xyz', 'hex_payload'],
        ['/api/abci_query/%E0%A4%A', 'path'],
        ['/api/abci_query/%24weird', 'path'],
        ['/api/status?rpc=ftp://example.com', 'rpc'],
      ];
      for (const [p, parameter] of cases) {
        const res = await get(p);
        assertError(res, 400, 'invalid_arguments');
        assert.equal(res.json.error.details.parameter, parameter, p);
        assert.match(res.json.error.message, new RegExp(parameter.replace('_', '.')), `${p}: ${res.json.error.message}`);
      }
    });

    it('a limit beyond the maximum says how to page instead', async () => {
      const res = await get('/api/contracts?limit=501');
      assert.match(res.json.error.message, /limit must be from 0 to 500, got 501; page with offset instead/);
    });

    it('an ABCI route the node does not know is 404; a BDS route says it requires BDS', async () => {
      assertError(await get('/api/abci_query/no_such_route/x'), 404, 'unknown_query_path', /no query path \/no_such_route/);
      const bds = await get('/api/abci_query/bds_spool/limit=5/offset=0');
      assertError(bds, 404, 'unknown_query_path', /requires BDS/);
      assert.equal(bds.json.error.details.requires, 'bds');
    });

    it('address, event and history routes answer 503 "requires BDS" when BDS is not loaded', async () => {
      for (const p of ['/api/recent_events', '/api/addresses', '/api/address/abc']) {
        const res = await get(p);
        assertError(res, 503, 'bds_unavailable', /requires BDS/);
      }
    });

    it('a peer that is not the configured node or one of its peers is 400 Unsupported rpc target', async () => {
      const res = await get('/api/status?rpc=http://203.0.113.50:26657');
      assertError(res, 400, 'unsupported_rpc_target', /^Unsupported rpc target: http:\/\/203\.0\.113\.50:26657/);
      assertError(await get('/api/block/1?rpc=tcp://10.9.9.9:26657'), 400, 'unsupported_rpc_target');
    });

    it('the configured node URL in ?rpc= is the configured node', async () => {
      const res = await get('/api/status?rpc=tcp://127.0.0.1:26657/');
      assert.equal(res.status, 200);
    });

    it('an unknown path is 404 and a wrong method 405, in the error shape', async () => {
      assertError(await get('/api/nothing'), 404, 'not_found');
      assertError(await request(h.url('/api/status'), { method: 'POST' }), 405, 'method_not_allowed');
    });
  });

  describe('with an unreachable node', () => {
    let h: DashboardHost;
    before(async () => {
      h = await bootDashboardHost({ devnet: false, config: { node: { url: `http://127.0.0.1:${await closedPort()}` } }, dashboard: RELAXED_LIMITS });
    });
    after(() => h?.stop());

    it('node reads are 502 node_unavailable with the reason', async () => {
      for (const p of ['/api/status', '/api/block/1', '/api/tx/' + 'AB'.repeat(32), '/api/abci_query/get/currency.balances:x', '/api/contract/currency', '/api/monitoring', '/api/validator_dashboard']) {
        assertError(await request(h.url(p)), 502, 'node_unavailable', /unavailable/);
      }
    });

    it('/api/config still answers', async () => {
      assert.equal((await request(h.url('/api/config'))).status, 200);
    });
  });

  describe('with a node that does not answer in time', () => {
    let h: DashboardHost;
    before(async () => {
      h = await bootDashboardHost({ devnet: false, plugins: { [SLOW_NODE_PLUGIN]: {} }, dashboard: { ...RELAXED_LIMITS, requestTimeoutMs: 200, simulate: { timeoutMs: 200 } } });
    });
    after(() => {
      slowNode.holdStatus = false;
      slowNode.release();
      return h?.stop();
    });

    it('a read past the request deadline is 504 timeout', async () => {
      slowNode.holdStatus = true;
      const res = await request(h.url('/api/status'));
      slowNode.holdStatus = false;
      assertError(res, 504, 'timeout', /did not answer status in time/);
    });

    it('a dry run past its own deadline is 504', async () => {
      const res = await request(h.url('/api/abci_query/simulate_tx/7b7d'));
      assertError(res, 504, 'timeout', /dry run did not finish within 200 ms/);
      slowNode.release();
    });
  });

  describe('with dry runs disabled', () => {
    let h: DashboardHost;
    before(async () => {
      h = await bootDashboardHost({ dashboard: { ...RELAXED_LIMITS, simulate: { enabled: false } } });
    });
    after(() => h?.stop());

    it('simulate_tx is 403 and says where it is switched off', async () => {
      assertError(await request(h.url('/api/abci_query/simulate_tx/7b7d')), 403, 'forbidden', /simulate\.enabled is false/);
    });
  });
});
