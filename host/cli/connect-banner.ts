import path from 'node:path';
import { PASSPHRASE_FILE_VARIABLE, PASSPHRASE_VARIABLE } from '../../core/keystore/host-accounts.js';
import type { HostSettings } from '../../core/config/host-settings.js';
import { HOST_ENV_BINDINGS, type EnvBinding } from '../../core/config/environment.js';
import { urlFor } from '../../core/net/bind-address.js';
import type { Host } from '../host.js';
import { packageRoot } from '../package-root.js';

/**
 * The "how to connect" block a tool-serving command prints on stderr after start: where each
 * server answers, and `mcpServers` snippets an MCP client takes as they are — HTTP for this
 * process, stdio for a client that starts its own host from the same config. Secrets never
 * appear: a configured token or database URL becomes a `<VARIABLE>` placeholder.
 */
export interface ConnectBannerInput {
  /** The command's name, e.g. `chain-host`. */
  command: string;
  settings: HostSettings;
  /** The config file that was read (absolute), or null when none was found. */
  configPath: string | null;
  /** Every server that listens, with the URL it listens on (`Host.serverUrl`). */
  servers: ReadonlyArray<{ name: string; url: string }>;
  /** The plugins that booted. */
  plugins: readonly string[];
  /** The environment the command runs with; variables the config depends on are carried into the stdio snippet. */
  env: NodeJS.ProcessEnv;
  /** The variables the config depends on: the host's and the loaded plugins' (`Host.envBindings`); default the host's. */
  variables?: readonly EnvBinding[];
  /** chainhost's package folder, for `npx --prefix`. */
  packageRoot?: string;
  /** Paths to show per server name, over the defaults (e.g. a configured GraphQL path). */
  serverPaths?: Record<string, readonly string[]>;
}

export interface HttpMcpServer {
  type: 'http';
  url: string;
  headers?: Record<string, string>;
}

