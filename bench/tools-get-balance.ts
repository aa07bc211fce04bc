import 'reflect-metadata';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { postLoad } from './http-load.js';
import { printTable, type BenchResult } from './bench-result.js';
import { builtProcessOptions, ensureBuild, importBuilt } from './production-build.js';

/**
 * What a read tool costs over the node it reads. One host process runs the devnet plugin
 * serving CometBFT's RPC on HTTP and the query plugin on the HTTP tool server: `POST
 * /tools/get_balance` (tool server, ToolInvoker with strict zod validation, chain-id guard, the
 * node service, decoding, output check) against a direct JSON-RPC `abci_query` of the same key
 * (`/get/currency.balances:<address>`) on the same devnet over HTTP — both one HTTP hop into the
 * same process, measured in this run with the same keep-alive load generator (a worker thread
 * here), request count and concurrency.
 *
 * Both sides run from the compiled build, as `npm start` serves them (production-build.ts).
 *
 * A second row measures the tool with the node in another process (`node.url`, as with a
 * remote node): two HTTP hops against one, so it has no target; on a 2-core machine the three
 * processes also share the CPUs.
 */
const FILE = fileURLToPath(import.meta.url);
const REQUESTS = 20_000;
const WARMUP = 1_000;
const CONCURRENCY = 32;
const ROUNDS = 5;


interface Served {
  /** POST /tools/get_balance of the host. */
  toolUrl?: string;
  /** The devnet's CometBFT RPC. */
  rpcUrl?: string;
  address?: string;
}

interface Child {
  info: Served;
  /** CPU time (user + system) the child has used so far. */
  cpuMicros(): Promise<number>;
  close(): Promise<void>;
}

