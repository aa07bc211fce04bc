import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { percentile, repeatFor, startFullStack, watchHost, type FullStack } from '../test/support/full-stack.js';
import { heldSessions, slowUploads } from '../test/support/hostile-clients.js';
// chain-host runs from the sources as under mocha: its child inherits the source condition from here.
import '../test/support/run-from-source.js';
import { printTable, type BenchResult } from './bench-result.js';

/**
 * What hostile clients cost everyone else, on the full stack (`chain-host` in a child process,
 * as `npm start` runs it): node `/status` p99, probed every 5 ms from a worker thread, while each
 * hostile pattern runs, against the same probe with nothing in flight measured just before it
 * (same run); and the host's longest event-loop burst in CPU time (test/support/host-work-probe.ts)
 * in both windows. The complexity fuzzer (test/hardening/complexity/) asserts only the burst,
 * which a busy machine does not inflate; the wall-clock p99 is this benchmark's figure.
 */
const WINDOW_MS = 3_000;
const MIB = 1024 * 1024;

async function send(url: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<void> {
  try {
    const res = await fetch(url, { method: 'POST', headers, body });
    await res.arrayBuffer();
  } catch {
    // A refusal that closes the connection mid-upload is an answer too.
  }
}

function nestedBody(bytes: number): string {
  const depth = Math.floor((bytes - 20) / 2);
  return `{"height":${'['.repeat(depth)}${']'.repeat(depth)}}`;
}

function wideBody(bytes: number): string {
  const keys: string[] = [];
  let size = 2;
  for (let i = 0; size < bytes - 20; i++) {
    const entry = `"k${i}":${i}`;
    keys.push(entry);
    size += entry.length + 1;
  }
  return `{${keys.join(',')}}`;
}

/** Each pattern runs for the window; those that hold resources also send ordinary calls meanwhile. */
function patterns(stack: FullStack): Array<{ name: string; run(): Promise<void> }> {
  const ordinaryCall = () => send(`${stack.toolsUrl}/tools/get_block`, '{"height":1}');
  const nested = nestedBody(MIB - 1_000);
  const wide = wideBody(MIB - 1_000);
  const batch = JSON.stringify(Array.from({ length: 15_000 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'status', params: {} })));
  return [
    {
      name: '256 uploads trickling 1 byte/s + tool calls',
      run: async () => {
        const slow = await slowUploads(stack.toolsUrl, 256);
        try { await repeatFor(WINDOW_MS, ordinaryCall); } finally { slow.close(); }
      },
    },
    {
      name: '32 MCP sessions holding GET /mcp + new sessions',
      run: async () => {
        const held = await heldSessions(stack.toolsUrl, 32);
        const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
        try { await repeatFor(WINDOW_MS, () => send(`${stack.toolsUrl}/mcp`, init, { 'content-type': 'application/json', accept: 'application/json, text/event-stream' })); } finally { held.close(); }
      },
    },
    { name: 'tools: 1 MiB nested-array bodies', run: () => repeatFor(WINDOW_MS, () => send(`${stack.toolsUrl}/tools/get_block`, nested)) },
    { name: 'tools: 1 MiB objects of 70,000 keys', run: () => repeatFor(WINDOW_MS, () => send(`${stack.toolsUrl}/tools/get_block`, wide)) },
    { name: 'node RPC: 15,000-call batches', run: () => repeatFor(WINDOW_MS, () => send(stack.rpcUrl, batch)) },
  ];
}

export async function run(): Promise<BenchResult[]> {
  const { stack, stop } = await startFullStack();
  try {
    const results: BenchResult[] = [];
    for (const pattern of patterns(stack)) {
      const idle = await watchHost(stack, () => new Promise((r) => setTimeout(r, WINDOW_MS)));
      const busy = await watchHost(stack, pattern.run);
      const idleP99 = percentile(idle.samples, 0.99);
      const busyP99 = percentile(busy.samples, 0.99);
      results.push(
        { name: `/status p99 under ${pattern.name} (${busy.samples.length} probes)`, value: busyP99, unit: 'ms', baseline: { name: 'idle, just before', value: idleP99 }, ratio: busyP99 / idleP99 },
        { name: `host's longest loop burst (CPU) under ${pattern.name}`, value: busy.work.maxBurstMs, unit: 'ms', baseline: { name: 'idle, just before', value: idle.work.maxBurstMs }, ratio: busy.work.maxBurstMs / idle.work.maxBurstMs, target: 'value < baseline + 50 ms' },
      );
    }
    return results;
  } finally {
    await stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  printTable(await run());
}
