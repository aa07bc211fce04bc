import 'reflect-metadata';
import http from 'node:http';
import { container as rootContainer, instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { WebSocketServer } from 'ws';
import { CapabilityPolicy } from '../core/capability.js';
import { ContributionList } from '../core/contribution-list.js';
import { CoreTokens } from '../core/core-tokens.js';
import { BootError } from '../core/errors.js';
import type { ExtensionPoint } from '../core/extension-point.js';
import type { MetricsRegistrar } from '../core/metrics.js';
import type { LoadedConfig } from '../core/config/load-config.js';
import { parsePluginOptions } from '../core/config/load-config.js';
import { createLogger, type Logger } from '../core/logger.js';
import type { AnyPlugin, PluginContext } from '../core/plugin.js';
import { QueryPathRegistry } from '../core/query/query-path-registry.js';
import type { AnsweredRequest, RouteContribution, ServerDeclaration, WebSocketContribution } from '../core/routes.js';
import { asInjectionToken, tokenName, type Token } from '../core/tokens.js';
import type { ToolDefinition } from '../core/tools/tool.js';
import { ToolInvoker } from '../core/tools/tool-invoker.js';
import { bootOrder } from './boot-order.js';
import { createDefaultChainNode } from './default-node.js';
import { resolvePlugins } from './plugin-resolver.js';
import { checkBindRules } from './servers/bind-rules.js';
import { createKoaApp } from './servers/koa-app.js';
import { urlFor } from '../core/net/bind-address.js';
import { loopbackHostHeaderAllowed } from '../core/net/host-header.js';
import { HostMetrics, UNKNOWN_TOOL } from './metrics/host-metrics.js';
import { METRICS_SERVER, metricsSurface } from './metrics/metrics-surface.js';

export interface HostOptions {
  log?: Logger;
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
  readonly invoker: ToolInvoker;
  /** Prometheus figures; recorded and served only when the `metrics` server is configured. */
  readonly metrics: HostMetrics;
  private readonly lists: ContributionList<unknown>[] = [this.tools, this.queryPaths.list, this.routes, this.webSockets, this.servers] as ContributionList<unknown>[];
  private readonly container: DependencyContainer;
  private readonly provided = new Map<symbol, string>();
  private readonly extensionPoints = new Map<string, { owner: string; implementation: unknown }>();
  private booted: BootedPlugin[] = [];
  private running: RunningServer[] = [];
  private stopping: Promise<void> | null = null;
  private readonly stopHooks: Array<() => Promise<void> | void> = [];

  private constructor(readonly config: LoadedConfig, options: HostOptions) {
    this.log = options.log ?? createLogger();
    this.policy = new CapabilityPolicy(config.settings.unsafeEnabled);
    this.container = rootContainer.createChildContainer();
    const served = config.settings.metrics !== null;
    this.metrics = new HostMetrics({ processMetrics: served });
    this.invoker = new ToolInvoker(this.tools, this.policy, this.log.child('tools'), {
      defaultTimeoutMs: config.settings.tools.timeoutMs,
      // Nothing per call when nobody scrapes: the hook is left out entirely.
      ...(served ? {
        onCallFinished: (e) => this.metrics.recordToolCall({
          tool: this.tools.get(e.tool) ? e.tool : UNKNOWN_TOOL, transport: e.transport, outcome: e.outcome, durationMs: e.durationMs,
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
  }

  /** Resolves, orders, registers and initialises every configured plugin; registries are frozen afterwards. */
  static async create(config: LoadedConfig, options: HostOptions = {}): Promise<Host> {
    const host = new Host(config, options);
    const resolved = await resolvePlugins(config.file.plugins, config.baseDir);
    const ordered = bootOrder(resolved.map((r) => r.plugin));
    const keyOf = new Map(resolved.map((r) => [r.plugin.name, r.key]));
    const optional = new Set(config.file.optionalPlugins);
    const loadedNames = ordered.map((p) => p.name);
    host.booted = ordered.map((plugin) => {
      const key = keyOf.get(plugin.name)!;
      const options = parsePluginOptions(key, plugin.config, config.file.plugins[key]);
      return { plugin, key, optional: optional.has(key) || optional.has(plugin.name), ctx: host.contextFor(plugin, options, loadedNames) };
    });
    if (config.settings.metrics) {
      const { declaration, routes } = metricsSurface(host.metrics, config.settings.metrics);
      host.declareServer(declaration, routes);
    }
    for (const surface of options.surfaces ?? []) surface(host);
    await host.phase('register', (b) => b.plugin.register?.(b.ctx));
    await host.phase('init', (b) => b.plugin.init?.(b.ctx));
    for (const list of host.lists) list.freeze();
    return host;
  }

  /** Starts every plugin in order, then binds every declared server. */
  async start(): Promise<void> {
    // Bind rules first: a refused bind must not leave started plugins behind.
    for (const declaration of this.servers.values()) {
      checkBindRules(declaration, this.config.settings);
    }
    await this.phase('start', async (b) => {
      await b.plugin.start?.(b.ctx);
      b.started = true;
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

  pluginNames(): string[] {
    return this.booted.filter((b) => !b.failed).map((b) => b.plugin.name);
  }

  /** The effective plugin set, surfaces and policy, for the start banner; never secrets. */
  describe(): string[] {
    const s = this.config.settings;
    const lines = [
      `plugins: ${this.pluginNames().join(', ') || '(none)'}`,
      `policy: ${this.policy.describe()}`,
      `tools: ${this.invoker.visible().length} visible of ${this.tools.values().length}`,
      `node: ${this.provided.get(CoreTokens.chainNode) === 'host (default)' ? s.nodeUrl : `in-process (${this.provided.get(CoreTokens.chainNode)})`}; chain id ${s.chainId}`,
    ];
    for (const r of this.running) lines.push(`${r.declaration.name}: ${r.url}${r.declaration.name === METRICS_SERVER ? '/metrics' : ''}`);
    if (s.tools.stdio) lines.push('mcp: stdio');
    const failed = this.booted.filter((b) => b.failed);
    for (const f of failed) lines.push(`skipped optional plugin ${f.plugin.name}: ${f.failed}`);
    return lines;
  }

  private async phase(name: 'register' | 'init' | 'start', step: (b: BootedPlugin) => unknown): Promise<void> {
    for (const b of this.booted) {
      if (b.failed) continue;
      const missing = (b.plugin.requires ?? []).find((dep) => this.booted.find((o) => o.plugin.name === dep)?.failed);
      if (missing) {
        this.markFailed(b, `requires ${missing}, which failed`);
        continue;
      }
      try {
        await step(b);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        if (b.optional && !(err instanceof BootError && (err.code === 'duplicate_tool' || err.code === 'missing_capability'))) {
          this.log.warn(`optional plugin ${b.plugin.name} failed to ${name}; continuing without it`, { reason });
          this.markFailed(b, reason);
          continue;
        }
        if (name === 'start') await this.stop().catch(() => undefined);
        if (err instanceof BootError) throw err;
        throw new BootError('plugin_failed', `plugin "${b.plugin.name}" failed to ${name}: ${reason}`, { cause: err });
      }
    }
  }

  private markFailed(b: BootedPlugin, reason: string): void {
    b.failed = reason;
    for (const list of this.lists) list.removePlugin(b.plugin.name);
  }

  private async listen(declaration: ServerDeclaration): Promise<RunningServer> {
    const routes = this.routes.values().filter((r) => r.server === declaration.name && this.policy.allows(r.capability));
    const outer = this.config.settings.metrics ? [this.metrics.httpMiddleware(declaration.name)] : [];
    const app = createKoaApp(declaration, routes, this.log, outer);
    const server = http.createServer(this.requestListener(declaration, app.callback()));
    server.keepAliveTimeout = 65_000;
    const sockets = this.webSockets.values().filter((w) => w.server === declaration.name && this.policy.allows(w.capability));
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
        const refusal = target ? target.accept?.(req) ?? null : { status: 404, message: 'no WebSocket endpoint here' };
        if (!target || refusal) {
          if (refusal?.status === 429 && this.config.settings.metrics) this.metrics.recordRateLimited(declaration.name);
          socket.end(`HTTP/1.1 ${refusal!.status} ${refusal!.message}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
          return;
        }
        wss!.handleUpgrade(req, socket, head, (ws) => target.handle(ws, req));
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

  /** koa's listener, behind the server's direct handler when it declares one. */
  private requestListener(declaration: ServerDeclaration, koa: http.RequestListener): http.RequestListener {
    const direct = declaration.directHandler;
    if (!direct) return koa;
    const answered: AnsweredRequest = this.config.settings.metrics
      ? (route, method, status, durationMs) => this.metrics.recordHttpRequest(declaration.name, route, method, status, durationMs)
      : () => undefined;
    return (req, res) => {
      if (!direct(req, res, answered)) void koa(req, res);
    };
  }

  private async doStop(): Promise<void> {
    for (const hook of [...this.stopHooks].reverse()) {
      try {
        await hook();
      } catch (err) {
        this.log.error('a stop hook failed', { reason: err instanceof Error ? err.message : String(err) });
      }
    }
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
      if (!b.started || b.failed) continue;
      try {
        await b.plugin.stop?.(b.ctx);
      } catch (err) {
        this.log.error(`plugin ${b.plugin.name} failed to stop cleanly`, { reason: err instanceof Error ? err.message : String(err) });
      }
    }
    const node = this.provided.get(CoreTokens.chainNode) === 'host (default)' && this.container.isRegistered(asInjectionToken(CoreTokens.chainNode));
    if (node && this.nodeCreated) await this.resolve(CoreTokens.chainNode).close();
  }

  private nodeCreated = false;

  private contextFor(plugin: AnyPlugin, options: unknown, loadedPlugins: readonly string[]): PluginContext<unknown> {
    const host = this;
    const child = this.container.createChildContainer();
    const name = plugin.name;
    const log = this.log.child(name);
    return {
      name,
      options,
      settings: this.config.settings,
      policy: this.policy,
      log,
      container: child,
      loadedPlugins,
      provide<T>(token: Token<T>, value: T) {
        const previous = host.provided.get(token);
        if (previous && previous !== 'host (default)') {
          throw new BootError('duplicate_contribution', `service "${tokenName(token)}" is provided twice: by ${previous} and by plugin "${name}"`);
        }
        host.provided.set(token, `plugin ${name}`);
        host.container.register(asInjectionToken(token), { useValue: value });
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
        const existing = host.extensionPoints.get(point.id);
        if (existing) throw new BootError('duplicate_contribution', `extension point "${point.id}" is provided by "${existing.owner}" and "${name}"`);
        host.extensionPoints.set(point.id, { owner: name, implementation });
      },
      use<T>(point: ExtensionPoint<T>): T {
        const found = host.extensionPoints.get(point.id);
        if (!found) throw new BootError('missing_dependency', `plugin "${name}" uses extension point "${point.id}", which no loaded plugin provides`);
        return found.implementation as T;
      },
      tryUse<T>(point: ExtensionPoint<T>): T | undefined {
        return host.extensionPoints.get(point.id)?.implementation as T | undefined;
      },
      createContributionList<T>(kind: string, keyOf: (value: T) => string, capabilityOf?: ((value: T) => unknown) | null) {
        const list = new ContributionList<T>(kind, keyOf, capabilityOf === undefined ? undefined : capabilityOf);
        host.lists.push(list as ContributionList<unknown>);
        return list;
      },
      tools: {
        add: (tool) => host.tools.add(name, tool),
        list: () => host.tools.values(),
      },
      queryPaths: {
        add: (path) => host.queryPaths.list.add(name, path),
        registry: host.queryPaths,
      },
      routes: {
        add: (route) => host.routes.add(name, route),
        addWebSocket: (socket) => host.webSockets.add(name, socket),
      },
      servers: {
        declare: (server) => host.servers.add(name, server),
        urlOf: (server) => host.serverUrl(server),
      },
    };
  }
}
