import assert from 'node:assert/strict';
import { request } from '../../support/test-host.js';
import { bootDashboardHost, RELAXED_LIMITS, transfer, type DashboardHost } from './support/dashboard-host.js';

/** Polls a dashboard route until `done` holds for its JSON body. */
async function until(h: DashboardHost, path: string, done: (body: any) => boolean, timeoutMs = 30_000): Promise<any> {
  const started = Date.now();
  for (;;) {
    const res = await request(h.url(path));
    if (res.status === 200 && done(res.json)) return res.json;
    if (Date.now() - started > timeoutMs) throw new Error(`${path} never satisfied the condition: ${res.status} ${res.text.slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('dashboard with the bds plugin and the devnet (PGlite)', function () {
  this.timeout(120_000);
  let h: DashboardHost;
  let sent: { hash: string; height: string };
  let sender: string;

  before(async () => {
    h = await bootDashboardHost({ plugins: { bds: {} }, dashboard: RELAXED_LIMITS });
    sender = h.accounts[0]!.address;
    sent = await transfer(h, 'bds_friend', 4);
    await until(h, '/api/abci_query/bds_status', (b) => Number(b.response.value?.indexed?.indexed_height ?? 0) >= Number(sent.height));
  });
  after(() => h?.stop());

  it('/api/address/{address} lists the indexed transactions of a sender', async () => {
    const body = await until(h, `/api/address/${sender}?limit=10`, (b) => b.transactions.length > 0);
    assert.equal(body.available, true);
    assert.equal(body.transactions[0].tx_hash, sent.hash);
    assert.equal(body.transactions[0].contract, 'currency');
  });

  it('/api/addresses includes the sender', async () => {
    const body = await until(h, '/api/addresses?limit=50', (b) => b.items.length > 0);
    assert.ok(body.items.some((a: any) => a.address === sender));
  });

  it('/api/recent_events has the Transfer', async () => {
    const body = await until(h, '/api/recent_events?limit=10', (b) => (b.items ?? []).length > 0);
    const event = body.items.find((e: any) => e.tx_hash === sent.hash);
    assert.equal(event.event, 'Transfer');
    assert.equal(event.contract, 'currency');
  });

  it('/api/monitoring reports BDS as enabled', async () => {
    const body = await until(h, '/api/monitoring', (b) => b.bds.enabled === true);
    assert.ok(body.bds.status.worker_running !== undefined);
  });

  it('/api/contract/{name} gains the BDS summary', async () => {
    const res = await request(h.url('/api/contract/currency'));
    assert.equal(res.status, 200);
    assert.equal(res.json.summary?.name, 'currency', JSON.stringify(res.json.summary));
  });

  it('BDS pass-through paths answer with decoded values', async () => {
    const res = await request(h.url(`/api/abci_query/txs_by_sender/${sender}/limit=5/offset=0`));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.response.value[0].tx_hash, sent.hash);
  });

  it('BDS pass-through envelopes report the committed application height, as the node\'s own paths do (spec §1, read rule 5)', async () => {
    for (const path of ['bds_status', 'blocks/limit=2/offset=0', `tx/${sent.hash}`, 'bds_spool/limit=5/offset=0', 'recent_events/limit=5/offset=0']) {
      const res = await request(h.url(`/api/abci_query/${path}`));
      assert.equal(res.status, 200, res.text);
      assert.ok(Number(res.json.response.height) >= Number(sent.height), `${path}: envelope height ${res.json.response.height}, the transfer is in block ${sent.height}`);
    }
    const node = await request(h.url('/api/abci_query/get_next_nonce/' + sender));
    assert.ok(Number(node.json.response.height) >= Number(sent.height), 'a node path reports it too');
  });

  it('the explorer shows the address and the events', async () => {
    const address = await request(h.url(`/explorer/address/${sender}`));
    assert.equal(address.status, 200);
    assert.ok(address.text.includes(`/explorer/tx/${sent.hash}`));
    const events = await request(h.url('/explorer/events'));
    assert.equal(events.status, 200);
    assert.match(events.text, /Transfer/);
  });
});
