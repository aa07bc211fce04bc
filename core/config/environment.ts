import { parseFlag } from '../capability.js';
import { BootError } from '../errors.js';

/**
 * An environment variable that sets one config value. The host declares its own below; a
 * plugin declares those of its options in its definition (`env`), with `path` inside its own
 * options, and they apply only while that plugin is loaded. Parsing here only converts text to
 * the target type; range checks stay in the zod schema so the error names the variable and its
 * value either way.
 */
export interface EnvBinding {
  /** The variable, e.g. `CHAIN_NODE_URL`; an empty value counts as unset. */
  variable: string;
  /** Where the value lands: a host key (`['node', 'url']`), or a key inside the declaring plugin's options. */
  path: readonly string[];
  type: 'string' | 'integer' | 'flag' | 'list';
  /** Never printed: `[redacted]` in errors, a placeholder in the connect banner. */
  secret?: boolean;
}

/** The host's own variables (spec part 2); each plugin adds its own through `definePlugin({ env })`. */
export const HOST_ENV_BINDINGS: readonly EnvBinding[] = [
  { variable: 'CHAIN_HOME', path: ['home'], type: 'string' },
  { variable: 'CHAIN_ID', path: ['chainId'], type: 'string' },
  { variable: 'CHAIN_NODE_URL', path: ['node', 'url'], type: 'string' },
  { variable: 'CHAIN_INCLUDE_RAW', path: ['includeRaw'], type: 'flag' },
  { variable: 'CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS', path: ['tools', 'unsafe'], type: 'flag' },
  { variable: 'CHAIN_PUBLIC_QUERY_ENABLED', path: ['publicQueryEnabled'], type: 'flag' },
  { variable: 'HTTP_HOST', path: ['tools', 'http', 'host'], type: 'string' },
  { variable: 'HTTP_PORT', path: ['tools', 'http', 'port'], type: 'integer' },
  { variable: 'HTTP_PUBLISH_HOST', path: ['tools', 'http', 'publishHost'], type: 'string' },
  { variable: 'CHAIN_MCP_HTTP_TOKEN', path: ['tools', 'http', 'token'], type: 'string', secret: true },
  { variable: 'CHAIN_MCP_HTTP_CORS_ORIGINS', path: ['tools', 'http', 'corsOrigins'], type: 'list' },
  // The host's /metrics server: they move it when the config serves it (`metrics` set), never turn it on.
  { variable: 'CHAIN_METRICS_HOST', path: ['metrics', 'host'], type: 'string' },
  { variable: 'CHAIN_METRICS_PORT', path: ['metrics', 'port'], type: 'integer' },
];

const TYPES: ReadonlySet<string> = new Set<EnvBinding['type']>(['string', 'integer', 'flag', 'list']);

/** Converts an environment value; returns the raw text when it cannot be converted so validation reports it. */
export function convertEnvValue(binding: EnvBinding, raw: string): unknown {
  switch (binding.type) {
    case 'string':
      return raw;
    case 'integer':
      return /^\s*-?\d+\s*$/.test(raw) ? Number(raw.trim()) : raw;
    case 'flag': {
      const flag = parseFlag(raw);
      return flag === undefined ? raw : flag;
    }
    case 'list':
      return raw.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  }
}

/** A plugin's `env` declaration, checked before it is used: a mistake is a boot error naming the plugin. */
export function checkEnvBindings(plugin: string, bindings: unknown): readonly EnvBinding[] {
  if (bindings === undefined) return [];
  const fail = (what: string) => new BootError('invalid_plugin', `plugin "${plugin}": ${what}`);
  if (!Array.isArray(bindings)) throw fail('env must be an array of { variable, path, type } bindings');
  return bindings.map((b: Partial<EnvBinding> | null, i): EnvBinding => {
    const at = `env[${i}]`;
    if (!b || typeof b !== 'object') throw fail(`${at} must be a { variable, path, type } object`);
    if (typeof b.variable !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(b.variable)) throw fail(`${at}.variable must be an upper-case variable name such as ACME_API_URL`);
    if (!Array.isArray(b.path) || b.path.length === 0 || !b.path.every((k) => typeof k === 'string' && k.length > 0)) {
      throw fail(`${at} (${b.variable}): path must name a key of the plugin's options, e.g. ['apiUrl']`);
    }
    if (typeof b.type !== 'string' || !TYPES.has(b.type)) throw fail(`${at} (${b.variable}): type must be one of ${[...TYPES].join(', ')}`);
    return b as EnvBinding;
  });
}
