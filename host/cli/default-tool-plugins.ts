import { BUILTIN_PLUGINS } from '../builtin-plugins.js';

/** The tool plugins chain-mcp and chain-mcp-http load when the config names no plugin at all. */
export const DEFAULT_TOOL_PLUGINS = ['wallet', 'query', 'crypto', 'dex', 'simulate'] as const;

/**
 * DEFAULT_TOOL_PLUGINS that are built in. While a default plugin is not written yet it is left
 * out instead of failing the boot with "unknown plugin": the tool server then starts with the
 * defaults that exist (possibly none) and its banner says how many tools it serves.
 */
export function availableDefaultToolPlugins(): string[] {
  return DEFAULT_TOOL_PLUGINS.filter((name) => name in BUILTIN_PLUGINS);
}
