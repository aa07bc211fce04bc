import assert from 'node:assert/strict';
import net from 'node:net';
import WebSocket from 'ws';
import { DEFAULT_RPC_LIMITS } from '../../../../plugins/devnet/node/rpc-limits.js';
import { openDevnet, waitFor } from './devnet-fixture.js';

type Opened = Awaited<ReturnType<typeof openDevnet>>;

/**
 * CometBFT's `[rpc]` caps (issue #19 items 4 and 9): a body is at most max_body_bytes
 * (1,000,000), a JSON-RPC batch at most max_request_batch_size (10) calls, at most
 * max_subscription_clients (100) WebSocket clients subscribe, at most max_open_connections
 * (900) sockets are open. Each is tested at its default, one past the cap.
 */
describe('devnet RPC resource caps (CometBFT [rpc] defaults)', function () {
  this.timeout(60_000);
  let opened: Opened;
  let url: string;
  let wsUrl: string;

  before(async () => {
    opened = await openDevnet();
    ({ rpcUrl: url, websocketUrl: wsUrl } = await opened.devnet.listen({ port: 0, metricsPort: null }));
  });
  after(async () => opened.close());

  const postText = async (body: string) => {
    const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    return { status: res.status, body: await res.json() as any };
  };

  it('has the CometBFT defaults', () => {
    assert.deepEqual({ ...DEFAULT_RPC_LIMITS }, {
      maxBodyBytes: 1_000_000, maxBatchSize: 10, maxOpenConnections: 900, maxSubscriptionClients: 100, maxSubscriptionsPerClient: 5, maxQueryLength: 512, readTimeoutMs: 10_000,
    });
  });

  it('a request still arriving after read_timeout (10 s) is cut with 408, and others are answered meanwhile', async () => {
    const port = Number(new URL(url).port);
    // Headers, then one body byte every 200 ms: before the fix Node waited 300 s for the rest.
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let trickle: NodeJS.Timeout | undefined;
    socket.on('data', (c: Buffer) => (answer += c.toString('utf8')));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.once('connect', () => {
      socket.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`);
      trickle = setInterval(() => { if (socket.writable) socket.write(' '); }, 200);
    });
    try {
      const health = await fetch(`${url}/health`);
      assert.equal(health.status, 200, 'the node answers others while the slow request is open');
      await closed;
      assert.match(answer, /^HTTP\/1\.1 408 /, `cut by the read timeout, got: ${answer.slice(0, 120) || '(nothing)'}`);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });

  it('a body of max_body_bytes is read; one byte more is refused with -32600 and the node keeps answering', async () => {
    const call = '{"jsonrpc":"2.0","id":1,"method":"health","params":{}}';
    const fits = call + ' '.repeat(1_000_000 - call.length);
    assert.deepEqual((await postText(fits)).body, { jsonrpc: '2.0', id: 1, result: {} });
    const over = await postText(fits + ' ');
    // CometBFT's PreChecksHandler: 400 and an error without an id (http_server.go).
    assert.equal(over.status, 400);
    assert.deepEqual(over.body, { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request', data: 'error reading request body: http: request body too large' } });
    const form = await fetch(`${url}/health`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `x=${'a'.repeat(1_000_000)}` });
    assert.equal(form.status, 400, 'URI requests with form bodies too');
    assert.equal(((await form.json()) as any).error.code, -32600);
    const plain = await fetch(`${url}/health`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'a'.repeat(1_000_001) });
    assert.equal(plain.status, 400, 'any path, any body type');
    assert.equal((await (await fetch(`${url}/health`)).json() as any).result !== undefined, true);
  });

  it('a batch of max_request_batch_size calls is served; one more is refused whole', async () => {
    const batch = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'health', params: {} })));
    const ten = await postText(batch(10));
    assert.equal(ten.body.length, 10);
    const eleven = await postText(batch(11));
    // CometBFT writes this refusal with WriteRPCResponseHTTP: status 200, one error object, no id.
    assert.equal(eleven.status, 200);
    assert.deepEqual(eleven.body, { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request', data: 'batch request exceeds maximum (10) allowed number of requests' } });
  });

  it('a batch past the cap is refused without parsing the calls after the cap (a 15,000-call batch cost the host 50 ms of CPU to refuse)', async () => {
    // Eleven calls, then text that is not JSON: answering with the cap's refusal, not a parse
    // error, shows the body was never handed to JSON.parse. (CometBFT, which parses first,
    // would answer a parse error here; the divergence is documented in json-batch-length.ts.)
    const calls = Array.from({ length: 11 }, (_, i) => JSON.stringify({ jsonrpc: '2.0', id: i, method: 'health' }));
    const refused = await postText(`[${calls.join(',')}, this is not JSON ${'x'.repeat(500_000)}`);
    assert.equal(refused.status, 200);
    assert.equal(refused.body.error.data, 'batch request exceeds maximum (10) allowed number of requests');
    // Nine calls and the same tail (ten elements, at the cap) are parsed: the parse error is CometBFT's.
    const parsed = await postText(`[${calls.slice(0, 9).join(',')}, this is not JSON]`);
    assert.equal(parsed.status, 500);
    assert.equal(parsed.body.error.message, 'Parse error');
  });

  it('at most 100 WebSocket clients hold subscriptions (the 101st gets max_subscription_clients), 5 each, queries ≤ 512 bytes', async () => {
    const clients: WebSocket[] = [];
    const subscribe = async (ws: WebSocket, id: number, query: string) => {
      const reply = new Promise<any>((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))));
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'subscribe', params: { query } }));
      return reply;
    };
    try {
      for (let i = 0; i < 101; i++) {
        const ws = new WebSocket(wsUrl);
        await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
        clients.push(ws);
      }
      for (let i = 0; i < 100; i++) assert.deepEqual((await subscribe(clients[i]!, i, "tm.event='NewBlock'")).result, {}, `client ${i}`);
      const refused = await subscribe(clients[100]!, 100, "tm.event='NewBlock'");
      assert.equal(refused.error.code, -32603);
      assert.equal(refused.error.data, 'max_subscription_clients 100 reached');
      // The client cap is checked first, so with 100 subscribing clients even they cannot add more.
      assert.equal((await subscribe(clients[0]!, 400, "tm.event='Tx'")).error.data, 'max_subscription_clients 100 reached');
      clients[0]!.close();
      clients[1]!.close();
      await waitFor(async () => (await subscribe(clients[100]!, 101, "tm.event='NewBlock'")).result, 5000, 'a freed client slot');
      const own = clients[100]!;
      for (let i = 0; i < 4; i++) assert.deepEqual((await subscribe(own, 200 + i, `tm.event='Tx' AND tx.height=${i + 1}`)).result, {});
      assert.equal((await subscribe(own, 300, "tm.event='Tx'")).error.data, 'max_subscriptions_per_client 5 reached');
    } finally {
      for (const ws of clients) ws.terminate();
    }
    const fresh = new WebSocket(wsUrl);
    await new Promise((resolve) => fresh.once('open', resolve));
    await waitFor(async () => {
      const reply = new Promise<any>((resolve) => fresh.once('message', (d) => resolve(JSON.parse(d.toString()))));
      fresh.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscribe', params: { query: `tm.event='Tx' AND x.y='${'a'.repeat(520)}'` } }));
      const r = await reply;
      return r.error?.data === 'maximum query length exceeded' ? r : undefined;
    }, 5000, 'the query-length refusal');
    fresh.terminate();
  });

  it('at most 900 sockets are open; the 901st is closed unanswered and the node serves again once one closes', async () => {
    const own = await openDevnet(); // no pooled fetch connections of the other tests
    const ownUrl = (await own.devnet.listen({ port: 0, metricsPort: null })).rpcUrl;
    const { port } = new URL(ownUrl);
    const connect = () => new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect(Number(port), '127.0.0.1', () => resolve(s));
      s.once('error', reject);
    });
    const ask = (s: net.Socket) => new Promise<string>((resolve) => {
      let text = '';
      s.on('data', (d) => { text += d.toString(); if (text.includes('\r\n\r\n')) resolve(text); });
      s.once('close', () => resolve(text));
      s.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`); // the Host check wants the port it listens on
    });
    const held: net.Socket[] = [];
    try {
      for (let i = 0; i < 900; i++) held.push(await connect());
      assert.match(await ask(held[899]!), /^HTTP\/1.1 200/, 'the 900th is served');
      const extra = await connect().catch(() => undefined);
      assert.equal(extra ? await ask(extra) : '', '', 'the 901st gets no answer');
      held.pop()!.destroy();
      await waitFor(async () => {
        const again = await connect();
        const answer = await ask(again);
        again.destroy();
        return /^HTTP\/1.1 200/.test(answer);
      }, 5000, 'a freed slot to be served');
    } finally {
      for (const s of held) s.destroy();
      await own.close();
    }
  });
});
