// tsyringe refuses to load without a Reflect metadata polyfill; no decorator is used, so this is the only import of it.
import 'reflect-metadata';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { container as rootContainer, instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { WebSocketServer } from 'ws';
import { CapabilityPolicy } from '../core/capability.js';
import { ContributionList } from '../core/contribution-list.js';
import { CoreTokens } from '../core/core-tokens.js';
import { ApiError, BootError } from '../core/errors.js';
import { isExtensionPoint, type Contributor, type ExtensionPoint, type ExtensionPointFactory } from '../core/extension-point.js';
import type { MetricsRegistrar } from '../core/metrics.js';
import type { LoadedConfig } from '../core/config/load-config.js';
import { HOST_ENV_BINDINGS, type EnvBinding } from '../core/config/environment.js';
import { parsePluginOptions } from '../core/config/plugin-options.js';
import { createLogger, type Logger } from '../core/logger.js';
import type { AnyPlugin, PluginContext } from '../core/plugin.js';
import { QueryPathRegistry } from '../core/query/query-path-registry.js';
import type { AnsweredRequest, OwnListener, RouteContribution, ServerDeclaration, UpgradeRefusal, WebSocketContribution } from '../core/routes.js';
import { asInjectionToken, tokenName, type Token } from '../core/tokens.js';
import type { ToolDefinition } from '../core/tools/tool.js';
import { ToolInvoker } from '../core/tools/tool-invoker.js';
import { HostAccounts, PASSPHRASE_VARIABLE } from '../core/keystore/host-accounts.js';
import { passphraseFromEnvironment } from '../core/keystore/passphrase-source.js';
import { ToolSelection } from '../core/tools/tool-selection.js';
import type { ScryptParams } from '../core/keystore/keystore-file.js';
import { DEFAULT_KEY_ARGUMENTS, usesKeystore } from '../core/tools/signer-arguments.js';
import { bootOrder } from './boot-order.js';
import { withinDeadline, type PluginPhase } from './phase-deadline.js';
import { createDefaultChainNode } from './default-node.js';
import { resolvePlugins } from './plugin-resolver.js';
import { checkBindRules } from './servers/bind-rules.js';
import { createKoaApp } from './servers/koa-app.js';
import { ClientInFlight, DEFAULT_HTTP_SERVER_LIMITS, httpServerOptions, refuseOverClientCap } from '../core/http/server-limits.js';
import { routeMount } from './servers/route-mounts.js';
import { urlFor } from '../core/net/bind-address.js';
import { redactUrl } from '../core/net/redact-url.js';
import { loopbackHostHeaderAllowed } from '../core/net/host-header.js';
import { HostMetrics, UNKNOWN_TOOL } from './metrics/host-metrics.js';
import { METRICS_SERVER, metricsSurface } from './metrics/metrics-surface.js';

/** Servers the host itself owns, bound only when the command and config ask for them. */
const HOST_SERVERS = ['tools', METRICS_SERVER] as const;

export interface HostOptions {
  log?: Logger;
  /**
   * The keystore under `<home>/keys`: where its passphrase comes from at start (default:
   * CHAIN_KEYSTORE_PASSPHRASE; commands add a terminal prompt) and the scrypt cost of accounts
   * stored by tools (tests lower it).
   */
  keystore?: { passphrase?: (hasAccounts: boolean) => Promise<string | null>; scrypt?: ScryptParams };
  /** Extra surfaces the command adds before start (the tool server declares itself here). */
  surfaces?: Array<(host: Host) => void>;
}

interface BootedPlugin {
  plugin: AnyPlugin;
  key: string;
  ctx: PluginContext<unknown>;
  optional: boolean;
  failed?: string;
  started?: boolean;
  /** Teardown the plugin registered with ctx.onStop, in the order it acquired the resources. */
  stopHooks: Array<() => Promise<void> | void>;
}

/** An extension point's owner and the view it made for each plugin that used the point. */
interface ProvidedPoint {
  owner: string;
  factory: ExtensionPointFactory<unknown>;
  views: Map<string, unknown>;
}

interface RunningServer {
  declaration: ServerDeclaration;
  server: http.Server;
  url: string;
  sockets?: WebSocketServer;
}

/**
 * The composition root: resolves the configured plugins, orders them by `requires`, runs
 * register → init → freeze, then start and the servers; stops in reverse.
 */
export class Host {
  readonly log: Logger;
  readonly policy: CapabilityPolicy;
  readonly tools = new ContributionList<ToolDefinition>('tool', (t) => t.name);
  readonly queryPaths = new QueryPathRegistry();
  readonly routes = new ContributionList<RouteContribution>('route', (r) => `${r.server}:${r.id}`);
  readonly webSockets = new ContributionList<WebSocketContribution>('websocket', (w) => `${w.server}:${w.path}`);
  readonly servers = new ContributionList<ServerDeclaration>('server', (s) => s.name, null);
  /** Ports plugins bind themselves (the devnet's node RPC and metrics), for `--check`. */
  readonly ownListeners: Array<OwnListener & { plugin: string }> = [];
  readonly invoker: ToolInvoker;
  /** Prometheus figures; recorded and served only when the `metrics` server is configured. */
  readonly metrics: HostMetrics;
  private readonly lists: ContributionList<unknown>[] = [this.tools, this.queryPaths.list, this.routes, this.webSockets, this.servers] as ContributionList<unknown>[];
  private readonly container: DependencyContainer;
  private readonly provided = new Map<symbol, string>();
  private readonly extensionPoints = new Map<string, ProvidedPoint>();
  private booted: BootedPlugin[] = [];
  private running: RunningServer[] = [];
  private stopping: Promise<void> | null = null;
  private readonly stopHooks: Array<() => Promise<void> | void> = [];
  /** The keystore accounts every signing tool resolves (CoreTokens.accounts), opened in start(). */
  readonly accounts: HostAccounts;
  private readonly keystorePassphrase: (hasAccounts: boolean) => Promise<string | null>;
  /**
   * The passphrase check started as the host is created, when the environment holds the
   * passphrase: its one scrypt runs on the thread pool while the plugins load, so start-up does
   * not wait for it (and never for more than one, whatever the number of accounts).
   */
  private earlyUnlock: Promise<{ passphrase: string; error: unknown } | null> = Promise.resolve(null);
  /** What the start banner says about the keystore (null when no tool uses it). */
  private keystoreState: string | null = null;

  private constructor(readonly config: LoadedConfig, options: HostOptions) {
    this.log = options.log ?? createLogger();
    this.policy = new CapabilityPolicy(config.settings.unsafeEnabled);
    this.container = rootContainer.createChildContainer();
    const served = config.settings.metrics !== null;
    this.metrics = new HostMetrics({ processMetrics: served });
    this.invoker = new ToolInvoker(this.tools, this.log.child('tools'), {
      defaultTimeoutMs: config.settings.tools.timeoutMs,
      selection: new ToolSelection(config.settings.tools.include, config.settings.tools.exclude),
      addressOfAlias: (text) => this.accounts.find(text)?.address ?? null,
      // Nothing per call when nobody scrapes: the hook is left out entirely.
      ...(served ? {
        onCallFinished: (e) => this.metrics.recordToolCall({
          tool: this.tools.get(e.tool) || this.tools.withheldEntry(e.tool) ? e.tool : UNKNOWN_TOOL, transport: e.transport, outcome: e.outcome, durationMs: e.durationMs,
        }),
      } : {}),
    });
    this.container.register(asInjectionToken(CoreTokens.chainNode), {
      useFactory: instanceCachingFactory(() => createDefaultChainNode(config.settings.nodeUrl)),
    });
    this.provided.set(CoreTokens.chainNode, 'host (default)');
    this.container.register(asInjectionToken(CoreTokens.queryPaths), { useValue: this.queryPaths });
    this.container.register(asInjectionToken(CoreTokens.toolInvoker), { useValue: this.invoker });
    const metrics = this.metrics;
    const registrar: MetricsRegistrar = { addGauge: (gauge) => metrics.addGauge(gauge), addCounter: (counter) => metrics.addCounter(counter) };
    this.container.register(asInjectionToken(CoreTokens.metrics), { useValue: registrar });
    this.accounts = new HostAccounts(config.settings.home, { scrypt: options.keystore?.scrypt });
    this.keystorePassphrase = options.keystore?.passphrase ?? (() => passphraseFromEnvironment());
    this.container.register(asInjectionToken(CoreTokens.accounts), { useValue: this.accounts });
    // Raw key arguments are allowed unless the plugin owning the setting (wallet) provides it.
    this.container.register(asInjectionToken(CoreTokens.keyArguments), { useValue: DEFAULT_KEY_ARGUMENTS });
    this.provided.set(CoreTokens.keyArguments, 'host (default)');
  }

  /** Resolves, orders, registers and initialises every configured plugin; registries are frozen afterwards. */
  static async create(config: LoadedConfig, options: HostOptions = {}): Promise<Host> {
    const host = new Host(config, options);
    // Not for MCP stdio: there the check runs after the session opens (start's keystoreCheck
    // 'background'), so its scrypt does not compete with loading the plugins for the CPU.
    if (!config.settings.tools.stdio) host.earlyUnlock = host.unlockFromEnvironment();
    const resolved = await resolvePlugins(config.file.plugins, config.baseDir);
    const ordered = bootOrder(resolved.map((r) => r.plugin));
    const keyOf = new Map(resolved.map((r) => [r.plugin.name, r.key]));
    const optional = new Set(config.file.optionalPlugins);
    const loadedNames = ordered.map((p) => p.name);
    host.booted = ordered.map((plugin) => {
      const key = keyOf.get(plugin.name)!;
      const options = parsePluginOptions(key, plugin, config);
      const booted: BootedPlugin = { plugin, key, optional: optional.has(key) || optional.has(plugin.name), ctx: undefined!, stopHooks: [] };
      booted.ctx = host.contextFor(booted, options, loadedNames);
      return booted;
    });
    if (config.settings.metrics) {
      const { declaration, routes } = metricsSurface(host.metrics, config.settings.metrics);
      host.declareServer(declaration, routes);
    }
    for (const surface of options.surfaces ?? []) surface(host);
    try {
      await host.phase('register', (b) => b.plugin.register?.(b.ctx));
      await host.phase('init', (b) => b.plugin.init?.(b.ctx));
      host.checkTargets();
      host.checkToolSelection();
    } catch (err) {
      // Release what the plugins acquired before the failure (an open devnet, a database).
      await host.stop().catch(() => undefined);
      throw err;
    }
    // One policy pass: what the capability policy refuses is withheld from every list here.
    for (const list of host.lists) list.freeze(host.policy);
    return host;
  }

  /** A tools.include / tools.exclude entry that names no tool nor group is a typo: refused at start, naming what exists. */
  private checkToolSelection(): void {
    const { include, exclude } = this.config.settings.tools;
    const selection = new ToolSelection(include, exclude);
    const every = [...this.tools.list(), ...this.tools.withheld()]; // before or after the freeze alike
    const unknown = selection.unmatched(every);
    if (unknown.length) {
      throw new BootError('config_invalid', `tools.include / tools.exclude: no tool or group named ${unknown.map((u) => JSON.stringify(u)).join(', ')}; groups: ${ToolSelection.groupsOf(every).join(', ')}`);
    }
  }

  /** Every contribution list: the host's (tools, query paths, routes, WebSockets, servers) and those plugins created for their extension points. */
  contributionLists(): readonly ContributionList<unknown>[] {
    return this.lists;
  }

  /**
   * Settles when the keystore's passphrase check has ended; rejects (BootError) on a wrong
   * passphrase. start() awaits it unless told `keystoreCheck: 'background'`, which an MCP stdio
   * server uses to answer its client without waiting for the check's scrypt (it still stops with
   * the one-line error when the check fails; account use waits for the check meanwhile).
   */
  keystoreReady: Promise<void> = Promise.resolve();

  /** Starts every plugin in order, then binds every declared server. */
  async start(options: { keystoreCheck?: 'await' | 'background' } = {}): Promise<void> {
    // Bind rules first: a refused bind must not leave started plugins behind.
    this.checkBindRules();
    try {
      await this.openKeystore();
      if (options.keystoreCheck !== 'background') await this.keystoreReady;
    } catch (err) {
      // Nothing started yet: release what init opened (an in-process devnet, a database).
      await this.stop().catch(() => undefined);
      throw err;
    }
    await this.phase('start', async (b) => {
      await b.plugin.start?.(b.ctx);
      // A start that finishes after its deadline belongs to a plugin already given up on.
      if (!b.failed && !this.stopping) b.started = true;
    });
    try {
      for (const declaration of this.servers.values()) {
        this.running.push(await this.listen(declaration));
      }
    } catch (err) {
      await this.stop().catch(() => undefined);
      throw err;
    }
  }

  /**
   * Opens the keystore when a visible tool takes an account or stores one (`store_as`): with a
   * passphrase (the command's source prompts only when there are accounts to unlock) every
   * account is decrypted — an empty keystore then takes `store_as` under that passphrase; a
   * wrong one is a BootError (one line). Without one it stays locked, and `account` arguments
   * say how to unlock it.
   */
  private async openKeystore(): Promise<void> {
    const wanted = this.invoker.visible().some((tool) => usesKeystore(tool));
    if (!wanted) {
      // Read tools still take an account's alias for an address: the list needs no passphrase.
      await this.accounts.hasAccounts().catch((err: unknown) => this.log.warn(`keystore aliases unavailable: ${(err as Error).message}`));
      return;
    }
    const stored = await this.accounts.hasAccounts();
    const passphrase = await this.keystorePassphrase(stored);
    if (passphrase) {
      const early = this.earlyUnlock;
      this.keystoreReady = early.then(async (checked) => {
        if (!checked || checked.passphrase !== passphrase) return this.accounts.unlock(passphrase);
        if (checked.error) throw checked.error;
      });
      // Observed here so a background check that fails is no unhandled rejection (its owner reports it).
      this.keystoreReady.catch(() => undefined);
      this.keystoreState = `${this.accounts.entries().length} account(s) in ${this.accounts.keystore.dir}, passphrase checked at start, each account decrypted on first use`;
    } else {
      this.keystoreState = stored ? `locked (no ${PASSPHRASE_VARIABLE}): account arguments are refused` : `empty (no ${PASSPHRASE_VARIABLE}): store_as is refused`;
    }
  }

  /** Checks the environment's passphrase against the keystore now (see earlyUnlock); errors are kept for openKeystore. */
  private async unlockFromEnvironment(): Promise<{ passphrase: string; error: unknown } | null> {
    let passphrase: string | null;
    try {
      passphrase = await passphraseFromEnvironment();
    } catch {
      return null; // openKeystore asks the source again and reports it, if a tool needs the keystore
    }
    if (!passphrase) return null;
    try {
      await this.accounts.unlock(passphrase);
      return { passphrase, error: null };
    } catch (error) {
      return { passphrase, error };
    }
  }

  /**
   * `--check`: unlocks the keystore as start() would, so a wrong passphrase fails the check
   * instead of the start (the accounts are decrypted in memory only, nothing is bound).
   */
  async checkKeystore(): Promise<string | null> {
    await this.openKeystore();
    await this.keystoreReady;
    return this.keystoreState;
  }

  /** Refuses (BootError unsafe_bind) any declared server the bind rules forbid, without binding anything. */
  checkBindRules(): void {
    for (const declaration of this.servers.values()) checkBindRules(declaration, this.config.settings);
  }

  async stop(): Promise<void> {
    this.stopping ??= this.doStop();
    return this.stopping;
  }

  /** Adds a server or route from outside any plugin (the command's own surfaces). */
  declareServer(declaration: ServerDeclaration, routes: RouteContribution[] = []): void {
    this.servers.add('host', declaration);
    for (const route of routes) this.routes.add('host', route);
  }

  /**
   * Runs when the host stops, before its servers close, newest first: command-owned surfaces
   * (MCP sessions, stdio) release what they hold here.
   */
  onStop(hook: () => Promise<void> | void): void {
    this.stopHooks.push(hook);
  }

  serverUrl(name: string): string | undefined {
    return this.running.find((r) => r.declaration.name === name)?.url;
  }

  resolve<T>(token: Token<T>): T {
    return this.container.resolve(asInjectionToken(token));
  }

  /** The variables this host read its config with: the host's own, then each loaded plugin's (paths as written in the config file). */
  envBindings(): EnvBinding[] {
    const plugins = this.booted.filter((b) => !b.failed).flatMap((b) => (b.plugin.env ?? []).map((e) => ({ ...e, path: ['plugins', b.key, ...e.path] })));
    return [...HOST_ENV_BINDINGS, ...plugins];
  }

  pluginNames(): string[] {
    return this.booted.filter((b) => !b.failed).map((b) => b.plugin.name);
  }

  /** The effective plugin set, surfaces and policy, for the start banner; never secrets. */
  describe(): string[] {
    const s = this.config.settings;
    const lines = [
      `plugins: ${this.pluginNames().join(', ') || '(none)'}`,
      `policy: ${this.policyLine()}`,
      `tools: ${this.invoker.visible().length} visible of ${this.tools.values().length + this.tools.withheld().length}`,
      `node: ${this.provided.get(CoreTokens.chainNode) === 'host (default)' ? redactUrl(s.nodeUrl) : `in-process (${this.provided.get(CoreTokens.chainNode)})`}; chain id ${s.chainId}`,
    ];
    for (const r of this.running) lines.push(`${r.declaration.name}: ${r.url}${r.declaration.name === METRICS_SERVER ? '/metrics' : ''}`);
    // Where each plugin's routes answer: a third-party route is otherwise invisible until someone reads its source.
    for (const { plugin, value } of this.routes.list()) {
      const url = this.serverUrl(value.server);
      if (url) lines.push(`route ${value.id} (${plugin}): ${url} ${routeMount(value)}`);
    }
    if (this.keystoreState) lines.push(`keystore: ${this.keystoreState}`);
    if (s.tools.stdio) lines.push('mcp: stdio');
    const failed = this.booted.filter((b) => b.failed);
    for (const f of failed) lines.push(`skipped optional plugin ${f.plugin.name}: ${f.failed}`);
    return lines;
  }

  /**
   * Whether the node this host reads answers (`/health`): its CometBFT `health`, waiting at most
   * `timeoutMs`. The reason is the error's message, never a stack. Null when no loaded plugin
   * reads a node (a crypto-only host has none to be healthy).
   */
  async nodeHealth(timeoutMs = 2_000): Promise<{ ok: true } | { ok: false; error: string } | null> {
    if (!this.nodeCreated) return null;
    try {
      await this.resolve(CoreTokens.chainNode).health({ timeoutMs });
      return { ok: true };
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }

  /**
   * The capability policy as it applies to what is loaded: with the unsafe flag on but no
   * unsafe contribution (the read-only set), "read + unsafe" would promise tools that are not there.
   */
  policyLine(): string {
    if (!this.policy.unsafeEnabled) return this.policy.describe();
    const unsafe = this.lists.some((list) => list.capabilityOf && list.values().some((value) => list.capabilityOf!(value) === 'unsafe'));
    return unsafe ? this.policy.describe() : 'read only (unsafe tools enabled, but no loaded plugin has any)';
  }

  /** The deadline of one plugin phase (ms), from `pluginTimeouts`. */
  private deadlineOf(phase: PluginPhase): number {
    return this.config.file.pluginTimeouts[`${phase}Ms`];
  }

  private async phase(name: 'register' | 'init' | 'start', step: (b: BootedPlugin) => unknown): Promise<void> {
    for (const b of this.booted) {
      if (b.failed) continue;
      const missing = (b.plugin.requires ?? []).find((dep) => this.booted.find((o) => o.plugin.name === dep)?.failed);
      if (missing) {
        await this.markFailed(b, `requires ${missing}, which failed`);
        continue;
      }
      try {
        await withinDeadline(() => step(b), name, this.deadlineOf(name));
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        if (b.optional && !(err instanceof BootError && (err.code === 'duplicate_tool' || err.code === 'missing_capability'))) {
          this.log.warn(`optional plugin ${b.plugin.name} failed to ${name}; continuing without it`, { reason });
          await this.markFailed(b, reason);
          continue;
        }
        if (name === 'start') await this.stop().catch(() => undefined);
        if (err instanceof BootError) throw err;
        throw new BootError('plugin_failed', `plugin "${b.plugin.name}" failed to ${name}: ${reason}`, { cause: err });
      }
    }
  }

  /** A failed optional plugin leaves nothing behind: its contributions, the points it owns, what it acquired. */
  private async markFailed(b: BootedPlugin, reason: string): Promise<void> {
    b.failed = reason;
    for (const list of this.lists) list.removePlugin(b.plugin.name);
    for (let i = this.ownListeners.length - 1; i >= 0; i--) if (this.ownListeners[i]!.plugin === b.plugin.name) this.ownListeners.splice(i, 1);
    for (const [id, point] of this.extensionPoints) if (point.owner === b.plugin.name) this.extensionPoints.delete(id);
    await this.runStopHooks(b);
  }

  private async runStopHooks(b: BootedPlugin): Promise<void> {
    const hooks = b.stopHooks.splice(0).reverse();
    for (const hook of hooks) await this.runStopHook(hook, `plugin ${b.plugin.name}: a stop hook failed`);
  }

  /** One teardown, bounded by pluginTimeouts.stopMs: a hook that hangs is logged and abandoned, never keeps the process alive. */
  private async runStopHook(hook: () => Promise<void> | void, failure: string): Promise<void> {
    try {
      await withinDeadline(hook, 'stop', this.deadlineOf('stop'));
    } catch (err) {
      this.log.error(failure, { reason: err instanceof Error ? err.message : String(err) });
    }
  }

  /**
   * Every route and WebSocket must target a declared server: a typo is a boot error naming the
   * plugin, not a silent drop. The host's own servers (`tools`, `metrics`) are known even when
   * this command does not serve them; what targets them is then simply not mounted.
   */
  private checkTargets(): void {
    const declared = new Set([...HOST_SERVERS, ...this.servers.values().map((s) => s.name)]);
    const targeted = [
      ...this.routes.list().map((e) => ({ plugin: e.plugin, what: `route "${e.value.id}"`, server: e.value.server })),
      ...this.webSockets.list().map((e) => ({ plugin: e.plugin, what: `WebSocket "${e.value.path}"`, server: e.value.server })),
    ];
    for (const t of targeted) {
      if (declared.has(t.server)) continue;
      throw new BootError('unknown_target', `plugin "${t.plugin}" adds ${t.what} to server "${t.server}", which is not declared (declared: ${[...declared].join(', ') || 'none'}); declare it with ctx.servers.declare, or check ctx.servers.isDeclared first`);
    }
  }

  private async listen(declaration: ServerDeclaration): Promise<RunningServer> {
    const routes = this.routes.values().filter((r) => r.server === declaration.name);
    const outer = this.config.settings.metrics ? [this.metrics.httpMiddleware(declaration.name)] : [];
    const app = createKoaApp(declaration, routes, this.log, outer);
    const maxHeaderSize = declaration.maxHeaderBytes ?? http.maxHeaderSize;
    const limits = { ...DEFAULT_HTTP_SERVER_LIMITS, ...declaration.limits };
    const server = http.createServer({ maxHeaderSize, ...httpServerOptions(limits) }, this.requestListener(declaration, app.callback(), new ClientInFlight(limits.maxInFlightPerClient)));
    server.keepAliveTimeout = 65_000;
    server.on('clientError', (err: NodeJS.ErrnoException, socket) => answerClientError(err, socket, maxHeaderSize, limits.requestTimeoutMs));
    const sockets = this.webSockets.values().filter((w) => w.server === declaration.name);
    let wss: WebSocketServer | undefined;
    if (sockets.length) {
      wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
      const hostAllowed = declaration.kind === 'query' ? loopbackHostHeaderAllowed(declaration.host) : null;
      server.on('upgrade', (req, socket, head) => {
        if (hostAllowed && !hostAllowed(req.headers.host, req.socket)) {
          socket.end('HTTP/1.1 403 Forbidden: Host does not name this server\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
          return;
        }
        const path = (req.url ?? '/').split('?')[0];
        const target = sockets.find((s) => s.path === path);
        const decide = (refusal: UpgradeRefusal | null) => {
          if (!target || refusal) {
            if (refusal?.status === 429 && this.config.settings.metrics) this.metrics.recordRateLimited(declaration.name);
            socket.end(`HTTP/1.1 ${refusal!.status} ${refusal!.message}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
            return;
          }
          wss!.handleUpgrade(req, socket, head, (ws) => target.handle(ws, req));
        };
        const refusal = target ? target.accept?.(req) ?? null : { status: 404, message: 'no WebSocket endpoint here' };
        if (!(refusal instanceof Promise)) return decide(refusal);
        refusal.then(decide, (err: unknown) => {
          this.log.error('WebSocket upgrade check failed', { server: declaration.name, path, error: err instanceof Error ? err.message : String(err) });
          decide({ status: 500, message: 'Internal Server Error' });
        });
      });
    }
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => {
        reject(new BootError('plugin_failed', `${declaration.name} server cannot listen on ${urlFor(declaration.host, declaration.port)}: ${err.code ?? err.message}`));
      });
      server.listen(declaration.port, declaration.host, () => resolve());
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : declaration.port;
    return { declaration, server, sockets: wss, url: urlFor(declaration.host, port) };
  }

  /** koa's listener, behind the per-client cap and the server's direct handler when it declares one. */
  private requestListener(declaration: ServerDeclaration, koa: http.RequestListener, perClient: ClientInFlight): http.RequestListener {
    const metrics = this.config.settings.metrics ? this.metrics : null;
    const admitted = (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
      if (perClient.admit(req, res)) return true;
      metrics?.recordRateLimited(declaration.name);
      refuseOverClientCap(res, perClient.maxPerClient);
      return false;
    };
    const direct = declaration.directHandler;
    if (!direct) {
      return (req, res) => {
        if (admitted(req, res)) void koa(req, res);
      };
    }
    const answered: AnsweredRequest = metrics
      ? (route, method, status, durationMs) => metrics.recordHttpRequest(declaration.name, route, method, status, durationMs)
      : () => undefined;
    return (req, res) => {
      if (admitted(req, res) && !direct(req, res, answered)) void koa(req, res);
    };
  }

  private async doStop(): Promise<void> {
    for (const hook of [...this.stopHooks].reverse()) await this.runStopHook(hook, 'a stop hook failed');
    for (const r of this.running.reverse()) {
      for (const client of r.sockets?.clients ?? []) client.terminate();
      r.sockets?.close();
      await new Promise<void>((resolve) => {
        r.server.close(() => resolve());
        r.server.closeAllConnections();
      });
    }
    this.running = [];
    for (const b of [...this.booted].reverse()) {
      if (b.started && !b.failed) {
        try {
          await withinDeadline(() => b.plugin.stop?.(b.ctx), 'stop', this.deadlineOf('stop'));
        } catch (err) {
          this.log.error(`plugin ${b.plugin.name} failed to stop cleanly`, { reason: err instanceof Error ? err.message : String(err) });
        }
      }
      // Also for plugins never started: what register or init acquired is released here.
      await this.runStopHooks(b);
    }
    const node = this.provided.get(CoreTokens.chainNode) === 'host (default)' && this.container.isRegistered(asInjectionToken(CoreTokens.chainNode));
    if (node && this.nodeCreated) await this.resolve(CoreTokens.chainNode).close();
  }

  private nodeCreated = false;

  private contextFor(booted: BootedPlugin, options: unknown, loadedPlugins: readonly string[]): PluginContext<unknown> {
    const host = this;
    const child = this.container.createChildContainer();
    const name = booted.plugin.name;
    const log = this.log.child(name);
    const contributor: Contributor = { name, log };
    /**
     * A plugin given up on (optional, failed or past its deadline) adds nothing more: its hook
     * may still be running, and whatever it adds late would outlive its removal.
     */
    const live = (what: string) => {
      if (booted.failed) throw new BootError('plugin_failed', `plugin "${name}" was skipped (${booted.failed}); ${what} after that is refused`);
    };
    const provideService = (token: Token<unknown>, value: unknown) => {
      const previous = host.provided.get(token);
      if (previous && previous !== 'host (default)') {
        throw new BootError('duplicate_contribution', `service "${tokenName(token)}" is provided twice: by ${previous} and by plugin "${name}"`);
      }
      host.provided.set(token, `plugin ${name}`);
      host.container.register(asInjectionToken(token), { useValue: value });
    };
    const providePoint = (point: ExtensionPoint<unknown>, factory: ExtensionPointFactory<unknown>) => {
      if (typeof factory !== 'function') {
        throw new BootError('invalid_contribution', `plugin "${name}" provides extension point "${point.id}" without a factory; call ctx.provide(point, (contributor) => implementation)`);
      }
      const existing = host.extensionPoints.get(point.id);
      if (existing) throw new BootError('duplicate_contribution', `extension point "${point.id}" is provided by "${existing.owner}" and "${name}"`);
      host.extensionPoints.set(point.id, { owner: name, factory, views: new Map() });
    };
    /** The owner's implementation made for this plugin, once. */
    const viewOf = (point: ExtensionPoint<unknown>): unknown => {
      const found = host.extensionPoints.get(point.id);
      if (!found) return undefined;
      if (!found.views.has(name)) found.views.set(name, found.factory(contributor));
      return found.views.get(name);
    };
    const provide = (target: Token<unknown> | ExtensionPoint<unknown>, value: unknown): void => {
      live('providing a service or extension point');
      if (typeof target === 'symbol') provideService(target, value);
      else if (isExtensionPoint(target)) providePoint(target, value as ExtensionPointFactory<unknown>);
      else throw new BootError('invalid_contribution', `plugin "${name}" provides something that is neither a token (createToken) nor an extension point (createExtensionPoint)`);
    };
    return {
      name,
      options,
      settings: this.config.settings,
      policy: this.policy,
      log,
      container: child,
      loadedPlugins,
      provide: provide as PluginContext['provide'],
      bind<T>(token: Token<T>, value: T) {
        live('binding a service');
        if (child.isRegistered(asInjectionToken(token), false)) {
          throw new BootError('duplicate_contribution', `plugin "${name}" binds "${tokenName(token)}" twice`);
        }
        child.register(asInjectionToken(token), { useValue: value });
      },
      resolve<T>(token: Token<T>): T {
        if (token === CoreTokens.chainNode) host.nodeCreated = true;
        if (!child.isRegistered(asInjectionToken(token), true)) {
          throw new BootError('missing_dependency', `plugin "${name}" needs service "${tokenName(token)}", which no loaded plugin provides`);
        }
        return child.resolve(asInjectionToken(token));
      },
      tryResolve<T>(token: Token<T>): T | undefined {
        if (token === CoreTokens.chainNode) host.nodeCreated = true;
        return child.isRegistered(asInjectionToken(token), true) ? child.resolve(asInjectionToken(token)) : undefined;
      },
      provideExtensionPoint<T>(point: ExtensionPoint<T>, implementation: T) {
        live('providing an extension point');
        providePoint(point, () => implementation);
      },
      use<T>(point: ExtensionPoint<T>): T {
        live(`using extension point "${point.id}"`);
        if (!host.extensionPoints.has(point.id)) throw new BootError('missing_dependency', `plugin "${name}" uses extension point "${point.id}", which no loaded plugin provides`);
        return viewOf(point) as T;
      },
      tryUse<T>(point: ExtensionPoint<T>): T | undefined {
        live(`using extension point "${point.id}"`);
        return viewOf(point) as T | undefined;
      },
      onStop(hook) {
        if (typeof hook !== 'function') throw new BootError('invalid_contribution', `plugin "${name}": ctx.onStop needs a function`);
        // Acquired by a hook that finished after the plugin was given up on: released at once.
        if (booted.failed) void host.runStopHook(hook, `plugin ${name}: a stop hook failed`);
        else booted.stopHooks.push(hook);
      },
      createContributionList<T>(kind: string, keyOf: (value: T) => string, capabilityOf?: ((value: T) => unknown) | null) {
        live('creating a contribution list');
        const list = new ContributionList<T>(kind, keyOf, capabilityOf === undefined ? undefined : capabilityOf);
        host.lists.push(list as ContributionList<unknown>);
        return list;
      },
      tools: {
        add: (tool) => {
          live(`adding tool "${String(tool?.name)}"`);
          host.tools.add(name, tool);
        },
        list: () => host.tools.values(),
      },
      queryPaths: {
        add: (path) => {
          live('adding a query path');
          if (typeof path?.pattern !== 'string' || !/^\/[^/\s]/.test(path.pattern)) {
            throw new BootError('invalid_contribution', `plugin "${name}" adds a query path with pattern ${JSON.stringify(path?.pattern)}; a pattern starts with "/" and its route, like /widgets/<id>`);
          }
          host.queryPaths.list.add(name, path);
        },
        registry: host.queryPaths,
      },
      routes: {
        add: (route) => {
          live('adding a route');
          host.routes.add(name, route);
        },
        addWebSocket: (socket) => {
          live('adding a WebSocket');
          host.webSockets.add(name, socket);
        },
      },
      servers: {
        declare: (server) => {
          live('declaring a server');
          host.servers.add(name, server);
        },
        isDeclared: (server) => host.servers.get(server) !== undefined,
        urlOf: (server) => host.serverUrl(server),
        declareOwn: (listener) => {
          live('declaring a port');
          host.ownListeners.push({ ...listener, plugin: name });
        },
      },
    };
  }
}

/**
 * What Node's parser refuses before any route runs. Node's own answer to an oversized request
 * line or header block is a bare 431 with no body; ours is the one error shape with its code, so
 * a client sees why (a dashboard `simulate_tx/<hex>` URL over the cap, say). Anything else keeps
 * Node's plain 400 and the socket is closed either way.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex, maxHeaderBytes: number, requestTimeoutMs: number): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    // headersTimeout or requestTimeout passed: a slow client loses its connection, not others their slots.
    const body = JSON.stringify(new ApiError(408, 'request_timeout', `the request (headers and body) did not arrive within ${requestTimeoutMs} ms`, { request_timeout_ms: requestTimeoutMs }).toBody());
    socket.end(`HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    return;
  }
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    const body = JSON.stringify(new ApiError(431, 'payload_too_large', `the request line and headers exceed ${maxHeaderBytes} bytes; send large payloads in a POST body`, { max_header_bytes: maxHeaderBytes }).toBody());
    socket.end(`HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    return;
  }
  socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
}
