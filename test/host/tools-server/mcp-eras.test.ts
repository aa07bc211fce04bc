import assert from 'node:assert/strict';
import { TOOL_LIST_TTL_MS } from '../../../host/tools-server/mcp-server.js';
import { connectMcp, type Era, type McpTestClient } from '../../support/mcp-clients.js';
import { bootTestHost, fixtureConfig, TEST_TOKEN, writeTempConfig, type TestHost } from '../../support/test-host.js';

/**
 * One tool server, every protocol era a client may speak (issue #38): a v2 SDK client on
 * 2026-07-28 (no initialize, per-request envelopes), a v1 SDK client on 2025-11-25 and a client
 * on 2025-06-18 list and call every tool over stdio and over HTTP `/mcp`, and get the same answers.
 */
const ALL_ERAS: Era[] = ['v2@2026-07-28', 'v1@2025-11-25', 'v2@2025-06-18'];
const EXPECTED_VERSION: Record<Era, string> = { 'v2@2026-07-28': '2026-07-28', 'v1@2025-11-25': '2025-11-25', 'v2@2025-06-18': '2025-06-18' };

/** Everything a client sees of the tool surface, in a form that must not depend on the era. */
async function surface(client: McpTestClient): Promise<unknown> {
  const { tools } = await client.listTools();
  const calls: Record<string, unknown> = {};
  for (const tool of tools) calls[tool.name] = await callSummary(client, tool.name);
  // Tools a client cannot see are still answered the same way.
  calls.unsafe_probe ??= await callSummary(client, 'unsafe_probe');
  calls.bad_arguments = await callSummary(client, 'echo_text', { text: 42 });
  let unknown: unknown;
  try {
    await client.callTool('no_such_tool', {});
    unknown = 'answered';
  } catch (err) {
    unknown = { code: (err as { code?: number }).code, message: /Unknown tool: no_such_tool/.test((err as Error).message) };
  }
  return {
    tools: tools.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({ name, title, description, inputSchema, outputSchema, annotations })),
    calls,
    unknown,
  };
}

const ARGS: Record<string, Record<string, unknown>> = { echo_text: { text: 'same for everyone ✓' }, slow_tool: {}, unsafe_probe: {} };

async function callSummary(client: McpTestClient, name: string, args = ARGS[name] ?? {}): Promise<unknown> {
  const result = await client.callTool(name, args);
  return { isError: result.isError ?? false, structuredContent: result.structuredContent, content: result.content };
}

async function surfacesOf(connect: (era: Era) => Promise<McpTestClient>): Promise<Record<string, unknown>> {
  const seen: Record<string, unknown> = {};
  for (const era of ALL_ERAS) {
    const client = await connect(era);
    try {
      assert.equal(client.protocolVersion(), EXPECTED_VERSION[era], `${era} speaks its own protocol version`);
      seen[era] = await surface(client);
    } finally {
      await client.close();
    }
  }
  return seen;
}

function assertSameForAll(seen: Record<string, unknown>, tools: string[]): void {
  const [first, ...rest] = Object.entries(seen);
  const firstSurface = first![1] as { tools: Array<{ name: string }>; calls: Record<string, { isError: boolean }> };
  assert.deepEqual(firstSurface.tools.map((t) => t.name), tools);
  assert.deepEqual((firstSurface.calls.echo_text as unknown as { structuredContent: unknown }).structuredContent, { text: 'same for everyone ✓' });
  assert.equal(firstSurface.calls.slow_tool!.isError, true, 'slow_tool times out');
  assert.equal(firstSurface.calls.bad_arguments!.isError, true, 'a wrong argument is an isError result');
  assert.deepEqual((first![1] as { unknown: unknown }).unknown, { code: -32602, message: true });
  for (const [era, other] of rest) assert.deepEqual(other, first![1], `${era} sees what ${first![0]} sees`);
}

describe('MCP protocol eras: 2026-07-28, 2025-11-25 and 2025-06-18 clients get the same answers', function () {
  this.timeout(120_000);

  describe('over HTTP /mcp', () => {
    for (const unsafe of [false, true]) {
      it(`every tool, same answers (unsafe tools ${unsafe ? 'enabled' : 'disabled'})`, async () => {
        const t: TestHost = await bootTestHost(fixtureConfig({ token: TEST_TOKEN }), unsafe ? { env: { CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS: '1' } } : {});
        try {
          const seen = await surfacesOf((era) => connectMcp(era, { http: t.url('/mcp') }, { headers: { authorization: `Bearer ${TEST_TOKEN}` } }));
          assertSameForAll(seen, unsafe ? ['echo_text', 'slow_tool', 'unsafe_probe'] : ['echo_text', 'slow_tool']);
          const answers = seen['v2@2026-07-28'] as { calls: Record<string, { isError: boolean; structuredContent?: unknown }> };
          if (unsafe) assert.deepEqual(answers.calls.unsafe_probe!.structuredContent, { reached: true });
          else assert.equal(answers.calls.unsafe_probe!.isError, true);
        } finally {
          await t.stop();
        }
      });
    }

    it('the token, Host and Origin checks hold for 2026-07-28 requests too', async () => {
      const t = await bootTestHost(fixtureConfig({ token: TEST_TOKEN, corsOrigins: ['https://app.example'] }));
      try {
        await assert.rejects(connectMcp('v2@2026-07-28', { http: t.url('/mcp') }), /401|Unauthorized|authenticat/i);
        await assert.rejects(connectMcp('v2@2026-07-28', { http: t.url('/mcp') }, { headers: { authorization: `Bearer ${TEST_TOKEN}`, origin: 'https://evil.example' } }), /403|Forbidden/i);
        const allowed = await connectMcp('v2@2026-07-28', { http: t.url('/mcp') }, { headers: { authorization: `Bearer ${TEST_TOKEN}`, origin: 'https://app.example' } });
        await allowed.close();
      } finally {
        await t.stop();
      }
    });

    it('tools/list carries the ttlMs cache hint on 2026-07-28 only', async () => {
      const t = await bootTestHost(fixtureConfig({ token: TEST_TOKEN }));
      try {
        const headers = { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
        const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
        const modern = await fetch(t.url('/mcp'), {
          method: 'POST', headers: { ...headers, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } }),
        });
        const listed = (await modern.json()) as { result: { ttlMs?: number; tools: unknown[] } };
        assert.equal(listed.result.ttlMs, TOOL_LIST_TTL_MS);
        assert.equal(listed.result.tools.length, 2);
        const legacy = await connectMcp('v1@2025-11-25', { http: t.url('/mcp') }, { headers: { authorization: `Bearer ${TEST_TOKEN}` } });
        try {
          assert.equal('ttlMs' in (await legacy.listTools()), false);
        } finally {
          await legacy.close();
        }
      } finally {
        await t.stop();
      }
    });
  });

  describe('over stdio (chain-mcp)', () => {
    it('every tool, same answers', async () => {
      const config = await writeTempConfig(fixtureConfig(null));
      try {
        const seen = await surfacesOf((era) => connectMcp(era, { stdio: config.file }));
        assertSameForAll(seen, ['echo_text', 'slow_tool']);
      } finally {
        await config.remove();
      }
    });
  });
});
