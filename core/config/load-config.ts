import path from 'node:path';
import { cosmiconfig } from 'cosmiconfig';
import type { z } from 'zod';
import { BootError } from '../errors.js';
import { configFileSchema, type ConfigFile } from './config-schema.js';
import { convertEnvValue, ENV_BINDINGS } from './environment.js';
import type { HostSettings } from './host-settings.js';

/** Where one config value came from, so an error can name it the way the user wrote it. */
interface Origin {
  label: string;
  shown: string;
}

export interface LoadConfigOptions {
  /** An explicit config file; otherwise cosmiconfig searches `chain` from `cwd`. */
  configPath?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Command-line overrides as config paths, e.g. `{ 'tools.http.port': 9000 }`; applied last. */
  flags?: Record<string, unknown>;
  /** What the command itself turns on (chain-mcp: stdio; chain-mcp-http: http). */
  enable?: { toolsStdio?: boolean; toolsHttp?: boolean };
  /** Plugins the command loads in addition to the file's. */
  plugins?: Record<string, Record<string, unknown>>;
}

export interface LoadedConfig {
  file: ConfigFile;
  settings: HostSettings;
  /** The config file that was read, if any. */
  source: string | null;
  /** Base directory for relative plugin paths (the config file's folder, else cwd). */
  baseDir: string;
}

export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const origins = new Map<string, Origin>();

  let raw: Record<string, unknown> = {};
  let source: string | null = null;
  const explorer = cosmiconfig('chain', { searchStrategy: 'none' });
  try {
    const found = options.configPath
      ? await explorer.load(path.resolve(cwd, options.configPath))
      : await explorer.search(cwd);
    if (found && !found.isEmpty) {
      if (typeof found.config !== 'object' || found.config === null || Array.isArray(found.config)) {
        throw new BootError('config_invalid', `${found.filepath}: the config must be a JSON object`);
      }
      raw = structuredClone(found.config) as Record<string, unknown>;
      source = found.filepath;
      recordOrigins(raw, [], origins, (p) => `${p.join('.')} (in ${path.basename(found.filepath)})`);
    }
  } catch (err) {
    if (err instanceof BootError) throw err;
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new BootError('config_invalid', `cannot read config ${options.configPath ?? `from ${cwd}`}: ${reason}`);
  }

  if (options.plugins) {
    const plugins = (raw.plugins ??= {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(options.plugins)) if (!(name in plugins)) plugins[name] = value;
  }
  const tools = (raw.tools ??= {}) as Record<string, unknown>;
  if (tools === null || typeof tools !== 'object') throw new BootError('config_invalid', 'tools (in config): must be an object');
  if (options.enable?.toolsStdio) tools.stdio = true;
  if (options.enable?.toolsHttp && !tools.http) tools.http = {};
  const httpEnabled = Boolean(tools.http);

  for (const binding of ENV_BINDINGS) {
    const value = env[binding.variable];
    if (value === undefined || value === '') continue;
    if (binding.path[0] === 'tools' && binding.path[1] === 'http' && !httpEnabled) continue;
    setPath(raw, binding.path, convertEnvValue(binding, value));
    origins.set(binding.path.join('.'), { label: binding.variable, shown: binding.secret ? '[redacted]' : value });
  }
  for (const [dotted, value] of Object.entries(options.flags ?? {})) {
    if (value === undefined) continue;
    const p = dotted.split('.');
    setPath(raw, p, value);
    origins.set(dotted, { label: `--${p[p.length - 1]!.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}`, shown: String(value) });
  }

  const parsed = configFileSchema.safeParse(raw);
  if (!parsed.success) throw configError(parsed.error, origins, raw);
  const file = parsed.data;
  const baseDir = source ? path.dirname(source) : cwd;
  return { file, source, baseDir, settings: toSettings(file, baseDir) };
}

function toSettings(file: ConfigFile, baseDir: string): HostSettings {
  return {
    home: path.resolve(baseDir, file.home),
    chainId: file.chainId,
    nodeUrl: file.node.url,
    graphqlUrl: file.graphqlUrl,
    includeRaw: file.includeRaw,
    unsafeEnabled: file.tools.unsafe,
    publicQueryEnabled: file.publicQueryEnabled,
    tools: { stdio: file.tools.stdio, http: file.tools.http, timeoutMs: file.tools.timeoutMs },
    dexPlan: file.dexPlan,
    bdsDatabaseUrl: file.bds.databaseUrl,
    bdsReadDatabaseUrl: file.bds.readDatabaseUrl,
    redisUrl: file.redisUrl,
    metrics: file.metrics,
  };
}

/** Validates one plugin's options with its own schema; errors name `plugins.<name>.<key>`. */
export function parsePluginOptions<S extends z.ZodType>(pluginKey: string, schema: S | undefined, value: unknown): z.output<S> | Record<string, unknown> {
  if (!schema) return (value ?? {}) as Record<string, unknown>;
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const where = ['plugins', pluginKey, ...issue.path.map(String)].join('.');
  const shown = issue.path.length ? describeValue(getPath(value, issue.path.map(String))) : describeValue(value);
  throw new BootError('config_invalid', `${where}=${shown}: ${friendly(issue)}`);
}

function configError(error: z.ZodError, origins: Map<string, Origin>, raw: unknown): BootError {
  const lines = error.issues.slice(0, 5).map((issue) => {
    const p = issue.path.map(String);
    const origin = findOrigin(p, origins);
    const label = origin?.label ?? (p.length ? `${p.join('.')} (in config)` : 'config');
    const shown = origin?.shown ?? describeValue(getPath(raw, p));
    return `${label}=${shown}: ${friendly(issue)}`;
  });
  return new BootError('config_invalid', lines.join('; '));
}

function friendly(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  return issue.message.replace(/^Invalid input: /, '');
}

function findOrigin(p: string[], origins: Map<string, Origin>): Origin | undefined {
  for (let i = p.length; i > 0; i--) {
    const o = origins.get(p.slice(0, i).join('.'));
    if (o) return o;
  }
  return undefined;
}

function recordOrigins(value: unknown, p: string[], origins: Map<string, Origin>, label: (p: string[]) => string): void {
  if (p.length) origins.set(p.join('.'), { label: label(p), shown: describeValue(value) });
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) recordOrigins(v, [...p, k], origins, label);
  }
}

function describeValue(value: unknown): string {
  if (value === undefined) return '(missing)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? text.slice(0, 57) + '...' : text;
}

function setPath(target: Record<string, unknown>, p: string[], value: unknown): void {
  let node: Record<string, unknown> = target;
  for (const key of p.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[p[p.length - 1]!] = value;
}

function getPath(value: unknown, p: string[]): unknown {
  let node = value;
  for (const key of p) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
