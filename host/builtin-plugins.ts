import type { AnyPlugin } from '../core/plugin.js';

/** Built-in plugins by name, imported lazily so a minimal deployment loads only what it uses. */
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
