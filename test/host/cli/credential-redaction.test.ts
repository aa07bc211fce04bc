import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { postgresReachable, TEST_POSTGRES_URL } from '../../support/databases.js';
import { freePort } from '../../support/free-port.js';
import { REPO_ROOT } from '../../support/test-host.js';

/**
 * Every command, started with a credential in every form a database, Redis or node URL can
 * carry it: everything it printed (stdout and stderr) and everything it served on the read
 * endpoints that describe it (`/health`, `/metrics`, the dashboard's `/api/config`, the node's
 * `/status`) must hold none of them. Each secret contains MARK, so one search finds any of them.
 */
const MARK = 'Sekr3t';

interface Form {
  name: string;
  database: (db: string, files: Files) => string;
  redis: string;
}
interface Files {
  sslkey: string;
  sslcert: string;
  passfile: string;
}

const FORMS: Form[] = [
  {
    name: 'userinfo and every password parameter (any case, percent-encoded), a passfile',
    database: (db, f) => `postgres://postgres:${MARK}-userinfo@127.0.0.1:5432/${db}?password=${MARK}-password&sslpassword=${MARK}-sslpassword&PassWord=${MARK}-case&pass%77ord=${MARK}-encoded&passfile=${encodeURIComponent(f.passfile)}`,
    redis: `redis://:${MARK}-redis@127.0.0.1:6379/0?password=${MARK}-redisquery`,
  },
  {
    name: 'the issue\'s ?password= alone; ssl key and certificate files; Redis over TLS with a user',
    database: (db, f) => `postgres://postgres@127.0.0.1:5432/${db}?password=${MARK}-plain&sslkey=${encodeURIComponent(f.sslkey)}&sslcert=${encodeURIComponent(f.sslcert)}&sslmode=require`,
    redis: `rediss://default:${MARK}-rediss@127.0.0.1:6379`,
  },
];

interface Ports { a: number; b: number; c: number; d: number; e: number }

interface CommandRun {
  command: string;
  args: (dir: string, ports: Ports) => string[];
  /** The config file's content, when the command takes `--config`. */
  config?: (dir: string, ports: Ports) => Record<string, unknown>;
  /** stderr that says it is serving; absent: the command runs to its end. */
  ready?: RegExp;
  /** What it serves that could describe its configuration. */
  reads?: (ports: Ports) => string[];
  /** MCP on stdio: stdin is closed once it is ready, which stops it. */
  stdio?: boolean;
}

const COMMANDS: CommandRun[] = [
  {
    command: 'chain-host',
    args: (dir) => ['--config', path.join(dir, 'chainrc.json')],
    config: (dir, p) => ({
      home: path.join(dir, 'home'),
      tools: { http: { port: p.a } },
      metrics: { port: p.b },
      plugins: { devnet: { port: p.c, metricsPort: null, printAccounts: false }, bds: {}, graphql: { port: p.d }, dashboard: { port: p.e }, query: {} },
    }),
    ready: /^chain-host: serving$/m,
    reads: (p) => [`http://127.0.0.1:${p.a}/health`, `http://127.0.0.1:${p.b}/metrics`, `http://127.0.0.1:${p.e}/api/config`, `http://127.0.0.1:${p.c}/status`],
  },
  {
    command: 'chain-graphql',
    args: (dir, p) => ['--config', path.join(dir, 'chainrc.json'), '--port', String(p.a)],
    ready: /^chain-graphql: route graphql:http/m,
    reads: (p) => [`http://127.0.0.1:${p.a}/graphql?query=%7B__typename%7D`],
  },
  {
    command: 'chain-dashboard',
    args: (dir, p) => ['--config', path.join(dir, 'chainrc.json'), '--port', String(p.a)],
    ready: /^chain-dashboard: dashboard: http/m,
    reads: (p) => [`http://127.0.0.1:${p.a}/api/config`, `http://127.0.0.1:${p.a}/api/status`],
  },
  {
    command: 'chain-devnet',
    args: (dir, p) => ['--config', path.join(dir, 'chainrc.json'), '--bds', '--home', path.join(dir, 'home'), '--port', String(p.a), '--metrics-port', String(p.b)],
    ready: /node RPC +http/,
    reads: (p) => [`http://127.0.0.1:${p.a}/status`, `http://127.0.0.1:${p.a}/health`, `http://127.0.0.1:${p.b}/metrics`],
  },
  { command: 'chain-bds-reindex', args: (dir, p) => ['--config', path.join(dir, 'chainrc.json'), '--rpc-url', `http://rpc:${MARK}-rpcurl@127.0.0.1:${p.a}`], config: (dir) => ({ home: path.join(dir, 'home') }) },
  { command: 'chain-bds-snapshot', args: (dir) => ['export', '--config', path.join(dir, 'chainrc.json'), '--output-path', path.join(dir, 'snapshot.jsonl.gz')], config: (dir) => ({ home: path.join(dir, 'home') }) },
  { command: 'chain-mcp', args: (dir) => ['--config', path.join(dir, 'chainrc.json')], ready: /^chain-mcp: serving MCP on stdio$/m, stdio: true },
  {
    command: 'chain-mcp-http',
    args: (dir, p) => ['--config', path.join(dir, 'chainrc.json'), '--port', String(p.a)],
    ready: /^chain-mcp-http: serving$/m,
    reads: (p) => [`http://127.0.0.1:${p.a}/health`],
  },
];

