import type { EnvBinding } from '../core/config/environment.js';
import type { AnyPlugin } from '../core/plugin.js';

/** Built-in plugins by name, imported lazily so a minimal deployment loads only what it uses. */
/** One environment variable a built-in plugin binds, with the plugin's name. */
export interface PluginEnvBinding {
  plugin: string;
  binding: EnvBinding;
}

export const BUILTIN_PLUGINS: Record<string, () => Promise<AnyPlugin>> = {
  devnet: () => import('../plugins/devnet/index.js').then(m => m.devnetPlugin),
  dashboard: () => import('../plugins/dashboard/index.js').then(m => m.dashboardPlugin),
  wallet: () => import('../plugins/wallet/index.js').then(m => m.walletPlugin),
  query: () => import('../plugins/query/index.js').then(m => m.queryPlugin),
  crypto: () => import('../plugins/crypto/index.js').then(m => m.cryptoPlugin),
  simulate: () => import('../plugins/simulate/index.js').then(m => m.simulatePlugin),
  dex: () => import('../plugins/dex/index.js').then(m => m.dexPlugin),
  bds: () => import('../plugins/bds/index.js').then(m => m.bdsPlugin),
  graphql: () => import('../plugins/graphql/index.js').then(m => m.graphqlPlugin),
};

/** Every built-in plugin's own environment variables, by plugin name (loads every built-in plugin). */
export async function builtinEnvBindings(): Promise<PluginEnvBinding[]> {
  const names = Object.keys(BUILTIN_PLUGINS).sort();
  const plugins = await Promise.all(names.map((name) => BUILTIN_PLUGINS[name]!()));
  return plugins.flatMap((plugin, i) => (plugin.env ?? []).map((binding) => ({ plugin: names[i]!, binding })));
}
