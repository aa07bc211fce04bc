import { createToken } from './tokens.js';
import type { ChainNode } from './chain/node.js';
import type { MetricsRegistrar } from './metrics.js';
import type { QueryPathRegistry } from './query/query-path-registry.js';
import type { ToolInvoker } from './tools/tool-invoker.js';
import type { HostAccounts } from './keystore/host-accounts.js';
import type { KeyArgumentSetting } from './tools/signer-arguments.js';

/** Services the host publishes to every plugin. */
export const CoreTokens = {
  /** The node every plugin talks to: an RPC client of `node.url`, replaced in-process by the devnet when it is loaded. */
  chainNode: createToken<ChainNode>('chain-node'),
  queryPaths: createToken<QueryPathRegistry>('query-paths'),
  toolInvoker: createToken<ToolInvoker>('tool-invoker'),
  /** Gauges and counters for `/metrics`; always resolvable, served only when the `metrics` server is configured. */
  metrics: createToken<MetricsRegistrar>('metrics'),
  /** The keystore accounts under `<home>/keys`, unlocked at start (or locked: then `account` arguments are refused, saying how to unlock). */
  accounts: createToken<HostAccounts>('accounts'),
  /**
   * Whether tools take raw private keys (`private_key`, `*_private_key`) next to `account`. The
   * host's default is true; a plugin that owns the setting (the wallet plugin's
   * `privateKeyArguments`) provides it in register(), and every signing tool reads it in init().
   */
  keyArguments: createToken<KeyArgumentSetting>('key-arguments'),
};
