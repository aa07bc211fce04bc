import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import { WebSocket } from 'ws';
import { silentLogger } from '../../../core/logger.js';
import { createKoaApp } from '../../../host/servers/koa-app.js';
import { request } from '../../support/test-host.js';
import { bootDashboardHost, RELAXED_LIMITS, type DashboardHost } from '../../plugins/dashboard/support/dashboard-host.js';
import { openDevnet } from '../../plugins/devnet/node/devnet-fixture.js';

/**
 * DNS rebinding (issue #19): a web page that rebinds its own name to 127.0.0.1 reaches every
 * loopback server but still sends its own name as Host. The dashboard, GraphQL (any `query`
 * koa server), and the devnet's node RPC refuse such a Host while bound to loopback, like the
 * tool server; the dashboard's `/ws` also refuses a foreign Origin.
 */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      socket.terminate();
    });
    socket.once('error', (err) => reject(err));
  });
}

describe('Host header checks on the loopback query servers and node RPC (DNS rebinding)', function () {
  this.timeout(60_000);

  describe('a query koa server (GraphQL, /metrics) bound to loopback', () => {
    let server: http.Server;
    let port: number;
    before(async () => {
      const router = new Router();
      router.get('/graphql', (ctx) => void (ctx.body = { ok: true }));
      const app = createKoaApp({ name: 'graphql', kind: 'query', host: '127.0.0.1', port: 0 }, [{ server: 'graphql', id: 'g', capability: 'read', router }], silentLogger);
      server = http.createServer(app.callback());
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      port = (server.address() as AddressInfo).port;
    });
    after(() => new Promise<void>((r) => server.close(() => r())));

    for (const [host, status] of [['127.0.0.1:<p>', 200], ['localhost:<p>', 200], ['evil.example:<p>', 403], ['127.0.0.1.evil.example:<p>', 403]] as const) {
      it(`Host ${host} → ${status}`, async () => {
        const res = await request(`http://127.0.0.1:${port}/graphql`, { headers: { host: host.replace('<p>', String(port)) } });
        assert.equal(res.status, status, res.text);
        if (status === 403) {
          assert.equal(res.json.error.code, 'forbidden');
          assert.match(res.json.error.message, /DNS-rebinding/);
        }
      });
    }

    it('is not applied to a server published beyond loopback (its names are not ours to know)', async () => {
      const router = new Router();
      router.get('/x', (ctx) => void (ctx.body = 'x'));
      const app = createKoaApp({ name: 'graphql', kind: 'query', host: '0.0.0.0', port: 0, publicQuery: true }, [{ server: 'graphql', id: 'g', capability: 'read', router }], silentLogger);
      const open = http.createServer(app.callback());
      await new Promise<void>((r) => open.listen(0, '127.0.0.1', r));
      try {
        const res = await request(`http://127.0.0.1:${(open.address() as AddressInfo).port}/x`, { headers: { host: 'graphql.example.org' } });
        assert.equal(res.status, 200);
      } finally {
        await new Promise<void>((r) => open.close(() => r()));
      }
    });
  });

  describe('the dashboard', () => {
    let h: DashboardHost;
    let port: number;
    before(async () => {
      h = await bootDashboardHost({ dashboard: { ...RELAXED_LIMITS, websocket: { allowedOrigins: ['http://localhost:3000'] } } });
      port = Number(new URL(h.base).port);
    });
    after(() => h.stop());

    it('answers its own Host and refuses a foreign one with 403 (REST and explorer)', async () => {
      assert.equal((await request(h.url('/api/config'), { headers: { host: `localhost:${port}` } })).status, 200);
      const refused = await request(h.url('/api/config'), { headers: { host: `rebind.evil.example:${port}` } });
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.json.error.code, 'forbidden');
      assert.equal((await request(h.url('/explorer'), { headers: { host: `rebind.evil.example:${port}` } })).status, 403);
    });

    it('/ws refuses a foreign Host before upgrading', async () => {
      assert.equal(await upgradeStatus(h.wsUrl(), { host: `rebind.evil.example:${port}` }), 403);
    });

    it('/ws refuses a foreign Origin, accepts its own origin, a listed one, and clients without Origin', async () => {
      assert.equal(await upgradeStatus(h.wsUrl(), { origin: 'https://any-page.example' }), 403);
      assert.equal(await upgradeStatus(h.wsUrl(), { origin: `http://127.0.0.1:${port + 1}` }), 403);
      assert.equal(await upgradeStatus(h.wsUrl(), { origin: 'null' }), 403);
      assert.equal(await upgradeStatus(h.wsUrl(), { origin: `http://127.0.0.1:${port}` }), 101);
      assert.equal(await upgradeStatus(h.wsUrl(), { origin: 'http://localhost:3000' }), 101);
      assert.equal(await upgradeStatus(h.wsUrl(), {}), 101);
    });

    it('refuses "*" in allowedOrigins at start', async () => {
      await assert.rejects(bootDashboardHost({ devnet: false, dashboard: { websocket: { allowedOrigins: ['*'] } } }), /exact origin/);
    });
  });

  describe('the devnet node RPC bound to loopback', () => {
    let net: Awaited<ReturnType<typeof openDevnet>>;
    let url: string;
    let metricsUrl: string;
    before(async () => {
      net = await openDevnet();
      const listening = await net.devnet.listen({ port: 0, metricsPort: 0 });
      url = listening.rpcUrl;
      metricsUrl = listening.metricsUrl!;
    });
    after(() => net.close());

    it('answers its own Host and refuses a foreign one with 403 (URI, JSON-RPC and /websocket)', async () => {
      const port = new URL(url).port;
      assert.equal((await request(`${url}/status`, { headers: { host: `localhost:${port}` } })).status, 200);
      const refused = await request(`${url}/status`, { headers: { host: `rebind.evil.example:${port}` } });
      assert.equal(refused.status, 403);
      assert.match(refused.text, /DNS-rebinding/);
      const rpc = await request(`${url}/`, { method: 'POST', headers: { host: `rebind.evil.example:${port}`, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"status"}' });
      assert.equal(rpc.status, 403);
      assert.equal(await upgradeStatus(url.replace(/^http/, 'ws') + '/websocket', { host: `rebind.evil.example:${port}` }), 403);
      assert.equal(await upgradeStatus(url.replace(/^http/, 'ws') + '/websocket', {}), 101);
    });

    it('its metrics port (9108) too: its own Host is answered, a foreign one gets 403', async () => {
      const port = new URL(metricsUrl).port;
      assert.equal((await request(metricsUrl, { headers: { host: `localhost:${port}` } })).status, 200);
      const refused = await request(metricsUrl, { headers: { host: `rebind.evil.example:${port}` } });
      assert.equal(refused.status, 403);
      assert.match(refused.text, /DNS-rebinding/);
    });
  });
});
