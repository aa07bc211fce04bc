import 'reflect-metadata';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { postLoad } from './http-load.js';
import { printTable, type BenchResult } from './bench-result.js';
import { ensureBuild, importBuilt } from './production-build.js';

/**
 * The tool server's own cost.
 *
 * HTTP: `POST /tools/echo_text` through the real host (guards with a bearer token, koa, router,
 * body cap, the ToolInvoker with strict zod validation and output check) against a bare
 * node:http handler that reads, parses and checks the same body and answers the same JSON —
 * both in this run, with the same keep-alive client, request count and concurrency. Each server
 * runs in its own child process and the client in a worker thread, so nothing shares an event
 * loop. Rounds are paired (baseline, then host) and the medians reported. Two figures:
 * throughput (req/s) and the server process's CPU time per request, which stays meaningful
 * when other work on the machine makes wall-clock throughput noisy.
 *
 * stdio: tools/call latency of the real chain-mcp process through the SDK client.
 */
const FILE = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(FILE), '..');
const FIXTURE_PLUGIN = path.join(ROOT, 'test/support/fixture-plugin');
const TOKEN = 'bench-token-0123456789abcdef';
const BODY = JSON.stringify({ text: 'hello from the benchmark' });

const HTTP_REQUESTS = 40_000;
const HTTP_WARMUP = 3_000;
const HTTP_CONCURRENCY = 32;
const HTTP_ROUNDS = 5;
const STDIO_CALLS = 1_000;
const STDIO_WARMUP = 100;


type ServerKind = 'bare' | 'host';

/** A server in a child process that reports its URL and, on request, its CPU time. */
interface ServerProcess {
  url: string;
  cpuMicros(): Promise<number>;
  close(): Promise<void>;
}

async function spawnServer(kind: ServerKind): Promise<ServerProcess> {
  const child: ChildProcess = fork(FILE, ['--serve', kind], { execArgv: ['--import', 'tsx', '--conditions=chainhost-source'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { url?: string }) => (m.url ? resolve(m.url) : reject(new Error('no url'))));
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
  return {
    url,
    cpuMicros: () => new Promise((resolve) => {
      child.once('message', (m: { cpu: number }) => resolve(m.cpu));
      child.send('cpu');
    }),
    close: () => new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}

/** Child-process side of spawnServer. */
async function serve(kind: ServerKind): Promise<void> {
  let url: string;
  if (kind === 'bare') {
    url = await startBareServer();
  } else {
    const tmp = await writeConfig({ plugins: { [FIXTURE_PLUGIN]: {} }, tools: { http: { host: '127.0.0.1', port: 0, token: TOKEN } } });
    // The host from the compiled build, as `npm start` runs it (production-build.ts).
    const [{ loadConfig }, { silentLogger }, { Host }, { addToolSurfaces }] = await Promise.all([
      importBuilt<typeof import('../core/config/load-config.js')>('core/config/load-config'),
      importBuilt<typeof import('../core/logger.js')>('core/logger'),
      importBuilt<typeof import('../host/host.js')>('host/host'),
      importBuilt<typeof import('../host/tools-server/index.js')>('host/tools-server/index'),
    ]);
    const host = await Host.create(await loadConfig({ configPath: tmp.file, env: {} }), { log: silentLogger, surfaces: [addToolSurfaces] });
    await host.start();
    await tmp.remove();
    url = `${host.serverUrl('tools')}/tools/echo_text`;
  }
  process.on('message', () => {
    const { user, system } = process.cpuUsage();
    process.send!({ cpu: user + system });
  });
  process.on('SIGTERM', () => process.exit(0));
  process.send!({ url });
}

/** The baseline: what any HTTP JSON endpoint must do at least — read, parse, check, answer. */
async function startBareServer(): Promise<string> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let status = 200;
      let out: unknown;
      try {
        const args = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text?: unknown };
        if (typeof args.text !== 'string') throw new Error('text must be a string');
        out = { text: args.text };
      } catch (err) {
        status = 400;
        out = { error: { code: 'invalid_arguments', message: (err as Error).message, details: null } };
      }
      const json = JSON.stringify(out);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
      res.end(json);
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/tools/echo_text`;
}

interface LoadFigures {
  reqPerSec: number;
  cpuMicrosPerRequest: number;
}

async function load(server: ServerProcess, count: number): Promise<LoadFigures> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` };
  const cpuBefore = await server.cpuMicros();
  const reqPerSec = await postLoad({ url: server.url, headers, body: BODY, count, concurrency: HTTP_CONCURRENCY });
  const cpuAfter = await server.cpuMicros();
  return { reqPerSec, cpuMicrosPerRequest: (cpuAfter - cpuBefore) / count };
}

