import 'reflect-metadata';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { BenchResult } from './bench-result.js';

/**
 * Bytes of the MCP `tools/list` answer a client puts in its model's context on every session:
 * chain-mcp's default tool plugins with unsafe tools on, as the SDK client receives the list
 * (JSON of `{tools}`), against the same list before #29 (188.5 KB, measured by this script at
 * commit a823fb9, of which 121 KB output schemas), and a deployment listing only the read tools
 * (`tools.include: ["read"]`). Bytes, not timings: the figures do not depend on the machine's load.
 */
const BEFORE_29 = { bytes: 188_500, outputSchemaBytes: 121_000 };

export async function listBytes(tools: Record<string, unknown>): Promise<{ bytes: number; outputSchemaBytes: number; count: number }> {
  const { bootTestHost } = await import('../test/support/test-host.js');
  const { createMcpServer } = await import('../host/tools-server/mcp-server.js');
  const { availableDefaultToolPlugins } = await import('../host/cli/default-tool-plugins.js');
  const home = await mkdtemp(path.join(os.tmpdir(), 'bench-tools-list-'));
  const h = await bootTestHost({ home, node: { url: 'http://127.0.0.1:9' }, plugins: Object.fromEntries(availableDefaultToolPlugins().map((p) => [p, {}])), tools: { unsafe: true, ...tools } });
  const client = new Client({ name: 'bench-tools-list', version: '1.0.0' });
  try {
    const server = createMcpServer(h.host, 'in-process');
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    const listed = (await client.listTools()).tools;
    return {
      bytes: Buffer.byteLength(JSON.stringify({ tools: listed })),
      outputSchemaBytes: listed.reduce((n, t) => n + Buffer.byteLength(JSON.stringify(t.outputSchema ?? {})), 0),
      count: listed.length,
    };
  } finally {
    await client.close();
    await h.stop();
    await rm(home, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchResult[]> {
  const all = await listBytes({});
  const read = await listBytes({ include: ['read'] });
  return [
    { name: `tools/list, default tool plugins, unsafe on (${all.count} tools, ${all.bytes} bytes)`, value: all.bytes / 1000, unit: 'KB', baseline: { name: 'before #29', value: BEFORE_29.bytes / 1000 }, ratio: all.bytes / BEFORE_29.bytes, target: '≤ 60 KB' },
    { name: '  of which output schemas', value: all.outputSchemaBytes / 1000, unit: 'KB', baseline: { name: 'before #29', value: BEFORE_29.outputSchemaBytes / 1000 }, ratio: all.outputSchemaBytes / BEFORE_29.outputSchemaBytes },
    { name: `tools/list, tools.include ["read"] (${read.count} tools, ${read.bytes} bytes)`, value: read.bytes / 1000, unit: 'KB', baseline: { name: 'default set', value: all.bytes / 1000 }, ratio: read.bytes / all.bytes },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('./bench-result.js');
  printTable(await run());
  process.exit(0);
}
