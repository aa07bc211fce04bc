import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { HOST_ENV_BINDINGS } from '../../core/config/environment.js';
import { loadConfig, type LoadedConfig } from '../../core/config/load-config.js';
import { BootError } from '../../core/errors.js';
import { silentLogger } from '../../core/logger.js';
import { BUILTIN_PLUGINS } from '../../host/builtin-plugins.js';
import { builtinPlugins, hostSection } from '../../host/config-reference/config-reference.js';
import { Host } from '../../host/host.js';
import { BdsInternalTokens } from '../../plugins/bds/bds-internal-tokens.js';
import { pgliteTemplateDir } from '../support/databases.js';

/**
 * What the kernel guarantees every plugin (DESIGN "The plugin contract"): one policy pass over
 * every contribution kind, nothing left behind by a failed optional plugin, extension points
 * that know their contributor, no contribution aimed at nothing, and teardown where a resource
 * is acquired. Plugins are plain ES modules written to a temp folder and loaded by path, as a
 * third party's would be; each records what happens in globalThis.kernelLog.
 */
declare global {
  // eslint-disable-next-line no-var
  var kernelLog: string[];
}

/** A plugin module: `hooks` is the object body after name/description (register, init, …). */
function pluginSource(name: string, hooks: string, extra = ''): string {
  return `export default { name: ${JSON.stringify(name)}, description: 'kernel test plugin', ${extra}\n${hooks}\n};\n`;
}

const noSchema = `input: null, output: null, run: async () => ({})`;

/** A plugin owning the `test.widgets` point: each user's contributions are recorded under that user's name. */
const WIDGET_OWNER = pluginSource('widget-owner', `
  register(ctx) {
    const list = ctx.createContributionList('widget', (w) => w.name);
    globalThis.widgetList = list;
    ctx.provide({ id: 'test.widgets' }, (contributor) => ({ add: (widget) => list.add(contributor.name, widget) }));
  },`);

