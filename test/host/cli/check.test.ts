import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { outputOf, type CommandOutput } from '../../support/child-output.js';
import { FIXTURE_PLUGIN, REPO_ROOT, writeTempConfig } from '../../support/test-host.js';

/** Runs `chain-host <args>` from source and collects its output and exit code. */
function chainHost(args: string[]): Promise<CommandOutput> {
  return outputOf(spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'host/bin/chain-host.ts'), ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '' },
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
      assert.ok(lines.includes('servers it would start (1):'), stdout);
      assert.ok(lines.some((l) => l.trim() === `tools  http://127.0.0.1:${port}  tools`), stdout);
      assert.ok(lines.includes('tools (3):'), stdout);
      assert.ok(lines.some((l) => /^ {2}echo_text +read +from fixture$/.test(l)), stdout);
      assert.ok(lines.some((l) => /^ {2}unsafe_probe +unsafe +from fixture +withheld by the policy$/.test(l)), stdout);
      assert.ok(lines.some((l) => /^ {2}tools:fixture:ping +read +from fixture$/.test(l)), stdout);
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
});
