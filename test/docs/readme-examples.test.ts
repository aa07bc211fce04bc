import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_MNEMONIC } from '../../plugins/devnet/index.js';
import { deriveAccounts } from '../../plugins/devnet/node/devnet.js';
import { pgliteTemplateDir } from '../support/databases.js';
import { bootTestHost, REPO_ROOT, type TestHost } from '../support/test-host.js';
import { freePort } from '../support/free-port.js';

const run = promisify(execFile);

/** A fenced block of README.md announced by `<!-- tested: <name> -->` on the line before it. */
interface Example {
  name: string;
  lang: string;
  body: string;
}

function readmeExamples(text: string): Example[] {
  const found: Example[] = [];
  const pattern = /^<!-- tested: ([\w-]+) -->\n```(\w*)\n([\s\S]*?)\n```$/gm;
  for (const m of text.matchAll(pattern)) found.push({ name: m[1]!, lang: m[2]!, body: m[3]! });
  return found;
}

/** Shell lines of a block, `\`-continued lines joined. */
function commandLines(body: string): string[] {
  return body.replace(/\\\n\s*/g, ' ').split('\n').map((l) => l.trim()).filter(Boolean);
}

const README = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const EXAMPLES = readmeExamples(README);
const SURFACES = ['quick-checks', 'tools-http', 'mcp-http', 'mcp-stdio', 'dashboard', 'graphql', 'node-rpc'];
/** Tested examples that are not served surfaces: test/docs/readme-contracts.test.ts runs them. */
const ELSEWHERE = ['compile-contract', 'compile-contract-ts'];
const ADDRESS = deriveAccounts(DEFAULT_MNEMONIC, 1)[0]!.address;

function example(name: string): Example {
  const found = EXAMPLES.find((e) => e.name === name);
  assert.ok(found, `README.md has no <!-- tested: ${name} --> example`);
  return found;
}

function text(result: CallToolResult): string {
  const item = result.content[0];
  assert.equal(item?.type, 'text');
  return (item as { text: string }).text;
}

/**
 * The README's examples against `chainrc.example.json` as `npm start` runs it, in-process: every
 * server on a free port (the examples' default addresses are rewritten to them), `home` a fresh
 * folder, the devnet's account listing off.
 */
describe('README examples', function () {
  this.timeout(90_000);
  let dir: string;
  let h: TestHost;
  let substitute: (text: string) => string;

  before(async function () {
    this.timeout(120_000);
    dir = await mkdtemp(path.join(os.tmpdir(), 'chain-readme-'));
    const home = path.join(dir, 'home');
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
    h = await bootTestHost(config);
    const urls: Record<string, string> = {
      'http://127.0.0.1:8100': h.url(),
      'http://127.0.0.1:8080': h.host.serverUrl('dashboard')!,
      'http://127.0.0.1:5000': h.host.serverUrl('graphql')!,
      'http://127.0.0.1:9109': h.host.serverUrl('metrics')!,
      'http://127.0.0.1:26657': `http://127.0.0.1:${nodePort}`,
    };
    substitute = (source) => {
      let out = source;
      for (const [from, to] of Object.entries(urls)) out = out.split(from).join(to);
      out = out.split('<address>').join(ADDRESS).split('/path/to/chainhost').join(REPO_ROOT);
      const left = /<[A-Za-z_][\w-]*>|127\.0\.0\.1:(8100|8080|5000|9109|26657)\b/.exec(out);
      assert.equal(left, null, `an unsubstituted placeholder in a tested example: ${left?.[0]}`);
      return out;
    };
  });

  after(async () => {
    await h?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('marks a tested example for every surface', () => {
    assert.deepEqual(EXAMPLES.map((e) => e.name).filter((name) => !ELSEWHERE.includes(name)).sort(), [...SURFACES].sort());
  });

  for (const e of EXAMPLES.filter((x) => x.lang === 'sh' && !ELSEWHERE.includes(x.name))) {
    it(`${e.name}: every command answers 2xx with a JSON body and no error member (real curl)`, async () => {
      const lines = commandLines(e.body);
      assert.ok(lines.length > 0);
      for (const line of lines) {
        assert.match(line, /^curl -s /, `a tested shell example runs curl only: ${line}`);
        const command = `${substitute(line)} --max-time 20 -w '\\n%{http_code}'`;
        const { stdout } = await run('sh', ['-c', command], { maxBuffer: 16 * 1024 * 1024 });
        const cut = stdout.lastIndexOf('\n');
        const status = Number(stdout.slice(cut + 1));
        const body = stdout.slice(0, cut);
        assert.ok(status >= 200 && status < 300, `${line}\n→ HTTP ${status}: ${body.slice(0, 500)}`);
        let json: any;
        assert.doesNotThrow(() => (json = JSON.parse(body)), `${line}\n→ not JSON: ${body.slice(0, 200)}`);
        assert.ok(json !== null && typeof json === 'object', `${line}\n→ ${body.slice(0, 200)}`);
        assert.equal(json.error, undefined, `${line}\n→ ${body.slice(0, 500)}`);
        assert.equal(json.errors, undefined, `${line}\n→ ${body.slice(0, 500)}`);
      }
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

  it('mcp-stdio: the snippet starts chain-mcp from any folder, serving tools against the running node', async () => {
    const snippet = JSON.parse(substitute(example('mcp-stdio').body));
    const server = snippet.mcpServers.chain as { command: string; args: string[]; env?: Record<string, string> };
    const elsewhere = path.join(dir, 'client-folder');
    await mkdir(elsewhere);
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args,
      // Offline: should --prefix ever miss, npx fails instead of fetching a registry package.
      env: { ...getDefaultEnvironment(), ...server.env, npm_config_offline: 'true' },
      cwd: elsewhere,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c));
    const client = new Client({ name: 'readme-mcp-stdio', version: '1.0.0' });
    try {
      await client.connect(transport);
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('get_balance') && names.includes('simulate_transaction'), names.join(' '));
      const [overStdio, overHttp] = await Promise.all([
        client.callTool({ name: 'get_balance', arguments: { address: ADDRESS } }) as Promise<CallToolResult>,
        h.host.invoker.call('get_balance', { address: ADDRESS }, 'in-process'),
      ]);
      assert.ok(!overStdio.isError, text(overStdio));
      assert.equal(JSON.parse(text(overStdio)).balance, overHttp.balance, 'the same node answers both');
    } catch (err) {
      throw new Error(`${(err as Error).message}\nchain-mcp stderr:\n${stderr}`);
    } finally {
      await client.close();
    }
  });
});
