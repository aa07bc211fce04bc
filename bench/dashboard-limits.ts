import 'reflect-metadata';
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';
import { ChainNode } from '../core/chain/node.js';
import { RpcError, type ChainRpc } from '../core/chain/rpc/chain-rpc.js';
import { silentLogger } from '../core/logger.js';
import { createKoaApp } from '../host/servers/koa-app.js';
import { dashboardConfigSchema, type DashboardOptionsInput } from '../plugins/dashboard/dashboard.config.js';
import { DashboardSurface } from '../plugins/dashboard/dashboard-surface.js';
import { printTable, type BenchResult } from './bench-result.js';

/**
 * The dashboard limiter's cost and behaviour.
 * 1. `GET /api/status` req/s through the dashboard's koa app with the limiter on (rates so high
 *    nothing is refused, so every request walks the whole limit path: client key, token bucket,
 *    in-flight gate) against the same app with `limits.enabled: false` — same run, alternating
 *    rounds, load from a worker thread over keep-alive sockets. Target: overhead ≤ 10%.
 *    Also the limit middleware alone, in-process, against the time of one HTTP request — the
 *    steadier figure when other work shares the machine.
 * 2. One client at 10× its configured rate: the share of 429s (expected from rate and burst)
 *    and that every 429 carries Retry-After.
 * 3. Floods from 2 × 60 000 distinct client addresses (X-Forwarded-For from a trusted proxy): the
 *    bucket table stays at its cap and the heap flat, against the same flood without a cap.
 * The node is an in-memory stub, so the figures are the dashboard's own cost.
 */
const STATUS = {
  node_info: { network: 'chain-bench-1', moniker: 'bench', id: 'x'.repeat(40), version: '0.38.12', other: { tx_index: 'on', rpc_address: 'tcp://127.0.0.1:26657' } },
  sync_info: { latest_block_height: '42', latest_block_hash: 'AB'.repeat(32), latest_block_time: '2026-01-01T00:00:00Z', catching_up: false },
  validator_info: { address: 'CD'.repeat(20), pub_key: { type: 'tendermint/PubKeyEd25519', value: 'AAAA' }, voting_power: '10' },
};

const stubRpc: ChainRpc = {
  async call<T>(method: string): Promise<T> {
    if (method === 'status') return STATUS as T;
    throw new RpcError(-32601, 'Method not found', method);
  },
  async subscribe() {
    return { unsubscribe: async () => undefined };
  },
  async close() {},
};

const REQUESTS = 4_000;
const WARMUP = 4_000;
const CONCURRENCY = 16;
/** Many short paired rounds: on a busy machine a pair run back to back sees the same load. */
const ROUNDS = 16;
const MIDDLEWARE_CALLS = 1_000_000;

