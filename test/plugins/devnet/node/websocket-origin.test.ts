import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { openDevnet } from './devnet-fixture.js';

/**
 * Issue #30: the node's /websocket checks Origin as the dashboard's /ws does (one mechanism,
 * `browserOriginAllowed`): a page of another origin cannot open it, so it cannot take the 100
 * subscription-client slots; SDKs (no Origin), the node's own origin and listed ones can.
 */
describe('devnet /websocket: browser Origin check', function () {
  this.timeout(60_000);
  let opened: Awaited<ReturnType<typeof openDevnet>>;
  let wsUrl: string;
  let port: number;

  before(async () => {
    opened = await openDevnet();
    wsUrl = (await opened.devnet.listen({ port: 0, metricsPort: null, allowedOrigins: ['http://localhost:3000'] })).websocketUrl;
    port = Number(new URL(wsUrl).port);
  });
  after(async () => opened.close());

  /** The HTTP status of the upgrade answer (101 when it opened), and the socket when it opened. */
  function connect(origin: string | undefined): Promise<{ status: number; ws?: WebSocket }> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(wsUrl, origin ? { origin } : {});
      ws.once('open', () => resolve({ status: 101, ws }));
      ws.once('unexpected-response', (_req, res) => {
        resolve({ status: res.statusCode ?? 0 });
        res.resume();
      });
      ws.once('error', (err) => { if (!/Unexpected server response/.test(err.message)) reject(err); });
    });
  }

  async function subscribe(ws: WebSocket): Promise<any> {
    const reply = new Promise<any>((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscribe', params: { query: "tm.event='NewBlock'" } }));
    return reply;
  }

  it('refuses 101 upgrades from a hostile origin with 403, and the subscription slots stay free', async () => {
    for (let i = 0; i < 101; i++) assert.equal((await connect('http://evil.example')).status, 403, `attempt ${i}`);
    assert.equal(opened.devnet.node.events.clientCount, 0);
    const sdk = await connect(undefined);
    assert.equal(sdk.status, 101);
    assert.deepEqual((await subscribe(sdk.ws!)).result, {});
    sdk.ws!.terminate();
  });

  it('admits the node\'s own origin and listed origins, not look-alikes', async () => {
    for (const origin of [`http://127.0.0.1:${port}`, 'http://localhost:3000']) {
      const c = await connect(origin);
      assert.equal(c.status, 101, origin);
      c.ws!.terminate();
    }
    for (const origin of ['http://localhost:3001', 'https://localhost:3000', `http://127.0.0.1:${port + 1}`, 'null']) {
      assert.equal((await connect(origin)).status, 403, origin);
    }
  });
});
