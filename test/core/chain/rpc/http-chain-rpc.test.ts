import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { NodeUnavailableError, RpcError, type RpcEvent } from '../../../../core/chain/rpc/chain-rpc.js';
import { HttpChainRpc, type WebSocketReport } from '../../../../core/chain/rpc/http-chain-rpc.js';

/**
 * A stand-in CometBFT 0.38 node on port 0: JSON-RPC over HTTP at `/` and the WebSocket at
 * `/websocket`, answering with payloads shaped like the reference (cometbft-rpc.md §4–§5).
 */
type Answer =
  | { result: unknown }
  | { error: { code: number; message: string; data?: string }; status?: number }
  | { status: number; body: string }
  | 'reset'
  | 'hang';

interface SeenRequest {
  method: string;
  params: Record<string, unknown>;
  id: unknown;
  jsonrpc: unknown;
  path: string;
  contentType: string | undefined;
}

const STATUS = {
  node_info: {
    protocol_version: { p2p: '8', block: '11', app: '0' },
    id: 'a1b2c3', listen_addr: 'tcp://0.0.0.0:26656', network: 'chain-local-1', version: '0.38.12',
    channels: '40202122233038606100', moniker: 'node-0', other: { tx_index: 'on', rpc_address: 'tcp://127.0.0.1:26657' },
  },
  sync_info: {
    latest_block_hash: 'A'.repeat(64), latest_app_hash: 'B'.repeat(64), latest_block_height: '42',
    latest_block_time: '2026-01-01T00:00:04.123456789Z', earliest_block_hash: 'C'.repeat(64),
    earliest_app_hash: 'D'.repeat(64), earliest_block_height: '1', earliest_block_time: '2026-01-01T00:00:00Z', catching_up: false,
  },
  validator_info: { address: 'E'.repeat(40), pub_key: { type: 'tendermint/PubKeyEd25519', value: 'AAAA' }, voting_power: '10' },
};

class FakeNode {
  readonly requests: SeenRequest[] = [];
  readonly wsMessages: Array<{ method: string; params: Record<string, unknown>; id: number }> = [];
  connections = 0;
  wsConnections = 0;
  handlers = new Map<string, (params: Record<string, unknown>, n: number) => Answer>();
  private server: http.Server | null = null;
  private wss: WebSocketServer | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly wsClients = new Map<WebSocket, Map<string, number>>();
  port = 0;

  constructor() {
    this.handlers.set('status', () => ({ result: STATUS }));
    this.handlers.set('health', () => ({ result: {} }));
  }

