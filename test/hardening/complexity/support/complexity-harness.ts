import assert from 'node:assert/strict';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { startChainHost, type ChainHostProcess } from '../../../support/chain-host-process.js';
import { pgliteTemplateDir } from '../../../support/databases.js';

/**
 * The complexity fuzzer's shared harness (issue #19). One full stack, as `npm start` runs it —
 * `chain-host` in a child process with the devnet's node RPC, BDS on PGlite, GraphQL, the
 * dashboard and the HTTP tool server — shared by every surface's test. For each surface a test
 * sends generated worst-case inputs of growing size under that surface's size cap and fails
 * when
 * - any single request takes longer than its budget (REQUEST_BUDGET_MS),
 * - time grows faster than linearly in the input size (beyond LINEAR_SLACK × the size ratio),
 * - or node `/status`, probed from a worker thread (its own event loop, so a stalled test loop
 *   cannot hide or fake a stall) while the largest input is in flight, has p99 ≥ 50 ms more
 *   than the same probe with nothing in flight (measured just before: a few ms on a quiet
 *   machine, so the bound is the issue's 50 ms; on a loaded CI runner the machine's own delay is
 *   not blamed on the surface).
 *
 * CHAIN_COMPLEXITY_BUDGET_SCALE multiplies the per-request budget for slow or shared machines;
 * the growth check is a ratio and needs no scaling.
 */
const SCALE = Number(process.env.CHAIN_COMPLEXITY_BUDGET_SCALE ?? '1') || 1;
export const REQUEST_BUDGET_MS = 1_000 * SCALE;
export const STATUS_P99_BUDGET_MS = 50;
/** How much worse than proportional a size step may be (timer noise, GC, a contended CPU). */
export const LINEAR_SLACK = 4;
/** Times under this are treated as this: sub-millisecond answers carry no growth signal. */
const NOISE_FLOOR_MS = 8;
/** How long the largest input is kept in flight (repeated) while /status is probed. */
const ISOLATION_WINDOW_MS = 1_500;

export interface FullStack {
  rpcUrl: string;
  dashboardUrl: string;
  graphqlUrl: string;
  toolsUrl: string;
  proc: ChainHostProcess;
}

let shared: Promise<FullStack> | null = null;
let cleanup: (() => Promise<void>) | null = null;

/** The full stack, started on first use and stopped after the whole run. */
export function fullStack(): Promise<FullStack> {
  shared ??= (async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'chain-complexity-'));
    const home = path.join(dir, 'home');
    await cp(await pgliteTemplateDir(), path.join(home, 'bds'), { recursive: true });
    const configFile = path.join(dir, 'chainrc.json');
    const relaxed = { ratePerSecond: 100_000, burst: 100_000 };
    await writeFile(configFile, JSON.stringify({
      home,
      tools: { http: { host: '127.0.0.1', port: 0 } },
      plugins: {
        devnet: { listen: true, port: 0, metricsPort: null, blockTimeMs: 0, printAccounts: true },
        bds: {},
        query: {},
        // The fuzzer measures the work a request causes, not the rate limiter refusing it.
        dashboard: { port: 0, limits: { api: relaxed, expensive: relaxed, websocket: relaxed, maxInFlight: 1000 }, websocket: { maxClientsPerIp: 100 } },
        graphql: { port: 0 },
      },
    }));
    const proc = await startChainHost(configFile, { timeoutMs: 180_000 });
    cleanup = async () => {
      await proc.kill();
      await rm(dir, { recursive: true, force: true });
    };
    const banner = proc.stderrTail();
    const url = (name: string) => {
      const found = new RegExp(`^\\s+${name}\\s+(http://\\S+)`, 'm').exec(banner)?.[1];
      if (!found) throw new Error(`no ${name} URL in the banner:\n${banner}`);
      return found.replace(/\/+$/, '');
    };
    return { proc, rpcUrl: proc.rpcUrl.replace(/\/+$/, ''), dashboardUrl: url('dashboard'), graphqlUrl: url('graphql'), toolsUrl: url('tools') };
  })();
  return shared;
}

// A root-level hook: the shared stack outlives every surface's describe and goes with the run.
after(async () => {
  await cleanup?.();
});

/** What one request answered: enough to check it was a bounded, well-formed answer. */
export interface Answer {
  status: number;
  text: string;
}

export interface GrowthCase<I> {
  /** Input sizes, ascending; the last is at (or just under) the surface's cap. */
  sizes: readonly number[];
  input(size: number): I;
  send(input: I): Promise<Answer>;
  /** Checks one answer (e.g. a 4xx with a message, never a 5xx); throws to fail. */
  check?(answer: Answer, size: number): void;
  /** A 5xx this surface documents as a refusal (CometBFT answers JSON-RPC errors with HTTP 500). */
  documentedServerError?(answer: Answer): boolean;
  budgetMs?: number;
}

export interface GrowthResult {
  points: Array<{ size: number; ms: number }>;
  statusP99Ms: number;
  statusSamples: number;
  /** /status p99 with nothing in flight, measured just before. */
  idleP99Ms: number;
}

/**
 * Sends each size (best of 3, so one GC pause is not growth), checks every answer, the budget
 * and the growth, then keeps the largest input in flight while /status is probed.
 */
