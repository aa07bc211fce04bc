import assert from 'node:assert/strict';
import net from 'node:net';
import { BootError } from '../../../core/errors.js';
import { silentLogger } from '../../../core/logger.js';
import { Host } from '../../../host/host.js';
import { urlFor } from '../../../core/net/bind-address.js';
import { checkBindRules } from '../../../host/servers/bind-rules.js';
import { toolSurfaces } from '../../../host/tools-server/index.js';
import { bootTestHost, fixtureConfig, loadTestConfig, postJson, request, TEST_TOKEN, type TestHost } from '../../support/test-host.js';

const AUTH = { authorization: `Bearer ${TEST_TOKEN}` };

/** Whether this machine can listen on IPv6 loopback (CI containers sometimes cannot). */
async function ipv6Available(): Promise<boolean> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(0, '::1', () => server.close(() => resolve(true)));
  });
}

/** Where a test client connects for a bind address (a wildcard bind is reached over loopback). */
function dialHost(bind: string): string {
  if (bind === '0.0.0.0') return '127.0.0.1';
  if (bind === '::') return '::1';
  return bind;
}

describe('HTTP tool server authentication and binding (spec part 5)', () => {
  describe('start-up rules: bind address × unsafe tools × token', () => {
    // A token is required when unsafe tools are on or the bind address is not loopback (`::` is not).
    const binds: Array<{ host: string; loopback: boolean; local: boolean }> = [
      { host: '127.0.0.1', loopback: true, local: true },
      { host: '::1', loopback: true, local: true },
      { host: 'localhost', loopback: true, local: true },
      { host: '0.0.0.0', loopback: false, local: true },
      { host: '::', loopback: false, local: true },
      // Not an address of this machine: checked against the rules without binding.
      { host: '192.0.2.10', loopback: false, local: false },
    ];
    for (const bind of binds) {
      for (const unsafe of [false, true]) {
        for (const token of [false, true]) {
          const starts = token || (bind.loopback && !unsafe);
          const label = `${bind.host}, unsafe ${unsafe ? 'on' : 'off'}, token ${token ? 'set' : 'unset'} → ${starts ? 'starts' : 'refuses to start'}`;
          it(label, async function () {
            if (bind.local && bind.host.includes(':') && !(await ipv6Available())) this.skip();
            const env: Record<string, string> = { HTTP_HOST: bind.host };
            if (unsafe) env.CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS = '1';
            if (token) env.CHAIN_MCP_HTTP_TOKEN = TEST_TOKEN;
            const config = await loadTestConfig(fixtureConfig({ port: 0 }), env);
            assert.equal(config.settings.tools.http?.host, bind.host);

            if (!bind.local) {
              const check = () => checkBindRules({ name: 'tools', kind: 'tools', host: bind.host, port: 0 }, config.settings);
              if (starts) assert.doesNotThrow(check);
              else assert.throws(check, (err: BootError) => err.code === 'unsafe_bind' && /CHAIN_MCP_HTTP_TOKEN must be set/.test(err.message));
              return;
            }

            const host = await Host.create(config, { log: silentLogger, surfaces: [toolSurfaces()] });
            try {
              if (!starts) {
                await assert.rejects(host.start(), (err: BootError) => err instanceof BootError && err.code === 'unsafe_bind' && /CHAIN_MCP_HTTP_TOKEN must be set/.test(err.message));
                return;
              }
              await host.start();
              const port = Number(new URL(host.serverUrl('tools')!).port);
              const url = urlFor(dialHost(bind.host), port, '/tools/echo_text');
              const anonymous = await postJson(url, { text: 'a' });
              if (token) {
                assert.equal(anonymous.status, 401);
                assert.match(String(anonymous.headers['www-authenticate']), /^Bearer/);
                assert.equal(anonymous.json.error.code, 'unauthorized');
                const wrong = await postJson(url, { text: 'a' }, { authorization: `Bearer ${TEST_TOKEN}x` });
                assert.equal(wrong.status, 401);
                assert.equal((await postJson(url, { text: 'a' }, AUTH)).status, 200);
              } else {
                assert.equal(anonymous.status, 200);
              }
            } finally {
              await host.stop();
            }
          });
        }
      }
    }
  });

  describe('bearer token', () => {
    let t: TestHost;
    before(async () => {
      t = await bootTestHost(fixtureConfig({ token: TEST_TOKEN }));
    });
    after(() => t.stop());

    const cases: Array<{ what: string; path: string; method?: string; headers: Record<string, string>; status: number }> = [
      { what: 'no Authorization header on GET /tools', path: '/tools', headers: {}, status: 401 },
      { what: 'no Authorization header on GET /health (the token is always enforced)', path: '/health', headers: {}, status: 401 },
      { what: 'no Authorization header on a plugin route', path: '/fixture/ping', headers: {}, status: 401 },
      { what: 'a wrong token', path: '/tools', headers: { authorization: 'Bearer not-the-token-at-all' }, status: 401 },
      { what: 'a token of a different length', path: '/tools', headers: { authorization: 'Bearer x' }, status: 401 },
      { what: 'the token with another scheme', path: '/tools', headers: { authorization: `Basic ${TEST_TOKEN}` }, status: 401 },
      { what: 'the token without a scheme', path: '/tools', headers: { authorization: TEST_TOKEN }, status: 401 },
      { what: 'the right token', path: '/tools', headers: AUTH, status: 200 },
      { what: 'the right token with a lower-case scheme', path: '/health', headers: { authorization: `bearer ${TEST_TOKEN}` }, status: 200 },
      // POST /tools/{name} is answered before koa (direct-tool-call.ts): the same gate must hold there.
      { what: 'no Authorization header on POST /tools/{name}', path: '/tools/echo_text', method: 'POST', headers: {}, status: 401 },
      { what: 'a wrong token on POST /tools/{name}', path: '/tools/echo_text', method: 'POST', headers: { authorization: 'Bearer not-the-token-at-all' }, status: 401 },
      { what: 'the right token on POST /tools/{name}', path: '/tools/echo_text', method: 'POST', headers: AUTH, status: 200 },
      { what: 'no Authorization header on POST /tools/{name}/ (left to koa)', path: '/tools/echo_text/', method: 'POST', headers: {}, status: 401 },
    ];
    for (const c of cases) {
      it(`${c.what} → ${c.status}`, async () => {
        const body = c.method === 'POST' ? JSON.stringify({ text: 'hi' }) : undefined;
        const headers = body ? { ...c.headers, 'content-type': 'application/json' } : c.headers;
        const res = await request(t.url(c.path), { method: c.method, headers, body });
        assert.equal(res.status, c.status, res.text);
        assert.equal(res.headers['cache-control'], 'no-store');
        if (c.status === 401) {
          assert.match(String(res.headers['www-authenticate']), /^Bearer realm="chainhost"/);
          assert.deepEqual(Object.keys(res.json.error).sort(), ['code', 'details', 'message']);
          assert.ok(!res.text.includes(TEST_TOKEN), 'never echoes the token');
        }
      });
    }
  });

  describe('CORS: only origins listed exactly in CHAIN_MCP_HTTP_CORS_ORIGINS', () => {
    let t: TestHost;
    const listed = 'https://app.example';
    before(async () => {
      t = await bootTestHost(fixtureConfig({ token: TEST_TOKEN }), { env: { CHAIN_MCP_HTTP_CORS_ORIGINS: `${listed}, http://localhost:3000` } });
    });
    after(() => t.stop());

    it('a listed origin gets Access-Control-Allow-Origin for itself', async () => {
      const res = await request(t.url('/tools'), { headers: { origin: listed, ...AUTH } });
      assert.equal(res.status, 200);
      assert.equal(res.headers['access-control-allow-origin'], listed);
      assert.match(String(res.headers.vary), /Origin/);
      assert.match(String(res.headers['access-control-expose-headers']), /mcp-session-id/);
    });

    it('a preflight from a listed origin is answered 204 without a token', async () => {
      const res = await request(t.url('/tools/echo_text'), {
        method: 'OPTIONS',
        headers: { origin: listed, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });
      assert.equal(res.status, 204);
      assert.equal(res.headers['access-control-allow-origin'], listed);
      assert.match(String(res.headers['access-control-allow-methods']), /POST/);
      assert.match(String(res.headers['access-control-allow-headers']), /authorization/);
      assert.match(String(res.headers['access-control-allow-headers']), /content-type/);
    });

    it('a 401 to a listed origin still carries CORS headers so the page can read it', async () => {
      const res = await request(t.url('/tools'), { headers: { origin: listed } });
      assert.equal(res.status, 401);
      assert.equal(res.headers['access-control-allow-origin'], listed);
    });

    it('a tool call from a listed origin gets the same CORS headers, on success and on 401', async () => {
      const post = (headers: Record<string, string>) => request(t.url('/tools/echo_text'), {
        method: 'POST', headers: { origin: listed, 'content-type': 'application/json', ...headers }, body: JSON.stringify({ text: 'hi' }),
      });
      const ok = await post(AUTH);
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.headers['access-control-allow-origin'], listed);
      assert.match(String(ok.headers.vary), /Origin/);
      assert.match(String(ok.headers['access-control-expose-headers']), /mcp-session-id/);
      const refused = await post({});
      assert.equal(refused.status, 401);
      assert.equal(refused.headers['access-control-allow-origin'], listed);
      assert.match(String(refused.headers.vary), /Origin/);
    });

    it('a tool call from an unlisted origin → 403 before the tool runs', async () => {
      const res = await request(t.url('/tools/echo_text'), {
        method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/json', ...AUTH }, body: JSON.stringify({ text: 'hi' }),
      });
      assert.equal(res.status, 403);
      assert.equal(res.json.error.code, 'forbidden');
      assert.equal(res.headers['access-control-allow-origin'], undefined);
    });

    for (const origin of ['https://evil.example', 'https://app.example.evil', 'http://app.example', 'https://APP.example', 'null']) {
      it(`an unlisted Origin ${origin} → 403, no CORS headers`, async () => {
        const res = await request(t.url('/tools'), { headers: { origin, ...AUTH } });
        assert.equal(res.status, 403);
        assert.equal(res.json.error.code, 'forbidden');
        assert.equal(res.headers['access-control-allow-origin'], undefined);
      });
    }

    it('an unlisted preflight → 403', async () => {
      const res = await request(t.url('/tools'), { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
      assert.equal(res.status, 403);
    });

    it('without any listed origin, every Origin is refused', async () => {
      const plain = await bootTestHost(fixtureConfig());
      try {
        const res = await request(plain.url('/tools'), { headers: { origin: 'http://localhost:3000' } });
        assert.equal(res.status, 403);
        assert.equal((await request(plain.url('/tools'))).status, 200, 'no Origin (a non-browser client) is fine');
      } finally {
        await plain.stop();
      }
    });

    it('"*" refuses to start', async () => {
      const config = await loadTestConfig(fixtureConfig(), { CHAIN_MCP_HTTP_CORS_ORIGINS: '*' });
      const host = await Host.create(config, { log: silentLogger, surfaces: [toolSurfaces()] });
      try {
        await assert.rejects(host.start(), (err: BootError) => err.code === 'unsafe_bind' && /"\*" is refused/.test(err.message));
      } finally {
        await host.stop();
      }
    });
  });

  describe('Host header (DNS-rebinding protection)', () => {
    let t: TestHost;
    before(async () => {
      t = await bootTestHost(fixtureConfig({ publishHost: 'tools.internal.example' }));
    });
    after(() => t.stop());

    const cases: Array<{ host: (port: number) => string; status: number }> = [
      { host: (p) => `127.0.0.1:${p}`, status: 200 },
      { host: (p) => `localhost:${p}`, status: 200 },
      { host: (p) => `LOCALHOST:${p}`, status: 200 },
      { host: (p) => `[::1]:${p}`, status: 200 },
      { host: () => 'tools.internal.example:9000', status: 200 },
      { host: (p) => `evil.example:${p}`, status: 403 },
      { host: (p) => `127.0.0.1.evil.example:${p}`, status: 403 },
      { host: (p) => `127.0.0.1:${p + 1}`, status: 403 },
      { host: () => '127.0.0.1', status: 403 },
      { host: (p) => `10.0.0.1:${p}`, status: 403 },
      { host: () => 'not a host', status: 403 },
    ];
    for (const c of cases) {
      it(`Host ${c.host(8100).replace('8100', '<port>').replace('8101', '<port+1>')} → ${c.status}`, async () => {
        const res = await request(t.url('/health'), { headers: { host: c.host(t.port) } });
        assert.equal(res.status, c.status, res.text);
        if (c.status === 403) assert.equal(res.json.error.code, 'forbidden');
        const call = await request(t.url('/tools/echo_text'), {
          method: 'POST', headers: { host: c.host(t.port), 'content-type': 'application/json' }, body: JSON.stringify({ text: 'hi' }),
        });
        assert.equal(call.status, c.status, `POST /tools/echo_text: ${call.text}`);
        if (c.status === 403) assert.equal(call.json.error.code, 'forbidden');
      });
    }

    it('a server bound to ::1 accepts its bracketed form and refuses other names', async function () {
      if (!(await ipv6Available())) this.skip();
      const v6 = await bootTestHost(fixtureConfig({ host: '::1' }));
      try {
        assert.equal(v6.url(), `http://[::1]:${v6.port}`);
        assert.equal((await request(v6.url('/health'))).status, 200);
        assert.equal((await request(v6.url('/health'), { headers: { host: `evil.example:${v6.port}` } })).status, 403);
      } finally {
        await v6.stop();
      }
    });
  });
});