  async start(port = 0, host = '127.0.0.1'): Promise<this> {
    const server = http.createServer((req, res) => this.onRequest(req, res));
    server.keepAliveTimeout = 10_000;
    server.on('connection', (socket: Socket) => {
      this.connections++;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    const wss = new WebSocketServer({ noServer: true });
    server.on('upgrade', (req, socket, head) => {
      if (req.url !== '/websocket' && !req.url?.endsWith('/websocket')) return socket.destroy();
      wss.handleUpgrade(req, socket, head, (ws) => this.onWebSocket(ws));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    this.server = server;
    this.wss = wss;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  count(method: string): number {
    return this.requests.filter((r) => r.method === method).length;
  }

  /** Sends an event to every socket subscribed to `query`, with the subscribe request's id. */
  publish(query: string, data: { type: string; value: unknown }, events: Record<string, string[]> = {}): number {
    let sent = 0;
    for (const [ws, subs] of this.wsClients) {
      const id = subs.get(query);
      if (id === undefined) continue;
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, result: { query, data, events } }));
      sent++;
    }
    return sent;
  }

  subscriptionsOf(query: string): number {
    return [...this.wsClients.values()].filter((s) => s.has(query)).length;
  }

  /** Drops every WebSocket as a crashing node would (no close frame). */
  dropWebSockets(): void {
    for (const ws of this.wsClients.keys()) ws.terminate();
  }

  cancelSubscription(query: string): void {
    for (const [ws, subs] of this.wsClients) {
      const id = subs.get(query);
      if (id === undefined) continue;
      subs.delete(query);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: 'Server error', data: 'subscription was canceled (reason: client is not pulling messages fast enough)' } }));
    }
  }

  async stop(): Promise<void> {
    for (const ws of this.wsClients.keys()) ws.terminate();
    this.wsClients.clear();
    this.wss?.close();
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const seen: SeenRequest = {
        method: body.method, params: body.params ?? {}, id: body.id, jsonrpc: body.jsonrpc,
        path: req.url ?? '', contentType: req.headers['content-type'],
      };
      this.requests.push(seen);
      const handler = this.handlers.get(body.method);
      const answer: Answer = handler
        ? handler(seen.params, this.count(body.method))
        : { error: { code: -32601, message: 'Method not found' } };
      if (answer === 'hang') return;
      if (answer === 'reset') {
        req.socket.resetAndDestroy();
        return;
      }
      if ('body' in answer) {
        res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
        return;
      }
      const envelope = 'result' in answer
        ? { jsonrpc: '2.0', id: body.id, result: answer.result }
        : { jsonrpc: '2.0', id: body.id, error: answer.error };
      const status = 'error' in answer ? answer.status ?? 200 : 200;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(envelope, null, '  '));
    });
  }

  private onWebSocket(ws: WebSocket): void {
    this.wsConnections++;
    const subs = new Map<string, number>();
    this.wsClients.set(ws, subs);
    ws.on('close', () => this.wsClients.delete(ws));
    ws.on('message', (raw) => {
      const msg = JSON.parse(String(raw));
      this.wsMessages.push({ method: msg.method, params: msg.params, id: msg.id });
      const query = String(msg.params?.query ?? '');
      if (msg.method === 'subscribe') {
        if (query === 'bad query') {
          ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32603, message: 'Internal error', data: 'failed to parse query: bad query' } }));
          return;
        }
        if (subs.has(query)) {
          ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32603, message: 'Internal error', data: 'already subscribed' } }));
          return;
        }
        subs.set(query, msg.id);
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: {} }));
      } else if (msg.method === 'unsubscribe') {
        subs.delete(query);
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: {} }));
      }
    });
  }
}

const NEW_BLOCK = "tm.event='NewBlock'";
const TX = "tm.event='Tx'";