export async function assertBoundedGrowth<I>(stack: FullStack, c: GrowthCase<I>): Promise<GrowthResult> {
  const budget = c.budgetMs ?? REQUEST_BUDGET_MS;
  const points: Array<{ size: number; ms: number }> = [];
  for (const size of c.sizes) {
    const input = c.input(size);
    let best = Infinity;
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      const answer = await c.send(input);
      const ms = performance.now() - started;
      assert.ok(answer.status < 500 || c.documentedServerError?.(answer), `size ${size}: answered ${answer.status} ${answer.text.slice(0, 300)}`);
      c.check?.(answer, size);
      assert.ok(ms <= budget, `size ${size}: one request took ${ms.toFixed(0)} ms, budget ${budget} ms (so far: ${describePoints(points)})`);
      best = Math.min(best, ms);
      if (best < NOISE_FLOOR_MS) break;
    }
    points.push({ size, ms: best });
  }
  assertLinear(points);
  const largest = c.input(c.sizes[c.sizes.length - 1]!);
  const isolation = await assertIsolated(stack, async () => {
    const until = performance.now() + ISOLATION_WINDOW_MS;
    do await c.send(largest);
    while (performance.now() < until);
  });
  return { points, ...isolation };
}

/**
 * Probes /status during `baseline` (by default: nothing in flight), then while `work` runs;
 * fails when the work adds 50 ms or more to its p99.
 */
export async function assertIsolated(stack: FullStack, work: () => Promise<void>, baseline: () => Promise<void> = () => new Promise((r) => setTimeout(r, 1_000))): Promise<{ statusP99Ms: number; statusSamples: number; idleP99Ms: number }> {
  const idle = await probeStatusWhile(stack.rpcUrl, baseline);
  const idleP99Ms = percentile(idle, 0.99);
  const samples = await probeStatusWhile(stack.rpcUrl, work);
  const statusP99Ms = percentile(samples, 0.99);
  assert.ok(statusP99Ms < STATUS_P99_BUDGET_MS + idleP99Ms,
    `node /status p99 ${statusP99Ms.toFixed(1)} ms over ${samples.length} probes while the largest input was in flight; idle p99 ${idleP99Ms.toFixed(1)} ms (bound: idle + ${STATUS_P99_BUDGET_MS} ms)`);
  return { statusP99Ms, statusSamples: samples.length, idleP99Ms };
}

/** Fails when some size step costs more than LINEAR_SLACK × proportionally. */
export function assertLinear(points: ReadonlyArray<{ size: number; ms: number }>): void {
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const a = points[i]!;
      const b = points[j]!;
      const timeRatio = Math.max(b.ms, NOISE_FLOOR_MS) / Math.max(a.ms, NOISE_FLOOR_MS);
      const sizeRatio = b.size / a.size;
      assert.ok(timeRatio <= sizeRatio * LINEAR_SLACK,
        `time grows faster than linearly: size ${a.size} → ${b.size} (×${sizeRatio.toFixed(1)}) took ×${timeRatio.toFixed(1)} (${describePoints(points)})`);
    }
  }
}

function describePoints(points: ReadonlyArray<{ size: number; ms: number }>): string {
  return points.map((p) => `${p.size}: ${p.ms.toFixed(1)} ms`).join(', ') || 'none';
}

export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

/** A /status prober on its own thread: sequential GETs every few ms on one kept-alive socket. */
const PROBE_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
let running = true;
const samples = [];
parentPort.on('message', () => { running = false; });
(async () => {
  parentPort.postMessage({ ready: true });
  while (running) {
    const t = performance.now();
    await new Promise((resolve) => {
      const req = http.get(workerData.url, { agent }, (res) => { res.resume(); res.on('end', resolve); res.on('error', resolve); });
      req.on('error', resolve);
      req.setTimeout(30000, () => req.destroy());
    });
    samples.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, workerData.intervalMs));
  }
  agent.destroy();
  parentPort.postMessage({ samples });
})();
`;

export async function probeStatusWhile(rpcUrl: string, work: () => Promise<void>, intervalMs = 5): Promise<number[]> {
  const worker = new Worker(PROBE_SOURCE, { eval: true, workerData: { url: `${rpcUrl}/status`, intervalMs } });
  const messages: Array<{ ready?: boolean; samples?: number[] }> = [];
  const next = () => new Promise<{ ready?: boolean; samples?: number[] }>((resolve, reject) => {
    if (messages.length) return resolve(messages.shift()!);
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await next();
  try {
    await work();
  } finally {
    worker.postMessage('stop');
  }
  const { samples } = await next();
  await worker.terminate();
  return samples ?? [];
}

/**
 * A plain POST, answered as text. A server that refuses an oversized body by closing the
 * connection mid-upload answers status 0 (a refusal, not a crash: the probe shows the rest).
 */
export async function post(url: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<Answer> {
  try {
    const res = await fetch(url, { method: 'POST', headers, body });
    return { status: res.status, text: await res.text() };
  } catch (err) {
    return { status: 0, text: `connection closed: ${(err as Error).message}` };
  }
}

export async function get(url: string): Promise<Answer> {
  const res = await fetch(url);
  return { status: res.status, text: await res.text() };
}

/** Figures of each surface, printed once at the end for docs/operations.md. */
export function report(surface: string, r: GrowthResult): void {
  process.stderr.write(`complexity ${surface}: ${r.points.map((p) => `${p.size}→${p.ms.toFixed(1)}ms`).join(' ')}; /status p99 ${r.statusP99Ms.toFixed(1)} ms over ${r.statusSamples} (idle ${r.idleP99Ms.toFixed(1)} ms)\n`);
}