export interface StdioMcpServer {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

export interface McpServersSnippet<T> {
  mcpServers: Record<string, T>;
}

/** The key both snippets use under `mcpServers`. */
export const MCP_SERVER_KEY = 'chain';

/** What the stdio snippet names when this process read the passphrase itself from the environment. */
export const PASSPHRASE_FILE_PLACEHOLDER = '<path of a file holding the keystore passphrase, readable by you only (chmod 600)>';

/** The placeholder the HTTP snippet carries instead of the token. */
export const TOKEN_PLACEHOLDER = 'Bearer <CHAIN_MCP_HTTP_TOKEN>';

/** Paths worth knowing on the servers chainhost itself declares; other servers show their base URL. */
const SERVER_PATHS: Record<string, readonly string[]> = {
  tools: ['/tools', '/tools/{name}', '/mcp', '/health'],
  dashboard: ['/api/status', '/explorer', '/ws'],
  graphql: ['/graphql'],
  metrics: ['/metrics'],
};

/**
 * The URL an MCP client uses for `/mcp`. A wildcard bind (`0.0.0.0`, `::`) is not an address to
 * dial, and the tool server's Host check refuses it: the publish host stands in when set (the
 * address a container's port is published on), else loopback, which a wildcard bind accepts.
 */
export function mcpHttpUrl(toolsUrl: string, settings: HostSettings): string {
  const url = new URL(toolsUrl);
  const bound = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (bound !== '0.0.0.0' && bound !== '::') return `${toolsUrl}/mcp`;
  const publish = settings.tools.http?.publishHost;
  const host = publish ?? (bound === '::' ? '::1' : '127.0.0.1');
  return urlFor(host, Number(url.port), '/mcp');
}

export function httpSnippet(toolsUrl: string, settings: HostSettings): McpServersSnippet<HttpMcpServer> {
  const entry: HttpMcpServer = { type: 'http', url: mcpHttpUrl(toolsUrl, settings) };
  if (settings.tools.http?.token) entry.headers = { Authorization: TOKEN_PLACEHOLDER };
  return { mcpServers: { [MCP_SERVER_KEY]: entry } };
}

/**
 * `npx --prefix <chainhost> chain-mcp --config <file>`: `--prefix` makes npx run chainhost's own
 * `chain-mcp` from whatever folder the client starts in, never a registry package of that name.
 * The environment variables this process read that shape the config go along (a client does not
 * pass its user's shell environment); HTTP-only variables do not, secrets become placeholders.
 */
export function stdioSnippet(input: Pick<ConnectBannerInput, 'configPath' | 'env' | 'variables' | 'settings' | 'packageRoot'>): McpServersSnippet<StdioMcpServer> {
  const args = ['--prefix', input.packageRoot ?? packageRoot(), 'chain-mcp'];
  if (input.configPath) args.push('--config', path.resolve(input.configPath));
  const env: Record<string, string> = {};
  for (const binding of input.variables ?? HOST_ENV_BINDINGS) {
    const value = input.env[binding.variable];
    if (value === undefined || value === '' || binding.path[0] === 'tools' && binding.path[1] === 'http') continue;
    if (binding.secret) env[binding.variable] = `<${binding.variable}>`;
    // Relative to the config file's folder when read, so the absolute form means the same from anywhere.
    else if (binding.variable === 'CHAIN_HOME') env[binding.variable] = input.settings.home;
    else env[binding.variable] = withoutCredentials(value);
  }
  // A stdio server cannot prompt (stdin is the protocol), and a client's config file is no place
  // for the passphrase itself: the snippet names a file that holds it (0600, checked at start).
  const passphraseFile = input.env[PASSPHRASE_FILE_VARIABLE];
  if (passphraseFile) env[PASSPHRASE_FILE_VARIABLE] = path.resolve(passphraseFile);
  else if (input.env[PASSPHRASE_VARIABLE]) env[PASSPHRASE_FILE_VARIABLE] = PASSPHRASE_FILE_PLACEHOLDER;
  const entry: StdioMcpServer = { command: 'npx', args };
  if (Object.keys(env).length) entry.env = env;
  return { mcpServers: { [MCP_SERVER_KEY]: entry } };
}

/** The whole block, ready for stderr. JSON lines carry no prefix so they paste as they are. */
export function connectBanner(input: ConnectBannerInput): string {
  const lines = ['', `${input.command}: serving`];
  for (const server of input.servers) {
    const paths = input.serverPaths?.[server.name] ?? SERVER_PATHS[server.name];
    lines.push(`  ${server.name.padEnd(10)} ${server.url}${paths ? '   ' + paths.join('  ') : ''}`);
  }
  const tools = input.servers.find((s) => s.name === 'tools');
  if (tools) {
    lines.push('', 'MCP over HTTP, served by this process' + (input.settings.tools.http?.token ? ' (put the token in for the placeholder):' : ':'));
    lines.push(formatJson(httpSnippet(tools.url, input.settings)));
    lines.push('', `HTTP tool API (upstream's shapes): GET ${tools.url}/tools answers [{name, description, parameters, …}];`,
      `POST ${tools.url}/tools/{name} with a JSON object of arguments answers {"result": …}, errors {"error": {code, message}} (422 bad arguments).`);
  }
  lines.push('', sharesResources(input)
    ? 'MCP over stdio: the client starts its own host from the same config, with the same ports and data as this one, so use it instead of this process, not beside it:'
    : 'MCP over stdio: the client starts its own chain-mcp from the same config:');
  lines.push(formatJson(stdioSnippet(input)), '');
  return lines.join('\n') + '\n';
}

/** A URL's user and password (`http://user:pass@node`) are secrets too. */
function withoutCredentials(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1<credentials>@');
}

/** Indented JSON with arrays of strings on one line, so `args` reads like the command it is. */
export function formatJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/\[\s*("(?:[^"\\]|\\.)*"(?:,\s*"(?:[^"\\]|\\.)*")*)\s*\]/g,
    (_all, items: string) => `[${items.split(/,\s*\n\s*/).join(', ')}]`);
}

/** The block for a started host: its listening servers, plugins, settings and config file. */
export function connectBannerOf(host: Host, command: string, env: NodeJS.ProcessEnv = process.env): string {
  const servers = host.servers.values().flatMap((s) => {
    const url = host.serverUrl(s.name);
    return url ? [{ name: s.name, url }] : [];
  });
  const graphqlPath = host.config.file.plugins.graphql?.path;
  return connectBanner({
    command, settings: host.config.settings, configPath: host.config.source, servers, plugins: host.pluginNames(), env, variables: host.envBindings(),
    ...(typeof graphqlPath === 'string' ? { serverPaths: { graphql: [graphqlPath] } } : {}),
  });
}

/**
 * Whether a second host from this config would collide with this one: its servers other than the
 * tool server (chain-mcp does not start that one) bind the same ports, the devnet locks its chain
 * data, and BDS holds the one-writer lock of its database.
 */
function sharesResources(input: ConnectBannerInput): boolean {
  return input.servers.some((s) => s.name !== 'tools') || input.plugins.includes('devnet') || input.plugins.includes('bds');
}
