import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { DEFAULT_MNEMONIC } from '../../plugins/devnet/index.js';
import { deriveAccounts } from '../../plugins/devnet/node/devnet.js';
import { pgliteTemplateDir } from './databases.js';
import { freePort } from './free-port.js';
import { bootTestHost, REPO_ROOT, type BootOptions, type TestHost } from './test-host.js';

/**
 * The code blocks of the docs (README.md, docs/*.md) as the tests run them. A block is tested
 * when the line before its opening fence is `<!-- tested: <name> -->`; every other fenced block
 * of a file must be listed by its test with the reason it is not run (`untestedBlocks`), so a
 * new example cannot slip in untested.
 */
export interface DocBlock {
  /** The marker's name, or null for an unmarked block. */
  name: string | null;
  lang: string;
  body: string;
  /** 1-based line of the opening fence. */
  line: number;
}

/** Every fenced block of a Markdown text (top level or indented in a list), in order. */
export function fencedBlocks(text: string): DocBlock[] {
  const lines = text.split('\n');
  const found: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    let end = i + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end]!)) end++;
    const marker = /^\s*<!-- tested: ([\w-]+) -->\s*$/.exec(lines[i - 1] ?? '');
    found.push({ name: marker?.[1] ?? null, lang: open[2]!, body: lines.slice(i + 1, end).map((l) => l.slice(Math.min(indent, /^\s*/.exec(l)![0].length))).join('\n'), line: i + 1 });
    i = end;
  }
  return found;
}

/** The blocks marked `<!-- tested: … -->`. */
export function testedBlocks(text: string): Array<DocBlock & { name: string }> {
  return fencedBlocks(text).filter((b): b is DocBlock & { name: string } => b.name !== null);
}

/** The tested block `name` of a text (fails the test when there is none). */
export function testedBlock(text: string, name: string): DocBlock & { name: string } {
  const found = testedBlocks(text).find((b) => b.name === name);
  assert.ok(found, `no <!-- tested: ${name} --> block`);
  return found;
}

