import { Command, InvalidArgumentError } from 'commander';
import { loadConfig, type LoadConfigOptions, type LoadedConfig } from '../../core/config/load-config.js';
import { HOST_ENV_BINDINGS } from '../../core/config/environment.js';
import { BootError } from '../../core/errors.js';
import { createLogger } from '../../core/logger.js';
import { redactUrlsIn } from '../../core/net/redact-url.js';
import { builtinEnvBindings, type PluginEnvBinding } from '../builtin-plugins.js';
import { Host } from '../host.js';
import { addToolSurfaces, serveStdio, serverVersion } from '../tools-server/index.js';
import { checkReport } from './check-report.js';
import { connectBannerOf } from './connect-banner.js';
import { availableDefaultToolPlugins } from './default-tool-plugins.js';
import { PASSPHRASE_VARIABLE, SecretInputError, startupPassphrase } from './secret-input.js';

/**
 * What one command-line entry point serves. Everything else — flags, config loading, boot,
 * banner, signals, one-line failures — is shared by runCommand.
 */
export interface CommandSpec {
  name: string;
  description: string;
  /** MCP over stdio: always (chain-mcp) or when the config sets `tools.stdio` (chain-host). */
  stdio: 'always' | 'config';
  /** The HTTP tool server: always (chain-mcp-http), when `tools.http` is configured (chain-host), or never (chain-mcp). */
  http: 'always' | 'config' | 'never';
  /** `--host` and `--port` for the HTTP tool server. */
  httpFlags?: boolean;
  /** Plugins the command always loads (added when the config does not name them). */
  plugins?: readonly string[] | ((opts: Record<string, unknown>) => readonly string[]);
  /** Load DEFAULT_TOOL_PLUGINS (those built in) when the config names no plugin. */
  defaultToolPlugins?: boolean;
  /** The command serves only what a config names (chain-host): without a config file it refuses to start instead of serving nothing. */
  requiresConfig?: boolean;
  /** A command's own options (e.g. a plugin's `--public-query`)… */
  options?(program: Command): void;
  /** …and the config paths they set, e.g. `{ 'plugins.dashboard.port': opts.port }` (undefined values are ignored). */
  flagsToConfig?(opts: Record<string, unknown>): Record<string, unknown>;
}

export interface ParsedOptions {
  config?: string;
  host?: string;
  port?: number | string;
  check?: boolean;
  [option: string]: unknown;
}

/** Runs the command to completion: returns only once the host has stopped; exits non-zero on failure. */
export async function runCommand(spec: CommandSpec, argv: readonly string[] = process.argv): Promise<void> {
  // The built-in plugins' own variables are listed in the help only: loading every plugin costs a start.
  const program = buildProgram(spec, wantsHelp(argv) ? await builtinEnvBindings() : []);
  program.parse([...argv]);
  const opts = program.opts<ParsedOptions>();
  const log = createLogger({ scope: spec.name });
  const say = (line: string) => process.stderr.write(`${spec.name}: ${redactUrlsIn(line)}\n`);

  let host: Host | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (code: number) => {
    stopping ??= (async () => {
      try {
        await host?.stop();
      } catch (err) {
        say(`error while stopping: ${err instanceof Error ? err.message : String(err)}`);
        code = code || 1;
      }
      process.exit(code);
    })();
    return stopping;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      say(`${signal} again; exiting without waiting`);
      process.exit(130);
    }
    say(`${signal} received; stopping`);
    void stop(0);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    const config = await loadCommandConfig(spec, opts);
    if (spec.requiresConfig && config.source === null) {
      throw new BootError('config_invalid', `no config file found in ${process.cwd()} (looked for ${CONFIG_FILE_NAMES}); pass one with --config <file>, e.g. ${spec.name} --config chainrc.example.json`);
    }
    host = await Host.create(config, {
      log: opts.check ? createLogger({ scope: spec.name, level: 'warn' }) : log,
      surfaces: spec.http === 'never' ? [] : [(h) => addToolSurfaces(h)],
      // Never a prompt when stdin carries MCP: the protocol owns it.
      keystore: { passphrase: (hasAccounts) => startupPassphrase(hasAccounts, { mcpStdio: config.settings.tools.stdio }) },
    });
    if (spec.requiresConfig && host.pluginNames().length === 0 && host.servers.values().length === 0 && !config.settings.tools.stdio) {
      throw new BootError('config_invalid', `${config.source} names no plugins and no servers: nothing to run (add "plugins", "tools.http" or "tools.stdio")`);
    }
    if (opts.check) {
      // Registered and initialised, never started: nothing binds; stop() releases what init opened.
      host.checkBindRules();
      const keystore = await host.checkKeystore();
      process.stdout.write(`${checkReport(host).join('\n')}\n${keystore ? `keystore: ${keystore}\n` : ''}check passed: nothing was started or bound\n`);
      return await stop(0);
    }
    // An MCP stdio client waits for its first answer: the session opens before the keystore's
    // passphrase check (one scrypt) ends, and a wrong passphrase still ends the start with its one
    // line and exit 1 (the catch below); nothing else is printed before the check has passed.
    const stdio = config.settings.tools.stdio;
    await host.start({ keystoreCheck: stdio ? 'background' : 'await' });
    const session = stdio ? await serveStdio(host) : null;
    await host.keystoreReady;
    for (const line of host.describe()) say(line);
    if (servesTools(spec, config) && host.tools.values().length > 0) {
      process.stderr.write(connectBannerOf(host, spec.name));
    }
    if (session) {
      say('serving MCP on stdio');
      void session.closed.then(() => {
        if (!stopping) say('stdin closed; stopping');
        return stop(0);
      });
    }
  } catch (err) {
    say(describeFailure(err));
    await host?.stop().catch(() => undefined);
    process.exit(1);
  }
}

