import type { ToolDefinition } from 'chainhost/plugin';
import type { BdsReader } from './bds-reader.js';
import type { GraphqlIndexed } from './graphql-indexed.js';
import { blockTools } from './block-tools.js';
import { historyTools } from './history-tools.js';
import type { NodeBlocks } from './node-blocks.js';

/**
 * The indexed-read tools (capability read): clients of the BDS query paths, answered by this
 * host's bds plugin when loaded, else by the node — so every tool server with a BDS-enabled node
 * has them. On a node without BDS they fall back as upstream does (mcp.md §4.6): the index status
 * and blocks to the node's RPC, transactions, events, state and developer rewards to GraphQL at
 * CHAIN_GRAPHQL; where that fails too (and for the shielded feeds) the tool says plainly that the
 * node has no BDS.
 */
export function indexedTools(bds: BdsReader, graphql: GraphqlIndexed, node: NodeBlocks): ToolDefinition[] {
  // Group `indexed`: a deployment without an index can leave them out (tools.exclude: ["indexed"]).
  return [...blockTools(bds, graphql, node), ...historyTools(bds, graphql)].map((tool) => ({ ...tool, groups: ['indexed'] }));
}
