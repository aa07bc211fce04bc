import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { bootDashboardHost, connectWs, RELAXED_LIMITS, transfer, type DashboardHost, type WsClient } from './support/dashboard-host.js';

function closed(socket: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
}

describe('dashboard WebSocket /ws (dashboard.md §6)', function () {
  this.timeout(60_000);
  let h: DashboardHost;
  const clients: WsClient[] = [];
  const open = async (headers: Record<string, string> = {}) => {
    const c = await connectWs(h.wsUrl(), headers);
    clients.push(c);
    return c;
  };

  before(async () => {
    h = await bootDashboardHost({
      dashboard: {
        ...RELAXED_LIMITS,
        trustedProxies: ['127.0.0.1'],
        websocket: { maxClients: 6, maxClientsPerIp: 3, maxStateSubscriptions: 2, maxEventSubscriptions: 1, maxMessageBytes: 1024 },
      },
    });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  after(() => h?.stop());

  describe('broadcasts to every client', () => {
    it('new_block with height, hash, time, proposer and the block\'s txs', async () => {
      const c = await open();
      await c.next((m) => m.type === 'node_status' && m.status === 'online');
      const sent = await transfer(h, 'ws_block_friend', 2);
      const block = await c.next((m) => m.type === 'new_block' && String(m.height) === sent.height);
      assert.equal(typeof block.height, 'number');
      assert.match(block.hash, /^[0-9A-F]{64}$/);
      assert.ok(block.time && block.proposer);
      assert.equal(block.num_txs, 1);
      assert.deepEqual(Object.keys(block.txs[0]).sort(), ['chi_supplied', 'contract', 'function', 'sender', 'tx_hash']);
      assert.equal(block.txs[0].tx_hash, sent.hash);
      assert.equal(block.txs[0].contract, 'currency');
      assert.equal(block.txs[0].chi_supplied, 1000);
    });

    it('node_status on connect', async () => {
      const c = await open();
      assert.deepEqual(await c.next((m) => m.type === 'node_status'), { type: 'node_status', status: 'online' });
    });
  });

  describe('subscriptions', () => {
    it('state_change carries the exact state key, "_" included (the upstream bug, fixed)', async () => {
      const c = await open();
      c.send({ action: 'subscribe', type: 'state', key: 'currency.balances:my_*' });
      assert.deepEqual(await c.next((m) => m.action === 'subscribe'), { status: 'ok', action: 'subscribe', type: 'state', key: 'currency.balances:my_*' });
      const other = await open();
      other.send({ action: 'subscribe', type: 'state', key: 'con_pairs.*' });
      await other.next((m) => m.action === 'subscribe');
      const sent = await transfer(h, 'my_friend', 7);
      const change = await c.next((m) => m.type === 'state_change');
      assert.equal(change.key, 'currency.balances:my_friend');
      assert.equal(typeof change.value, 'string');
      assert.equal(change.tx_hash, sent.hash);
      await c.next((m) => m.type === 'new_block' && String(m.height) === sent.height);
      const stateChanges = c.messages.filter((m) => m.type === 'state_change');
      assert.deepEqual(stateChanges.map((m) => m.key), ['currency.balances:my_friend'], 'only matching keys, never a mangled one');
      await other.next((m) => m.type === 'new_block' && String(m.height) === sent.height);
      assert.equal(other.messages.filter((m) => m.type === 'state_change').length, 0);
    });

    it('contract_event for matching contract/event globs, data values as strings', async () => {
      const c = await open();
      c.send({ action: 'subscribe', type: 'event', contract: 'curr*', event: 'Trans?er' });
      assert.deepEqual(await c.next((m) => m.action === 'subscribe'), { status: 'ok', action: 'subscribe', type: 'event', contract: 'curr*', event: 'Trans?er' });
      const sent = await transfer(h, 'event_friend', 3);
      const event = await c.next((m) => m.type === 'contract_event');
      assert.equal(event.event, 'Transfer');
      assert.equal(event.contract, 'currency');
      assert.equal(event.signer, h.accounts[0]!.address);
      assert.equal(event.data.to, 'event_friend');
      assert.equal(event.data.amount, '3');
      assert.equal(event.tx_hash, sent.hash);
    });

    it('list, unsubscribe and unsubscribe_all; duplicate event subscriptions are one', async () => {
      const c = await open();
      c.send({ action: 'subscribe', type: 'state', key: 'b.*' });
      c.send({ action: 'subscribe', type: 'state', key: 'a.*' });
      c.send({ action: 'subscribe', type: 'event', contract: 'currency' });
      c.send({ action: 'subscribe', type: 'event', contract: 'currency' });
      c.send({ action: 'list' });
      const list = await c.next((m) => m.action === 'list');
      assert.deepEqual(list, { status: 'ok', action: 'list', state: ['a.*', 'b.*'], events: [{ contract: 'currency', event: null }] });
      c.send({ action: 'unsubscribe', type: 'state', key: 'a.*' });
      assert.deepEqual(await c.next((m) => m.action === 'unsubscribe'), { status: 'ok', action: 'unsubscribe', type: 'state', key: 'a.*' });
      c.send({ action: 'unsubscribe_all' });
      assert.deepEqual(await c.next((m) => m.action === 'unsubscribe_all'), { status: 'ok', action: 'unsubscribe_all' });
      c.send({ action: 'list' });
      await c.next((m) => m.action === 'list' && m.state.length === 0 && m.events.length === 0);
    });

    it('answers bad messages with an error and ignores JSON without action', async () => {
      const c = await open();
      c.send('not json');
      assert.deepEqual(await c.next((m) => m.status === 'error'), { status: 'error', message: 'invalid JSON' });
      c.send({ hello: 1 });
      c.send({ action: 'dance' });
      assert.deepEqual(await c.next((m) => /unknown action/.test(m.message ?? '')), { status: 'error', message: 'unknown action: dance' });
      c.send({ action: 'subscribe', type: 'weather' });
      assert.deepEqual(await c.next((m) => /unknown type/.test(m.message ?? '')), { status: 'error', message: 'unknown type: weather' });
      c.send({ action: 'subscribe', type: 'state' });
      assert.deepEqual(await c.next((m) => m.message === 'missing key'), { status: 'error', message: 'missing key' });
      assert.equal(c.messages.filter((m) => m.status === 'error').length, 4, 'the message without action got no reply');
    });
  });

  describe('limits', () => {
    it('state and event subscriptions per connection', async () => {
      const c = await open();
      for (const key of ['a.*', 'b.*', 'c.*']) c.send({ action: 'subscribe', type: 'state', key });
      assert.deepEqual(await c.next((m) => m.status === 'error'), { status: 'error', message: 'state subscription limit reached' });
      c.send({ action: 'subscribe', type: 'event', contract: 'x' });
      c.send({ action: 'subscribe', type: 'event', contract: 'y' });
      assert.deepEqual(await c.next((m) => m.message === 'event subscription limit reached'), { status: 'error', message: 'event subscription limit reached' });
    });

    it('connections per client address: 503 before the upgrade', async () => {
      const headers = { 'x-forwarded-for': '198.51.100.20' };
      for (let i = 0; i < 3; i++) await open(headers);
      await assert.rejects(connectWs(h.wsUrl(), headers), (err: any) => err.status === 503 && /for client/.test(err.statusMessage));
    });

    it('connections in total: 503 before the upgrade', async () => {
      for (let i = 0; i < 6; i++) await open({ 'x-forwarded-for': `198.51.100.${30 + i}` });
      await assert.rejects(connectWs(h.wsUrl(), { 'x-forwarded-for': '198.51.100.99' }), (err: any) => err.status === 503 && /client limit reached/.test(err.statusMessage));
    });

    it('an inbound message over the size cap closes the connection with 1009', async () => {
      const c = await open();
      const done = closed(c.socket);
      c.send({ action: 'list', pad: 'x'.repeat(2000) });
      assert.equal((await done).code, 1009);
    });
  });
});

describe('dashboard WebSocket: outbound queue and upgrade rate', function () {
  this.timeout(60_000);
  let h: DashboardHost;
  before(async () => {
    h = await bootDashboardHost({ dashboard: { limits: { websocket: { ratePerSecond: 0.01, burst: 2 } }, websocket: { maxOutboundQueue: 1 } } });
  });
  after(() => h?.stop());

  it('a client whose outbound queue is full is closed with 1013', async () => {
    const c = await connectWs(h.wsUrl());
    c.send({ action: 'subscribe', type: 'state', key: 'currency.balances:*' });
    await c.next((m) => m.action === 'subscribe');
    const done = closed(c.socket);
    await transfer(h, 'backlog_friend', 1);
    const { code, reason } = await done;
    assert.equal(code, 1013);
    assert.equal(reason, 'client backlog exceeded');
  });

  it('upgrades draw from the websocket bucket: beyond it 429', async () => {
    const c = await connectWs(h.wsUrl());
    await assert.rejects(connectWs(h.wsUrl()), (err: any) => err.status === 429);
    await c.close();
  });
});
