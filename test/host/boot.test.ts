import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../core/config/load-config.js';
import { BootError } from '../../core/errors.js';
import { silentLogger } from '../../core/logger.js';
import { Host } from '../../host/host.js';
import { FIXTURE_PLUGIN, fixtureConfig, loadTestConfig } from '../support/test-host.js';

/**
 * Plugins for these tests are plain-value ES modules written to a temp folder and loaded by
 * path, as a third-party plugin would be. Each records its lifecycle calls in globalThis.bootLog.
 */
interface PluginSource {
  name: string;
  requires?: string[];
  after?: string[];
  /** Body of init(ctx). */
  init?: string;
  start?: string;
  /** Body of stop(ctx). */
  stop?: string;
}

declare global {
  // eslint-disable-next-line no-var
  var bootLog: string[];
}

function moduleSource(p: PluginSource): string {
  return `export default {
  name: ${JSON.stringify(p.name)},
  description: 'boot test plugin',
  requires: ${JSON.stringify(p.requires ?? [])},
  after: ${JSON.stringify(p.after ?? [])},
  register(ctx) { globalThis.bootLog.push('register ' + ctx.name); },
  async init(ctx) { globalThis.bootLog.push('init ' + ctx.name); ${p.init ?? ''} },
  async start(ctx) { globalThis.bootLog.push('start ' + ctx.name); ${p.start ?? ''} },
  async stop(ctx) { globalThis.bootLog.push('stop ' + ctx.name); ${p.stop ?? ''} },
};\n`;
}

