import type { DependencyContainer } from 'tsyringe';
import type { z } from 'zod';
import type { EnvBinding } from './config/environment.js';
import type { HostSettings } from './config/host-settings.js';
import type { CapabilityPolicy } from './capability.js';
import type { ContributionList } from './contribution-list.js';
import type { ExtensionPoint, ExtensionPointFactory } from './extension-point.js';
import type { Logger } from './logger.js';
import type { QueryPathDefinition } from './query/query-path.js';
import type { QueryPathRegistry } from './query/query-path-registry.js';
import type { OwnListener, RouteContribution, ServerDeclaration, WebSocketContribution } from './routes.js';
import type { Token } from './tokens.js';
import type { ToolDefinition } from './tools/tool.js';

/**
 * A plugin is a plain value. Lifecycle: every plugin's register() (sync: bind services,
 * provide extension points) → every init() (contribute tools, routes, query paths, use other
 * plugins' extension points) → the host freezes all registries → every start() in dependency
 * order → servers listen. stop() runs in reverse order.
 *
 * Teardown belongs where a resource is acquired: `ctx.onStop(fn)` right after opening it. The
 * host runs those hooks, newest first, for every plugin whose register() completed — when the
 * host stops, when the boot fails half-way, and at once for an optional plugin that fails.
 */
export interface PluginDefinition<C extends z.ZodType = z.ZodType> {
  /** kebab-case, unique. */
  name: string;
  description: string;
  /** Plugins that must be loaded and booted first. */
  requires?: readonly string[];
  /** Plugins that boot first when they are loaded, without being required. */
  after?: readonly string[];
  /** Schema of this plugin's options (`plugins.<name>` in the config file). */
  config?: C;
  /**
   * Environment variables that set this plugin's options while it is loaded: `path` is a key
   * inside its own options (`['apiUrl']` → `plugins.<name>.apiUrl`). They override the config
   * file; command-line flags override them. Several plugins may bind one variable.
   */
  env?: readonly EnvBinding[];
  register?(ctx: PluginContext<z.output<C>>): void;
  init?(ctx: PluginContext<z.output<C>>): Promise<void> | void;
  start?(ctx: PluginContext<z.output<C>>): Promise<void> | void;
  /** Runs for a plugin whose start() completed, before its onStop hooks; prefer `ctx.onStop` where the resource is opened. */
  stop?(ctx: PluginContext<z.output<C>>): Promise<void> | void;
}

export function definePlugin<C extends z.ZodType>(definition: PluginDefinition<C>): PluginDefinition<C> {
  return definition;
}

export type AnyPlugin = PluginDefinition<any>;

export interface PluginContext<Options = unknown> {
  readonly name: string;
  readonly options: Options;
  readonly settings: HostSettings;
  readonly policy: CapabilityPolicy;
  readonly log: Logger;
  /** This plugin's own child container (private bindings). */
  readonly container: DependencyContainer;
  /** Names of every plugin loaded in this host. */
  readonly loadedPlugins: readonly string[];

  /** Publishes a service to every plugin (root container). A second provider of the same token is a boot error, except over a host default. */
  provide<T>(token: Token<T>, value: T): void;
  /**
   * Provides an extension point this plugin owns (in register()): `factory` makes the
   * implementation each contributing plugin gets from `use(point)`, knowing who it is.
   */
  provide<T>(point: ExtensionPoint<T>, factory: ExtensionPointFactory<T>): void;
  /**
   * Binds a service private to this plugin, in its own child container: the per-instance state
   * its hooks share (one host's instance never sees another's). `resolve(token)` finds it.
   */
  bind<T>(token: Token<T>, value: T): void;
  /** A service bound by this plugin, else one published to every plugin; `missing_dependency` when neither. */
  resolve<T>(token: Token<T>): T;
  tryResolve<T>(token: Token<T>): T | undefined;

  /** @deprecated One implementation shared by every contributor, which therefore cannot be told apart; use `provide(point, (contributor) => …)`. */
  provideExtensionPoint<T>(point: ExtensionPoint<T>, implementation: T): void;
  /** This plugin's view of another plugin's extension point; `missing_dependency` when no loaded plugin provides it. */
  use<T>(point: ExtensionPoint<T>): T;
  tryUse<T>(point: ExtensionPoint<T>): T | undefined;
  /** A contribution list the host freezes (applying the capability policy) after init, for extension points this plugin owns. */
  createContributionList<T>(kind: string, keyOf: (value: T) => string, capabilityOf?: ((value: T) => unknown) | null): ContributionList<T>;

  /** Registers teardown for a resource just acquired; hooks run newest first when the host stops or the boot fails. */
  onStop(hook: () => Promise<void> | void): void;

  readonly tools: { add(tool: ToolDefinition): void; list(): readonly ToolDefinition[] };
  readonly queryPaths: { add(path: QueryPathDefinition): void; registry: QueryPathRegistry };
  readonly routes: { add(route: RouteContribution): void; addWebSocket(socket: WebSocketContribution): void };
  readonly servers: {
    declare(server: ServerDeclaration): void;
    /** Whether a server of this name is declared so far (the command's own, like `tools`, are declared before register). */
    isDeclared(name: string): boolean;
    urlOf(name: string): string | undefined;
    /** A port this plugin binds itself in start(), declared in register/init so `--check` lists it. */
    declareOwn(listener: OwnListener): void;
  };
}