/** Shell lines of a block, `\`-continued lines joined, comments-only lines dropped. */
export function commandLines(body: string): string[] {
  return body.replace(/\\\n\s*/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
}

export const README_PATH = path.join(REPO_ROOT, 'README.md');
export const readDoc = (relative: string): Promise<string> => readFile(path.join(REPO_ROOT, relative), 'utf8');

/** The first dev account of the public test mnemonic: the `<address>` of the examples. */
export const DEV0 = deriveAccounts(DEFAULT_MNEMONIC, 1)[0]!;

const TSX = pathToFileURL(path.join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/**
 * A folder of shims that run this checkout's commands from source as the docs type them:
 * `chain-vm …`, `chain-keys …` and `npx chain-keys …` (what `npx` runs in the checkout after
 * `npm install`; test/docs/command-lines.test.ts runs the real `npx` against the build).
 */
export async function commandShims(dir: string): Promise<string> {
  const bin = path.join(dir, 'bin');
  await mkdir(bin, { recursive: true });
  const source = (name: string) => `"${process.execPath}" --import "${TSX}" "${path.join(REPO_ROOT, 'host/bin', name + '.ts')}"`;
  for (const name of ['chain-vm', 'chain-keys']) {
    await writeFile(path.join(bin, name), `#!/bin/sh\nexec ${source(name)} "$@"\n`);
    await chmod(path.join(bin, name), 0o755);
  }
  await writeFile(path.join(bin, 'npx'), `#!/bin/sh\ncase "$1" in chain-vm|chain-keys) c="$1"; shift; exec "${bin}/$c" "$@";; esac\necho "npx shim: $1 is not a command of this checkout" >&2; exit 127\n`);
  await chmod(path.join(bin, 'npx'), 0o755);
  return bin;
}

/** The environment of a shell that runs doc blocks: the shims first on PATH. */
export function shellEnv(bin: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', ...extra };
}

export const runFile = promisify(execFile);

/**
 * `chainrc.example.json` as `npm start` runs it, in-process: every server on a free port, `home`
 * a fresh folder (the PGlite template copied in), the devnet's account listing off. `substitute`
 * rewrites the docs' default addresses to the real ones, `<address>` to the first dev account and
 * `/path/to/chainhost` to the checkout, and fails on a placeholder left over.
 */
export interface DocStack {
  dir: string;
  home: string;
  h: TestHost;
  substitute(text: string): string;
  stop(): Promise<void>;
}

export async function bootDocStack(options: { env?: Record<string, string>; boot?: BootOptions; home?: string; dir?: string } = {}): Promise<DocStack> {
  const dir = options.dir ?? await mkdtemp(path.join(os.tmpdir(), 'chain-docs-'));
  const home = options.home ?? path.join(dir, 'home');
  await cp(await pgliteTemplateDir(), path.join(home, 'bds'), { recursive: true });
  const nodePort = await freePort();
  const config = JSON.parse(await readFile(path.join(REPO_ROOT, 'chainrc.example.json'), 'utf8'));
  delete config.$schema;
  config.home = home;
  config.tools.http.port = 0;
  config.metrics.port = 0;
  Object.assign(config.plugins.devnet, { port: nodePort, metricsPort: null, printAccounts: false });
  config.plugins.dashboard.port = 0;
  config.plugins.graphql.port = 0;
  const h = await bootTestHost(config, { ...options.boot, env: { ...options.boot?.env, ...options.env } });
  const urls: Record<string, string> = {
    'http://127.0.0.1:8100': h.url(),
    'http://127.0.0.1:8080': h.host.serverUrl('dashboard')!,
    'http://127.0.0.1:5000': h.host.serverUrl('graphql')!,
    'http://127.0.0.1:9109': h.host.serverUrl('metrics')!,
    'http://127.0.0.1:26657': `http://127.0.0.1:${nodePort}`,
  };
  const substitute = (source: string): string => {
    let out = source;
    for (const [from, to] of Object.entries(urls)) out = out.split(from).join(to);
    out = out.split('/path/to/chainhost/.chain').join(home);
    out = out.split('<address>').join(DEV0.address).split('/path/to/chainhost').join(REPO_ROOT);
    const left = /<[A-Za-z_][\w-]*>|127\.0\.0\.1:(8100|8080|5000|9109|26657)\b/.exec(out);
    assert.equal(left, null, `an unsubstituted placeholder in a tested example: ${left?.[0]}`);
    return out;
  };
  return {
    dir, home, h, substitute,
    async stop() {
      await h.stop();
      if (!options.dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs one `curl -s …` line of a doc (substituted) with the real curl: its HTTP status and the
 * body parsed as JSON (fails on a non-2xx status, a body that is not a JSON object, or an
 * `error`/`errors` member).
 */
export async function curlJson(line: string, substitute: (t: string) => string, env: Record<string, string> = {}): Promise<any> {
  assert.match(line, /^curl -s /, `a tested curl example runs curl only: ${line}`);
  const command = `${substitute(line)} --max-time 60 -w '\\n%{http_code}'`;
  const { stdout } = await runFile('sh', ['-c', command], { maxBuffer: 16 * 1024 * 1024, env: { PATH: process.env.PATH ?? '', ...env } });
  const cut = stdout.lastIndexOf('\n');
  const status = Number(stdout.slice(cut + 1));
  const body = stdout.slice(0, cut);
  assert.ok(status >= 200 && status < 300, `${line}\n→ HTTP ${status}: ${body.slice(0, 800)}`);
  let json: any;
  assert.doesNotThrow(() => (json = JSON.parse(body)), `${line}\n→ not JSON: ${body.slice(0, 200)}`);
  assert.ok(json !== null && typeof json === 'object', `${line}\n→ ${body.slice(0, 200)}`);
  assert.equal(json.error, undefined, `${line}\n→ ${body.slice(0, 800)}`);
  assert.equal(json.errors, undefined, `${line}\n→ ${body.slice(0, 800)}`);
  return json;
}

/**
 * Waits until the devnet answers a dry run. The devnet loads its dry-run worker (compiler and VM)
 * on the first dry run, and the tools give a dry run 10 s: on a machine busy with other test runs
 * the first one can answer 504 while the worker loads. The docs' blocks are then run against a
 * node in the state a person meets after the first minute.
 */
export async function warmDryRuns(stack: DocStack, deadlineMs = 240_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    try {
      await stack.h.host.invoker.call('simulate_transaction', { address: DEV0.address, contract: 'currency', function: 'balance_of', kwargs: { address: DEV0.address } }, 'in-process');
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
    }
  }
}