describe('host boot (plugin lifecycle)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'chainhost-boot-'));
    globalThis.bootLog = [];
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** Writes the plugins and a config loading them (in the given key order), then loads it. */
  async function configWith(plugins: PluginSource[], extra: Record<string, unknown> = {}, order = plugins.map((p) => p.name)) {
    for (const p of plugins) await writeFile(path.join(dir, `${p.name}.mjs`), moduleSource(p));
    const config = { plugins: Object.fromEntries(order.map((name) => [`./${name}.mjs`, {}])), ...extra };
    await writeFile(path.join(dir, '.chainrc.json'), JSON.stringify(config));
    return loadConfig({ configPath: path.join(dir, '.chainrc.json'), env: {} });
  }

  async function bootError(promise: Promise<unknown>): Promise<BootError> {
    try {
      await promise;
    } catch (err) {
      assert.ok(err instanceof BootError, `expected a BootError, got ${String(err)}`);
      return err;
    }
    assert.fail('expected the boot to fail');
  }

  it('boots plugins after what they require, whatever the config order; stops in reverse', async () => {
    const config = await configWith(
      [{ name: 'wallet' }, { name: 'dex', requires: ['wallet', 'query'] }, { name: 'query', requires: ['wallet'] }],
      {}, ['dex', 'query', 'wallet'],
    );
    const host = await Host.create(config, { log: silentLogger });
    await host.start();
    await host.stop();
    assert.deepEqual(globalThis.bootLog, [
      'register wallet', 'register query', 'register dex',
      'init wallet', 'init query', 'init dex',
      'start wallet', 'start query', 'start dex',
      'stop dex', 'stop query', 'stop wallet',
    ]);
    assert.deepEqual(host.pluginNames(), ['wallet', 'query', 'dex']);
  });

  it('`after` orders plugins that are loaded without requiring them', async () => {
    const config = await configWith([{ name: 'late', after: ['early', 'absent'] }, { name: 'early' }]);
    const host = await Host.create(config, { log: silentLogger });
    assert.deepEqual(host.pluginNames(), ['early', 'late']);
  });

  it('a dependency cycle is a boot error naming the chain', async () => {
    const config = await configWith([{ name: 'a', requires: ['b'] }, { name: 'b', requires: ['a'] }]);
    const err = await bootError(Host.create(config, { log: silentLogger }));
    assert.equal(err.code, 'dependency_cycle');
    assert.match(err.message, /a → b → a/);
  });

  it('a longer cycle names every plugin in it', async () => {
    const config = await configWith([{ name: 'a', requires: ['b'] }, { name: 'b', requires: ['c'] }, { name: 'c', requires: ['a'] }]);
    const err = await bootError(Host.create(config, { log: silentLogger }));
    assert.match(err.message, /a → b → c → a/);
  });

  it('a missing dependency is a boot error naming both plugins', async () => {
    const config = await configWith([{ name: 'dex', requires: ['wallet'] }]);
    const err = await bootError(Host.create(config, { log: silentLogger }));
    assert.equal(err.code, 'missing_dependency');
    assert.match(err.message, /plugin "dex" requires plugin "wallet", which is not loaded/);
  });

  it('a tool name contributed twice is a boot error naming both plugins', async () => {
    const tool = `ctx.tools.add({ name: 'same_tool', title: 't', description: 'd', capability: 'read', input: null, output: null, run: async () => ({}) });`;
    const config = await configWith([{ name: 'one', init: tool }, { name: 'two', init: tool }]);
    const err = await bootError(Host.create(config, { log: silentLogger }));
    assert.equal(err.code, 'duplicate_tool');
    assert.match(err.message, /tool "same_tool" is contributed twice: by plugin "one" and by plugin "two"/);
  });

  it('a contribution without a capability is refused', async () => {
    const config = await configWith([{ name: 'sloppy', init: `ctx.tools.add({ name: 'no_cap', title: 't', description: 'd', input: null, output: null, run: async () => ({}) });` }]);
    const err = await bootError(Host.create(config, { log: silentLogger }));
    assert.equal(err.code, 'missing_capability');
    assert.match(err.message, /tool "no_cap" from plugin "sloppy" declares no capability/);
  });

  it('a route without a capability is refused too', async () => {
    const config = await configWith([{ name: 'router', init: `ctx.routes.add({ server: 'tools', id: 'x', router: null });` }]);
    const err = await bootError(Host.create(config, { log: silentLogger }));
    assert.equal(err.code, 'missing_capability');
  });

  it('an unknown plugin is a boot error naming the key', async () => {
    const err = await bootError(loadTestConfig({ plugins: { 'no-such-plugin-anywhere': {} } }).then((c) => Host.create(c, { log: silentLogger })));
    assert.equal(err.code, 'unknown_plugin');
    assert.match(err.message, /unknown plugin "no-such-plugin-anywhere"/);
  });

  it('a module that is not a plugin is refused', async () => {
    await writeFile(path.join(dir, 'not-a-plugin.mjs'), 'export default { hello: 1 };\n');
    await writeFile(path.join(dir, '.chainrc.json'), JSON.stringify({ plugins: { './not-a-plugin.mjs': {} } }));
    const config = await loadConfig({ configPath: path.join(dir, '.chainrc.json'), env: {} });
    const err = await bootError(Host.create(config, { log: silentLogger }));
    assert.equal(err.code, 'invalid_plugin');
  });

  it('an optional plugin that fails is skipped, with what required it', async () => {
    const config = await configWith(
      [{ name: 'flaky', init: `throw new Error('database unreachable');` }, { name: 'uses-flaky', requires: ['flaky'] }, { name: 'solid' }],
      { optionalPlugins: ['./flaky.mjs'] },
    );
    const host = await Host.create(config, { log: silentLogger });
    await host.start();
    assert.deepEqual(host.pluginNames(), ['solid']);
    assert.ok(host.describe().some((l) => /skipped optional plugin flaky: database unreachable/.test(l)));
    await host.stop();
  });

  it('a required plugin that fails stops the boot with its name', async () => {
    const config = await configWith([{ name: 'broken', init: `throw new Error('boom');` }]);
    const err = await bootError(Host.create(config, { log: silentLogger }));
    assert.equal(err.code, 'plugin_failed');
    assert.match(err.message, /plugin "broken" failed to init: boom/);
  });

  describe('every plugin phase has a deadline (pluginTimeouts)', () => {
    const tight = { pluginTimeouts: { registerMs: 200, initMs: 200, startMs: 200, stopMs: 200 } };
    const never = 'await new Promise(() => {});';

    for (const phase of ['init', 'start'] as const) {
      it(`a required plugin whose ${phase} never settles fails the boot naming it and the phase`, async () => {
        const config = await configWith([{ name: 'stuck', [phase]: never }, { name: 'solid' }], tight);
        const err = await bootError(Host.create(config, { log: silentLogger }).then((host) => host.start()));
        assert.equal(err.code, 'plugin_failed');
        assert.equal(err.message, `plugin "stuck" failed to ${phase}: did not finish within 200 ms (pluginTimeouts.${phase}Ms)`);
      });
    }

    it('a register() that returns a promise that never settles is bounded too', async () => {
      await writeFile(path.join(dir, 'stuck.mjs'), `export default { name: 'stuck', description: 'x', register() { return new Promise(() => {}); } };\n`);
      await writeFile(path.join(dir, '.chainrc.json'), JSON.stringify({ plugins: { './stuck.mjs': {} }, ...tight }));
      const config = await loadConfig({ configPath: path.join(dir, '.chainrc.json'), env: {} });
      const err = await bootError(Host.create(config, { log: silentLogger }));
      assert.match(err.message, /^plugin "stuck" failed to register: did not finish within 200 ms \(pluginTimeouts\.registerMs\)$/);
    });

    it('an optional plugin past its init deadline is skipped and leaves nothing behind, also what it adds late', async () => {
      // It contributes a tool and a teardown, then waits on I/O that answers only after its deadline.
      const late = `ctx.tools.add({ name: 'stuck_tool', description: 'x', capability: 'read', input: {}, run: async () => ({}) });
        ctx.onStop(() => { globalThis.bootLog.push('released stuck'); });
        await new Promise((resolve) => setTimeout(resolve, 600));
        try { ctx.tools.add({ name: 'late_tool', description: 'x', capability: 'read', input: {}, run: async () => ({}) }); } catch (err) { globalThis.bootLog.push('refused: ' + err.message); }
        ctx.onStop(() => { globalThis.bootLog.push('released late'); });`;
      const config = await configWith([{ name: 'stuck', init: late }, { name: 'solid' }], { ...tight, optionalPlugins: ['./stuck.mjs'] });
      const host = await Host.create(config, { log: silentLogger });
      await host.start();
      assert.deepEqual(host.pluginNames(), ['solid']);
      assert.ok(host.describe().some((l) => l === 'skipped optional plugin stuck: did not finish within 200 ms (pluginTimeouts.initMs)'));
      assert.ok(globalThis.bootLog.includes('released stuck'), 'its teardown ran when it was skipped');
      await new Promise((resolve) => setTimeout(resolve, 800));
      assert.ok(globalThis.bootLog.some((l) => /^refused: plugin "stuck" was skipped/.test(l)), globalThis.bootLog.join('\n'));
      assert.ok(globalThis.bootLog.includes('released late'), 'a resource acquired after the deadline is released at once');
      assert.deepEqual([...host.tools.values(), ...host.tools.withheld().map((w) => w.value)].map((t) => t.name).filter((n) => n.includes('_tool')), []);
      await host.stop();
    });

    it('a stop() and a teardown that never settle do not keep stop() from finishing', async () => {
      const config = await configWith([{ name: 'clingy', init: `ctx.onStop(() => { globalThis.bootLog.push('first teardown'); }); ctx.onStop(() => new Promise(() => {}));`, stop: never }], tight);
      const host = await Host.create(config, { log: silentLogger });
      await host.start();
      await host.stop();
      assert.deepEqual(globalThis.bootLog.slice(-2), ['stop clingy', 'first teardown']);
    });

    it('a deadline is validated like any key', async () => {
      const err = await bootError(loadTestConfig({ pluginTimeouts: { initMs: 0 } }));
      assert.equal(err.message, 'pluginTimeouts.initMs (in .chainrc.json)=0: must be 10..3600000');
    });
  });

  it('freezes every registry after init: a late contribution is a boot error', async () => {
    const config = await configWith([{ name: 'late', init: 'globalThis.lateCtx = ctx;', start: `ctx.tools.add({ name: 'late_tool', capability: 'read' });` }]);
    const host = await Host.create(config, { log: silentLogger });
    assert.equal(host.tools.isFrozen, true);
    assert.equal(host.routes.isFrozen, true);
    assert.equal(host.servers.isFrozen, true);
    const err = await bootError(host.start());
    assert.equal(err.code, 'registry_frozen');
    assert.match(err.message, /plugin "late" tried to add tool "late_tool" after init/);
  });

  describe('config errors name the key, the value and what was expected', () => {
    const cases: Array<{ what: string; config?: unknown; env?: Record<string, string>; message: RegExp }> = [
      { what: 'an environment value out of range', env: { CHAIN_ID: 'no spaces allowed' }, message: /^CHAIN_ID=no spaces allowed: must be 1\.\.50 letters/ },
      { what: 'a bad port', config: { tools: { http: { port: 70000 } } }, message: /^tools\.http\.port \(in \.chainrc\.json\)=70000: must be 0\.\.65535$/ },
      { what: 'a bad port from the environment', config: { tools: { http: {} } }, env: { HTTP_PORT: 'eighty' }, message: /^HTTP_PORT=eighty: must be a port number$/ },
      { what: 'an unknown key', config: { tols: {} }, message: /unknown key "tols"/ },
      { what: 'a short token, without echoing it', config: { tools: { http: {} } }, env: { CHAIN_MCP_HTTP_TOKEN: 'short' }, message: /^CHAIN_MCP_HTTP_TOKEN=\[redacted\]: must be at least 16 characters$/ },
      { what: 'a bad flag value', env: { CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS: 'maybe' }, message: /^CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS=maybe: / },
      { what: 'a bad node URL', env: { CHAIN_NODE_URL: 'ftp://x' }, message: /^CHAIN_NODE_URL=ftp:\/\/x: must be an http\(s\) URL$/ },
    ];
    for (const c of cases) {
      it(c.what, async () => {
        const err = await bootError(loadTestConfig(c.config ?? {}, c.env ?? {}));
        assert.equal(err.code, 'config_invalid');
        assert.match(err.message, c.message);
        assert.ok(!err.message.includes('\n'), 'one line');
      });
    }

    it('a plugin option is validated by the plugin\'s own schema', async () => {
      const config = await loadTestConfig({ plugins: { [FIXTURE_PLUGIN]: { greeting: 5 } } });
      const err = await bootError(Host.create(config, { log: silentLogger }));
      assert.equal(err.code, 'config_invalid');
      assert.match(err.message, new RegExp(`plugins\\.${FIXTURE_PLUGIN.replace(/[/\\.]/g, '\\$&')}\\.greeting=5: `));
    });
  });

  it('describe() prints plugins, policy and surfaces but never the token', async () => {
    const config = await loadTestConfig(fixtureConfig({ token: 'a-very-secret-token-value' }));
    const host = await Host.create(config, { log: silentLogger });
    const text = host.describe().join('\n');
    assert.match(text, /plugins: fixture/);
    assert.match(text, /policy: read only/);
    assert.match(text, /tools: 2 visible of 3/);
    assert.ok(!text.includes('a-very-secret-token-value'));
  });
});
