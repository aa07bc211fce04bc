import assert from 'node:assert/strict';
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { bootTestHost, FIXTURE_PLUGIN, fixtureConfig, postJson, request, TEST_TOKEN, type TestHost } from '../../support/test-host.js';

const AUTH = { authorization: `Bearer ${TEST_TOKEN}` };
const INIT = {
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };

async function connect(t: TestHost, headers: Record<string, string> = {}): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(t.url('/mcp')), { requestInit: { headers } });
  const client = new Client({ name: 'chainhost-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

describe('MCP over Streamable HTTP at /mcp', () => {
  describe('with a token and unsafe tools disabled', () => {
    let t: TestHost;
    before(async () => {
      t = await bootTestHost(fixtureConfig({ token: TEST_TOKEN, corsOrigins: ['https://app.example'] }));
    });
    after(() => t.stop());

    it('lists and calls tools through the SDK client', async () => {
      const { client, transport } = await connect(t, AUTH);
      try {
        assert.equal(client.getServerVersion()?.name, 'chainhost');
        assert.equal(client.getServerVersion()?.version, '0.1.0');
        assert.ok(transport.sessionId, 'a session id was issued');
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((x) => x.name), ['echo_text', 'slow_tool']);
        const ok = (await client.callTool({ name: 'echo_text', arguments: { text: 'over http' } })) as CallToolResult;
        assert.deepEqual(ok.structuredContent, { text: 'over http' });
        assert.deepEqual(JSON.parse((ok.content[0] as { text: string }).text), { text: 'over http' });
        const bad = (await client.callTool({ name: 'echo_text', arguments: { text: false } })) as CallToolResult;
        assert.equal(bad.isError, true);
        assert.match((bad.content[0] as { text: string }).text, /text: expected string, received boolean/);
        const unsafe = (await client.callTool({ name: 'unsafe_probe', arguments: {} })) as CallToolResult;
        assert.equal(unsafe.isError, true);
        assert.match((unsafe.content[0] as { text: string }).text, /CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS=1/);
        await assert.rejects(client.callTool({ name: 'nope', arguments: {} }), /Unknown tool: nope/);
      } finally {
        await transport.terminateSession();
        await client.close();
      }
    });

    it('refuses a client without the token (401)', async () => {
      await assert.rejects(connect(t), (err: Error) => /401|Unauthorized/i.test(err.message) || (err as { code?: number }).code === 401);
      const raw = await postJson(t.url('/mcp'), INIT, MCP_HEADERS);
      assert.equal(raw.status, 401);
      assert.match(String(raw.headers['www-authenticate']), /^Bearer/);
    });

    it('refuses a client with a wrong token (401)', async () => {
      await assert.rejects(connect(t, { authorization: 'Bearer wrong-token-wrong-token' }));
    });

    it('refuses an unlisted Origin (403) and accepts a listed one', async () => {
      await assert.rejects(connect(t, { ...AUTH, origin: 'https://evil.example' }), /403|Forbidden/i);
      const raw = await postJson(t.url('/mcp'), INIT, { ...MCP_HEADERS, ...AUTH, origin: 'https://evil.example' });
      assert.equal(raw.status, 403);
      assert.equal(raw.json.error.code, 'forbidden');
      const listed = await postJson(t.url('/mcp'), INIT, { ...MCP_HEADERS, ...AUTH, origin: 'https://app.example' });
      assert.equal(listed.status, 200);
      assert.equal(listed.headers['access-control-allow-origin'], 'https://app.example');
      await request(t.url('/mcp'), { method: 'DELETE', headers: { ...AUTH, 'mcp-session-id': String(listed.headers['mcp-session-id']) } });
    });

    it('refuses a foreign Host header (403)', async () => {
      const raw = await postJson(t.url('/mcp'), INIT, { ...MCP_HEADERS, ...AUTH, host: `rebind.evil.example:${t.port}` });
      assert.equal(raw.status, 403);
    });

    it('session rules: no id on a non-initialize request → 400; an unknown id → 404; DELETE ends a session', async () => {
      const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
      const noSession = await postJson(t.url('/mcp'), list, { ...MCP_HEADERS, ...AUTH });
      assert.equal(noSession.status, 400);
      assert.equal(noSession.json.error.code, 'invalid_request');
      const unknown = await postJson(t.url('/mcp'), list, { ...MCP_HEADERS, ...AUTH, 'mcp-session-id': 'no-such-session' });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.json.error.code, 'session_not_found');
      assert.equal((await request(t.url('/mcp'), { headers: { ...MCP_HEADERS, ...AUTH } })).status, 400, 'GET needs a session');

      const init = await postJson(t.url('/mcp'), INIT, { ...MCP_HEADERS, ...AUTH });
      const id = String(init.headers['mcp-session-id']);
      const del = await request(t.url('/mcp'), { method: 'DELETE', headers: { ...AUTH, 'mcp-session-id': id } });
      assert.equal(del.status, 200);
      const after = await postJson(t.url('/mcp'), list, { ...MCP_HEADERS, ...AUTH, 'mcp-session-id': id });
      assert.equal(after.status, 404);
    });

    it('a malformed or oversized body is refused in the error shape', async () => {
      const malformed = await postJson(t.url('/mcp'), '{"jsonrpc":', { ...MCP_HEADERS, ...AUTH });
      assert.equal(malformed.status, 400);
      assert.equal(malformed.json.error.code, 'invalid_json');
      const huge = await postJson(t.url('/mcp'), { ...INIT, pad: 'x'.repeat(2 * 1024 * 1024) }, { ...MCP_HEADERS, ...AUTH });
      assert.equal(huge.status, 413);
    });
  });

  describe('session policy', () => {
    let t: TestHost;
    before(async () => {
      t = await bootTestHost(fixtureConfig(), { surfaces: { mcpSessions: { maxSessions: 2, idleMs: 300 } } });
    });
    after(() => t.stop());

    it('an idle session expires after idleMs and its client is told to initialise again (404)', async () => {
      const a = await postJson(t.url('/mcp'), INIT, MCP_HEADERS);
      assert.equal(a.status, 200);
      await new Promise((r) => setTimeout(r, 700));
      const expired = await postJson(t.url('/mcp'), { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { ...MCP_HEADERS, 'mcp-session-id': String(a.headers['mcp-session-id']) });
      assert.equal(expired.status, 404, 'an idle session expires');
      assert.equal(expired.json.error.code, 'session_not_found');
    });
  });

  describe('a full store always admits a new client (issue #30)', () => {
    const MAX = 4;
    let t: TestHost;
    before(async () => {
      t = await bootTestHost({ ...fixtureConfig(), plugins: { [FIXTURE_PLUGIN]: { slowTimeoutMs: 60_000 } } }, { surfaces: { mcpSessions: { maxSessions: MAX, idleMs: 600_000 } } });
    });
    after(() => t.stop());

    const list = (id: unknown) => postJson(t.url('/mcp'), { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { ...MCP_HEADERS, 'mcp-session-id': String(id) });
    const initialized = async () => {
      const init = await postJson(t.url('/mcp'), INIT, MCP_HEADERS);
      assert.equal(init.status, 200, init.text);
      const id = String(init.headers['mcp-session-id']);
      await postJson(t.url('/mcp'), { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...MCP_HEADERS, 'mcp-session-id': id });
      return id;
    };
    /** A raw `GET /mcp` held open, as a client waiting for server messages holds it. */
    const holdStream = (id: string) => new Promise<{ ended: Promise<void>; close(): void }>((resolve, reject) => {
      const req = http.get(t.url('/mcp'), { headers: { accept: 'text/event-stream', 'mcp-session-id': id }, agent: false }, (res) => {
        assert.equal(res.statusCode, 200);
        res.resume();
        resolve({ ended: new Promise((r) => res.once('close', () => r())), close: () => req.destroy() });
      });
      req.on('error', reject);
    });

    it('sessions that only hold a GET stream make room, least recently active first; SDK clients connect and work', async () => {
      // The store filled with held streams: the first two by SDK clients (they open GET /mcp
      // after initialising), the rest raw. Before the fix every new initialize answered 503.
      const holders = [await connect(t), await connect(t)];
      const raw: string[] = [];
      const streams = [];
      for (let i = holders.length; i < MAX; i++) {
        const id = await initialized();
        raw.push(id);
        streams.push(await holdStream(id));
      }
      try {
        // The first SDK holder sends a message now: it is the most recently active of them all.
        await holders[0]!.client.listTools();
        const newcomer = await connect(t);
        const { tools } = await newcomer.client.listTools();
        assert.ok(tools.some((x) => x.name === 'echo_text'));
        // The victim was the least recently active: the second SDK client (initialised before the raw ones, silent since).
        await assert.rejects(holders[1]!.client.listTools(), /404|not found|session/i, 'the evicted SDK client is told its session is gone');
        assert.equal((await list(raw[0])).status, 200, 'the raw holders, active more recently, keep their sessions');
        await holders[0]!.client.listTools();

        // Raw HTTP: another new client evicts the next least recently active — the second raw
        // holder (the first just sent tools/list) — and its held stream is closed.
        const second = await postJson(t.url('/mcp'), INIT, MCP_HEADERS);
        assert.equal(second.status, 200, second.text);
        await streams[1]!.ended;
        assert.equal((await list(raw[1])).status, 404);
        assert.equal((await list(raw[0])).status, 200);
        await newcomer.transport.terminateSession();
        await newcomer.client.close();
      } finally {
        for (const s of streams) s.close();
        for (const h of holders) await h.client.close().catch(() => undefined);
      }
    });

    it('a session answering a request is never evicted; only when every one is, the newcomer gets 503 Retry-After 1', async () => {
      const busy = await Promise.all(Array.from({ length: MAX }, () => connect(t)));
      const calls = busy.map((b) => b.client.callTool({ name: 'slow_tool', arguments: { ms: 1_500 } }));
      try {
        // Wait until every slow call is being answered (each session has its request open).
        await new Promise((r) => setTimeout(r, 300));
        const refused = await postJson(t.url('/mcp'), INIT, MCP_HEADERS);
        assert.equal(refused.status, 503, refused.text);
        assert.equal(refused.json.error.code, 'busy');
        assert.equal(refused.headers['retry-after'], '1');
        const results = (await Promise.all(calls)) as CallToolResult[];
        for (const r of results) assert.deepEqual(r.structuredContent, { slept_ms: 1_500 }, 'no busy session was cut');
        const admitted = await postJson(t.url('/mcp'), INIT, MCP_HEADERS);
        assert.equal(admitted.status, 200, 'once a request ends its session can make room');
      } finally {
        for (const b of busy) await b.client.close().catch(() => undefined);
      }
    });
  });

  describe('with unsafe tools enabled', () => {
    let t: TestHost;
    before(async () => {
      t = await bootTestHost(fixtureConfig({ token: TEST_TOKEN }), { env: { CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS: 'true' } });
    });
    after(() => t.stop());

    it('lists and runs the unsafe tool for an authenticated client', async () => {
      const { client, transport } = await connect(t, AUTH);
      try {
        const { tools } = await client.listTools();
        assert.ok(tools.some((x) => x.name === 'unsafe_probe'));
        const result = (await client.callTool({ name: 'unsafe_probe', arguments: {} })) as CallToolResult;
        assert.deepEqual(result.structuredContent, { reached: true });
      } finally {
        await transport.terminateSession();
        await client.close();
      }
    });
  });
});
