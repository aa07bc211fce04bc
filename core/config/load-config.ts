import path from 'node:path';
import { cosmiconfig } from 'cosmiconfig';
import type { z } from 'zod';
import { BootError } from '../errors.js';
import { configFileSchema, type ConfigFile } from './config-schema.js';
import { redactUrlsIn } from '../net/redact-url.js';
import { describeValue, findOrigin, friendly, getPath, setPath, type Origin } from './config-values.js';
import { convertEnvValue, HOST_ENV_BINDINGS } from './environment.js';
import type { HostSettings } from './host-settings.js';

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
  /** The environment it was read with: each loaded plugin's own bindings are applied from it (parsePluginOptions). */
  env: Readonly<Record<string, string | undefined>>;
  /** The command-line overrides (dotted config paths), already in `file`; they win over plugins' bindings too. */
  flags: Readonly<Record<string, unknown>>;
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
    throw new BootError('config_invalid', `cannot read config ${options.configPath ?? `from ${cwd}`}: ${readFailure(err)}`);
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

  for (const binding of HOST_ENV_BINDINGS) {
    const value = env[binding.variable];
    if (value === undefined || value === '') continue;
    if (binding.path[0] === 'tools' && binding.path[1] === 'http' && !httpEnabled) continue;
    if (binding.path[0] === 'metrics' && (raw.metrics === null || raw.metrics === undefined)) continue;
    setPath(raw, binding.path, convertEnvValue(binding, value));
    origins.set(binding.path.join('.'), { label: binding.variable, shown: binding.secret ? '[redacted]' : redactUrlsIn(value) });
  }
  for (const [dotted, value] of Object.entries(options.flags ?? {})) {
    if (value === undefined) continue;
    const p = dotted.split('.');
    setPath(raw, p, value);
    origins.set(dotted, { label: `--${p[p.length - 1]!.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}`, shown: redactUrlsIn(String(value)) });
  }

  const parsed = configFileSchema.safeParse(raw);
  if (!parsed.success) throw configError(parsed.error, origins, raw);
  const file = parsed.data;
  const baseDir = source ? path.dirname(source) : cwd;
  return { file, source, baseDir, settings: toSettings(file, baseDir), env, flags: options.flags ?? {} };
}

/**
 * One line for a config file that cannot be read. cosmiconfig's JSON errors put the reason after
 * a code frame (`JSON Error in <file>: \n\n> 1 | …`), so the first line alone names no reason;
 * the file's text (`while parsing '…'`, the frame) is left out: a config may hold a token.
 */
function readFailure(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const frame = (err as { codeFrame?: unknown }).codeFrame;
  let text = err.message;
  if (typeof frame === 'string' && frame) text = text.split(frame).join(' ');
  text = text.replace(/ while parsing '[\s\S]*$/, '').replace(/\s+/g, ' ').trim();
  const position = /at position (\d+)/.exec(text);
  const where = frame && typeof frame === 'string' ? /^>\s*(\d+)\s*\|/m.exec(frame) : null;
  return where && position ? `${text} (line ${where[1]})` : text;
}

function toSettings(file: ConfigFile, baseDir: string): HostSettings {
  return {
    home: path.resolve(baseDir, file.home),
    chainId: file.chainId,
    nodeUrl: file.node.url,
    includeRaw: file.includeRaw,
    unsafeEnabled: file.tools.unsafe,
    publicQueryEnabled: file.publicQueryEnabled,
    tools: { stdio: file.tools.stdio, http: file.tools.http, timeoutMs: file.tools.timeoutMs, include: file.tools.include ?? null, exclude: file.tools.exclude },
    metrics: file.metrics,
  };
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

function recordOrigins(value: unknown, p: string[], origins: Map<string, Origin>, label: (p: string[]) => string): void {
  if (p.length) origins.set(p.join('.'), { label: label(p), shown: describeValue(value) });
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) recordOrigins(v, [...p, k], origins, label);
  }
}
