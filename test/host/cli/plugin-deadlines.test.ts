import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { outputOf, stderrUntil } from '../../support/child-output.js';
import { FIXTURE_PLUGIN, REPO_ROOT } from '../../support/test-host.js';

/**
 * A third-party plugin package (installed under the config's node_modules, loaded by package
 * name) whose phase never settles, run by the real `chain-host`: it must not hang the command
 * silently nor let it exit with Node's bare code 13.
 */
const PACKAGE = 'acme-never-ready';

/** The package's hooks: `init` waits on what `NEVER_READY` names, `stop` (after a start that holds the loop) may never return. */
const SOURCE = `
const silent = () => new Promise(() => {});
// I/O that never answers: a server that accepts the connection and says nothing.
const silentServer = () => fetch(process.env.SILENT_URL).then((r) => r.text());
export default {
  name: 'never-ready',
  description: 'a third-party plugin whose phases never settle',
  async init(ctx) {
    ctx.tools.add({ name: 'never_ready_tool', title: 'x', description: 'x', capability: 'read', input: { safeParse: (v) => ({ success: true, data: v }) }, run: async () => ({}) });
    if (process.env.NEVER_READY === 'io') await silentServer();
    if (process.env.NEVER_READY === 'promise') await silent();
  },
  async start() {
    if (process.env.NEVER_READY === 'stop') setInterval(() => undefined, 60_000);
  },
  async stop() {
    if (process.env.NEVER_READY === 'stop') await silent();
  },
};
`;

describe('chain-host with a plugin whose phase never settles', function () {
  this.timeout(120_000);
  let dir: string;
  let silentServer: net.Server;
  let silentUrl: string;
  const sockets = new Set<net.Socket>();
  /** Every command started: one still running when its test ends (a failure) is killed, never left behind. */
  const children = new Set<ChildProcess>();
  afterEach(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    children.clear();
  });

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'chain-deadline-'));
    const pkg = path.join(dir, 'node_modules', PACKAGE);
    await mkdir(pkg, { recursive: true });
    await writeFile(path.join(pkg, 'package.json'), JSON.stringify({ name: PACKAGE, version: '1.0.0', type: 'module', main: 'index.js' }));
    await writeFile(path.join(pkg, 'index.js'), SOURCE);
    silentServer = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silentServer.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silentServer.address() as net.AddressInfo).port}/`;
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silentServer.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  });

  async function configFile(name: string, extra: Record<string, unknown> = {}): Promise<string> {
    const file = path.join(dir, `${name}.chainrc.json`);
    const config = {
      plugins: { [FIXTURE_PLUGIN]: {}, [PACKAGE]: {} },
      tools: { http: { host: '127.0.0.1', port: 0 } },
      pluginTimeouts: { initMs: 1_000, startMs: 1_000, stopMs: 1_000 },
      ...extra,
    };
    await writeFile(file, JSON.stringify(config));
    return file;
  }

  function chainHost(file: string, mode: string) {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'host/bin/chain-host.ts'), '--config', file], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', NEVER_READY: mode, SILENT_URL: silentUrl },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.add(child);
    return child;
  }

  for (const mode of ['io', 'promise'] as const) {
    it(`required, its init awaiting ${mode === 'io' ? 'a server that never answers' : 'a promise that holds nothing'}: exits 1 with one line naming it and the phase`, async () => {
      const { code, stderr } = await outputOf(chainHost(await configFile(`required-${mode}`), mode));
      assert.equal(code, 1, stderr);
      assert.match(stderr, /^chain-host: error: plugin "never-ready" failed to init: did not finish within 1000 ms \(pluginTimeouts\.initMs\)$/m);
    });
  }

  it('optional, its init awaiting a server that never answers: skipped with a warning, the host serves without its tool', async () => {
    const child = chainHost(await configFile('optional', { optionalPlugins: [PACKAGE] }), 'io');
    const exited = outputOf(child);
    try {
      const banner = await stderrUntil(child, /^chain-host: serving$/m, 90_000);
      assert.match(banner, /optional plugin never-ready failed to init; continuing without it/);
      assert.match(banner, /skipped optional plugin never-ready: did not finish within 1000 ms \(pluginTimeouts\.initMs\)/);
      const toolsUrl = /^chain-host: tools: (http:\/\/\S+)/m.exec(banner)?.[1];
      assert.ok(toolsUrl, banner);
      const tools = (await (await fetch(`${toolsUrl}/tools`)).json()) as Array<{ name: string }>;
      assert.ok(tools.some((t) => t.name === 'echo_text'));
      assert.ok(!tools.some((t) => t.name === 'never_ready_tool'), 'nothing of the skipped plugin is served');
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal((await exited).code, 0);
  });

  it('a stop() that never returns (beside a timer that holds the loop) does not keep the process alive', async () => {
    const child = chainHost(await configFile('stop'), 'stop');
    const exited = outputOf(child);
    await stderrUntil(child, /^chain-host: serving$/m, 90_000);
    child.kill('SIGTERM');
    const { code, stderr } = await exited;
    assert.equal(code, 0, stderr);
    assert.match(stderr, /plugin never-ready failed to stop cleanly.*did not finish within 1000 ms \(pluginTimeouts\.stopMs\)/);
  });
});