describe('the plugin kernel', function () {
  this.timeout(60_000);
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'chainhost-kernel-'));
    globalThis.kernelLog = [];
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** Writes the modules and a config loading the built-in plugins, then the modules, in this order. */
  async function configWith(modules: Record<string, string>, extra: Record<string, unknown> = {}, env: Record<string, string> = {}, builtins: Record<string, unknown> = {}): Promise<LoadedConfig> {
    const plugins: Record<string, unknown> = { ...builtins };
    for (const [name, source] of Object.entries(modules)) {
      await writeFile(path.join(dir, `${name}.mjs`), source);
      plugins[`./${name}.mjs`] = {};
    }
    await writeFile(path.join(dir, '.chainrc.json'), JSON.stringify({ home: path.join(dir, 'home'), plugins, ...extra }));
    return loadConfig({ configPath: path.join(dir, '.chainrc.json'), env });
  }

  async function bootError(promise: Promise<unknown>): Promise<BootError> {
    try {
      await promise;
    } catch (err) {
      assert.ok(err instanceof BootError, `expected a BootError, got ${err instanceof Error ? err.stack : String(err)}`);
      return err;
    }
    assert.fail('expected the boot to fail');
  }

  describe('the capability policy filters every contribution kind once, at freeze', () => {
    const MIXED = pluginSource('mixed', `
      init(ctx) {
        ctx.servers.declare({ name: 'mixed', kind: 'query', host: '127.0.0.1', port: 0 });
        ctx.tools.add({ name: 'open_tool', title: 't', description: 'd', capability: 'read', ${noSchema} });
        ctx.tools.add({ name: 'secret_tool', title: 't', description: 'd', capability: 'unsafe', ${noSchema} });
        const handler = () => ({ info: 'str', text: 'x' });
        ctx.queryPaths.add({ pattern: '/open_path', description: 'd', capability: 'read', handler });
        ctx.queryPaths.add({ pattern: '/secret_path/<id>', description: 'd', capability: 'unsafe', handler });
        ctx.routes.add({ server: 'mixed', id: 'mixed:open', capability: 'read', router: { routes: () => () => undefined, allowedMethods: () => () => undefined } });
        ctx.routes.add({ server: 'mixed', id: 'mixed:secret', capability: 'unsafe', router: { routes: () => () => undefined, allowedMethods: () => () => undefined } });
        ctx.routes.addWebSocket({ server: 'mixed', path: '/secret-ws', capability: 'unsafe', handle() {} });
      },`);
    const WIDGETS = pluginSource('widgets', `
      init(ctx) {
        const widgets = ctx.use({ id: 'test.widgets' });
        widgets.add({ name: 'open-widget', capability: 'read' });
        widgets.add({ name: 'secret-widget', capability: 'unsafe' });
      },`);

    it('read only: unsafe query paths, routes, WebSockets and tools are withheld', async () => {
      const host = await Host.create(await configWith({ mixed: MIXED }), { log: silentLogger });
      try {
        // The query path is what was served under a read-only policy before.
        assert.equal(host.queryPaths.resolve('/secret_path/1'), undefined);
        assert.ok(host.queryPaths.resolve('/open_path'));
        assert.deepEqual(host.routes.values().map((r) => r.id), ['mixed:open']);
        assert.deepEqual(host.webSockets.values(), []);
        assert.deepEqual(host.invoker.visible().map((t) => t.name), ['open_tool']);
        await assert.rejects(host.invoker.call('secret_tool', {}, 'in-process'), (err: { status: number; code: string }) => err.status === 403 && err.code === 'unsafe_disabled');
        assert.ok(host.describe().includes('tools: 1 visible of 2'));
      } finally {
        await host.stop();
      }
    });

    it('read only: unsafe contributions to a plugin\'s extension point are withheld too', async () => {
      const host = await Host.create(await configWith({ 'widget-owner': WIDGET_OWNER, widgets: WIDGETS }), { log: silentLogger });
      try {
        const widgets = host.contributionLists().find((l) => l.kind === 'widget')!;
        assert.deepEqual(widgets.values().map((w) => (w as { name: string }).name), ['open-widget']);
        assert.deepEqual(widgets.withheld().map((e) => e.plugin), ['widgets']);
      } finally {
        await host.stop();
      }
    });

    it('unsafe enabled: every contribution is served', async () => {
      const config = await configWith({ 'widget-owner': WIDGET_OWNER, widgets: WIDGETS, mixed: MIXED }, {}, { CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS: '1' });
      const host = await Host.create(config, { log: silentLogger });
      try {
        assert.ok(host.queryPaths.resolve('/secret_path/1'));
        assert.deepEqual(host.routes.values().map((r) => r.id), ['mixed:open', 'mixed:secret']);
        assert.equal(host.webSockets.values().length, 1);
        assert.deepEqual(host.invoker.visible().map((t) => t.name), ['open_tool', 'secret_tool']);
        assert.equal(host.contributionLists().find((l) => l.kind === 'widget')!.values().length, 2);
      } finally {
        await host.stop();
      }
    });
  });

  describe('a failed optional plugin leaves no contribution anywhere', () => {
    it('its tools, query paths, routes, servers and extension-point contributions are removed, and what it acquired is released', async () => {
      const flaky = pluginSource('flaky', `
        init(ctx) {
          ctx.onStop(() => { globalThis.kernelLog.push('flaky released'); });
          ctx.servers.declare({ name: 'flaky', kind: 'query', host: '127.0.0.1', port: 0 });
          ctx.tools.add({ name: 'flaky_tool', title: 't', description: 'd', capability: 'read', ${noSchema} });
          ctx.queryPaths.add({ pattern: '/flaky', description: 'd', capability: 'read', handler: () => ({ info: 'str', text: 'x' }) });
          ctx.use({ id: 'test.widgets' }).add({ name: 'flaky-widget', capability: 'read' });
          throw new Error('database unreachable');
        },`);
      const config = await configWith({ 'widget-owner': WIDGET_OWNER, flaky }, { optionalPlugins: ['./flaky.mjs'] });
      const host = await Host.create(config, { log: silentLogger });
      try {
        assert.deepEqual(host.pluginNames(), ['widget-owner']);
        assert.deepEqual(globalThis.kernelLog, ['flaky released']);
        for (const list of host.contributionLists()) {
          assert.deepEqual(list.list().filter((e) => e.plugin === 'flaky'), [], `${list.kind} keeps nothing of flaky`);
        }
        assert.equal(host.queryPaths.resolve('/flaky'), undefined);
      } finally {
        await host.stop();
      }
      assert.deepEqual(globalThis.kernelLog, ['flaky released'], 'released once');
    });

    it('also when it fails in start, before any server binds', async () => {
      const late = pluginSource('late', `
        init(ctx) { ctx.tools.add({ name: 'late_tool', title: 't', description: 'd', capability: 'read', ${noSchema} }); },
        start() { throw new Error('port of its upstream closed'); },`);
      const host = await Host.create(await configWith({ late }, { optionalPlugins: ['./late.mjs'] }), { log: silentLogger });
      await host.start();
      try {
        assert.deepEqual(host.pluginNames(), []);
        assert.deepEqual(host.tools.values(), []);
      } finally {
        await host.stop();
      }
    });
  });

  describe('extension points know their contributor', () => {
    it('each plugin using a point gets the view made for it, so a duplicate names both real plugins', async () => {
      const adds = (name: string) => pluginSource(name, `init(ctx) { ctx.use({ id: 'test.widgets' }).add({ name: 'same', capability: 'read' }); },`);
      const err = await bootError(configWith({ 'widget-owner': WIDGET_OWNER, alpha: adds('alpha'), beta: adds('beta') }).then((c) => Host.create(c, { log: silentLogger })));
      assert.equal(err.code, 'duplicate_contribution');
      assert.equal(err.message, 'widget "same" is contributed twice: by plugin "alpha" and by plugin "beta"');
    });

    it('the owner is handed the contributor (name and logger) once per plugin', async () => {
      const owner = pluginSource('owner', `
        register(ctx) {
          ctx.provide({ id: 'test.seen' }, (contributor) => {
            globalThis.kernelLog.push('view for ' + contributor.name + (typeof contributor.log.info === 'function' ? ' with its log' : ''));
            return { who: contributor.name };
          });
        },`);
      const user = (name: string) => pluginSource(name, `init(ctx) { globalThis.kernelLog.push(ctx.use({ id: 'test.seen' }).who); ctx.use({ id: 'test.seen' }); },`);
      const host = await Host.create(await configWith({ owner, one: user('one'), two: user('two') }), { log: silentLogger });
      await host.stop();
      assert.deepEqual(globalThis.kernelLog, ['view for one with its log', 'one', 'view for two with its log', 'two']);
    });
  });

  describe('per-plugin scope', () => {
    it('ctx.bind keeps a value private to the plugin instance that bound it', async () => {
      const keeper = (name: string) => pluginSource(name, `
        register(ctx) { ctx.bind(Symbol.for('chainhost:test.state'), { owner: ctx.name }); },
        init(ctx) { globalThis.kernelLog.push(ctx.name + ' sees ' + ctx.resolve(Symbol.for('chainhost:test.state')).owner); },`);
      const outsider = pluginSource('outsider', `init(ctx) { globalThis.kernelLog.push('outsider sees ' + ctx.tryResolve(Symbol.for('chainhost:test.state'))); },`);
      const host = await Host.create(await configWith({ one: keeper('one'), two: keeper('two'), outsider }), { log: silentLogger });
      await host.stop();
      assert.deepEqual(globalThis.kernelLog, ['one sees one', 'two sees two', 'outsider sees undefined']);
    });
  });

  describe('a plugin owns its configuration, environment variables included', () => {
    /** A third party's plugin binding four variables into its own options, which it records at register. */
    const ACME = pluginSource('acme', `register(ctx) { globalThis.kernelLog.push(JSON.stringify(ctx.options)); },`, `env: [
      { variable: 'ACME_API_URL', path: ['apiUrl'], type: 'string', secret: true },
      { variable: 'ACME_RETRIES', path: ['retry', 'count'], type: 'integer' },
      { variable: 'ACME_REGIONS', path: ['regions'], type: 'list' },
      { variable: 'ACME_VERBOSE', path: ['verbose'], type: 'flag' },
    ],`);
    const optionsOf = () => JSON.parse(globalThis.kernelLog[0]!);

    it('its variables land in its own options, over the config file, converted to their types', async () => {
      const config = await configWith({ acme: ACME }, {}, { ACME_API_URL: 'https://acme.example/api', ACME_RETRIES: '3', ACME_REGIONS: 'eu, us', ACME_VERBOSE: 'yes' });
      const host = await Host.create(config, { log: silentLogger });
      await host.stop();
      assert.deepEqual(optionsOf(), { apiUrl: 'https://acme.example/api', retry: { count: 3 }, regions: ['eu', 'us'], verbose: true });
      const key = './acme.mjs';
      assert.deepEqual(host.envBindings().filter((b) => b.variable.startsWith('ACME_')).map((b) => b.path.join('.')),
        [`plugins.${key}.apiUrl`, `plugins.${key}.retry.count`, `plugins.${key}.regions`, `plugins.${key}.verbose`]);
    });

    it('the file\'s value stands while its variable is unset or empty; a command-line flag wins over the variable', async () => {
      // A folder package, keyed by a path without dots, so a flag can name its keys (as `plugins.dashboard.port`).
      const folder = path.join(dir, 'acme');
      assert.ok(!folder.includes('.'), folder);
      await mkdir(folder);
      await writeFile(path.join(folder, 'package.json'), JSON.stringify({ type: 'module', main: 'index.js' }));
      await writeFile(path.join(folder, 'index.js'), ACME);
      await writeFile(path.join(dir, '.chainrc.json'), JSON.stringify({ plugins: { [folder]: { apiUrl: 'from-file', retry: { count: 1 } } } }));
      const config = await loadConfig({ configPath: path.join(dir, '.chainrc.json'), env: { ACME_API_URL: '', ACME_RETRIES: '9' }, flags: { [`plugins.${folder}.retry.count`]: 5 } });
      const host = await Host.create(config, { log: silentLogger });
      await host.stop();
      assert.deepEqual(optionsOf(), { apiUrl: 'from-file', retry: { count: 5 } });
    });

    it('a value its schema refuses is an error naming the variable (a secret one redacted)', async () => {
      const config = await configWith({}, {}, { CHAIN_MCP_DEX_PLAN_TTL_SECONDS: '5', CHAIN_BDS_DATABASE_URL: '' }, { dex: {} });
      const err = await bootError(Host.create(config, { log: silentLogger }));
      assert.equal(err.code, 'config_invalid');
      assert.equal(err.message, 'CHAIN_MCP_DEX_PLAN_TTL_SECONDS=5: must be 30..900');
      const lots = await configWith({}, {}, { CHAIN_MCP_DEX_PLAN_MAX_ENTRIES: 'lots' }, { dex: {} });
      assert.equal((await bootError(Host.create(lots, { log: silentLogger }))).message, 'CHAIN_MCP_DEX_PLAN_MAX_ENTRIES=lots: must be an integer');
      const secret = await configWith({}, {}, { CHAIN_REDIS_URL: 'http://user:hunter2@redis' }, { dashboard: {} });
      const refused = await bootError(Host.create(secret, { log: silentLogger }));
      assert.equal(refused.message, 'CHAIN_REDIS_URL=[redacted]: must be a redis:// or rediss:// URL');
    });

    it('a variable is read only while the plugin that binds it is loaded', async () => {
      const config = await configWith({ acme: ACME }, {}, { CHAIN_MCP_DEX_PLAN_TTL_SECONDS: '5' });
      const host = await Host.create(config, { log: silentLogger });
      await host.stop();
      assert.deepEqual(optionsOf(), {});
      assert.ok(!host.envBindings().some((b) => b.variable === 'CHAIN_MCP_DEX_PLAN_TTL_SECONDS'));
    });

    it('the host\'s own keys and variables name no built-in plugin: each plugin\'s live under plugins.<name>', async () => {
      // `query` is left out: the public-query rule (publicQueryEnabled) is the host's, not the query plugin's.
      const names = Object.keys(BUILTIN_PLUGINS).filter((n) => n !== 'query');
      const hostKeys = (await hostSection()).keys.map((k) => k.path).filter((k) => k !== 'plugins' && k !== 'optionalPlugins');
      const hostPaths = HOST_ENV_BINDINGS.map((b) => b.path.join('.'));
      for (const key of [...hostKeys, ...hostPaths]) {
        for (const name of names) assert.ok(!key.toLowerCase().includes(name), `host key ${key} names plugin ${name}`);
      }
      const plugins = await builtinPlugins();
      const bound = plugins.flatMap(([name, plugin]) => (plugin.env ?? []).map((b) => `${b.variable} → plugins.${name}.${b.path.join('.')}`));
      for (const expected of ['CHAIN_MCP_DEX_PLAN_TTL_SECONDS → plugins.dex.plan.ttlSeconds', 'CHAIN_BDS_DATABASE_URL → plugins.bds.databaseUrl', 'CHAIN_BDS_DATABASE_URL → plugins.graphql.databaseUrl', 'CHAIN_REDIS_URL → plugins.dashboard.redisUrl', 'CHAIN_GRAPHQL → plugins.query.graphqlUrl']) {
        assert.ok(bound.includes(expected), expected);
      }
    });

    it('a malformed binding is a boot error naming the plugin', async () => {
      const broken = pluginSource('broken-env', '', `env: [{ variable: 'acme url', path: ['url'], type: 'string' }],`);
      const err = await bootError(configWith({ broken: broken }).then((c) => Host.create(c, { log: silentLogger })));
      assert.equal(err.code, 'invalid_plugin');
      assert.match(err.message, /^plugin "broken-env": env\[0\]\.variable must be an upper-case variable name/);
    });
  });

  describe('a contribution aimed at something undeclared is a boot error naming the plugin', () => {
    const bootOf = (modules: Record<string, string>) => bootError(configWith(modules).then((c) => Host.create(c, { log: silentLogger })));
    const router = `{ routes: () => () => undefined, allowedMethods: () => () => undefined }`;

    it('a route to a server nobody declares', async () => {
      const err = await bootOf({ typo: pluginSource('typo', `init(ctx) { ctx.routes.add({ server: 'dashbaord', id: 'typo:api', capability: 'read', router: ${router} }); },`) });
      assert.equal(err.code, 'unknown_target');
      assert.match(err.message, /^plugin "typo" adds route "typo:api" to server "dashbaord", which is not declared/);
    });

    it('a WebSocket to a server nobody declares', async () => {
      const err = await bootOf({ ws: pluginSource('ws', `init(ctx) { ctx.routes.addWebSocket({ server: 'nowhere', path: '/ws', capability: 'read', handle() {} }); },`) });
      assert.equal(err.code, 'unknown_target');
      assert.match(err.message, /^plugin "ws" adds WebSocket "\/ws" to server "nowhere"/);
    });

    it('a query path without a route', async () => {
      const err = await bootOf({ pathless: pluginSource('pathless', `init(ctx) { ctx.queryPaths.add({ pattern: '/', description: 'd', capability: 'read', handler: () => ({ info: '', text: null }) }); },`) });
      assert.equal(err.code, 'invalid_contribution');
      assert.match(err.message, /^plugin "pathless" adds a query path with pattern "\/"/);
    });

    it('an extension point nobody provides', async () => {
      const err = await bootOf({ lonely: pluginSource('lonely', `init(ctx) { ctx.use({ id: 'nobody.point' }); },`) });
      assert.equal(err.code, 'missing_dependency');
      assert.match(err.message, /^plugin "lonely" uses extension point "nobody\.point"/);
    });

    it('a route to the host\'s own tool server is known even when this command serves none: it is just not mounted', async () => {
      const host = await Host.create(await configWith({ tooly: pluginSource('tooly', `init(ctx) { ctx.routes.add({ server: 'tools', id: 'tooly:x', capability: 'read', router: ${router} }); },`) }), { log: silentLogger });
      await host.start();
      assert.equal(host.serverUrl('tools'), undefined);
      await host.stop();
    });
  });

  describe('teardown where acquired (ctx.onStop)', () => {
    const acquiring = (name: string, initBody = '') => pluginSource(name, `
      register(ctx) { ctx.onStop(() => { globalThis.kernelLog.push('release ${name} register'); }); },
      init(ctx) { ctx.onStop(() => { globalThis.kernelLog.push('release ${name} init'); }); ${initBody} },
      stop() { globalThis.kernelLog.push('stop ${name}'); },`);

    it('Host.create then stop(): every plugin past register releases in reverse order, though none started', async () => {
      const host = await Host.create(await configWith({ a: acquiring('a'), b: acquiring('b') }), { log: silentLogger });
      await host.stop();
      assert.deepEqual(globalThis.kernelLog, ['release b init', 'release b register', 'release a init', 'release a register']);
    });

    it('after a start, plugin stop() runs before the plugin\'s own hooks', async () => {
      const host = await Host.create(await configWith({ a: acquiring('a'), b: acquiring('b') }), { log: silentLogger });
      await host.start();
      await host.stop();
      assert.deepEqual(globalThis.kernelLog, ['stop b', 'release b init', 'release b register', 'stop a', 'release a init', 'release a register']);
    });

    it('a boot that fails half-way releases what the plugins before (and the failing one) acquired', async () => {
      const config = await configWith({ a: acquiring('a'), b: acquiring('b', `throw new Error('boom');`), c: acquiring('c') });
      const err = await bootError(Host.create(config, { log: silentLogger }));
      assert.match(err.message, /plugin "b" failed to init: boom/);
      assert.deepEqual(globalThis.kernelLog, ['release c register', 'release b init', 'release b register', 'release a init', 'release a register']);
    });

    it('a devnet opened by Host.create is released by stop(), so the next boot in the same process opens it again', async () => {
      for (let boot = 0; boot < 2; boot++) {
        const host = await Host.create(await configWith({}, {}, {}, { devnet: { listen: false, printAccounts: false } }), { log: silentLogger });
        await host.stop();
      }
    });
  });

  describe('with the bds plugin', () => {
    /** A config with bds (on a copy of an initialised PGlite cluster) and the given modules. */
    async function withBds(modules: Record<string, string>, extra: Record<string, unknown> = {}): Promise<LoadedConfig> {
      await cp(await pgliteTemplateDir(), path.join(dir, 'home', 'bds'), { recursive: true });
      return configWith(modules, extra, {}, { bds: {} });
    }
    const addsIndexer = (name: string, indexer: string, after = '') => pluginSource(name, `
      init(ctx) {
        ctx.use({ id: 'bds.indexers' }).addIndexer({ name: ${JSON.stringify(indexer)}, capability: 'read', async apply() {} });
        ${after}
      },`, `requires: ['bds'],`);

    it('a failed optional plugin\'s BDS indexer is not registered', async () => {
      const config = await withBds({ flaky: addsIndexer('flaky', 'flaky-projection', `throw new Error('cannot reach its API');`) }, { optionalPlugins: ['./flaky.mjs'] });
      const host = await Host.create(config, { log: silentLogger });
      try {
        assert.deepEqual(host.pluginNames(), ['bds']);
        const names = host.resolve(BdsInternalTokens.service).service().indexers().map((i) => i.name);
        assert.ok(!names.includes('flaky-projection'), names.join(', '));
      } finally {
        await host.stop();
      }
    });

    it('a duplicate BDS indexer names both contributing plugins', async () => {
      const config = await withBds({ one: addsIndexer('one', 'same-projection'), two: addsIndexer('two', 'same-projection') });
      const err = await bootError(Host.create(config, { log: silentLogger }));
      assert.equal(err.message, 'bds indexer "same-projection" is contributed twice: by plugin "one" and by plugin "two"');
    });
  });
});
