import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printTable, type BenchResult } from './bench-result.js';
import { builtProcessOptions, ensureBuild } from './production-build.js';

/**
 * `npm start` on a fresh home, to the first answer of each URL it prints: the node RPC, the node
 * metrics, the tool server, the dashboard, GraphQL and the host metrics. The same command as
 * `npm start` (the built `chain-host --config chainrc.example.json`), with only the ports moved
 * (to free ones, by the documented variables) and the home fresh each round. The baseline is
 * the same config without BDS (and GraphQL, which reads BDS), measured in the same run with the
 * same rounds, alternating, so both see the same machine load.
 *
 * Figures: the median over ROUNDS of the time from spawn to the first 2xx of each surface, and
 * to the first answer of any surface. The goal: the first answer within 2× the start
 * without BDS.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = 3;
const GIVE_UP_MS = 180_000;

type Surface = 'node RPC' | 'node metrics' | 'tools' | 'dashboard' | 'graphql' | 'host metrics';

interface Ports { rpc: number; nodeMetrics: number; tools: number; dashboard: number; graphql: number; hostMetrics: number }

async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Each surface's URL and how to tell it answered. */
function probes(p: Ports, withBds: boolean): Array<{ surface: Surface; url: string; body?: string }> {
  return [
    { surface: 'node RPC', url: `http://127.0.0.1:${p.rpc}/status` },
    { surface: 'node metrics', url: `http://127.0.0.1:${p.nodeMetrics}/metrics` },
    { surface: 'tools', url: `http://127.0.0.1:${p.tools}/tools` },
    { surface: 'dashboard', url: `http://127.0.0.1:${p.dashboard}/api/status` },
    ...(withBds ? [{ surface: 'graphql' as const, url: `http://127.0.0.1:${p.graphql}/graphql`, body: '{"query":"{ __typename }"}' }] : []),
    { surface: 'host metrics', url: `http://127.0.0.1:${p.hostMetrics}/metrics` },
  ];
}

function answers(url: string, body?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: body ? 'POST' : 'GET', headers: body ? { 'content-type': 'application/json' } : {}, timeout: 5_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300));
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end(body);
  });
}

/** One fresh-home start: ms from spawn to each surface's first 2xx. */
async function startOnce(withBds: boolean): Promise<Map<Surface, number>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'chain-fresh-start-'));
  const ports: Ports = { rpc: await freePort(), nodeMetrics: await freePort(), tools: await freePort(), dashboard: await freePort(), graphql: await freePort(), hostMetrics: await freePort() };
  const config = JSON.parse(await readFile(path.join(ROOT, 'chainrc.example.json'), 'utf8'));
  delete config.$schema;
  if (!withBds) {
    delete config.plugins.bds;
    delete config.plugins.graphql;
  }
  const configPath = path.join(dir, 'chainrc.json');
  await writeFile(configPath, JSON.stringify(config));
  const { env } = builtProcessOptions();
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/host/bin/chain-host.js'), '--config', configPath], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...env, CHAIN_HOME: path.join(dir, 'home'),
      CHAIN_DEVNET_PORT: String(ports.rpc), CHAIN_DEVNET_METRICS_PORT: String(ports.nodeMetrics), HTTP_PORT: String(ports.tools),
      CHAIN_DASHBOARD_PORT: String(ports.dashboard), CHAIN_GRAPHQL_PORT: String(ports.graphql), CHAIN_METRICS_PORT: String(ports.hostMetrics),
    },
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-8_192)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const firstAnswers = new Map<Surface, number>();
  try {
    await Promise.all(probes(ports, withBds).map(async ({ surface, url, body }) => {
      while (!(await answers(url, body))) {
        if (child.exitCode !== null) throw new Error(`chain-host exited with ${child.exitCode}: ${stderr}`);
        if (performance.now() - started > GIVE_UP_MS) throw new Error(`${surface} did not answer within ${GIVE_UP_MS} ms: ${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      firstAnswers.set(surface, performance.now() - started);
    }));
  } finally {
    child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  }
  return firstAnswers;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(): Promise<BenchResult[]> {
  ensureBuild();
  const withBds: Array<Map<Surface, number>> = [];
  const without: Array<Map<Surface, number>> = [];
  for (let round = 0; round < ROUNDS; round++) {
    without.push(await startOnce(false));
    withBds.push(await startOnce(true));
  }
  const first = (runs: Array<Map<Surface, number>>) => median(runs.map((r) => Math.min(...r.values())));
  const last = (runs: Array<Map<Surface, number>>) => median(runs.map((r) => Math.max(...r.values())));
  const of = (runs: Array<Map<Surface, number>>, s: Surface) => median(runs.map((r) => r.get(s)!));
  const baseline = { name: 'no BDS, first answer', value: first(without) };
  const results: BenchResult[] = [
    { name: 'fresh home, npm start → first answer', value: first(withBds), unit: 'ms', baseline, ratio: first(withBds) / baseline.value, target: 'ratio ≤ 2' },
    { name: 'fresh home, npm start → every surface answers', value: last(withBds), unit: 'ms', baseline: { name: 'no BDS, every surface', value: last(without) }, ratio: last(withBds) / last(without) },
  ];
  for (const surface of ['node RPC', 'node metrics', 'tools', 'dashboard', 'graphql', 'host metrics'] as const) {
    const b = surface === 'graphql' ? undefined : { name: 'no BDS', value: of(without, surface) };
    results.push({ name: `  first answer: ${surface}`, value: of(withBds, surface), unit: 'ms', ...(b ? { baseline: b, ratio: of(withBds, surface) / b.value } : {}) });
  }
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) printTable(await run());
