import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ChainNode } from '../../core/chain/node.js';
import { HttpChainRpc } from '../../core/chain/rpc/http-chain-rpc.js';
import { encodeTransaction, signTransaction } from '../../core/chain/transaction.js';
import { DEFAULT_MNEMONIC, deriveAccounts } from '../../plugins/devnet/node/devnet.js';
import { outputOf, stderrUntil, type CommandOutput } from '../support/child-output.js';
import { freePort } from '../support/free-port.js';
import { bootTestHost, postJson, REPO_ROOT, request, type TestHost } from '../support/test-host.js';

/**
 * Every command line README.md and the commands' `--help` document, run as a user types it:
 * bare (no flags beyond the documented line), each in a fresh working directory with a fresh
 * CHAIN_HOME. Default ports are replaced only through what the docs name for it: HTTP_PORT and
 * CHAIN_DASHBOARD_PORT, and for the node and GraphQL ports a config file in the working
 * directory that sets nothing but the port (the config the commands document searching there).
 * Where the README says `npx`, the test types `npx` (the build, as `npm install` leaves it). The indexed-read tools of a tool server with no BDS of its own answer from a
 * `chain-devnet --bds` in another process.
 */
const TSX = path.join(REPO_ROOT, 'node_modules/tsx/dist/esm/index.mjs');
const BIN = (name: string) => path.join(REPO_ROOT, 'host/bin', `${name}.ts`);
const [ALICE, BOB] = deriveAccounts(DEFAULT_MNEMONIC, 2);

interface Command {
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  stop(): Promise<number | null>;
}

function baseEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', ...extra };
}

/**
 * What a person's shell has for the installed commands (`npx chain-keys`, a global install):
 * they run the build, so no source condition (under it a built command would meet the source
 * kernel through its plugins' `chainhost/plugin` imports).
 */
function userEnv(extra: Record<string, string>): Record<string, string> {
  const nodeOptions = (process.env.NODE_OPTIONS ?? '').split(/\s+/).filter((o) => o && o !== '--conditions=chainhost-source').join(' ');
  return { ...baseEnv(extra), NODE_OPTIONS: nodeOptions };
}

