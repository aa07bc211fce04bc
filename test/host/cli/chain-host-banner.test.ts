import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pgliteTemplateDir } from '../../support/databases.js';
import { REPO_ROOT, TEST_TOKEN } from '../../support/test-host.js';
import { snippets } from './banner-snippets.js';
import { stderrUntil } from '../../support/child-output.js';

/**
 * `chain-host --config chainrc.example.json` as `npm start` runs it, in a child process: every
 * port 0 so it runs beside anything, the devnet's account listing off, `home` a fresh folder.
 */
async function exampleConfig(home: string): Promise<Record<string, any>> {
  const config = JSON.parse(await readFile(path.join(REPO_ROOT, 'chainrc.example.json'), 'utf8'));
  delete config.$schema;
  config.home = home;
  config.tools.http.port = 0;
  config.metrics.port = 0;
  Object.assign(config.plugins.devnet, { port: 0, metricsPort: null, printAccounts: false });
  config.plugins.dashboard.port = 0;
  config.plugins.graphql.port = 0;
  await cp(await pgliteTemplateDir(), path.join(home, 'bds'), { recursive: true });
  return config;
}

async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((t) => t.name).sort();
}

describe('chain-host with the example config prints how to connect an MCP client', function () {
  this.timeout(600_000);
  let dir: string;
  let configFile: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'chain-banner-'));
    configFile = path.join(dir, 'chainrc.json');
    await writeFile(configFile, JSON.stringify(await exampleConfig(path.join(dir, 'home')), null, 2));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('on stderr only; the HTTP snippet connects to this process, the stdio snippet starts chain-mcp', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'host/bin/chain-host.ts'), '--config', configFile], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', CHAIN_MCP_HTTP_TOKEN: TEST_TOKEN },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    let httpTools: string[];
    let stdio: ReturnType<typeof snippets>['stdio'];
    try {
      // The stdio snippet is the last block of the banner.
      const banner = await stderrUntil(child, /MCP over stdio[^\n]*\n\{[\s\S]*\n\}\n/, 300_000);
      assert.ok(!banner.includes(TEST_TOKEN), 'the token never shows');
      for (const server of ['tools', 'dashboard', 'graphql', 'metrics']) assert.match(banner, new RegExp(`^  ${server} +http://127\\.0\\.0\\.1:\\d+ `, 'm'));
      const found = snippets(banner);
      stdio = found.stdio;
      const toolsUrl = /^chain-host: tools: (http:\/\/\S+)$/m.exec(banner)![1]!;
      assert.equal(found.http?.url, `${toolsUrl}/mcp`);
      assert.match(banner, /use it instead of this process, not beside it/);

      const client = new Client({ name: 'banner-e2e', version: '1.0.0' });
      const headers = { Authorization: found.http!.headers!.Authorization!.replace('<CHAIN_MCP_HTTP_TOKEN>', TEST_TOKEN) };
      await client.connect(new StreamableHTTPClientTransport(new URL(found.http!.url), { requestInit: { headers } }));
      httpTools = await toolNames(client);
      await client.close();
      assert.ok(httpTools.includes('get_balance') && httpTools.includes('get_bds_status'), httpTools.join(' '));
      assert.equal(stdout, '', 'nothing on stdout');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
    }
    assert.equal(child.exitCode, 0);

    // The stdio snippet exactly as printed (it shares ports and data with the host, which is now
    // stopped), started from a folder that is not chainhost's: --prefix finds chainhost's own
    // chain-mcp. Offline, so a failed lookup can never fetch a registry package of that name.
    assert.deepEqual(stdio!.args.slice(0, 3), ['--prefix', REPO_ROOT, 'chain-mcp']);
    assert.equal(stdio!.args[4], configFile);
    const transport = new StdioClientTransport({
      command: stdio!.command,
      args: stdio!.args,
      // A cache of this test's own: npx writes its cache (and its log files) under ~/.npm by
      // default, and npx runs of other tests or jobs on the machine raced this one there.
      env: { ...getDefaultEnvironment(), ...stdio!.env, npm_config_offline: 'true', npm_config_cache: path.join(dir, 'npm-cache') },
      cwd: os.tmpdir(),
      stderr: 'pipe',
    });
    let stdioErr = '';
    transport.stderr?.on('data', (c: Buffer) => (stdioErr += c));
    const client = new Client({ name: 'banner-e2e-stdio', version: '1.0.0' });
    try {
      // npx, then chain-mcp's start: seconds on a quiet machine, over 90 s measured with every
      // core taken — the bounds catch a hang, not slowness.
      await client.connect(transport, { timeout: 300_000 });
      assert.deepEqual(await toolNames(client), httpTools!);
    } catch (err) {
      throw new Error(`${(err as Error).message}\nchain-mcp stderr:\n${stdioErr}`);
    } finally {
      await client.close();
    }
  });
});
