import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { startChainHost, type ChainHostProcess } from './chain-host-process.js';
import { pgliteTemplateDir } from './databases.js';
import { REPO_ROOT } from './test-host.js';

export interface FullStack {
  rpcUrl: string;
  dashboardUrl: string;
  graphqlUrl: string;
  toolsUrl: string;
  /** The host-work probe inside the host process (test/support/host-work-probe.ts). */
  probeUrl: string;
  proc: ChainHostProcess;
}

/**
 * The full stack as `npm start` runs it — `chain-host` in a child process with the devnet's node
 * RPC, BDS on PGlite, GraphQL, the dashboard and the HTTP tool server — with the host-work probe
 * preloaded, every port 0 and the dashboard's rate limits out of the way (what is measured is the
 * work a request causes, not the limiter refusing it). Shared by the complexity fuzzer and
 * bench/hostile-clients.ts.
 */
export async function startFullStack(): Promise<{ stack: FullStack; stop(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'chain-full-stack-'));
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
      dashboard: { port: 0, limits: { api: relaxed, expensive: relaxed, websocket: relaxed, maxInFlight: 1000 }, websocket: { maxClientsPerIp: 100 } },
      graphql: { port: 0 },
    },
  }));
  let proc: ChainHostProcess;
  try {
    proc = await startChainHost(configFile, { timeoutMs: 180_000, preload: [path.join(REPO_ROOT, 'test/support/host-work-probe.ts')] });
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  const stop = async () => {
    await proc.kill();
    await rm(dir, { recursive: true, force: true });
  };
  const banner = proc.stderrTail();
  const url = (name: string) => {
    const found = new RegExp(`^\\s+${name}\\s+(http://\\S+)`, 'm').exec(banner)?.[1];
    if (!found) throw new Error(`no ${name} URL in the banner:\n${banner}`);
    return found.replace(/\/+$/, '');
  };
  const probeUrl = /^host-work-probe: (http:\/\/\S+)/m.exec(banner)?.[1];
  if (!probeUrl) {
    await stop();
    throw new Error(`the host-work probe did not start:\n${banner}`);
  }
  return { stack: { proc, rpcUrl: proc.rpcUrl.replace(/\/+$/, ''), dashboardUrl: url('dashboard'), graphqlUrl: url('graphql'), toolsUrl: url('tools'), probeUrl }, stop };
}

/** What the host-work probe read: CPU time and the longest event-loop burst since its reset. */
export interface HostWork {
  cpuMs: number;
  maxBurstMs: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

/** Reads the probe; `reset` starts a new measuring window. */
export async function readHostWork(stack: FullStack, reset = false): Promise<HostWork> {
  const res = await fetch(`${stack.probeUrl}/${reset ? '?reset=1' : ''}`);
  return (await res.json()) as HostWork;
}

/** Runs `work` in a fresh probe window with /status probed from a worker thread. */
export async function watchHost(stack: FullStack, work: () => Promise<void>): Promise<{ work: HostWork; samples: number[] }> {
  await readHostWork(stack, true);
  const samples = await probeStatusWhile(stack.rpcUrl, work);
  return { work: await readHostWork(stack), samples };
}

/** Runs `step` again and again, one at a time, for about `ms` (a window to watch, not a bound). */
export async function repeatFor(ms: number, step: () => Promise<unknown>): Promise<void> {
  const until = performance.now() + ms;
  do await step();
  while (performance.now() < until);
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