/** `<name> <args…>` started in `cwd`, as installed bins run (node + the TypeScript loader). */
function launch(name: string, args: string[], cwd: string, env: Record<string, string>): Command {
  const child = spawn(process.execPath, ['--import', TSX, BIN(name), ...args], { cwd, env: baseEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  let text = '';
  child.stderr.on('data', (c: Buffer) => (text = (text + c.toString()).slice(-32_768)));
  child.stdout.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stderr: () => text,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** A command that runs to completion: its exit code and output. */
function runToEnd(name: string, args: string[], cwd: string, env: Record<string, string>): Promise<CommandOutput> {
  return outputOf(spawn(process.execPath, ['--import', TSX, BIN(name), ...args], { cwd, env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] }));
}

describe('documented command lines, run bare on a fresh home', function () {
  this.timeout(300_000);
  let root: string;
  let devnet: Command;
  let rpcUrl: string;
  let metricsUrl: string;
  let sent: { hash: string; height: number };
  /** A fresh, empty working directory (no config file to find) and a fresh home under it. */
  const fresh = async (name: string, config?: unknown): Promise<{ cwd: string; home: string }> => {
    const cwd = path.join(root, name);
    await mkdir(cwd, { recursive: true });
    if (config !== undefined) await writeFile(path.join(cwd, '.chainrc.json'), JSON.stringify(config));
    return { cwd, home: path.join(cwd, 'home') };
  };

  before(async function () {
    root = await mkdtemp(path.join(os.tmpdir(), 'chain-commands-'));
    // README: `chain-devnet [--home] [--port] … [--bds]`; plugins/bds/README.md: "run `chain-devnet --bds` to get a node that answers the BDS paths".
    const [port, metricsPort] = [await freePort(), await freePort()];
    const { cwd, home } = await fresh('devnet-bds', { plugins: { devnet: { port, metricsPort } } });
    devnet = launch('chain-devnet', ['--bds'], cwd, { CHAIN_HOME: home });
    await stderrUntil(devnet.child, /^chain-devnet: node: /m, 240_000);
    rpcUrl = `http://127.0.0.1:${port}`;
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    const node = new ChainNode(new HttpChainRpc(rpcUrl));
    const nonce = Number((await node.query(`/get_next_nonce/${ALICE!.address}`)).value?.text ?? '0');
    const signed = signTransaction({ chain_id: 'chain-local-1', chi_supplied: 5000, contract: 'currency', function: 'transfer', kwargs: { amount: { __fixed__: '2.5' }, to: BOB!.address }, nonce, sender: ALICE!.address }, ALICE!.privateKey);
    const result = await node.broadcastTxCommit(encodeTransaction(signed).hex);
    sent = { hash: result.hash, height: Number(result.height) };
    await waitUntil(async () => {
      const status = await node.query('/bds_status');
      return Number((status.value?.json as any)?.indexed?.indexed_height ?? -1) >= sent.height;
    }, 120_000, 'the devnet\'s BDS indexes the transfer');
    await node.close?.();
  });

  after(async () => {
    await devnet?.stop();
    await rm(root, { recursive: true, force: true });
  });

  describe('chain-devnet --bds', () => {
    it('loads the block index (plugins: devnet, bds) and its node answers the BDS query paths', async () => {
      assert.match(devnet.stderr(), /^chain-devnet: plugins: devnet, bds$/m);
      const res = await request(`${rpcUrl}/abci_query?path=%22/bds_status%22`);
      assert.equal(res.json.result.response.code, 0, res.text);
    });

    it('reports BDS health on the node metrics port, with block_service_mode="true"', async () => {
      const text = (await request(metricsUrl)).text;
      assert.match(text, /^chain_node_info\{[^}]*block_service_mode="true"/m);
      assert.match(text, /^chain_bds_info\{enabled="true",db_status="ok"\} 1$/m);
      assert.match(text, /^chain_bds_metric\{field="worker_running"\} 1$/m);
      const indexed = Number(/^chain_bds_metric\{field="indexed_height"\} (\d+)$/m.exec(text)?.[1]);
      assert.ok(indexed >= sent.height, text);
    });
  });

  describe('chain-devnet', () => {
    it('runs the node alone (plugins: devnet) with no BDS health to report', async () => {
      const [port, metricsPort] = [await freePort(), await freePort()];
      const { cwd, home } = await fresh('devnet-plain', { plugins: { devnet: { port, metricsPort } } });
      const plain = launch('chain-devnet', [], cwd, { CHAIN_HOME: home });
      try {
        await stderrUntil(plain.child, /^chain-devnet: node: /m, 120_000);
        assert.match(plain.stderr(), /^chain-devnet: plugins: devnet$/m);
        assert.equal((await request(`http://127.0.0.1:${port}/status`)).status, 200);
        assert.match((await request(`http://127.0.0.1:${metricsPort}/metrics`)).text, /^chain_node_info\{[^}]*block_service_mode="false"/m);
      } finally {
        assert.equal(await plain.stop(), 0, plain.stderr());
      }
    });
  });

  describe('examples/tools-only.chainrc.json against the BDS-enabled devnet in another process', () => {
    let h: TestHost;
    before(async () => {
      const config = JSON.parse(await readFile(path.join(REPO_ROOT, 'examples/tools-only.chainrc.json'), 'utf8'));
      config.node.url = rpcUrl;
      config.tools.http.port = 0;
      config.home = (await fresh('tools-only')).home;
      h = await bootTestHost(config);
    });
    after(() => h?.stop());
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const res = await postJson(h.url(`/tools/${name}`), args);
      assert.equal(res.status, 200, `${name}: ${res.text}`);
      return res.json;
    };

    it('lists the indexed-read tools and answers them through the node\'s abci_query', async () => {
      const listed = (await request(h.url('/tools'))).json.map((t: { name: string }) => t.name);
      for (const name of ['get_bds_status', 'list_blocks', 'get_indexed_tx', 'list_events', 'get_state_history', 'list_shielded_output_tags', 'list_shielded_wallet_history']) {
        assert.ok(listed.includes(name), name);
      }
      const status = await call('get_bds_status');
      assert.ok(status.indexed_height >= sent.height, JSON.stringify(status));
      const tx = await call('get_indexed_tx', { tx_hash: sent.hash.toLowerCase() });
      assert.equal(tx.found, true);
      assert.equal(tx.transaction.sender, ALICE!.address);
      assert.equal((await call('get_block', { height: sent.height })).block.height, sent.height);
      assert.ok((await call('list_blocks', { limit: 2 })).items.length === 2);
      assert.equal((await call('list_txs_by_sender', { sender: ALICE!.address })).items[0].tx_hash, sent.hash);
      const events = await call('list_events', { contract: 'currency', event: 'Transfer', after_id: 0 });
      assert.ok(events.items.some((e: { tx_hash: string }) => e.tx_hash === sent.hash), JSON.stringify(events));
      const history = await call('get_state_history', { key: `currency.balances:${BOB!.address}` });
      assert.equal(history.items[0].tx_hash, sent.hash);
      assert.deepEqual((await call('list_shielded_output_tags', { tag_value: 'none' })).items, []);
    });
  });

  describe('chain-mcp-http', () => {
    it('serves the default tool plugins, indexed reads included, in upstream\'s HTTP shapes', async () => {
      const port = await freePort();
      const { cwd, home } = await fresh('mcp-http');
      const cmd = launch('chain-mcp-http', [], cwd, { CHAIN_HOME: home, CHAIN_NODE_URL: rpcUrl, HTTP_PORT: String(port) });
      try {
        await stderrUntil(cmd.child, /^chain-mcp-http: serving$/m, 120_000);
        assert.match(cmd.stderr(), /^chain-mcp-http: plugins: wallet, query, crypto, dex, simulate$/m);
        const listed = await request(`http://127.0.0.1:${port}/tools`);
        assert.ok(Array.isArray(listed.json));
        const blocks = listed.json.find((t: { name: string }) => t.name === 'list_blocks');
        assert.ok(blocks?.parameters && blocks.description, 'upstream\'s {name, description, parameters}');
        const answer = await request(`http://127.0.0.1:${port}/tools/get_indexed_tx`, {
          method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tx_hash: sent.hash }),
        });
        assert.equal(answer.status, 200, answer.text);
        assert.equal(answer.json.result.transaction.tx_hash, sent.hash);
      } finally {
        assert.equal(await cmd.stop(), 0, cmd.stderr());
      }
    });
  });

  describe('chain-mcp (the README\'s stdio snippet: CHAIN_NODE_URL, no config)', () => {
    it('serves the indexed reads over MCP stdio', async () => {
      const { cwd, home } = await fresh('mcp-stdio');
      const transport = new StdioClientTransport({
        command: process.execPath, args: ['--import', TSX, BIN('chain-mcp')], cwd, stderr: 'pipe',
        env: baseEnv({ CHAIN_HOME: home, CHAIN_NODE_URL: rpcUrl }),
      });
      const client = new Client({ name: 'command-lines-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const names = (await client.listTools()).tools.map((t) => t.name);
        assert.ok(names.includes('list_blocks') && names.includes('get_state_history'), names.join(' '));
        const result = await client.callTool({ name: 'get_events_for_tx', arguments: { tx_hash: sent.hash } });
        assert.notEqual(result.isError, true, JSON.stringify(result));
        assert.ok(((result.structuredContent as any).items as unknown[]).length >= 1);
      } finally {
        await client.close();
      }
    });
  });

  describe('the README\'s safe set-up in five lines (keys the model never sees)', () => {
    /** The five lines, from README.md as written. */
    async function safeSetUp(): Promise<string[]> {
      const readme = await readFile(path.join(REPO_ROOT, 'README.md'), 'utf8');
      const section = readme.slice(readme.indexOf('### Keys the model never sees'));
      const lines = /```sh\n([\s\S]*?)\n```/.exec(section)?.[1]?.split('\n') ?? [];
      assert.equal(lines.length, 5, 'five lines');
      // docs/operations.md carries the same five lines.
      const operations = await readFile(path.join(REPO_ROOT, 'docs/operations.md'), 'utf8');
      const same = /```sh\n([\s\S]*?)\n```/.exec(operations.slice(operations.indexOf('## Keys the model never sees')))?.[1]?.split('\n');
      assert.deepEqual(same, lines, 'docs/operations.md shows the README\'s five lines');
      return lines;
    }
    /** The JSON a commented line shows after its colon, as a config object. */
    const configOf = (line: string) => JSON.parse(`{${line.slice(line.indexOf('"plugins"')).replace(', …', '')}}`) as { plugins: { wallet: Record<string, unknown> } & Record<string, unknown> };

    it('create an account, set the passphrase, set limits, disable key arguments, connect: the client signs by account, within the limits only', async () => {
      const lines = await safeSetUp();
      const { cwd, home } = await fresh('safe-set-up');
      const passphrase = 'a passphrase for the README test';

      // 1. `npx chain-keys create --name alice` in the checkout (the passphrase of line 2 already set, as a script would).
      const create = lines[0]!.split('#')[0]!.trim().split(/\s+/);
      assert.deepEqual(create.slice(0, 2), ['npx', 'chain-keys']);
      const created = await outputOf(spawn(create[0]!, create.slice(1), { cwd: REPO_ROOT, env: userEnv({ CHAIN_HOME: home, CHAIN_KEYSTORE_PASSPHRASE: passphrase }), stdio: ['ignore', 'pipe', 'pipe'] }));
      assert.equal(created.code, 0, created.stderr);
      const address = /^created alice ([0-9a-f]{64})$/m.exec(created.stdout)?.[1];
      assert.ok(address, created.stdout);
      // 2. `export CHAIN_KEYSTORE_PASSPHRASE='<passphrase>'`.
      assert.match(lines[1]!, /^export CHAIN_KEYSTORE_PASSPHRASE=/);
      // 3. and 4.: the config, merged as the lines say ("same block").
      const limits = configOf(lines[2]!);
      const noKeys = configOf(lines[3]!);
      const config = { plugins: { ...limits.plugins, wallet: { ...limits.plugins.wallet, ...noKeys.plugins.wallet } } };
      assert.equal(config.plugins.wallet.privateKeyArguments, false);
      await writeFile(path.join(cwd, '.chainrc.json'), JSON.stringify(config));

      // The new account needs funds: a dev account sends it 50 (outside the tool server).
      const node = new ChainNode(new HttpChainRpc(rpcUrl));
      const nonce = Number((await node.query(`/get_next_nonce/${ALICE!.address}`)).value?.text ?? '0');
      const funding = signTransaction({ chain_id: 'chain-local-1', chi_supplied: 5000, contract: 'currency', function: 'transfer', kwargs: { amount: 50, to: address }, nonce, sender: ALICE!.address }, ALICE!.privateKey);
      await node.broadcastTxCommit(encodeTransaction(funding).hex);
      await node.close?.();

      // 5. `CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS=1 npx chain-mcp --config .chainrc.json`, the passphrase in the client's env;
      // from the config's folder, so through `npx --prefix <checkout>` as "Running the commands" says.
      const [assignment, npx, command, ...args] = lines[4]!.split('#')[0]!.trim().split(/\s+/);
      assert.equal(assignment, 'CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS=1');
      assert.deepEqual([npx, command], ['npx', 'chain-mcp']);
      const transport = new StdioClientTransport({
        command: 'npx', args: ['--prefix', REPO_ROOT, 'chain-mcp', ...args], cwd, stderr: 'pipe',
        env: userEnv({ CHAIN_HOME: home, CHAIN_NODE_URL: rpcUrl, CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS: '1', CHAIN_KEYSTORE_PASSPHRASE: passphrase }),
      });
      const client = new Client({ name: 'command-lines-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const tools = (await client.listTools()).tools;
        const schemas = JSON.stringify(tools.map((t) => t.inputSchema));
        assert.ok(!/private_key/.test(schemas), 'no tool takes a raw key');
        const names = tools.map((t) => t.name);
        for (const name of ['send_tokens', 'get_balance', 'verify_signature', 'get_dex_price', 'simulate_transaction']) assert.ok(names.includes(name), `the set-up serves ${name}, not only the wallet tools: ${names.join(' ')}`);
        const send = (amount: string, extra: Record<string, unknown> = { account: 'alice' }) =>
          client.callTool({ name: 'send_tokens', arguments: { ...extra, to_address: BOB!.address, amount } });
        const within = await send('5');
        assert.notEqual(within.isError, true, JSON.stringify(within));
        const balances = (within.structuredContent as { balances: Array<{ address: string; balance: string }> }).balances;
        assert.equal(balances.find((b) => b.address === address)?.balance, '42.35', 'alice sent 5 and paid the 2.65 fee (53 chi on the VM at 20 chi per currency): ' + JSON.stringify(balances));
        const over = await send('11');
        assert.equal(over.isError, true);
        assert.match(JSON.stringify(over.content), /policy_denied.*maxPerTransaction/);
        const byKey = await send('1', { private_key: ALICE!.privateKey });
        assert.equal(byKey.isError, true);
        assert.match(JSON.stringify(byKey.content), /private_key.*privateKeyArguments/);
      } finally {
        await client.close();
      }
    });
  });

  describe('the README\'s "Running the commands": npx in a checkout, npm install -g . for bare commands', () => {
    it('npx chain-keys --version and npx chain-host --help in the checkout, after npm install', async () => {
      const version = await outputOf(spawn('npx', ['chain-keys', '--version'], { cwd: REPO_ROOT, env: userEnv({}), stdio: ['ignore', 'pipe', 'pipe'] }));
      assert.equal(version.code, 0, version.stderr);
      assert.equal(version.stdout.trim(), '0.1.0');
      const help = await outputOf(spawn('npx', ['chain-host', '--help'], { cwd: REPO_ROOT, env: userEnv({}), stdio: ['ignore', 'pipe', 'pipe'] }));
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, /^Usage: chain-host /);
    });

    it('npx --prefix <checkout> chain-mcp --help from any folder', async () => {
      const { cwd } = await fresh('npx-prefix');
      const help = await outputOf(spawn('npx', ['--prefix', REPO_ROOT, 'chain-mcp', '--help'], { cwd, env: userEnv({}), stdio: ['ignore', 'pipe', 'pipe'] }));
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, /^Usage: chain-mcp /);
    });

    it('npm install -g . puts every command on the PATH (into a scratch prefix, not the real global one)', async () => {
      const { cwd } = await fresh('global-install');
      const prefix = path.join(cwd, 'global');
      const install = await outputOf(spawn('npm', ['install', '-g', '.', '--prefix', prefix, '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: REPO_ROOT, env: userEnv({}), stdio: ['ignore', 'pipe', 'pipe'] }));
      assert.equal(install.code, 0, install.stderr);
      const pkg = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
      for (const name of Object.keys(pkg.bin)) {
        const run = await outputOf(spawn(name, ['--version'], { cwd, env: userEnv({ PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH ?? ''}` }), stdio: ['ignore', 'pipe', 'pipe'] }));
        assert.equal(run.code, 0, `${name}: ${run.stderr}`);
        assert.equal(run.stdout.trim(), '0.1.0', name);
      }
    });
  });

  describe('chain-dashboard', () => {
    it('serves the dashboard (plugins: dashboard) for the node at CHAIN_NODE_URL', async () => {
      const port = await freePort();
      const { cwd, home } = await fresh('dashboard');
      const cmd = launch('chain-dashboard', [], cwd, { CHAIN_HOME: home, CHAIN_NODE_URL: rpcUrl, CHAIN_DASHBOARD_PORT: String(port) });
      try {
        await stderrUntil(cmd.child, /^chain-dashboard: node: /m, 120_000);
        assert.match(cmd.stderr(), /^chain-dashboard: plugins: dashboard$/m);
        const status = await request(`http://127.0.0.1:${port}/api/status`);
        assert.equal(status.status, 200, status.text);
        assert.equal((await request(`http://127.0.0.1:${port}/api/block/${sent.height}`)).status, 200);
      } finally {
        assert.equal(await cmd.stop(), 0, cmd.stderr());
      }
    });
  });

  describe('chain-bds-reindex, chain-bds-snapshot export | import, chain-graphql', () => {
    let indexedHome: string;

    it('chain-bds-reindex rebuilds a fresh home\'s index from the node at CHAIN_NODE_URL', async () => {
      const { cwd, home } = await fresh('reindex');
      indexedHome = home;
      const r = await runToEnd('chain-bds-reindex', [], cwd, { CHAIN_HOME: home, CHAIN_NODE_URL: rpcUrl });
      assert.equal(r.code, 0, r.stderr);
      const done = /BDS reindex complete: indexed_height=(\d+)/.exec(r.stdout);
      assert.ok(done && Number(done[1]) >= sent.height, r.stdout + r.stderr);
    });

    it('chain-bds-snapshot export --output-path <file>, then import --input-path <archive> into another fresh home', async () => {
      const archive = path.join(root, 'bds-backup.jsonl.gz');
      const out = await runToEnd('chain-bds-snapshot', ['export', '--output-path', archive], (await fresh('export')).cwd, { CHAIN_HOME: indexedHome });
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, /^BDS snapshot exported: /m);
      const target = await fresh('import');
      const back = await runToEnd('chain-bds-snapshot', ['import', '--input-path', archive], target.cwd, { CHAIN_HOME: target.home, CHAIN_NODE_URL: rpcUrl });
      assert.equal(back.code, 0, back.stderr);
      assert.match(back.stdout, /^BDS snapshot imported: .* indexed_height=\d+/m);
    });

    it('chain-graphql serves GraphQL over that home\'s index (plugins: graphql)', async () => {
      const port = await freePort();
      const cwd = path.join(root, 'graphql');
      await mkdir(cwd, { recursive: true });
      await writeFile(path.join(cwd, '.chainrc.json'), JSON.stringify({ plugins: { graphql: { port } } }));
      const cmd = launch('chain-graphql', [], cwd, { CHAIN_HOME: indexedHome });
      try {
        await stderrUntil(cmd.child, /^chain-graphql: plugins: /m, 120_000);
        assert.match(cmd.stderr(), /^chain-graphql: plugins: graphql$/m);
        const res = await postJson(`http://127.0.0.1:${port}/graphql`, { query: '{ allBlocks(first: 1, orderBy: HEIGHT_DESC) { nodes { height } } }' });
        assert.equal(res.status, 200, res.text);
        assert.ok(Number(res.json.data.allBlocks.nodes[0].height) >= sent.height, res.text);
      } finally {
        assert.equal(await cmd.stop(), 0, cmd.stderr());
      }
    });
  });
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