async function writeConfig(config: unknown): Promise<{ file: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'chainhost-bench-'));
  const file = path.join(dir, '.chainrc.json');
  await writeFile(file, JSON.stringify(config));
  return { file, remove: () => rm(dir, { recursive: true, force: true }) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function benchHttp(): Promise<BenchResult[]> {
  const bare = await spawnServer('bare');
  const host = await spawnServer('host');
  try {
    await load(bare, HTTP_WARMUP);
    await load(host, HTTP_WARMUP);
    const rounds: Array<{ bare: LoadFigures; host: LoadFigures }> = [];
    for (let round = 0; round < HTTP_ROUNDS; round++) {
      rounds.push({ bare: await load(bare, HTTP_REQUESTS), host: await load(host, HTTP_REQUESTS) });
    }
    const label = `POST /tools/echo_text (${HTTP_REQUESTS} req × ${HTTP_ROUNDS} rounds, ${HTTP_CONCURRENCY} concurrent, keep-alive)`;
    return [
      {
        name: `HTTP ${label}`,
        value: median(rounds.map((r) => r.host.reqPerSec)),
        unit: 'req/s',
        baseline: { name: 'bare node:http', value: median(rounds.map((r) => r.bare.reqPerSec)) },
        ratio: median(rounds.map((r) => r.bare.reqPerSec / r.host.reqPerSec)),
        target: 'ratio ≤ 1.3',
      },
      {
        name: 'HTTP server CPU per request (same runs)',
        value: median(rounds.map((r) => r.host.cpuMicrosPerRequest)),
        unit: 'µs',
        baseline: { name: 'bare node:http', value: median(rounds.map((r) => r.bare.cpuMicrosPerRequest)) },
        ratio: median(rounds.map((r) => r.host.cpuMicrosPerRequest / r.bare.cpuMicrosPerRequest)),
      },
    ];
  } finally {
    await Promise.all([bare.close(), host.close()]);
  }
}

async function benchStdio(): Promise<BenchResult[]> {
  const tmp = await writeConfig({ plugins: { [FIXTURE_PLUGIN]: {} } });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', '--conditions=chainhost-source', path.join(ROOT, 'host/bin/chain-mcp.ts'), '--config', tmp.file],
    cwd: ROOT,
    env: getDefaultEnvironment(),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'chainhost-bench', version: '1.0.0' });
  await client.connect(transport);
  try {
    await client.listTools();
    const call = () => client.callTool({ name: 'echo_text', arguments: { text: 'hello from the benchmark' } });
    for (let i = 0; i < STDIO_WARMUP; i++) await call();
    const samples: number[] = [];
    for (let i = 0; i < STDIO_CALLS; i++) {
      const t0 = performance.now();
      await call();
      samples.push(performance.now() - t0);
    }
    samples.sort((a, b) => a - b);
    return [
      { name: `MCP stdio tools/call echo_text p50 (${STDIO_CALLS} sequential)`, value: percentile(samples, 50), unit: 'ms' },
      { name: `MCP stdio tools/call echo_text p99 (${STDIO_CALLS} sequential)`, value: percentile(samples, 99), unit: 'ms' },
    ];
  } finally {
    await client.close();
    await tmp.remove();
  }
}

export async function run(): Promise<BenchResult[]> {
  ensureBuild();
  return [...(await benchHttp()), ...(await benchStdio())];
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly && process.argv[2] === '--serve') {
  await serve(process.argv[3] as ServerKind);
} else if (invokedDirectly) {
  printTable(await run());
}
