import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from '../../support/test-host.js';
import { bootDashboardHost, RELAXED_LIMITS, SLOW_NODE_PLUGIN, type DashboardHost } from './support/dashboard-host.js';
import { FAKE_SENDER, FAKE_TX } from './support/fake-bds.plugin.js';

const FAKE_BDS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support/fake-bds.plugin.ts');

describe('dashboard BDS routes served by this host\'s query paths (node without BDS)', function () {
  this.timeout(60_000);
  let h: DashboardHost;
  before(async () => {
    h = await bootDashboardHost({ devnet: false, plugins: { [SLOW_NODE_PLUGIN]: {}, [FAKE_BDS]: {} }, dashboard: RELAXED_LIMITS });
  });
  after(() => h?.stop());
  const get = (p: string) => request(h.url(p));

  it('/api/recent_events is the BDS object', async () => {
    const res = await get('/api/recent_events?limit=5&offset=0');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.available, true);
    assert.equal(res.json.limit, 5);
    assert.equal(res.json.items[0].event, 'Transfer');
  });

  it('/api/addresses adds has_more (items ≥ limit)', async () => {
    const full = await get('/api/addresses?limit=2');
    assert.deepEqual(Object.keys(full.json).sort(), ['available', 'has_more', 'items', 'limit', 'offset']);
    assert.equal(full.json.items.length, 2);
    assert.equal(full.json.has_more, true);
    const partial = await get('/api/addresses?limit=50');
    assert.equal(partial.json.has_more, false);
  });

  it('/api/address/{address}: transactions and developer rewards', async () => {
    const res = await get(`/api/address/${FAKE_SENDER}?limit=1`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.address, FAKE_SENDER);
    assert.equal(res.json.available, true);
    assert.equal(res.json.transactions.length, 1);
    assert.equal(res.json.transactions[0].tx_hash, FAKE_TX);
    assert.equal(res.json.has_more, true);
    assert.equal(res.json.developer_rewards.total_rewards, '1.5');
  });

  it('/api/abci_query/bds_status is answered in-process', async () => {
    const res = await get('/api/abci_query/bds_status');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.response.value.worker_running, true);
    assert.equal(res.json.response.info, 'dict');
  });

  it('/api/monitoring reports BDS as enabled with its status', async () => {
    const res = await get('/api/monitoring');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.bds.enabled, true);
    assert.equal(res.json.bds.status.indexed.indexed_height, 10);
    assert.deepEqual(res.json.perf, { enabled: false }, 'this node has no perf_status');
  });

  it('a BDS handler that fails is 400 query_failed with its reason through the pass-through', async () => {
    const res = await get('/api/abci_query/bds_spool/limit=5/offset=0');
    assert.equal(res.status, 400);
    assert.equal(res.json.error.code, 'query_failed');
    assert.match(res.json.error.message, /the spool directory is not readable/);
  });

  it('the explorer lists addresses and events and shows an address', async () => {
    const addresses = await get('/explorer/addresses');
    assert.equal(addresses.status, 200);
    assert.ok(addresses.text.includes(`/explorer/address/${FAKE_SENDER}`));
    const events = await get('/explorer/events');
    assert.equal(events.status, 200);
    assert.match(events.text, /Transfer/);
    assert.ok(events.text.includes('bob_2') && events.text.includes('5'), 'JSONB columns given as text are shown too');
    const address = await get(`/explorer/address/${FAKE_SENDER}`);
    assert.equal(address.status, 200);
    assert.match(address.text, /Developer rewards[\s\S]*1\.5/);
    assert.match(address.text, /class="fail">Fail/);
  });
});
