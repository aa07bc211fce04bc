import { createToken } from './tokens.js';
import type { ChainNode } from './chain/node.js';
import type { MetricsRegistrar } from './metrics.js';
import type { QueryPathRegistry } from './query/query-path-registry.js';
import type { ToolInvoker } from './tools/tool-invoker.js';

/** Services the host publishes to every plugin. */
export const CoreTokens = {
  /** The node every plugin talks to: an RPC client of `node.url`, replaced in-process by the devnet when it is loaded. */
  chainNode: createToken<ChainNode>('chain-node'),
  queryPaths: createToken<QueryPathRegistry>('query-paths'),
  toolInvoker: createToken<ToolInvoker>('tool-invoker'),
  /** Gauges and counters for `/metrics`; always resolvable, served only when the `metrics` server is configured. */
  metrics: createToken<MetricsRegistrar>('metrics'),
};
