import 'reflect-metadata';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { postLoadTimed } from './http-load.js';
import { printTable, type BenchResult } from './bench-result.js';
import { builtProcessOptions, ensureBuild, importBuilt } from './production-build.js';

/**
 * MCP over Streamable HTTP: `tools/call echo_text` on the real host's `/mcp` (guards with a
 * bearer token, koa, the MCP SDK, the ToolInvoker) against a bare node:http handler that
 * parses the same JSON-RPC request and answers the same CallToolResult — both in this run,
 * same keep-alive client in a worker thread, request count and concurrency.
 *
 * Rows: every protocol revision the server accepts (2025-11-25 through an `initialize`;
 * 2026-07-28 with the per-request `_meta` envelope and standard headers, when the server
 * answers `server/discover`). Throughput and the median latency per request. The figure of the
 * v1 SDK (`@modelcontextprotocol/sdk` 1.x, sessions in process memory), measured on this
 * machine with this file before the move to v2, is kept in mcp-http.v1-baseline.json and
 * printed beside the v2 figures (the old code is gone, so it cannot be re-measured).
 */
const FILE = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(FILE), '..');
const FIXTURE_PLUGIN = path.join(ROOT, 'test/support/fixture-plugin');
const TOKEN = 'bench-token-0123456789abcdef';
const V1_BASELINE = path.join(path.dirname(FILE), 'mcp-http.v1-baseline.json');

const REQUESTS = 2_000;
const WARMUP = 300;
const CONCURRENCY = 16;
const ROUNDS = 3;

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';

type ServerKind = 'bare' | 'host';

interface ServerProcess {
  url: string;
  close(): Promise<void>;
}

async function spawnServer(kind: ServerKind): Promise<ServerProcess> {
  const options = builtProcessOptions();
  const child: ChildProcess = fork(FILE, ['--serve', kind], { ...options, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { url?: string }) => (m.url ? resolve(m.url) : reject(new Error('no url'))));
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
  return {
    url,
    close: () => new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}

async function serve(kind: ServerKind): Promise<void> {
  let url: string;
  if (kind === 'bare') {
    url = await startBareServer();
  } else {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'chainhost-bench-'));
    const file = path.join(dir, '.chainrc.json');
    await writeFile(file, JSON.stringify({ plugins: { [FIXTURE_PLUGIN]: {} }, tools: { http: { host: '127.0.0.1', port: 0, token: TOKEN } } }));
    const [{ loadConfig }, { silentLogger }, { Host }, { addToolSurfaces }] = await Promise.all([
      importBuilt<typeof import('../core/config/load-config.js')>('core/config/load-config'),
      importBuilt<typeof import('../core/logger.js')>('core/logger'),
      importBuilt<typeof import('../host/host.js')>('host/host'),
      importBuilt<typeof import('../host/tools-server/index.js')>('host/tools-server/index'),
    ]);
    const host = await Host.create(await loadConfig({ configPath: file, env: { CHAIN_HOME: dir } }), { log: silentLogger, surfaces: [addToolSurfaces] });
    await host.start();
    url = `${host.serverUrl('tools')}/mcp`;
    process.on('SIGTERM', () => void host.stop().finally(() => rm(dir, { recursive: true, force: true })).finally(() => process.exit(0)));
  }
  process.on('SIGTERM', () => process.exit(0));
  process.send!({ url });
}

/** The least any JSON-RPC tools/call endpoint does: read, parse, check, answer a CallToolResult. */
async function startBareServer(): Promise<string> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: number; method?: string; params?: { arguments?: { text?: unknown } } };
      const text = message.params?.arguments?.text;
      const structured = { text: typeof text === 'string' ? text : '' };
      const json = JSON.stringify({ jsonrpc: '2.0', id: message.id ?? null, result: { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured } });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
      res.end(json);
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
}

