import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';

/**
 * Clients that hold a server's resources instead of sending big inputs (issue #30), for the
 * complexity fuzzer and bench/hostile-clients.ts. Each returns once its clients hold on; close()
 * lets go.
 */
const MCP_ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'held', version: '1' } } });

/** Uploads that announce 100,000 bytes and send one byte per second: they never finish within the window. */
export async function slowUploads(toolsUrl: string, count: number): Promise<{ close(): void }> {
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
export async function heldSessions(toolsUrl: string, count: number): Promise<{ close(): void }> {
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
