import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../core/config/load-config.js';
import { REPO_ROOT, TEST_TOKEN } from '../support/test-host.js';

const run = promisify(execFile);
const PUBLISHED_PORTS = [5000, 8080, 8100, 9108, 9109, 26657];

/** `docker compose version` succeeds: the docker CLI with the compose plugin (no engine needed for `config`). */
async function composeAvailable(): Promise<boolean> {
  try {
    await run('docker', ['compose', 'version'], { timeout: 15_000 });
    return true;
  } catch {
    return false;
  }
}

/** The environment `docker compose config` sees: this process's, minus anything that would change the answer. */
function composeEnv(publishHost: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CHAIN_MCP_HTTP_TOKEN: TEST_TOKEN };
  for (const key of Object.keys(env)) if (key.startsWith('COMPOSE_') || key === 'HTTP_PUBLISH_HOST') delete env[key];
  if (publishHost !== undefined) env.HTTP_PUBLISH_HOST = publishHost;
  return env;
}

describe('containers', function () {
  this.timeout(60_000);

  describe('Dockerfile', () => {
    let text: string;
    before(async () => {
      text = await readFile(path.join(REPO_ROOT, 'Dockerfile'), 'utf8');
    });

    it('builds on node:20-slim with npm ci and runs chainrc.example.json as a non-root user', () => {
      const froms = [...text.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
      assert.ok(froms.length > 0 && froms.every((f) => f === 'node:20-slim'), `every stage is node:20-slim: ${froms.join(', ')}`);
      assert.match(text, /^RUN npm ci\b/m);
      assert.match(text, /^RUN npm run build\b/m);
      assert.match(text, /^USER node$/m);
      assert.match(text, /^CMD \["node", "dist\/host\/bin\/chain-host\.js", "--config", "chainrc\.example\.json"\]$/m);
    });

    it('keeps chain data in the /data volume (CHAIN_HOME=/data)', () => {
      assert.match(text, /CHAIN_HOME=\/data/);
      assert.match(text, /^VOLUME \["\/data"\]$/m);
      assert.match(text, /chown node:node \/data/);
    });
  });

  describe('examples/container.chainrc.json (what compose runs)', () => {
    it('is chainrc.example.json\'s plugin set, bound to the container\'s interfaces under the bind rules', async () => {
      const example = await loadConfig({ configPath: path.join(REPO_ROOT, 'chainrc.example.json'), env: {} });
      const env = { CHAIN_HOME: '/data', CHAIN_PUBLIC_QUERY_ENABLED: '1', CHAIN_MCP_HTTP_TOKEN: TEST_TOKEN, HTTP_PUBLISH_HOST: '127.0.0.1' };
      const loaded = await loadConfig({ configPath: path.join(REPO_ROOT, 'examples/container.chainrc.json'), env });
      assert.deepEqual(Object.keys(loaded.file.plugins).sort(), Object.keys(example.file.plugins).sort());
      assert.equal(loaded.settings.home, '/data');
      assert.equal(loaded.settings.publicQueryEnabled, true);
      assert.deepEqual(loaded.settings.tools.http && { host: loaded.settings.tools.http.host, port: loaded.settings.tools.http.port, token: loaded.settings.tools.http.token },
        { host: '0.0.0.0', port: 8100, token: TEST_TOKEN });
      assert.deepEqual(loaded.settings.metrics, { host: '0.0.0.0', port: 9109, publicQuery: true });
      const p = loaded.file.plugins as Record<string, Record<string, unknown>>;
      assert.deepEqual([p.devnet!.host, p.devnet!.publicRpc, p.devnet!.port, p.devnet!.metricsPort], ['0.0.0.0', true, 26657, 9108]);
      for (const name of ['dashboard', 'graphql']) assert.deepEqual([p[name]!.host, p[name]!.publicQuery], ['0.0.0.0', true], name);
    });
  });

  describe('compose.yaml (docker compose config)', () => {
    before(async function () {
      if (!(await composeAvailable())) {
        console.log('    skipped: `docker compose version` fails here (no docker CLI with the compose plugin), so compose.yaml is not checked');
        this.skip();
      }
    });

    const cases: Array<{ title: string; publishHost: string | undefined; expected: string }> = [
      { title: 'HTTP_PUBLISH_HOST unset: host loopback', publishHost: undefined, expected: '127.0.0.1' },
      { title: 'HTTP_PUBLISH_HOST=127.0.0.1', publishHost: '127.0.0.1', expected: '127.0.0.1' },
      { title: 'HTTP_PUBLISH_HOST=::1 (raw IPv6 loopback)', publishHost: '::1', expected: '::1' },
    ];
    for (const c of cases) {
      it(`publishes every port on ${c.expected} with ${c.title}`, async () => {
        const { stdout } = await run('docker', ['compose', '-f', path.join(REPO_ROOT, 'compose.yaml'), 'config', '--format', 'json'],
          { cwd: REPO_ROOT, env: composeEnv(c.publishHost), timeout: 30_000 });
        const config = JSON.parse(stdout);
        const service = config.services.chain;
        const ports = (service.ports as Array<{ target: number; published: string | number; host_ip?: string }>);
        assert.deepEqual(ports.map((p) => p.target).sort((a, b) => a - b), PUBLISHED_PORTS);
        for (const p of ports) {
          assert.equal(p.host_ip, c.expected, `port ${p.target}`);
          assert.equal(Number(p.published), p.target);
        }
        assert.equal(service.environment.HTTP_PUBLISH_HOST, c.expected);
        assert.equal(service.environment.CHAIN_HOME, '/data');
        assert.deepEqual(service.command, ['node', 'dist/host/bin/chain-host.js', '--config', 'examples/container.chainrc.json']);
      });
    }

    it('refuses to render without CHAIN_MCP_HTTP_TOKEN (the tool server binds beyond the container loopback)', async () => {
      const env = composeEnv(undefined);
      delete env.CHAIN_MCP_HTTP_TOKEN;
      await assert.rejects(run('docker', ['compose', '-f', path.join(REPO_ROOT, 'compose.yaml'), 'config', '--format', 'json'], { cwd: REPO_ROOT, env, timeout: 30_000 }),
        (err: Error & { stderr?: string }) => /CHAIN_MCP_HTTP_TOKEN/.test(String(err.stderr ?? err.message)));
    });
  });
});
