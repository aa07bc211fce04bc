import { chainIdGuardFor } from 'chainhost/chain';
import { CoreTokens, definePlugin } from 'chainhost/plugin';
import type { ReadDeps } from './chain-reads.js';
import { GraphqlStates } from './graphql-states.js';
import { queryConfigSchema, queryEnvBindings } from './query.config.js';
import { BdsReader } from './indexed/bds-reader.js';
import { GraphqlIndexed } from './indexed/graphql-indexed.js';
import { indexedTools } from './indexed/indexed-tools.js';
import { NodeBlocks } from './indexed/node-blocks.js';
import { balanceTools } from './tools/balance-tools.js';
import { chainTools } from './tools/chain-tools.js';
import { contractTools } from './tools/contract-tools.js';
import { stateTools } from './tools/state-tools.js';
import { tokenTools } from './tools/token-tools.js';

/**
 * Read tools over the node: balances, state, contracts, tokens, transactions, node status, and
 * the indexed reads (blocks, transactions, events, state history, shielded feeds) through the
 * BDS query paths of this host or of the node.
 */
export const queryPlugin = definePlugin({
  name: 'query',
  description: 'Read tools: balances, token holdings, state and key scans, nonces, contract source and methods, token metadata, transactions, node status, and indexed reads through the BDS query paths.',
  after: ['devnet', 'bds'],
  config: queryConfigSchema,
  env: queryEnvBindings,
  init(ctx) {
    const node = ctx.resolve(CoreTokens.chainNode);
    const deps: ReadDeps = {
      node,
      guard: chainIdGuardFor(node, ctx.settings.chainId),
      queryPaths: ctx.tryResolve(CoreTokens.queryPaths),
      graphql: new GraphqlStates(ctx.options.graphqlUrl),
      includeRaw: ctx.settings.includeRaw,
    };
    const indexed = indexedTools(new BdsReader(deps), new GraphqlIndexed(deps.graphql), new NodeBlocks(deps));
    for (const tool of [...balanceTools(deps), ...tokenTools(deps), ...chainTools(deps), ...stateTools(deps), ...contractTools(deps), ...indexed]) {
      ctx.tools.add(tool);
    }
  },
});