async function waitFor(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('HttpChainRpc', () => {
  let node: FakeNode;
  let rpc: HttpChainRpc;

  beforeEach(async () => {
    node = await new FakeNode().start();
  });
  afterEach(async () => {
    await rpc?.close();
    await node.stop();
  });

  describe('JSON-RPC 2.0 over HTTP POST', () => {
    it('posts {jsonrpc, id, method, params} to the node URL and resolves with result', async () => {
      rpc = new HttpChainRpc(node.url);
      const status = await rpc.call<typeof STATUS>('status');
      assert.equal(status.node_info.network, 'chain-local-1');
      assert.equal(status.sync_info.latest_block_height, '42');
      const [seen] = node.requests;
      assert.equal(seen!.path, '/');
      assert.equal(seen!.jsonrpc, '2.0');
      assert.equal(typeof seen!.id, 'number');
      assert.equal(seen!.contentType, 'application/json');
      assert.deepEqual(seen!.params, {});
    });

    it('sends integer params as decimal strings (CometBFT decodes int64 only from strings) and drops undefined', async () => {
      node.handlers.set('block', () => ({ result: { ok: true } }));
      rpc = new HttpChainRpc(node.url);
      await rpc.call('block', { height: 5, other: 7n, prove: false, skip: undefined, path: '/get/x' });
      assert.deepEqual(node.requests[0]!.params, { height: '5', other: '7', prove: false, path: '/get/x' });
    });

    it('uses the URL path as given (a reverse proxy prefix) and accepts tcp:// as http://', async () => {
      rpc = new HttpChainRpc(`${node.url}/rpc/`);
      await rpc.call('health');
      assert.equal(node.requests[0]!.path, '/rpc/');
      await rpc.close();
      rpc = new HttpChainRpc(`tcp://127.0.0.1:${node.port}`);
      await rpc.call('health');
      assert.equal(node.requests[1]!.path, '/');
    });

    it('reaches an IPv6 literal host [::1]', async function () {
      const v6 = new FakeNode();
      try {
        await v6.start(0, '::1');
      } catch {
        this.skip(); // no IPv6 loopback in this environment
      }
      const client = new HttpChainRpc(`http://[::1]:${v6.port}`);
      try {
        const status = await client.call<typeof STATUS>('status');
        assert.equal(status.node_info.network, 'chain-local-1');
      } finally {
        await client.close();
        await v6.stop();
      }
    });

    it('rejects URLs that are not http(s) with a message naming the value', () => {
      assert.throws(() => new HttpChainRpc('ftp://example.org'), /must use http or https/);
      assert.throws(() => new HttpChainRpc('not a url'), /is not a URL/);
    });
  });

  describe('keep-alive connection reuse', () => {
    // undici's pool dispatches a request issued in the tick its previous one ended on a second
    // connection, so sequential calls keep two connections alive; reuse means not one per call.
    it('reuses its keep-alive connections for sequential calls', async () => {
      rpc = new HttpChainRpc(node.url);
      for (let i = 0; i < 20; i++) await rpc.call('status');
      assert.equal(node.requests.length, 20);
      assert.ok(node.connections <= 2, `opened ${node.connections} connections`);
    });

    it('opens at most maxSockets connections for concurrent calls and reuses them', async () => {
      node.handlers.set('block', () => ({ result: {} }));
      rpc = new HttpChainRpc(node.url, { maxSockets: 4 });
      await Promise.all(Array.from({ length: 40 }, (_, i) => rpc.call('block', { height: i + 1 })));
      await Promise.all(Array.from({ length: 40 }, (_, i) => rpc.call('block', { height: i + 1 })));
      assert.equal(node.requests.length, 80);
      assert.ok(node.connections <= 4, `opened ${node.connections} sockets`);
    });

    it('keeps the connection after a JSON-RPC error answer', async () => {
      node.handlers.set('tx', () => ({ error: { code: -32603, message: 'Internal error', data: 'tx (AB) not found' } }));
      rpc = new HttpChainRpc(node.url);
      for (let i = 0; i < 10; i++) {
        await assert.rejects(rpc.call('tx', { hash: 'qw==' }), RpcError);
        await rpc.call('status');
      }
      assert.ok(node.connections <= 2, `opened ${node.connections} connections`);
    });
  });

  describe('single flight: identical reads in flight share one request', () => {
    it('sends one request for concurrent identical reads, and each caller gets its own copy', async () => {
      node.handlers.set('block', () => ({ result: { height: '7' } }));
      rpc = new HttpChainRpc(node.url);
      // Issued in one tick, so all twenty are in flight together.
      const answers = await Promise.all(Array.from({ length: 20 }, () => rpc.call<{ height: string }>('block', { height: 7 })));
      assert.equal(node.count('block'), 1);
      answers[0]!.height = 'changed';
      assert.ok(answers.slice(1).every((a) => a.height === '7'), 'answers are not shared objects');
      await rpc.call('block', { height: 7 });
      assert.equal(node.count('block'), 2, 'a later identical read sends its own request');
      await Promise.all([rpc.call('block', { height: 8 }), rpc.call('block', { height: 9 })]);
      assert.equal(node.count('block'), 4, 'different params are different reads');
    });

    it('a caller that aborts stops waiting without failing the others', async () => {
      node.handlers.set('block', () => 'hang');
      rpc = new HttpChainRpc(node.url, { timeoutMs: 300, retries: 0 });
      const controller = new AbortController();
      const first = rpc.call('block', { height: 1 }, { signal: controller.signal });
      const second = rpc.call('block', { height: 1 });
      controller.abort();
      assert.equal((await rejection(first)).name, 'AbortError');
      assert.match((await rejection(second)).message, /no answer to block within 300 ms/, 'the shared request went on without the aborted caller');
      assert.equal(node.count('block'), 1);
    });

    it('never merges sends: two identical broadcasts are two requests', async () => {
      node.handlers.set('broadcast_tx_sync', () => ({ result: { code: 0, data: '', log: '', codespace: '', hash: 'AB' } }));
      rpc = new HttpChainRpc(node.url);
      await Promise.all([rpc.call('broadcast_tx_sync', { tx: 'AA==' }), rpc.call('broadcast_tx_sync', { tx: 'AA==' })]);
      assert.equal(node.count('broadcast_tx_sync'), 2);
    });
  });

  describe('timeouts and cancellation', () => {
    it('fails with NodeUnavailableError when no answer arrives within timeoutMs', async () => {
      node.handlers.set('status', () => 'hang');
      rpc = new HttpChainRpc(node.url, { retries: 0 });
      const started = Date.now();
      const err = await rejection(rpc.call('status', {}, { timeoutMs: 100 }));
      assert.ok(err instanceof NodeUnavailableError, String(err));
      assert.match(err.message, /no answer to status within 100 ms/);
      // Ended by the 100 ms timer, not the client's 10 s default: a bound a busy machine cannot reach.
      assert.ok(Date.now() - started < 5_000);
    });

    it('retries a read after a timeout', async () => {
      node.handlers.set('status', (_p, n) => (n === 1 ? 'hang' : { result: STATUS }));
      rpc = new HttpChainRpc(node.url, { timeoutMs: 100, retryDelayMs: 1 });
      const status = await rpc.call<typeof STATUS>('status');
      assert.equal(status.node_info.network, 'chain-local-1');
      assert.equal(node.count('status'), 2);
    });

    it('stops at once when the AbortSignal fires and does not retry', async () => {
      node.handlers.set('status', () => 'hang');
      rpc = new HttpChainRpc(node.url, { retryDelayMs: 1 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const err = await rejection(rpc.call('status', {}, { signal: controller.signal }));
      assert.equal(err.name, 'AbortError');
      assert.ok(!(err instanceof NodeUnavailableError));
      assert.equal(node.count('status'), 1);
    });

    it('rejects without a request when the signal is already aborted', async () => {
      rpc = new HttpChainRpc(node.url);
      const err = await rejection(rpc.call('status', {}, { signal: AbortSignal.abort() }));
      assert.equal(err.name, 'AbortError');
      assert.equal(node.requests.length, 0);
    });
  });

  describe('retries only for idempotent reads', () => {
    it('retries a read after connection resets', async () => {
      node.handlers.set('abci_query', (_p, n) => (n <= 2 ? 'reset' : { result: { response: { code: 0 } } }));
      rpc = new HttpChainRpc(node.url, { retryDelayMs: 1 });
      const result = await rpc.call<{ response: { code: number } }>('abci_query', { path: '/health' });
      assert.equal(result.response.code, 0);
      assert.equal(node.count('abci_query'), 3);
    });

    it('retries a read after HTTP 503 without a JSON-RPC body', async () => {
      node.handlers.set('block', (_p, n) => (n === 1 ? { status: 503, body: 'upstream unavailable' } : { result: { block_id: {} } }));
      rpc = new HttpChainRpc(node.url, { retryDelayMs: 1 });
      await rpc.call('block', { height: '1' });
      assert.equal(node.count('block'), 2);
    });

    it('gives up after retries + 1 attempts with NodeUnavailableError', async () => {
      node.handlers.set('status', () => 'reset');
      rpc = new HttpChainRpc(node.url, { retries: 2, retryDelayMs: 1 });
      const err = await rejection(rpc.call('status'));
      assert.ok(err instanceof NodeUnavailableError);
      assert.match(err.message, /status failed after 3 attempts: connection reset/);
      assert.equal(node.count('status'), 3);
    });

    for (const method of ['broadcast_tx_sync', 'broadcast_tx_async', 'broadcast_tx_commit']) {
      it(`never retries ${method} after a connection reset, and says the tx may have landed`, async () => {
        node.handlers.set(method, () => 'reset');
        rpc = new HttpChainRpc(node.url, { retries: 5, retryDelayMs: 1 });
        const err = await rejection(rpc.call(method, { tx: 'N2IyMjZk' }));
        assert.ok(err instanceof NodeUnavailableError);
        assert.match(err.message, /may have reached the node/);
        assert.equal(node.count(method), 1);
      });
    }

    it('never retries a broadcast after a timeout', async () => {
      node.handlers.set('broadcast_tx_sync', () => 'hang');
      rpc = new HttpChainRpc(node.url, { retries: 5, retryDelayMs: 1, timeoutMs: 80 });
      const err = await rejection(rpc.call('broadcast_tx_sync', { tx: 'N2IyMjZk' }));
      assert.ok(err instanceof NodeUnavailableError);
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(node.count('broadcast_tx_sync'), 1);
    });

    it('does not retry a JSON-RPC error (the node answered)', async () => {
      node.handlers.set('block', () => ({ error: { code: -32603, message: 'Internal error', data: 'height 99 must be less than or equal to the current blockchain height 42' } }));
      rpc = new HttpChainRpc(node.url, { retryDelayMs: 1 });
      await assert.rejects(rpc.call('block', { height: '99' }), RpcError);
      assert.equal(node.count('block'), 1);
    });
  });

  describe('error mapping', () => {
    it('maps a JSON-RPC error to RpcError with code, message and data', async () => {
      node.handlers.set('tx', () => ({ error: { code: -32603, message: 'Internal error', data: 'tx (ABCD) not found' } }));
      rpc = new HttpChainRpc(node.url);
      const err = await rejection(rpc.call('tx', { hash: 'q80=' }));
      assert.ok(err instanceof RpcError);
      assert.equal(err.code, -32603);
      assert.equal(err.data, 'tx (ABCD) not found');
      assert.equal(err.message, 'Internal error: tx (ABCD) not found');
    });

    it('maps an error envelope sent with HTTP 500 to RpcError (URI-style errors)', async () => {
      node.handlers.set('abci_query', () => ({ status: 500, error: { code: -32602, message: 'Invalid params', data: 'error converting http params to arguments: invalid character' } }));
      rpc = new HttpChainRpc(node.url, { retryDelayMs: 1 });
      const err = await rejection(rpc.call('abci_query', { path: '/x' }));
      assert.ok(err instanceof RpcError);
      assert.equal(err.code, -32602);
      assert.equal(node.count('abci_query'), 1);
    });

    it('maps an unknown method to RpcError -32601', async () => {
      rpc = new HttpChainRpc(node.url);
      const err = await rejection(rpc.call('no_such_method'));
      assert.ok(err instanceof RpcError);
      assert.equal(err.code, -32601);
    });

    it('reports a non-JSON-RPC answer as NodeUnavailableError without retrying a 4xx', async () => {
      node.handlers.set('status', () => ({ status: 404, body: '404 page not found' }));
      rpc = new HttpChainRpc(node.url, { retryDelayMs: 1 });
      const err = await rejection(rpc.call('status'));
      assert.ok(err instanceof NodeUnavailableError);
      assert.match(err.message, /HTTP 404 with a non-JSON body/);
      assert.equal(node.count('status'), 1);
    });

    it('fails with NodeUnavailableError on a closed port, after retrying a read', async () => {
      const port = await closedPort();
      rpc = new HttpChainRpc(`http://127.0.0.1:${port}`, { retries: 2, retryDelayMs: 1 });
      const err = await rejection(rpc.call('status'));
      assert.ok(err instanceof NodeUnavailableError);
      assert.match(err.message, /after 3 attempts: connection refused \(ECONNREFUSED\)/);
      assert.equal(err.url, `http://127.0.0.1:${port}`);
    });

    it('a refused broadcast says nothing was sent (no "may have reached")', async () => {
      const port = await closedPort();
      rpc = new HttpChainRpc(`http://127.0.0.1:${port}`);
      const err = await rejection(rpc.call('broadcast_tx_sync', { tx: 'N2IyMjZk' }));
      assert.ok(err instanceof NodeUnavailableError);
      assert.doesNotMatch(err.message, /may have reached/);
    });

    it('never puts the request body, credentials or query string in errors', async () => {
      const secretTx = Buffer.from('7b226d65746164617461223a7b7d7d').toString('base64');
      node.handlers.set('broadcast_tx_sync', () => 'reset');
      rpc = new HttpChainRpc(`http://user:pa55@127.0.0.1:${node.port}/?apikey=k3y`);
      const err = await rejection(rpc.call('broadcast_tx_sync', { tx: secretTx }));
      const text = `${err.message} ${String((err as Error & { cause?: unknown }).cause)}`;
      assert.ok(!text.includes(secretTx));
      assert.ok(!text.includes('pa55') && !text.includes('k3y'));
      assert.equal(rpc.url, `http://127.0.0.1:${node.port}`);
    });

    it('rejects calls after close()', async () => {
      rpc = new HttpChainRpc(node.url);
      await rpc.close();
      await assert.rejects(rpc.call('status'), NodeUnavailableError);
    });
  });

  describe('WebSocket subscriptions', () => {
    const block = (height: string) => ({ type: 'tendermint/event/NewBlock', value: { block: { header: { height } }, block_id: {}, result_finalize_block: {} } });

    it('subscribes at <url>/websocket with {query} and delivers events to the listener', async () => {
      rpc = new HttpChainRpc(node.url);
      const got: RpcEvent[] = [];
      await rpc.subscribe(NEW_BLOCK, (e) => got.push(e));
      assert.deepEqual(node.wsMessages.map((m) => [m.method, m.params]), [['subscribe', { query: NEW_BLOCK }]]);
      node.publish(NEW_BLOCK, block('43'), { 'tm.event': ['NewBlock'] });
      await waitFor('the event', () => got.length === 1);
      assert.equal(got[0]!.query, NEW_BLOCK);
      assert.equal(got[0]!.data.type, 'tendermint/event/NewBlock');
      assert.equal(got[0]!.data.value.block.header.height, '43');
      assert.deepEqual(got[0]!.events, { 'tm.event': ['NewBlock'] });
    });

    it('shares one socket, routes by query and subscribes each query once for many listeners', async () => {
      rpc = new HttpChainRpc(node.url);
      const a: RpcEvent[] = [];
      const b: RpcEvent[] = [];
      const t: RpcEvent[] = [];
      await Promise.all([rpc.subscribe(NEW_BLOCK, (e) => a.push(e)), rpc.subscribe(NEW_BLOCK, (e) => b.push(e)), rpc.subscribe(TX, (e) => t.push(e))]);
      assert.equal(node.wsConnections, 1);
      assert.equal(node.wsMessages.filter((m) => m.method === 'subscribe').length, 2);
      node.publish(TX, { type: 'tendermint/event/Tx', value: { TxResult: { height: '43', tx: 'eA==', result: {} } } });
      node.publish(NEW_BLOCK, block('43'));
      await waitFor('events', () => a.length === 1 && b.length === 1 && t.length === 1);
    });

    it('unsubscribes from the node only when the last listener of a query leaves', async () => {
      rpc = new HttpChainRpc(node.url);
      const a: RpcEvent[] = [];
      const b: RpcEvent[] = [];
      const subA = await rpc.subscribe(NEW_BLOCK, (e) => a.push(e));
      const subB = await rpc.subscribe(NEW_BLOCK, (e) => b.push(e));
      await subA.unsubscribe();
      assert.equal(node.wsMessages.filter((m) => m.method === 'unsubscribe').length, 0);
      node.publish(NEW_BLOCK, block('44'));
      await waitFor('the event', () => b.length === 1);
      assert.equal(a.length, 0);
      await subB.unsubscribe();
      await subB.unsubscribe(); // idempotent
      assert.deepEqual(node.wsMessages.filter((m) => m.method === 'unsubscribe').map((m) => m.params), [{ query: NEW_BLOCK }]);
      assert.equal(node.subscriptionsOf(NEW_BLOCK), 0);
    });

    it('rejects a refused subscribe with RpcError and keeps the others working', async () => {
      rpc = new HttpChainRpc(node.url);
      const got: RpcEvent[] = [];
      await rpc.subscribe(NEW_BLOCK, (e) => got.push(e));
      const err = await rejection(rpc.subscribe('bad query', () => undefined));
      assert.ok(err instanceof RpcError);
      assert.match(err.message, /failed to parse query/);
      node.publish(NEW_BLOCK, block('45'));
      await waitFor('the event', () => got.length === 1);
    });

    it('fails with NodeUnavailableError when the WebSocket cannot connect', async () => {
      rpc = new HttpChainRpc(`http://127.0.0.1:${await closedPort()}`);
      await assert.rejects(rpc.subscribe(NEW_BLOCK, () => undefined), NodeUnavailableError);
    });

    it('reconnects after the socket drops and re-subscribes every query', async () => {
      const reports: WebSocketReport[] = [];
      rpc = new HttpChainRpc(node.url, { reconnectDelayMs: 20, onWebSocketEvent: (r) => reports.push(r) });
      const blocks: RpcEvent[] = [];
      const txs: RpcEvent[] = [];
      await rpc.subscribe(NEW_BLOCK, (e) => blocks.push(e));
      await rpc.subscribe(TX, (e) => txs.push(e));
      node.dropWebSockets();
      await waitFor('re-subscription', () => node.wsConnections === 2 && node.subscriptionsOf(NEW_BLOCK) === 1 && node.subscriptionsOf(TX) === 1);
      node.publish(NEW_BLOCK, block('46'));
      node.publish(TX, { type: 'tendermint/event/Tx', value: { TxResult: { height: '46', tx: 'eA==', result: {} } } });
      await waitFor('events after reconnect', () => blocks.length === 1 && txs.length === 1);
      assert.deepEqual(reports.map((r) => r.type).filter((t) => t !== 'reconnecting'), ['open', 'closed', 'open']);
    });

    it('keeps retrying with backoff while the node is down and resumes when it is back', async () => {
      const port = node.port;
      const reports: WebSocketReport[] = [];
      rpc = new HttpChainRpc(node.url, { reconnectDelayMs: 10, maxReconnectDelayMs: 40, onWebSocketEvent: (r) => reports.push(r) });
      const blocks: RpcEvent[] = [];
      await rpc.subscribe(NEW_BLOCK, (e) => blocks.push(e));
      await node.stop();
      await waitFor('several reconnect attempts', () => reports.filter((r) => r.type === 'reconnecting').length >= 3);
      node = await new FakeNode().start(port);
      await waitFor('re-subscription', () => node.subscriptionsOf(NEW_BLOCK) === 1);
      node.publish(NEW_BLOCK, block('47'));
      await waitFor('the event', () => blocks.length === 1);
      const delays = reports.flatMap((r) => (r.type === 'reconnecting' ? [r.delayMs] : []));
      assert.ok(delays.every((d) => d <= 40), `delays ${delays.join(',')}`);
    });

    it('subscribes again when the node cancels a subscription (slow client)', async () => {
      const reports: WebSocketReport[] = [];
      rpc = new HttpChainRpc(node.url, { onWebSocketEvent: (r) => reports.push(r) });
      const blocks: RpcEvent[] = [];
      await rpc.subscribe(NEW_BLOCK, (e) => blocks.push(e));
      node.cancelSubscription(NEW_BLOCK);
      await waitFor('re-subscription', () => node.subscriptionsOf(NEW_BLOCK) === 1 && node.wsMessages.length === 2);
      node.publish(NEW_BLOCK, block('48'));
      await waitFor('the event', () => blocks.length === 1);
      assert.ok(reports.some((r) => r.type === 'subscription-cancelled' && /not pulling messages/.test(r.reason)));
    });

    it('isolates a throwing listener from the others', async () => {
      const reports: WebSocketReport[] = [];
      rpc = new HttpChainRpc(node.url, { onWebSocketEvent: (r) => reports.push(r) });
      const got: RpcEvent[] = [];
      await rpc.subscribe(NEW_BLOCK, () => {
        throw new Error('listener bug');
      });
      await rpc.subscribe(NEW_BLOCK, (e) => got.push(e));
      node.publish(NEW_BLOCK, block('49'));
      await waitFor('the event', () => got.length === 1);
      assert.ok(reports.some((r) => r.type === 'listener-failed'));
    });

    it('drops a silent socket after a missed pong and reconnects', async () => {
      rpc = new HttpChainRpc(node.url, { pingIntervalMs: 30, reconnectDelayMs: 10 });
      await rpc.subscribe(NEW_BLOCK, () => undefined);
      // Make the server stop answering pings: pause the server-side socket's reads.
      for (const client of (node as unknown as { wsClients: Map<WebSocket, unknown> }).wsClients.keys()) {
        (client as unknown as { _socket: Socket })._socket.pause();
      }
      await waitFor('a second connection', () => node.wsConnections >= 2);
    });

    it('close() ends the socket and stops reconnecting', async () => {
      const reports: WebSocketReport[] = [];
      rpc = new HttpChainRpc(node.url, { reconnectDelayMs: 10, onWebSocketEvent: (r) => reports.push(r) });
      await rpc.subscribe(NEW_BLOCK, () => undefined);
      await rpc.close();
      await waitFor('the server to see the close', () => node.subscriptionsOf(NEW_BLOCK) === 0);
      await new Promise((r) => setTimeout(r, 60));
      assert.equal(node.wsConnections, 1);
      assert.ok(!reports.some((r) => r.type === 'reconnecting'));
      await assert.rejects(rpc.subscribe(NEW_BLOCK, () => undefined), NodeUnavailableError);
    });
  });
});
