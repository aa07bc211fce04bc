import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT, request } from '../../support/test-host.js';
import { bootDashboardHost, SLOW_NODE_PLUGIN } from './support/dashboard-host.js';
import { stderrUntil } from '../../support/child-output.js';

const BIN = path.join(REPO_ROOT, 'host/bin/chain-dashboard.ts');

function launch(args: string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', BIN, ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', CHAIN_NODE_URL: 'http://127.0.0.1:9', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

function exit(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('dashboard exposure (spec 5.5, 5.6)', function () {
  this.timeout(60_000);

  describe('the public-query rule: beyond loopback only with --public-query AND CHAIN_PUBLIC_QUERY_ENABLED=1', () => {
    const boot = (dashboard: Record<string, unknown>, env: Record<string, string> = {}) =>
      bootDashboardHost({ devnet: false, plugins: { [SLOW_NODE_PLUGIN]: {} }, dashboard, env });

    for (const host of ['0.0.0.0', '::']) {
      it(`${host} without either is refused at start`, async () => {
        await assert.rejects(boot({ host }), (err: any) => err.code === 'unsafe_bind' && /not loopback; public query publishing needs both its publicQuery option and CHAIN_PUBLIC_QUERY_ENABLED=1: set plugins\.dashboard\.publicQuery: true .* and CHAIN_PUBLIC_QUERY_ENABLED=1 in the environment$/.test(err.message));
      });
    }

    it('publicQuery without CHAIN_PUBLIC_QUERY_ENABLED=1 is refused', async () => {
      await assert.rejects(boot({ host: '0.0.0.0', publicQuery: true }), (err: any) => err.code === 'unsafe_bind');
    });

    it('CHAIN_PUBLIC_QUERY_ENABLED=1 without publicQuery is refused', async () => {
      await assert.rejects(boot({ host: '0.0.0.0' }, { CHAIN_PUBLIC_QUERY_ENABLED: '1' }), (err: any) => err.code === 'unsafe_bind');
    });

    it('both together bind beyond loopback', async () => {
      const h = await boot({ host: '0.0.0.0', publicQuery: true }, { CHAIN_PUBLIC_QUERY_ENABLED: '1' });
      try {
        const port = new URL(h.base).port;
        assert.equal((await request(`http://127.0.0.1:${port}/api/config`)).status, 200);
      } finally {
        await h.stop();
      }
    });

    it('enabled: false loads the plugin but serves nothing', async () => {
      const h = await boot({ enabled: false });
      try {
        assert.equal(h.host.serverUrl('dashboard'), undefined);
      } finally {
        await h.stop();
      }
    });

    it('loopback needs nothing, and is the default', async () => {
      const h = await boot({});
      try {
        assert.match(h.base, /^http:\/\/127\.0\.0\.1:\d+$/);
      } finally {
        await h.stop();
      }
    });
  });

  describe('no node RPC is published', () => {
    it('CometBFT methods that are not dashboard routes do not exist on the dashboard', async () => {
      const h = await bootDashboardHost({ devnet: false, plugins: { [SLOW_NODE_PLUGIN]: {} } });
      try {
        for (const p of ['/broadcast_tx_sync?tx="00"', '/api/broadcast_tx_commit', '/status', '/websocket', '/api/abci_query']) {
          assert.equal((await request(h.url(p))).status, 404, p);
        }
        assert.equal((await request(h.url('/api/status'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"method":"broadcast_tx_sync"}' })).status, 405);
      } finally {
        await h.stop();
      }
    });
  });

  describe('chain-dashboard', () => {
    it('serves on the given port and stops cleanly on SIGTERM', async () => {
      const child = launch(['--port', '0']);
      const banner = await stderrUntil(child, /dashboard: http:\/\/127\.0\.0\.1:\d+/);
      const url = /dashboard: (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1]!;
      assert.match(banner, /plugins: dashboard/);
      const config = await request(`${url}/api/config`);
      assert.equal(config.json.default_rpc_url, 'http://127.0.0.1:9');
      assert.equal((await request(`${url}/api/status`)).status, 502, 'the node is down: 502, not 500');
      child.kill('SIGTERM');
      assert.equal(await exit(child), 0);
    });

    it('refuses a public bind without the opt-in, in one line', async () => {
      const child = launch(['--host', '0.0.0.0', '--port', '0', '--public-query']);
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c));
      assert.equal(await exit(child), 1);
      assert.match(stderr.trim(), /^chain-dashboard: error: dashboard binds 0\.0\.0\.0, which is not loopback; public query publishing needs both its publicQuery option and CHAIN_PUBLIC_QUERY_ENABLED=1: set CHAIN_PUBLIC_QUERY_ENABLED=1 in the environment$/);
    });

    it('binds publicly with --public-query and CHAIN_PUBLIC_QUERY_ENABLED=1', async () => {
      const child = launch(['--host', '0.0.0.0', '--port', '0', '--public-query'], { CHAIN_PUBLIC_QUERY_ENABLED: '1' });
      const banner = await stderrUntil(child, /dashboard: http:\/\/[^\s]+/);
      assert.match(banner, /dashboard: http:\/\/0\.0\.0\.0:\d+/);
      child.kill('SIGTERM');
      assert.equal(await exit(child), 0);
    });

    it('names a bad --port', async () => {
      const child = launch(['--port', 'eighty']);
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c));
      assert.notEqual(await exit(child), 0);
      assert.match(stderr.trim(), /^chain-dashboard: error: plugins\.dashboard\.port="eighty": must be a port number$/);
    });

    it('takes host and port from CHAIN_DASHBOARD_HOST/PORT when no flag is given', async () => {
      const child = launch([], { CHAIN_DASHBOARD_HOST: '127.0.0.1', CHAIN_DASHBOARD_PORT: '0' });
      const banner = await stderrUntil(child, /dashboard: http:\/\/127\.0\.0\.1:\d+/);
      assert.doesNotMatch(banner, /:8080/);
      child.kill('SIGTERM');
      assert.equal(await exit(child), 0);
    });
  });
});