async function spawn(args: string[]): Promise<Child> {
  const child: ChildProcess = fork(FILE, ['--serve', ...args], { ...builtProcessOptions(), stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const info = await new Promise<Served>((resolve, reject) => {
    child.once('message', (m: Served) => resolve(m));
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
  return {
    info,
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Child side. `local`: one host with the devnet plugin (RPC on HTTP) and the query plugin.
 * `devnet`: a bare devnet on HTTP. `remote <rpcUrl>`: a host with the query plugin over it.
 */
async function serve(kind: string, rpcUrl?: string): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'chainhost-bench-balance-'));
  let stop: () => Promise<void>;
  if (kind === 'proxy') {
    // The baseline of the remote path: a bare forwarding proxy, node:http both ways with a
    // keep-alive pool to the node — what forwarding a JSON-RPC read costs with nothing on top.
    const http = await import('node:http');
    const target = new URL(rpcUrl!);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const server = http.createServer((req, res) => {
      const upstream = http.request({ host: target.hostname, port: target.port, path: '/', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': req.headers['content-length'] ?? '0' } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json', ...(answer.headers['content-length'] ? { 'content-length': answer.headers['content-length'] } : {}) });
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    process.send!({ rpcUrl: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}` } satisfies Served);
    stop = () => new Promise((resolve) => { agent.destroy(); server.close(() => resolve()); server.closeAllConnections(); });
  } else if (kind === 'devnet') {
    const { Devnet } = await importBuilt<typeof import('../plugins/devnet/node/devnet.js')>('plugins/devnet/node/devnet');
    const devnet = await Devnet.open({ home: dir });
    const { rpcUrl: url } = await devnet.listen({ host: '127.0.0.1', port: 0, metricsPort: null });
    process.send!({ rpcUrl: url, address: devnet.accounts()[0]!.address } satisfies Served);
    stop = () => devnet.close();
  } else {
    const [{ loadConfig }, { silentLogger }, { Host }, { addToolSurfaces }, { deriveFromMnemonic }] = await Promise.all([
      importBuilt<typeof import('../core/config/load-config.js')>('core/config/load-config'),
      importBuilt<typeof import('../core/logger.js')>('core/logger'),
      importBuilt<typeof import('../host/host.js')>('host/host'),
      importBuilt<typeof import('../host/tools-server/index.js')>('host/tools-server/index'),
      importBuilt<typeof import('../core/chain/hd-wallet.js')>('core/chain/hd-wallet'),
    ]);
    const port = kind === 'local' ? await freePort() : 0;
    const plugins = kind === 'local'
      ? { devnet: { listen: true, port, metricsPort: null, printAccounts: false }, query: {} }
      : { query: {} };
    const file = path.join(dir, '.chainrc.json');
    await writeFile(file, JSON.stringify({ home: dir, node: { url: rpcUrl ?? 'http://127.0.0.1:26657' }, plugins, tools: { http: { host: '127.0.0.1', port: 0 } } }));
    const host = await Host.create(await loadConfig({ configPath: file, env: {} }), { log: silentLogger, surfaces: [addToolSurfaces] });
    await host.start();
    // The devnet's first dev account: key 0 of its default mnemonic under the official wallets' scheme.
    const address = deriveFromMnemonic('test test test test test test test test test test test junk', { index: 0 }).publicKey;
    process.send!({ toolUrl: `${host.serverUrl('tools')}/tools/get_balance`, rpcUrl: kind === 'local' ? `http://127.0.0.1:${port}` : rpcUrl, address } satisfies Served);
    stop = () => host.stop();
  }
  process.on('message', () => {
    const { user, system } = process.cpuUsage();
    process.send!({ cpu: user + system });
  });
  process.on('SIGTERM', () => {
    void stop().finally(() => rm(dir, { recursive: true, force: true }).finally(() => process.exit(0)));
  });
}

function load(url: string, body: string, count: number): Promise<number> {
  return postLoad({ url, body, count, concurrency: CONCURRENCY });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface Comparison {
  tool: number;
  direct: number;
  ratio: number;
  /** CPU µs per request of the serving processes (host and devnet together). */
  toolCpu: number;
  directCpu: number;
}

/**
 * Tool vs direct abci_query, alternating rounds: the median req/s of each and of their ratio,
 * and the serving processes' CPU per request (robust when other work shares the machine).
 */
async function compare(toolUrl: string, rpcUrl: string, address: string, servers: Child[]): Promise<Comparison> {
  const toolBody = JSON.stringify({ address });
  const abciBody = JSON.stringify({
    jsonrpc: '2.0', id: 1, method: 'abci_query',
    params: { path: `/get/currency.balances:${address}`, data: '', height: '0', prove: false },
  });
  const rpc = `${rpcUrl}/`;
  await load(rpc, abciBody, WARMUP);
  await load(toolUrl, toolBody, WARMUP);
  const cpu = async () => (await Promise.all(servers.map((s) => s.cpuMicros()))).reduce((a, b) => a + b, 0);
  const measure = async (url: string, body: string) => {
    const before = await cpu();
    const reqPerSec = await load(url, body, REQUESTS);
    return { reqPerSec, cpu: ((await cpu()) - before) / REQUESTS };
  };
  const rounds: Array<{ tool: { reqPerSec: number; cpu: number }; direct: { reqPerSec: number; cpu: number } }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    rounds.push({ direct: await measure(rpc, abciBody), tool: await measure(toolUrl, toolBody) });
  }
  return {
    tool: median(rounds.map((r) => r.tool.reqPerSec)),
    direct: median(rounds.map((r) => r.direct.reqPerSec)),
    ratio: median(rounds.map((r) => r.direct.reqPerSec / r.tool.reqPerSec)),
    toolCpu: median(rounds.map((r) => r.tool.cpu)),
    directCpu: median(rounds.map((r) => r.direct.cpu)),
  };
}

/**
 * The remote path's own cost: CPU of the tool host alone per `get_balance` it serves from a node
 * in another process, against CPU of a bare forwarding proxy per `abci_query` of the same key it
 * forwards to the same node, alternating rounds of the same load.
 */
async function compareWithProxy(host: Child, proxy: Child, address: string): Promise<{ hostCpu: number; proxyCpu: number; ratio: number }> {
  const toolBody = JSON.stringify({ address });
  const abciBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'abci_query', params: { path: `/get/currency.balances:${address}`, data: '', height: '0', prove: false } });
  const proxyUrl = `${proxy.info.rpcUrl}/`;
  await load(proxyUrl, abciBody, WARMUP);
  await load(host.info.toolUrl!, toolBody, WARMUP);
  const perRequest = async (child: Child, url: string, body: string) => {
    const before = await child.cpuMicros();
    await load(url, body, REQUESTS);
    return ((await child.cpuMicros()) - before) / REQUESTS;
  };
  const rounds: Array<{ host: number; proxy: number }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    rounds.push({ proxy: await perRequest(proxy, proxyUrl, abciBody), host: await perRequest(host, host.info.toolUrl!, toolBody) });
  }
  return { hostCpu: median(rounds.map((r) => r.host)), proxyCpu: median(rounds.map((r) => r.proxy)), ratio: median(rounds.map((r) => r.host / r.proxy)) };
}

export async function run(): Promise<BenchResult[]> {
  ensureBuild();
  const label = `${REQUESTS} req × ${ROUNDS} rounds, ${CONCURRENCY} concurrent, keep-alive`;
  const results: BenchResult[] = [];
  const local = await spawn(['local']);
  try {
    const r = await compare(local.info.toolUrl!, local.info.rpcUrl!, local.info.address!, [local]);
    results.push(
      {
        name: `POST /tools/get_balance, devnet in the host process (${label})`,
        value: r.tool,
        unit: 'req/s',
        baseline: { name: 'direct abci_query of the same key over HTTP', value: r.direct },
        ratio: r.ratio,
        target: 'ratio ≤ 1.15',
      },
      {
        name: 'host process CPU per request (same runs)',
        value: r.toolCpu,
        unit: 'µs',
        baseline: { name: 'direct abci_query', value: r.directCpu },
        ratio: r.toolCpu / r.directCpu,
      },
    );
  } finally {
    await local.close();
  }
  const devnet = await spawn(['devnet']);
  const remote = await spawn(['remote', devnet.info.rpcUrl!]);
  const proxy = await spawn(['proxy', devnet.info.rpcUrl!]);
  try {
    const p = await compareWithProxy(remote, proxy, devnet.info.address!);
    results.push({
      name: `host CPU per forwarded POST /tools/get_balance, devnet in another process via node.url (${label})`,
      value: p.hostCpu,
      unit: 'µs',
      baseline: { name: 'bare node:http forwarding proxy (keep-alive pool) CPU per abci_query of the same key', value: p.proxyCpu },
      ratio: p.ratio,
      target: 'ratio ≤ 1.3',
    });
    const r = await compare(remote.info.toolUrl!, devnet.info.rpcUrl!, devnet.info.address!, [remote, devnet]);
    results.push(
      {
        name: `POST /tools/get_balance, devnet in another process via node.url (${label})`,
        value: r.tool,
        unit: 'req/s',
        baseline: { name: 'direct abci_query of the same key over HTTP', value: r.direct },
        ratio: r.ratio,
      },
      {
        name: 'host + devnet CPU per request (same runs)',
        value: r.toolCpu,
        unit: 'µs',
        baseline: { name: 'direct abci_query (devnet only)', value: r.directCpu },
        ratio: r.toolCpu / r.directCpu,
      },
    );
  } finally {
    await Promise.all([remote.close(), proxy.close(), devnet.close()]);
  }
  return results;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly && process.argv[2] === '--serve') {
  await serve(process.argv[3]!, process.argv[4]);
} else if (invokedDirectly) {
  printTable(await run());
}
