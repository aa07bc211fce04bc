import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { BootError } from '../core/errors.js';
import type { AnyPlugin } from '../core/plugin.js';
import { BUILTIN_PLUGINS } from './builtin-plugins.js';

export interface ResolvedPlugin {
  /** The key as written under `plugins` in the config. */
  key: string;
  plugin: AnyPlugin;
}

/**
 * A plugin key is a built-in name, a path (starting with `.` or `/`, relative to the config
 * file), or a package name resolved from the config file's folder. The module's default
 * export (or its `plugin` export) must be a definePlugin value.
 */
export async function resolvePlugins(plugins: Record<string, unknown>, baseDir: string): Promise<ResolvedPlugin[]> {
  const out: ResolvedPlugin[] = [];
  const seen = new Map<string, string>();
  for (const key of Object.keys(plugins)) {
    const plugin = await resolveOne(key, baseDir);
    const previous = seen.get(plugin.name);
    if (previous) throw new BootError('duplicate_plugin', `plugin "${plugin.name}" is loaded twice (as "${previous}" and "${key}")`);
    seen.set(plugin.name, key);
    out.push({ key, plugin });
  }
  return out;
}

async function resolveOne(key: string, baseDir: string): Promise<AnyPlugin> {
  const builtin = BUILTIN_PLUGINS[key];
  if (builtin) {
    try {
      return await builtin();
    } catch (err) {
      throw new BootError('invalid_plugin', `built-in plugin "${key}" could not be loaded: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    }
  }
  const isPath = key.startsWith('.') || path.isAbsolute(key);
  if (!isPath && !/^(@[a-z0-9._-]+\/)?[a-z0-9._-]+$/i.test(key)) {
    throw new BootError('unknown_plugin', unknownMessage(key));
  }
  let specifier: string;
  try {
    specifier = isPath ? resolvePathModule(path.resolve(baseDir, key)) : createRequire(path.join(baseDir, 'noop.js')).resolve(key);
  } catch {
    throw new BootError('unknown_plugin', unknownMessage(key));
  }
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(specifier).href)) as Record<string, unknown>;
  } catch (err) {
    throw new BootError('invalid_plugin', `plugin "${key}" could not be loaded from ${specifier}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const candidate = (mod.default ?? mod.plugin) as Partial<AnyPlugin> | undefined;
  if (!candidate || typeof candidate !== 'object' || typeof candidate.name !== 'string' || !/^[a-z][a-z0-9-]*$/.test(candidate.name)) {
    throw new BootError('invalid_plugin', `module ${specifier} (plugin "${key}") must export a definePlugin({...}) value with a kebab-case name as default or "plugin"`);
  }
  for (const hook of ['register', 'init', 'start', 'stop'] as const) {
    if (candidate[hook] !== undefined && typeof candidate[hook] !== 'function') {
      throw new BootError('invalid_plugin', `plugin "${candidate.name}": ${hook} must be a function`);
    }
  }
  return candidate as AnyPlugin;
}

function resolvePathModule(target: string): string {
  const require = createRequire(target.endsWith('/') ? target : target + '/');
  return require.resolve(target);
}

function unknownMessage(key: string): string {
  return `unknown plugin "${key}": not a built-in (${Object.keys(BUILTIN_PLUGINS).join(', ') || 'none'}), and no module found at that path or package name`;
}