/** Runs one command to its end (or until it serves, then reads it and stops it) and returns everything it printed and answered. */
async function everythingPrinted(run: CommandRun, dir: string, env: Record<string, string>): Promise<{ printed: string; served: boolean }> {
  const ports: Ports = { a: await freePort(), b: await freePort(), c: await freePort(), d: await freePort(), e: await freePort() };
  await writeFile(path.join(dir, 'chainrc.json'), JSON.stringify(run.config?.(dir, ports) ?? { home: path.join(dir, 'home') }));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'host/bin', `${run.command}.ts`), ...run.args(dir, ports)], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout.on('data', (c: Buffer) => (printed += c));
  child.stderr.on('data', (c: Buffer) => (printed += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  // Never left behind, whatever happens to the test.
  const orphan = () => child.kill('SIGKILL');
  process.once('exit', orphan);
  void exited.then(() => process.off('exit', orphan));
  if (!run.ready) child.stdin.end();
  const ready = run.ready;
  let served = false;
  if (ready) {
    const serving = await new Promise<boolean>((resolve) => {
      const timer = setInterval(() => {
        if (ready.test(printed)) done(true);
      }, 100);
      const done = (ok: boolean) => { clearInterval(timer); resolve(ok); };
      void exited.then(() => done(false));
    });
    if (serving) {
      served = true;
      for (const url of run.reads?.(ports) ?? []) {
        try {
          const res = await fetch(url, { signal: AbortSignal.timeout(15_000) });
          printed += `\n${url} ${res.status}\n${await res.text()}`;
        } catch (err) {
          printed += `\n${url} failed: ${(err as Error).message}`;
        }
      }
      if (run.stdio) child.stdin.end();
      else child.kill('SIGTERM');
    }
  }
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  await exited;
  clearTimeout(killer);
  return { printed, served };
}

describe('no command prints, serves or exports a credential, in any form', function () {
  this.timeout(240_000);
  let dir: string;
  let files: Files;
  const database = `chain_redact_${process.pid}`;
  const admin = () => new pg.Client({ connectionString: TEST_POSTGRES_URL });

  before(async function () {
    if (!(await postgresReachable())) this.skip();
    const client = admin();
    await client.connect();
    await client.query(`CREATE DATABASE ${database}`);
    await client.end();
    dir = await mkdtemp(path.join(os.tmpdir(), 'chain-redact-'));
    files = { sslkey: path.join(dir, 'client.key'), sslcert: path.join(dir, 'client.crt'), passfile: path.join(dir, 'pgpass') };
    await writeFile(files.sslkey, `-----BEGIN PRIVATE KEY-----\n${MARK}-keyfile\n-----END PRIVATE KEY-----\n`, { mode: 0o600 });
    await writeFile(files.sslcert, `-----BEGIN CERTIFICATE-----\n${MARK}-certfile\n-----END CERTIFICATE-----\n`);
    await writeFile(files.passfile, `*:*:*:*:${MARK}-passfile\n`, { mode: 0o600 });
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    const client = admin();
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await client.end();
  });

  for (const form of FORMS) {
    describe(form.name, () => {
      for (const run of COMMANDS) {
        it(run.command, async () => {
          const home = await mkdtemp(path.join(dir, `${run.command}-`));
          const env = {
            CHAIN_BDS_DATABASE_URL: form.database(database, files),
            CHAIN_REDIS_URL: form.redis,
            CHAIN_NODE_URL: `http://node:${MARK}-nodeurl@127.0.0.1:${await freePort()}`,
            CHAIN_HOME: path.join(home, 'home'),
          };
          const { printed, served } = await everythingPrinted(run, home, env);
          // It ran: it served, or it said why it stopped, in its own words.
          assert.match(printed, new RegExp(`^(${run.command}: |BDS )`, 'm'), printed);
          if (run.ready && !served) assert.match(printed, new RegExp(`^${run.command}: error: `, 'm'), printed);
          const at = printed.indexOf(MARK);
          assert.equal(at, -1, `a credential in what ${run.command} printed or served:\n${printed.slice(Math.max(0, at - 300), at + 100)}`);
        });
      }
    });
  }
});