const LOAD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, count, concurrency, paceMs, perTick, forwardedFrom, firstClient = 0 } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const target = new URL(url);
const statuses = {};
let sent = 0, retryAfterMissing = 0;
function one(n) {
  const i = n + firstClient;
  return new Promise((resolve) => {
    const headers = forwardedFrom ? { 'x-forwarded-for': '10.' + ((i >> 16) & 255) + '.' + ((i >> 8) & 255) + '.' + (i & 255) } : {};
    const req = http.request({ agent, hostname: target.hostname, port: target.port, path: target.pathname, headers }, (res) => {
      statuses[res.statusCode] = (statuses[res.statusCode] || 0) + 1;
      if (res.statusCode === 429 && !res.headers['retry-after']) retryAfterMissing++;
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', () => { statuses.error = (statuses.error || 0) + 1; resolve(); });
    req.end();
  });
}
async function lane() { while (sent < count) { await one(sent++); } }
const started = process.hrtime.bigint();
const done = () => {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  agent.destroy();
  parentPort.postMessage({ ms, statuses, retryAfterMissing });
};
if (paceMs) {
  const pending = [];
  const timer = setInterval(() => {
    for (let i = 0; i < perTick && sent < count; i++) pending.push(one(sent++));
    if (sent >= count) { clearInterval(timer); Promise.all(pending).then(done); }
  }, paceMs);
} else {
  Promise.all(Array.from({ length: concurrency }, lane)).then(done);
}
`;

interface LoadResult {
  ms: number;
  statuses: Record<string, number>;
  retryAfterMissing: number;
}

function load(url: string, options: { count: number; concurrency?: number; paceMs?: number; perTick?: number; forwardedFrom?: boolean; firstClient?: number }): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD_WORKER, { eval: true, workerData: { url, concurrency: CONCURRENCY, ...options } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

async function serve(options: DashboardOptionsInput): Promise<{ url: string; surface: DashboardSurface; close(): Promise<void> }> {
  const node = new ChainNode(stubRpc);
  const surface = new DashboardSurface({
    options: dashboardConfigSchema.parse({ ...options, port: 0 }),
    node: () => node,
    nodeUrl: 'http://127.0.0.1:26657',
    registry: null,
    inProcessNode: false,
    log: silentLogger,
  });
  const app = createKoaApp(surface.server(), surface.routes(), silentLogger);
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/api/status`,
    surface,
    close: async () => {
      await surface.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** µs per request for client key → token bucket → in-flight gate, with a no-op handler. */
async function middlewareCost(): Promise<number> {
  const surface = new DashboardSurface({
    options: dashboardConfigSchema.parse({ limits: { api: { ratePerSecond: 1e9, burst: 1e9 } } }),
    node: () => new ChainNode(stubRpc),
    nodeUrl: 'http://127.0.0.1:26657',
    registry: null,
    inProcessNode: false,
    log: silentLogger,
  });
  const chain = surface.middleware();
  const ctx = { path: '/api/status', state: {}, req: { socket: { remoteAddress: '127.0.0.1' }, headers: {} } } as never;
  const run = (i: number): Promise<void> => (i === chain.length ? Promise.resolve() : Promise.resolve(chain[i]!(ctx, () => run(i + 1))));
  for (let i = 0; i < 50_000; i++) await run(0);
  const started = process.hrtime.bigint();
  for (let i = 0; i < MIDDLEWARE_CALLS; i++) await run(0);
  const micros = Number(process.hrtime.bigint() - started) / 1e3 / MIDDLEWARE_CALLS;
  await surface.stop();
  return micros;
}

/** A full GC between measurements, so heap figures show live data rather than garbage. */
function exposeGc(): () => void {
  if (typeof global.gc === 'function') return global.gc;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];

  // 1. Limiter overhead.
  const limited = await serve({ limits: { api: { ratePerSecond: 1e9, burst: 1e9 }, expensive: { ratePerSecond: 1e9, burst: 1e9 } } });
  const open = await serve({ limits: { enabled: false } });
  try {
    await load(limited.url, { count: WARMUP });
    await load(open.url, { count: WARMUP });
    const rate = (r: LoadResult) => REQUESTS / (r.ms / 1000);
    const withLimiter: number[] = [];
    const without: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      // ABBA order, so neither side always runs on a warmer process.
      const [a, b] = i % 2 === 0
        ? [await load(limited.url, { count: REQUESTS }), await load(open.url, { count: REQUESTS })]
        : [await load(open.url, { count: REQUESTS }), await load(limited.url, { count: REQUESTS })].reverse() as [LoadResult, LoadResult];
      if ((a.statuses['200'] ?? 0) !== REQUESTS || (b.statuses['200'] ?? 0) !== REQUESTS) {
        throw new Error(`overhead rounds must answer 200 only: ${JSON.stringify({ limited: a.statuses, open: b.statuses })}`);
      }
      withLimiter.push(rate(a));
      without.push(rate(b));
    }
    // Medians over many short interleaved rounds; on a loaded machine the in-process row below
    // is the steadier figure.
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    results.push({
      name: 'dashboard GET /api/status with limiter',
      value: median(withLimiter),
      unit: 'req/s',
      baseline: { name: 'limiter off', value: median(without) },
      ratio: median(without) / median(withLimiter),
      target: 'ratio ≤ 1.10 (overhead ≤ 10%)',
    });
  } finally {
    await limited.close();
    await open.close();
  }

  // 1b. The same limit path in-process, without HTTP: what one request pays for it.
  const perCall = await middlewareCost();
  const perRequest = 1e6 / results[0]!.baseline!.value;
  results.push({
    name: 'limit middleware per request (in-process)',
    value: perCall,
    unit: 'µs',
    baseline: { name: 'one HTTP request, limiter off', value: perRequest },
    target: `≤ 10% of a request (${((perCall / perRequest) * 100).toFixed(2)}%)`,
  });

  // 2. One client at 10× the configured rate.
  const rateLimit = { ratePerSecond: 100, burst: 100 };
  const seconds = 3;
  const paced = await serve({ limits: { api: rateLimit } });
  try {
    const count = rateLimit.ratePerSecond * 10 * seconds;
    const r = await load(paced.url, { count, paceMs: 10, perTick: rateLimit.ratePerSecond / 10 });
    const tooMany = r.statuses['429'] ?? 0;
    const actualSeconds = r.ms / 1000;
    const expected = 1 - Math.min(count, rateLimit.burst + rateLimit.ratePerSecond * actualSeconds) / count;
    results.push({
      name: `429 share at 10× the rate (${rateLimit.ratePerSecond}/s, burst ${rateLimit.burst}, ${seconds} s)`,
      value: (tooMany / count) * 100,
      unit: '%',
      baseline: { name: 'expected from rate and burst', value: expected * 100 },
      target: 'close to expected; every 429 has Retry-After',
    });
    results.push({ name: '429s without Retry-After', value: r.retryAfterMissing, unit: 'responses', target: '= 0' });
  } finally {
    await paced.close();
  }

  // 3. Many distinct clients: the tracked-client table stays bounded. Two floods of fresh
  // addresses each; the heap is compared after the first and the second flood, for the capped
  // table and — as the baseline — for a table whose cap is never reached (koa-ratelimit's
  // memory driver, or any naive Map, behaves like that).
  const cap = 4096;
  const clients = 60_000;
  const gc = exposeGc();
  const flood = async (maxTrackedClients: number) => {
    const server = await serve({ trustedProxies: ['127.0.0.1'], limits: { maxTrackedClients, api: { ratePerSecond: 1, burst: 1 } } });
    try {
      const first = await load(server.url, { count: clients, forwardedFrom: true });
      gc();
      const before = process.memoryUsage().heapUsed;
      await load(server.url, { count: clients, forwardedFrom: true, firstClient: clients });
      gc();
      const growth = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
      return { growth, tracked: server.surface.rateLimiter!.trackedClients(), reqPerSec: clients / (first.ms / 1000) };
    } finally {
      await server.close();
    }
  };
  const capped = await flood(cap);
  const uncapped = await flood(10_000_000);
  results.push({ name: `tracked clients after ${2 * clients} distinct addresses`, value: capped.tracked, unit: 'clients', baseline: { name: 'no cap', value: uncapped.tracked }, target: `≤ ${cap}` });
  results.push({
    name: `heap growth over the second ${clients} new clients`,
    value: capped.growth,
    unit: 'MiB',
    baseline: { name: 'no cap', value: uncapped.growth },
    target: 'flat with the cap; grows without it',
  });
  results.push({ name: 'flood throughput (distinct clients, all allowed)', value: capped.reqPerSec, unit: 'req/s' });
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printTable(await run());
}
