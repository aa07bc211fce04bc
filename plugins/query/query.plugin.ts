import { z } from 'zod';
import { chainIdGuardFor } from '../../core/chain/chain-id-guard.js';
import { CoreTokens } from '../../core/core-tokens.js';
import { definePlugin } from '../../core/plugin.js';
import type { ReadDeps } from './chain-reads.js';
import { GraphqlStates } from './graphql-states.js';
import { balanceTools } from './tools/balance-tools.js';
import { chainTools } from './tools/chain-tools.js';
import { contractTools } from './tools/contract-tools.js';
import { stateTools } from './tools/state-tools.js';
import { tokenTools } from './tools/token-tools.js';

/** Read tools over the node: balances, state, contracts, tokens, transactions, node status. */
export const queryPlugin = definePlugin({
  name: 'query',
  description: 'Read tools: balances, token holdings, state and key scans, nonces, contract source and methods, token metadata, transactions, node status.',
  after: ['devnet', 'bds'],
  config: z.strictObject({}),
  init(ctx) {
    const node = ctx.resolve(CoreTokens.chainNode);
    const deps: ReadDeps = {
      node,
      guard: chainIdGuardFor(node, ctx.settings.chainId),
      queryPaths: ctx.tryResolve(CoreTokens.queryPaths),
      graphql: new GraphqlStates(ctx.settings.graphqlUrl),
      includeRaw: ctx.settings.includeRaw,
    };
    for (const tool of [...balanceTools(deps), ...tokenTools(deps), ...chainTools(deps), ...stateTools(deps), ...contractTools(deps)]) {
      ctx.tools.add(tool);
    }
  },
});