const BASE_HEADERS = { authorization: `Bearer ${TOKEN}`, accept: 'application/json, text/event-stream' };
const ARGS = { name: 'echo_text', arguments: { text: 'hello from the benchmark' } };

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Headers and a numbered tools/call body for one protocol revision; null when the server does not speak it. */
async function setUp(url: string, version: string): Promise<{ headers: Record<string, string>; body: string } | null> {
  if (version === MODERN) {
    const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const headers = { ...BASE_HEADERS, 'mcp-protocol-version': MODERN };
    const probe = await post(url, { ...headers, 'mcp-method': 'server/discover' }, { jsonrpc: '2.0', id: 0, method: 'server/discover', params: { _meta: meta } });
    if (probe.status !== 200 || !probe.text.includes('supportedVersions')) return null;
    return {
      headers: { ...headers, 'mcp-method': 'tools/call', 'mcp-name': 'echo_text' },
      body: JSON.stringify({ jsonrpc: '2.0', id: '__ID__', method: 'tools/call', params: { ...ARGS, _meta: meta } }).replace('"__ID__"', '__ID__'),
    };
  }
  const init = await post(url, BASE_HEADERS, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } } });
  if (init.status !== 200) throw new Error(`initialize answered ${init.status}: ${init.text.slice(0, 200)}`);
  const session = init.headers.get('mcp-session-id');
  const headers: Record<string, string> = { ...BASE_HEADERS, 'mcp-protocol-version': version, ...(session ? { 'mcp-session-id': session } : {}) };
  await post(url, headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
  return { headers, body: JSON.stringify({ jsonrpc: '2.0', id: '__ID__', method: 'tools/call', params: ARGS }).replace('"__ID__"', '__ID__') };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface Figures { reqPerSec: number; p50Ms: number }

async function measure(url: string, setup: { headers: Record<string, string>; body: string }): Promise<Figures[]> {
  const load = (count: number) => postLoadTimed({ url, headers: setup.headers, body: setup.body, count, concurrency: CONCURRENCY });
  await load(WARMUP);
  const rounds: Figures[] = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(await load(REQUESTS));
  return rounds;
}

export async function run(): Promise<BenchResult[]> {
  ensureBuild();
  const bare = await spawnServer('bare');
  const host = await spawnServer('host');
  const results: BenchResult[] = [];
  try {
    const bareRounds = await measure(bare.url, (await setUp(bare.url, LEGACY))!);
    const bareRps = median(bareRounds.map((r) => r.reqPerSec));
    const bareP50 = median(bareRounds.map((r) => r.p50Ms));
    const v1 = await readFile(V1_BASELINE, 'utf8').then((t) => JSON.parse(t) as { reqPerSec: number; p50Ms: number; bareReqPerSec: number; measured: string }, () => null);
    for (const version of [LEGACY, MODERN]) {
      const setup = await setUp(host.url, version);
      if (!setup) continue;
      const rounds = await measure(host.url, setup);
      const rps = median(rounds.map((r) => r.reqPerSec));
      const p50 = median(rounds.map((r) => r.p50Ms));
      const label = `MCP HTTP tools/call echo_text, protocol ${version} (${REQUESTS} req × ${ROUNDS} rounds, ${CONCURRENCY} concurrent)`;
      results.push(
        { name: `${label} throughput`, value: rps, unit: 'req/s', baseline: { name: 'bare node:http', value: bareRps }, ratio: bareRps / rps },
        { name: `${label} p50`, value: p50, unit: 'ms', baseline: { name: 'bare node:http', value: bareP50 }, ratio: p50 / bareP50 },
      );
    }
    if (v1) {
      results.push(
        { name: `v1 SDK (recorded ${v1.measured}) tools/call 2025-11-25 throughput`, value: v1.reqPerSec, unit: 'req/s', baseline: { name: 'bare node:http then', value: v1.bareReqPerSec }, ratio: v1.bareReqPerSec / v1.reqPerSec },
        { name: `v1 SDK (recorded ${v1.measured}) tools/call 2025-11-25 p50`, value: v1.p50Ms, unit: 'ms' },
      );
    }
    return results;
  } finally {
    await Promise.all([bare.close(), host.close()]);
  }
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly && process.argv[2] === '--serve') {
  await serve(process.argv[3] as ServerKind);
} else if (invokedDirectly) {
  printTable(await run());
}
