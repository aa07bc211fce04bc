import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { availableDefaultToolPlugins, DEFAULT_TOOL_PLUGINS } from '../../host/cli/default-tool-plugins.js';
import { loadCommandConfig } from '../../host/cli/run-command.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { FIXTURE_PLUGIN, fixtureConfig, REPO_ROOT, request, TEST_TOKEN, writeTempConfig } from '../support/test-host.js';
import { stderrUntil } from '../support/child-output.js';
import { freePort } from '../support/free-port.js';
import { outputOf, type CommandOutput } from '../support/child-output.js';

const BIN = (name: string) => path.join(REPO_ROOT, 'host/bin', `${name}.ts`);

function launch(name: string, args: string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', BIN(name), ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

function run(name: string, args: string[], env: Record<string, string> = {}): Promise<CommandOutput> {
  const child = launch(name, args, env);
  child.stdin.end();
  return outputOf(child);
}

describe('command-line entry points', function () {
  this.timeout(60_000);

  describe('expected failures exit non-zero with one line on stderr, no stack trace', () => {
    const cases: Array<{ what: string; bin: string; args: (file: string) => string[]; config?: unknown; env?: Record<string, string>; line: RegExp }> = [
      { what: 'a config value out of range', bin: 'chain-host', args: (f) => ['--config', f], config: { chainId: 'no spaces' }, line: /^chain-host: error: chainId \(in \.chainrc\.json\)="no spaces": must be 1\.\.50 letters/ },
      { what: 'a plugin option out of range', bin: 'chain-host', args: (f) => ['--config', f], config: { plugins: { dex: { plan: { ttlSeconds: 5 } } } }, line: /^chain-host: error: plugins\.dex\.plan\.ttlSeconds=5: must be 30\.\.900$/ },
      { what: 'an environment value out of range', bin: 'chain-mcp', args: (f) => ['--config', f], config: {}, env: { CHAIN_MCP_DEX_PLAN_TTL_SECONDS: '5' }, line: /^chain-mcp: error: CHAIN_MCP_DEX_PLAN_TTL_SECONDS=5: must be 30\.\.900$/ },
      { what: 'an unknown plugin', bin: 'chain-host', args: (f) => ['--config', f], config: { plugins: { 'not-a-real-plugin': {} } }, line: /^chain-host: error: unknown plugin "not-a-real-plugin"/ },
      { what: 'a bad --port', bin: 'chain-mcp-http', args: (f) => ['--config', f, '--port', 'http'], config: {}, line: /^chain-mcp-http: error: --port=http: must be a port number$/ },
      { what: 'a non-loopback bind without a token', bin: 'chain-mcp-http', args: (f) => ['--config', f, '--host', '0.0.0.0', '--port', '0'], config: fixtureConfig(null), line: /^chain-mcp-http: error: CHAIN_MCP_HTTP_TOKEN must be set to bind the HTTP tool server to 0\.0\.0\.0/ },
      { what: 'a missing config file', bin: 'chain-host', args: () => ['--config', '/nonexistent/chainrc.json'], line: /^chain-host: error: cannot read config \/nonexistent\/chainrc\.json/ },
      { what: 'malformed JSON in the config, with the reason and line', bin: 'chain-host', args: (f) => ['--config', f], config: '{\n  "plugins": {"wallet": {},}\n}', line: /^chain-host: error: cannot read config .*: JSON Error in .*: Expected double-quoted property name in JSON at position \d+ \(line 2\)$/ },
      { what: 'no config file found (it would serve nothing)', bin: 'chain-host', args: () => [], line: /^chain-host: error: no config file found in .* pass one with --config <file>/ },
      { what: 'a config that names nothing to run', bin: 'chain-host', args: (f) => ['--config', f], config: {}, line: /^chain-host: error: .* names no plugins and no servers: nothing to run/ },
    ];
    for (const c of cases) {
      it(`${c.bin}: ${c.what}`, async () => {
        const tmp = typeof c.config === 'string' ? await writeTempText(c.config) : await writeTempConfig(c.config ?? {});
        try {
          const { code, stdout, stderr } = await run(c.bin, c.args(tmp.file), c.env);
          assert.equal(code, 1);
          assert.equal(stdout, '');
          const lines = stderr.trimEnd().split('\n');
          assert.equal(lines.length, 1, stderr);
          assert.match(lines[0]!, c.line);
          assert.ok(!/\n\s+at /.test(stderr), 'no stack trace');
        } finally {
          await tmp.remove();
        }
      });
    }
  });

  it('--help documents the flags and the environment variables, on stdout (help asked for is the answer, as every CLI does)', async () => {
    const { code, stderr, stdout } = await run('chain-mcp-http', ['--help']);
    assert.equal(code, 0);
    for (const text of ['--config <file>', '--host <address>', '--port <number>', 'CHAIN_MCP_HTTP_TOKEN', 'CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS', 'CHAIN_KEYSTORE_PASSPHRASE', 'CHAIN_MCP_DEX_PLAN_TTL_SECONDS (dex)', 'CHAIN_BDS_DATABASE_URL (bds, graphql)', 'CHAIN_DEVNET_PORT (devnet)', 'CHAIN_DASHBOARD_PORT (dashboard)', 'CHAIN_GRAPHQL_PORT (graphql)', 'CHAIN_METRICS_PORT']) {
      assert.ok(stdout.includes(text), `help mentions ${text}`);
    }
    assert.equal(stderr, '');
  });

  for (const bin of ['chain-mcp', 'chain-host', 'chain-keys', 'chain-bds-reindex', 'chain-bds-snapshot']) {
    it(`${bin} --version and --help answer on stdout and exit 0`, async () => {
      const version = await run(bin, ['--version']);
      assert.equal(version.code, 0, version.stderr);
      assert.equal(version.stdout.trim(), '0.1.0');
      assert.equal(version.stderr, '');
      const help = await run(bin, ['--help']);
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, new RegExp(`^Usage: ${bin} `));
      assert.equal(help.stderr, '');
    });
  }

  it('chain-mcp-http serves /health, prints its banner to stderr and stops on SIGTERM', async () => {
    const tmp = await writeTempConfig(fixtureConfig(null));
    const child = launch('chain-mcp-http', ['--config', tmp.file, '--port', '0'], { CHAIN_MCP_HTTP_TOKEN: TEST_TOKEN });
    try {
      const banner = await stderrUntil(child, /^chain-mcp-http: route fixture:ping .*\n/m);
      assert.match(banner, /chain-mcp-http: plugins: fixture/);
      assert.match(banner, /chain-mcp-http: policy: read only/);
      // Where the plugin's route is mounted: its id, plugin, server URL and path.
      assert.match(banner, /^chain-mcp-http: route fixture:ping \(fixture\): http:\/\/127\.0\.0\.1:\d+ \/fixture\/ping$/m);
      assert.ok(!banner.includes(TEST_TOKEN), 'the banner never shows the token');
      const url = /tools: (http:\/\/\S+)/.exec(banner)![1]!;
      const health = await request(`${url}/health`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } });
      assert.equal(health.status, 200);
      assert.equal(health.json.version, '0.1.0');
      child.kill('SIGTERM');
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      assert.equal(code, 0);
    } finally {
      child.kill('SIGKILL');
      await tmp.remove();
    }
  });

  it('chain-mcp-http whose node does not answer says so on /health: 503, status "degraded", the reason', async () => {
    const dead = await freePort();
    const child = launch('chain-mcp-http', ['--port', '0'], { CHAIN_NODE_URL: `http://127.0.0.1:${dead}`, CHAIN_HOME: path.join(os.tmpdir(), `chain-health-${dead}`) });
    try {
      const banner = await stderrUntil(child, /tools: (http:\/\/\S+)/, 120_000);
      const url = /tools: (http:\/\/\S+)/.exec(banner)![1]!;
      const health = await request(`${url}/health`);
      assert.equal(health.status, 503, health.text);
      assert.equal(health.json.status, 'degraded');
      assert.equal(health.json.node.ok, false);
      assert.match(health.json.node.error, /^the node does not answer: /);
    } finally {
      child.kill('SIGKILL');
    }
  });

  describe('default tool plugins (chain-mcp, chain-mcp-http)', () => {
    const spec = { name: 'chain-mcp', description: '', stdio: 'always', http: 'never', defaultToolPlugins: true } as const;

    it('a config naming no plugin gets the default tool plugins that are built in', async () => {
      const tmp = await writeTempConfig({});
      try {
        const config = await loadCommandConfig(spec, { config: tmp.file }, {});
        assert.deepEqual(Object.keys(config.file.plugins), availableDefaultToolPlugins());
        assert.ok(availableDefaultToolPlugins().every((name) => (DEFAULT_TOOL_PLUGINS as readonly string[]).includes(name)));
        assert.equal(config.settings.tools.stdio, true);
      } finally {
        await tmp.remove();
      }
    });

    it('a config naming plugins gets exactly those', async () => {
      const tmp = await writeTempConfig(fixtureConfig(null));
      try {
        const config = await loadCommandConfig(spec, { config: tmp.file }, {});
        assert.deepEqual(Object.keys(config.file.plugins), [FIXTURE_PLUGIN]);
      } finally {
        await tmp.remove();
      }
    });

    it('chain-host never adds default plugins', async () => {
      const tmp = await writeTempConfig({});
      try {
        const config = await loadCommandConfig({ ...spec, name: 'chain-host', stdio: 'config', http: 'config', defaultToolPlugins: false }, { config: tmp.file }, {});
        assert.deepEqual(config.file.plugins, {});
      } finally {
        await tmp.remove();
      }
    });
  });
});

/** A config file with this exact text (malformed JSON, say). */
async function writeTempText(text: string): Promise<{ file: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'chain-cli-'));
  const file = path.join(dir, 'chainrc.json');
  await writeFile(file, text);
  return { file, remove: () => rm(dir, { recursive: true, force: true }) };
}
