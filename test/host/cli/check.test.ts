import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { outputOf, type CommandOutput } from '../../support/child-output.js';
import { FIXTURE_PLUGIN, REPO_ROOT, writeTempConfig } from '../../support/test-host.js';

/** Runs `chain-host <args>` from source and collects its output and exit code. */
function chainHost(args: string[], env: Record<string, string> = {}, bin = 'chain-host'): Promise<CommandOutput> {
  return outputOf(spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, `host/bin/${bin}.ts`), ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  }));
}

describe('chain-host --check', function () {
  this.timeout(120_000);

  it('prints the plugin set, servers, tools with their capability, routes and query paths, binds nothing and exits 0', async () => {
    // The configured port is taken: a check that bound it would fail.
    const taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    const tmp = await writeTempConfig({ plugins: { [FIXTURE_PLUGIN]: {} }, tools: { http: { host: '127.0.0.1', port } } });
    try {
      const { code, stdout, stderr } = await chainHost(['--check', '--config', tmp.file]);
      assert.equal(code, 0, stderr);
      const lines = stdout.split('\n');
      assert.ok(lines.includes('plugins: fixture'), stdout);
      assert.ok(lines.includes('policy: read only (unsafe tools hidden and refused)'), stdout);
      assert.ok(lines.includes('ports it would bind (1):'), stdout);
      assert.ok(lines.some((l) => l.trim() === `tools  http://127.0.0.1:${port}  tools  from host`), stdout);
      assert.ok(lines.includes('tools (3):'), stdout);
      assert.ok(lines.some((l) => /^ {2}echo_text +read +from fixture$/.test(l)), stdout);
      assert.ok(lines.some((l) => /^ {2}unsafe_probe +unsafe +from fixture +withheld by the policy$/.test(l)), stdout);
      // Where the plugin's route is mounted: its server and path.
      assert.ok(lines.some((l) => /^ {2}tools:fixture:ping +read +from fixture +on tools \/fixture\/ping$/.test(l)), stdout);
      assert.ok(lines.includes('query paths: (none)'), stdout);
      assert.equal(lines.at(-2), 'check passed: nothing was started or bound');
    } finally {
      taken.close();
      await tmp.remove();
    }
  });

  it('a server the bind rules refuse is the one-line reason, exit 1', async () => {
    const tmp = await writeTempConfig({ plugins: { [FIXTURE_PLUGIN]: {} }, tools: { http: { host: '0.0.0.0', port: 0 } } });
    try {
      const { code, stdout, stderr } = await chainHost(['--check', '--config', tmp.file]);
      assert.equal(code, 1);
      assert.equal(stdout, '');
      assert.match(stderr, /^chain-host: error: CHAIN_MCP_HTTP_TOKEN must be set to bind the HTTP tool server to 0\.0\.0\.0[^\n]*\n$/);
    } finally {
      await tmp.remove();
    }
  });

  it('a plugin that cannot be resolved is the one-line reason, exit 1', async () => {
    const tmp = await writeTempConfig({ plugins: { './no-such-plugin': {} } });
    try {
      const { code, stderr } = await chainHost(['--check', '--config', tmp.file]);
      assert.equal(code, 1);
      assert.match(stderr, /^chain-host: error: unknown plugin "\.\/no-such-plugin"[^\n]*\n$/);
    } finally {
      await tmp.remove();
    }
  });

  it('npm start\'s config: every port it would bind, the devnet\'s own included, each moved by its variable', async () => {
    const env = { CHAIN_DEVNET_PORT: '36001', CHAIN_DEVNET_METRICS_PORT: '36002', HTTP_PORT: '36003', CHAIN_DASHBOARD_PORT: '36004', CHAIN_GRAPHQL_PORT: '36005', CHAIN_METRICS_PORT: '36006' };
    const { code, stdout, stderr } = await chainHost(['--check', '--config', 'chainrc.example.json'], env);
    assert.equal(code, 0, stderr);
    const lines = stdout.split('\n');
    assert.ok(lines.includes('ports it would bind (6):'), stdout);
    for (const [name, port, from] of [['node RPC', 36001, 'devnet'], ['node metrics', 36002, 'devnet'], ['tools', 36003, 'host'], ['dashboard', 36004, 'dashboard'], ['graphql', 36005, 'graphql'], ['metrics', 36006, 'host']] as const) {
      assert.ok(lines.some((l) => l.startsWith(`  ${name} `) && l.includes(`http://127.0.0.1:${port} `) && l.endsWith(`from ${from}`)), `${name} on ${port}:\n${stdout}`);
    }
  });

  it('the read-only example with the unsafe flag on says read only: no loaded plugin has an unsafe tool', async () => {
    const { code, stdout, stderr } = await chainHost(['--check', '--config', 'examples/read-only.chainrc.json'], { CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS: '1', CHAIN_MCP_HTTP_TOKEN: 'a-token-for-the-check-test' });
    assert.equal(code, 0, stderr);
    assert.ok(stdout.split('\n').includes('policy: read only (unsafe tools enabled, but no loaded plugin has any)'), stdout);
  });

  it('the container example on a host without CHAIN_PUBLIC_QUERY_ENABLED names what is missing, not a flag chain-host lacks', async () => {
    const { code, stdout, stderr } = await chainHost(['--check', '--config', 'examples/container.chainrc.json'], { CHAIN_MCP_HTTP_TOKEN: 'a-token-for-the-check-test' });
    assert.equal(code, 1, stdout);
    assert.match(stderr, /^chain-host: error: \w+ binds 0\.0\.0\.0, which is not loopback; .*: set CHAIN_PUBLIC_QUERY_ENABLED=1 in the environment\n$/);
    assert.ok(!stderr.includes('--public-query'), stderr);
  });

  it('a wrong keystore passphrase fails the check, as it would fail the start', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'chain-check-keys-'));
    try {
      const created = await chainHost(['create', '--name', 'alice'], { CHAIN_HOME: home, CHAIN_KEYSTORE_PASSPHRASE: 'the right passphrase' }, 'chain-keys');
      assert.equal(created.code, 0, created.stderr);
      const tmp = await writeTempConfig({ plugins: { wallet: {} } });
      try {
        const env = { CHAIN_HOME: home, CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS: '1' };
        const wrong = await chainHost(['--check', '--config', tmp.file], { ...env, CHAIN_KEYSTORE_PASSPHRASE: 'a wrong passphrase' });
        assert.equal(wrong.code, 1, wrong.stdout);
        assert.match(wrong.stderr, /^chain-host: error: cannot unlock the keystore at .*CHAIN_KEYSTORE_PASSPHRASE[^\n]*\n$/);
        const right = await chainHost(['--check', '--config', tmp.file], { ...env, CHAIN_KEYSTORE_PASSPHRASE: 'the right passphrase' });
        assert.equal(right.code, 0, right.stderr);
        assert.match(right.stdout, /^keystore: 1 account\(s\) in .*, passphrase checked at start/m);
      } finally {
        await tmp.remove();
      }
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
