import type { ToolDefinition } from 'chainhost/plugin';
import type { BdsReader } from './bds-reader.js';
import type { GraphqlIndexed } from './graphql-indexed.js';
import { blockTools } from './block-tools.js';
import { historyTools } from './history-tools.js';

/**
 * The indexed-read tools (capability read): clients of the BDS query paths, answered by this
 * host's bds plugin when loaded, else by the node — so every tool server with a BDS-enabled node
 * has them, and a node without BDS gets a plain "the node has no BDS" answer. As upstream,
 * `get_indexed_tx`, `list_events` and `get_state_history` then ask GraphQL at CHAIN_GRAPHQL.
 */
export function indexedTools(bds: BdsReader, graphql: GraphqlIndexed): ToolDefinition[] {
  return [...blockTools(bds, graphql), ...historyTools(bds, graphql)];
}
