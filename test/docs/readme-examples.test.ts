import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Wallet } from '../../core/chain/keys.js';
import { Keystore } from '../../core/keystore/keystore.js';
import { bootDocStack, commandLines, curlJson, DEV0, fencedBlocks, README_PATH, testedBlocks, type DocStack } from '../support/doc-blocks.js';

const README = readFileSync(README_PATH, 'utf8');
const EXAMPLES = testedBlocks(README);
const SURFACES = ['quick-checks', 'tools-http', 'mcp-http', 'mcp-stdio', 'dashboard', 'graphql', 'node-rpc'];
/** Tested examples that are not served surfaces, and the test that runs each. */
const ELSEWHERE: Record<string, string> = {
  'compile-contract': 'test/docs/readme-contracts.test.ts',
  'compile-contract-ts': 'test/docs/readme-contracts.test.ts',
  'vm-run': 'test/docs/readme-contracts.test.ts',
  'deploy-setup': 'test/docs/readme-deploy.test.ts',
  'deploy-contract': 'test/docs/readme-deploy.test.ts',
};
/**
 * The README's shell and JSON blocks that carry no marker, by their first line, and why: every
 * other block a user runs is marked and run.
 */
const NOT_MARKED: Record<string, string> = {
  'npm install && npm start': 'the start itself: every test here boots chainrc.example.json as npm start does; test/docs/command-lines.test.ts runs the commands',
  '{"error": {"code": "invalid_arguments"': 'an answer\'s shape, not a command; test/core/errors.test.ts',
  'npx chain-keys create --name alice': 'the five lines of the safe set-up: test/docs/command-lines.test.ts runs them as written',
  '{ "tools": { "include"': 'a config fragment: test/host/tools-server/toolsets.test.ts boots include/exclude sets',
  'CHAIN_MCP_HTTP_TOKEN=$(openssl rand -hex 24) docker compose up': 'needs Docker: test/examples/containers.test.ts checks the compose file',
};
const ADDRESS = DEV0.address;

function example(name: string) {
  const found = EXAMPLES.find((e) => e.name === name);
  assert.ok(found, `README.md has no <!-- tested: ${name} --> example`);
  return found;
}

function text(result: CallToolResult): string {
  const item = result.content[0];
  assert.equal(item?.type, 'text');
  return (item as { text: string }).text;
}

describe('README blocks', () => {
  it('every shell and JSON block is marked tested, or listed here with the reason it is not run', () => {
    const unmarked = fencedBlocks(README).filter((b) => b.name === null && (b.lang === 'sh' || b.lang === 'json'));
    for (const b of unmarked) {
      assert.ok(Object.keys(NOT_MARKED).some((start) => b.body.trimStart().startsWith(start)), `README.md line ${b.line}: an unmarked ${b.lang} block: mark it <!-- tested: … --> and run it, or list it in NOT_MARKED\n${b.body.slice(0, 200)}`);
    }
    for (const start of Object.keys(NOT_MARKED)) assert.ok(unmarked.some((b) => b.body.trimStart().startsWith(start)), `NOT_MARKED lists a block README.md no longer has: ${start}`);
  });
});

/**
 * The README's examples against `chainrc.example.json` as `npm start` runs it, in-process: every
 * server on a free port (the examples' default addresses are rewritten to them), `home` a fresh
 * folder, the devnet's account listing off.
 */
describe('README examples', function () {
  this.timeout(90_000);
  let stack: DocStack;
  let h: DocStack['h'];
  let dir: string;
  let substitute: (text: string) => string;

  before(async function () {
    this.timeout(120_000);
    stack = await bootDocStack();
    ({ h, dir, substitute } = stack);
  });

  after(async () => {
    await stack?.stop();
  });

  it('marks a tested example for every surface', () => {
    assert.deepEqual(EXAMPLES.map((e) => e.name).filter((name) => !(name in ELSEWHERE)).sort(), [...SURFACES].sort());
  });

  for (const e of EXAMPLES.filter((x) => x.lang === 'sh' && !(x.name in ELSEWHERE))) {
    it(`${e.name}: every command answers 2xx with a JSON body and no error member (real curl)`, async () => {
      const lines = commandLines(e.body);
      assert.ok(lines.length > 0);
      for (const line of lines) await curlJson(line, substitute);
    });
  }

  it('mcp-http: the MCP SDK client connects with the snippet and calls a tool', async () => {
    const snippet = JSON.parse(substitute(example('mcp-http').body));
    const server = snippet.mcpServers.chain;
    assert.equal(server.type, 'http');
    assert.equal(server.url, h.url('/mcp'));
    const client = new Client({ name: 'readme-mcp-http', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name).sort();
      assert.deepEqual(names, h.host.invoker.visible().map((t) => t.name).sort());
      const result = (await client.callTool({ name: 'get_balance', arguments: { address: ADDRESS } })) as CallToolResult;
      assert.ok(!result.isError, text(result));
      assert.match(JSON.parse(text(result)).balance, /^\d+(\.\d+)?$/);
    } finally {
      await client.close();
    }
  });

  it('mcp-stdio: the snippet starts chain-mcp from any folder, serving tools against the running node and finding the checkout\'s keystore', async function () {
    this.timeout(600_000);
    // What `npx chain-keys import --name dev0` leaves in the checkout's home (the snippet's CHAIN_HOME).
    await new Keystore(stack.home, { scrypt: { n: 2 ** 10, r: 8, p: 1 } }).add('dev0', Wallet.fromPrivateKey(DEV0.privateKey), 'a passphrase');
    const snippet = JSON.parse(substitute(example('mcp-stdio').body));
    const server = snippet.mcpServers.chain as { command: string; args: string[]; env?: Record<string, string> };
    const elsewhere = path.join(dir, 'client-folder');
    await mkdir(elsewhere);
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args,
      // Offline: should --prefix ever miss, npx fails instead of fetching a registry package.
      // A cache of this test's own: npx writes its cache (and its log files) under ~/.npm by
      // default, and npx runs of other tests or jobs on the machine raced this one there.
      env: { ...getDefaultEnvironment(), ...server.env, npm_config_offline: 'true', npm_config_cache: path.join(dir, 'npm-cache') },
      cwd: elsewhere,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c));
    const client = new Client({ name: 'readme-mcp-stdio', version: '1.0.0' });
    try {
      // npx, then chain-mcp's start: seconds on a quiet machine, over 90 s measured with every
      // core taken — the bounds catch a hang, not slowness.
      await client.connect(transport, { timeout: 300_000 });
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('get_balance') && names.includes('simulate_transaction'), names.join(' '));
      const [overStdio, overHttp] = await Promise.all([
        client.callTool({ name: 'get_balance', arguments: { address: ADDRESS } }) as Promise<CallToolResult>,
        h.host.invoker.call('get_balance', { address: ADDRESS }, 'in-process'),
      ]);
      assert.ok(!overStdio.isError, text(overStdio));
      assert.equal(JSON.parse(text(overStdio)).balance, overHttp.balance, 'the same node answers both');
      // The client's folder holds no keystore: the snippet's CHAIN_HOME finds the checkout's.
      const byAlias = (await client.callTool({ name: 'get_balance', arguments: { address: 'dev0' } })) as CallToolResult;
      assert.ok(!byAlias.isError, text(byAlias));
      assert.equal(JSON.parse(text(byAlias)).balance, overHttp.balance, 'dev0 is the first dev account');
    } catch (err) {
      throw new Error(`${(err as Error).message}\nchain-mcp stderr:\n${stderr}`);
    } finally {
      await client.close();
    }
  });
});
