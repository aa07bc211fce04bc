import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { fixtureConfig, REPO_ROOT, writeTempConfig } from '../../support/test-host.js';

const CHAIN_MCP = path.join(REPO_ROOT, 'host/bin/chain-mcp.ts');

/** Spawns the real chain-mcp (through tsx) with the SDK's stdio client. */
async function connect(configFile: string, env: Record<string, string> = {}): Promise<{ client: Client; transportErrors: Error[]; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', CHAIN_MCP, '--config', configFile],
    cwd: REPO_ROOT,
    env: { ...getDefaultEnvironment(), NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const transportErrors: Error[] = [];
  const client = new Client({ name: 'chainhost-test', version: '1.0.0' });
  client.onerror = (err) => transportErrors.push(err);
  await client.connect(transport);
  return { client, transportErrors, stderr: () => stderr };
}

function text(result: CallToolResult, index = 0): string {
  const item = result.content[index];
  assert.equal(item?.type, 'text');
  return (item as { text: string }).text;
}

describe('MCP over stdio (chain-mcp)', function () {
  this.timeout(60_000);
  let config: Awaited<ReturnType<typeof writeTempConfig>>;

  before(async () => {
    config = await writeTempConfig(fixtureConfig(null));
  });
  after(() => config.remove());

  describe('with unsafe tools disabled (the default)', () => {
    let session: Awaited<ReturnType<typeof connect>>;
    before(async () => {
      session = await connect(config.file);
    });
    after(() => session.client.close());

    it('initialize reports the server name and version 0.1.0', () => {
      assert.deepEqual(
        { name: session.client.getServerVersion()?.name, version: session.client.getServerVersion()?.version },
        { name: 'chainhost', version: '0.1.0' },
      );
      assert.ok(session.client.getServerCapabilities()?.tools, 'tools capability');
    });

    it('tools/list shows read tools with titles, schemas and annotations, and omits unsafe tools', async () => {
      const { tools } = await session.client.listTools();
      const names = tools.map((t) => t.name);
      assert.deepEqual(names, ['echo_text', 'slow_tool']);
      const echo = tools[0]!;
      assert.equal(echo.title, 'Echo text');
      // The title is the tool's own; the annotations carry the hints only (not the title again).
      // A read-only tool lists no destructive/idempotent hints: MCP defines them only when readOnlyHint is false.
      assert.deepEqual(echo.annotations, { readOnlyHint: true, openWorldHint: false });
      // Length bounds guard the host, not the model: left out of the listing, still enforced on calls.
      assert.ok(!JSON.stringify(tools).includes('maxLength'), 'no maxLength in the MCP listing');
      const tooLong = await session.client.callTool({ name: 'echo_text', arguments: { text: 'x'.repeat(10_001) } });
      assert.equal(tooLong.isError, true, 'the bound still holds on a call');
      assert.match(JSON.stringify(tooLong.content), /text/);
      assert.equal(echo.inputSchema.type, 'object');
      assert.equal((echo.inputSchema as { $schema?: unknown }).$schema, undefined);
      assert.deepEqual(echo.inputSchema.required, ['text']);
      assert.equal((echo.inputSchema as { additionalProperties?: unknown }).additionalProperties, false);
      // The outline a client validates: an object with the fields every answer has.
      assert.deepEqual(echo.outputSchema, { type: 'object', required: ['text'] });
    });

    it('tools/call returns structuredContent and the same JSON as text', async () => {
      const result = (await session.client.callTool({ name: 'echo_text', arguments: { text: '  spaced\nline ✓ ' } })) as CallToolResult;
      assert.equal(result.isError, undefined);
      assert.deepEqual(result.structuredContent, { text: '  spaced\nline ✓ ' });
      assert.deepEqual(JSON.parse(text(result)), result.structuredContent);
    });

    it('a wrong argument type is an isError result naming the field and the reason', async () => {
      const result = (await session.client.callTool({ name: 'echo_text', arguments: { text: 42 } })) as CallToolResult;
      assert.equal(result.isError, true);
      assert.equal(result.structuredContent, undefined);
      assert.match(text(result), /echo_text.*text: expected string, received number/);
      assert.equal(JSON.parse(text(result, 1)).error.details.field, 'text');
    });

    it('an unknown argument is an isError result naming it', async () => {
      const result = (await session.client.callTool({ name: 'echo_text', arguments: { text: 'a', extra: 1 } })) as CallToolResult;
      assert.equal(result.isError, true);
      assert.match(text(result), /extra: unknown argument/);
    });

    it('an unsafe tool while unsafe tools are disabled is an isError result naming the flag', async () => {
      const result = (await session.client.callTool({ name: 'unsafe_probe', arguments: {} })) as CallToolResult;
      assert.equal(result.isError, true);
      assert.match(text(result), /CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS=1/);
    });

    it('a tool past its timeout is an isError result', async () => {
      const result = (await session.client.callTool({ name: 'slow_tool', arguments: {} })) as CallToolResult;
      assert.equal(result.isError, true);
      assert.match(text(result), /did not finish within 150 ms/);
    });

    it('an unknown tool is a JSON-RPC protocol error (-32602)', async () => {
      await assert.rejects(session.client.callTool({ name: 'no_such_tool', arguments: {} }), (err: { code?: number; message: string }) => {
        assert.equal(err.code, -32602);
        assert.match(err.message, /Unknown tool: no_such_tool/);
        return true;
      });
    });

    it('writes its banner and logs to stderr and nothing unparseable to stdout', () => {
      assert.deepEqual(session.transportErrors, []);
      assert.match(session.stderr(), /chain-mcp: plugins: fixture/);
      assert.match(session.stderr(), /mcp: stdio/);
    });
  });

  describe('with CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS=1', () => {
    let session: Awaited<ReturnType<typeof connect>>;
    before(async () => {
      session = await connect(config.file, { CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS: '1' });
    });
    after(() => session.client.close());

    it('lists the unsafe tool with destructive annotations and runs it', async () => {
      const { tools } = await session.client.listTools();
      const probe = tools.find((t) => t.name === 'unsafe_probe');
      assert.ok(probe, 'unsafe_probe listed');
      assert.equal(probe.annotations?.readOnlyHint, false);
      assert.equal(probe.annotations?.destructiveHint, true);
      const result = (await session.client.callTool({ name: 'unsafe_probe', arguments: {} })) as CallToolResult;
      assert.deepEqual(result.structuredContent, { reached: true });
    });
  });

  it('stdout carries only JSON-RPC 2.0 messages, one per line', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHAIN_MCP, '--config', config.file], {
      cwd: REPO_ROOT, env: { ...getDefaultEnvironment(), NODE_OPTIONS: process.env.NODE_OPTIONS ?? '' }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const send = (msg: unknown) => child.stdin.write(JSON.stringify(msg) + '\n');
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo_text', arguments: { text: 'x' } } });
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo_text', arguments: { text: 1 } } });
    send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'missing' } });
    const deadline = Date.now() + 30_000;
    while (stdout.split('\n').filter(Boolean).length < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 0, 'exits cleanly when stdin closes');
    const lines = stdout.split('\n').filter((l) => l.length > 0);
    assert.equal(lines.length, 5);
    const ids = lines.map((line) => {
      const msg = JSON.parse(line) as { jsonrpc: string; id: number };
      assert.equal(msg.jsonrpc, '2.0');
      return msg.id;
    });
    assert.deepEqual(ids.sort(), [1, 2, 3, 4, 5]);
  });
});