/** The config a command runs with: file, environment, its flags, and the default tool plugins when it names none. */
export async function loadCommandConfig(spec: CommandSpec, opts: ParsedOptions, env: NodeJS.ProcessEnv = process.env): Promise<LoadedConfig> {
  const base: LoadConfigOptions = {
    configPath: opts.config,
    flags: {
      ...(spec.httpFlags ? { 'tools.http.host': opts.host, 'tools.http.port': opts.port } : {}),
      ...spec.flagsToConfig?.(opts),
    },
    enable: { toolsStdio: spec.stdio === 'always', toolsHttp: spec.http === 'always' },
    plugins: commandPlugins(spec, opts),
    env,
  };
  const loaded = await loadConfig(base);
  if (!spec.defaultToolPlugins || Object.keys(loaded.file.plugins).length > 0) return loaded;
  const defaults = availableDefaultToolPlugins();
  if (defaults.length === 0) {
    process.stderr.write(`${spec.name}: no plugins configured and none of the default tool plugins is built in yet; serving no tools\n`);
    return loaded;
  }
  return loadConfig({ ...base, plugins: { ...base.plugins, ...Object.fromEntries(defaults.map((name) => [name, {}])) } });
}

/** The plugins a command always loads (`CommandSpec.plugins`), each with empty options unless the file configures it. */
function commandPlugins(spec: CommandSpec, opts: ParsedOptions): Record<string, Record<string, unknown>> | undefined {
  const names = typeof spec.plugins === 'function' ? spec.plugins(opts) : spec.plugins;
  if (!names || names.length === 0) return undefined;
  return Object.fromEntries(names.map((name) => [name, {}]));
}

/** What cosmiconfig searches for the module `chain` in the working directory. */
const CONFIG_FILE_NAMES = '.chainrc, .chainrc.json, .chainrc.yaml, .chainrc.js, chain.config.js, package.json "chain" and the other cosmiconfig names';

/** Commands whose job is serving tools (chain-host, chain-mcp-http, chain-mcp) print how to connect an MCP client. */
function servesTools(spec: CommandSpec, config: LoadedConfig): boolean {
  return spec.http !== 'never' || spec.stdio === 'always' || config.settings.tools.stdio;
}

/** Expected failures (config, boot) are one line; anything else is a bug and keeps its stack. */
function describeFailure(err: unknown): string {
  if (err instanceof BootError || err instanceof SecretInputError) return `error: ${err.message}`;
  if (err instanceof Error) return `unexpected error: ${err.stack ?? err.message}`;
  return `unexpected error: ${String(err)}`;
}

function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

function buildProgram(spec: CommandSpec, pluginVariables: readonly PluginEnvBinding[]): Command {
  const program = new Command(spec.name)
    .description(spec.description)
    .version(serverVersion(), '-v, --version')
    .option('-c, --config <file>', 'config file (default: .chainrc, .chainrc.json, chain.config.js or package.json "chain", searched in the working directory)')
    .option('--check', 'validate the config, load the plugins and print what would be served (plugins, servers, tools, routes, query paths, indexers); start and bind nothing')
    .allowExcessArguments(false)
    .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) });
  if (spec.httpFlags) {
    program
      .option('--host <address>', 'HTTP bind address (overrides HTTP_HOST; default 127.0.0.1)')
      .option('--port <number>', 'HTTP port (overrides HTTP_PORT; default 8100, 0 picks a free port)', parsePort);
  }
  spec.options?.(program);
  const variables = HOST_ENV_BINDINGS.filter((b) => spec.http !== 'never' || !b.variable.startsWith('HTTP_') && !b.variable.startsWith('CHAIN_MCP_HTTP_'))
    .map((b) => `  ${b.variable}`).join('\n');
  const byVariable = new Map<string, string[]>();
  for (const { plugin, binding } of pluginVariables) byVariable.set(binding.variable, [...(byVariable.get(binding.variable) ?? []), plugin]);
  const pluginLines = [...byVariable].map(([variable, plugins]) => `  ${variable} (${plugins.join(', ')})`).join('\n');
  program.addHelpText('after', `
Environment variables (override the config file; flags override both):
${variables}
  ${PASSPHRASE_VARIABLE} (unlocks the keystore under <home>/keys at start; never printed)
${pluginLines ? `\nRead by a plugin while it is loaded:\n${pluginLines}\n` : ''}
Unsafe tools (wallets, signing, submitting) are enabled only by CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS=1.
Logs and the start banner go to stderr.`);
  return program;
}

/** Digits become a number; anything else is left for the config validation to report with its value. */
function parsePort(value: string): number | string {
  if (/^\d+$/.test(value)) return Number(value);
  if (value.trim() === '') throw new InvalidArgumentError('must be a port number');
  return value;
}
