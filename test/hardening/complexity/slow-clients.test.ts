import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { assertIsolated, fullStack, post, repeatFor, report, type FullStack } from './support/complexity-harness.js';

/**
 * Hostile clients that hold resources instead of sending big inputs (issue #30): uploads that
 * never finish, MCP sessions that only hold a GET stream. While they hold on, every tool call
 * and every new MCP client must be served, and the host's event loop must not run longer
 * without turning than while the same calls run alone (the harness's busy-safe measure).
 */
const SLOW_UPLOADS = 256;
const HELD_SESSIONS = 32;
const MCP_ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'held', version: '1' } } });

/** Uploads that announce 100,000 bytes and send one byte per second: they never finish within the window. */
async function slowUploads(toolsUrl: string, count: number): Promise<{ close(): void }> {
  const { hostname, port } = new URL(toolsUrl);
  const sockets: net.Socket[] = [];
  await Promise.all(Array.from({ length: count }, (_, i) => new Promise<void>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(`POST ${i % 2 ? '/tools/get_block' : '/mcp'} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n{`);
      resolve();
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
    sockets.push(socket);
  })));
  const timer = setInterval(() => { for (const s of sockets) if (s.writable) s.write(' '); }, 1_000);
  return { close: () => { clearInterval(timer); for (const s of sockets) s.destroy(); } };
}

/** `count` raw sessions, each initialised and holding `GET /mcp` open. */
async function heldSessions(toolsUrl: string, count: number): Promise<{ close(): void }> {
  const requests: http.ClientRequest[] = [];
  for (let i = 0; i < count; i++) {
    const init = await fetch(`${toolsUrl}/mcp`, { method: 'POST', headers: MCP_ACCEPT, body: INIT });
    const text = await init.text();
    assert.equal(init.status, 200, text);
    const id = init.headers.get('mcp-session-id')!;
    await fetch(`${toolsUrl}/mcp`, { method: 'POST', headers: { ...MCP_ACCEPT, 'mcp-session-id': id }, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${toolsUrl}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': id }, agent: false }, (res) => {
        res.resume();
        resolve();
      });
      req.on('error', () => undefined);
      req.once('error', reject);
      requests.push(req);
    });
  }
  return { close: () => { for (const r of requests) r.destroy(); } };
}

describe('complexity fuzzer: slow and holding clients on the tool server', function () {
  this.timeout(600_000);
  let stack: FullStack;
  before(async function () {
    this.timeout(240_000);
    stack = await fullStack();
  });

  /** One tool call and one MCP client's whole life (SDK client: initialize, list, close). */
  async function ordinaryTraffic(): Promise<void> {
    const call = await post(`${stack.toolsUrl}/tools/get_block`, '{"height":1}');
    assert.equal(call.status, 200, `a tool call while hostile clients hold on: ${call.status} ${call.text.slice(0, 200)}`);
    const transport = new StreamableHTTPClientTransport(new URL(`${stack.toolsUrl}/mcp`));
    const client = new Client({ name: 'ordinary', version: '1' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'get_block'));
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  }

  it(`${SLOW_UPLOADS} uploads trickling one byte a second take no slot: calls and new MCP clients are served`, async () => {
    const isolation = await assertIsolated(stack, async () => {
      const slow = await slowUploads(stack.toolsUrl, SLOW_UPLOADS);
      try {
        await repeatFor(1_500, ordinaryTraffic);
      } finally {
        slow.close();
      }
    }, () => repeatFor(1_500, ordinaryTraffic));
    report('tools slow uploads', { points: [], ...isolation });
  });

  it(`${HELD_SESSIONS} MCP sessions holding GET /mcp open: every new client still gets a session`, async () => {
    const isolation = await assertIsolated(stack, async () => {
      const held = await heldSessions(stack.toolsUrl, HELD_SESSIONS);
      try {
        await repeatFor(1_500, ordinaryTraffic);
      } finally {
        held.close();
      }
    }, () => repeatFor(1_500, ordinaryTraffic));
    report('tools held sessions', { points: [], ...isolation });
  });
});
