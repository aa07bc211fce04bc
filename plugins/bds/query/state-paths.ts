import type { QueryPathDefinition } from 'chainhost/plugin';
import { stateByPrefix, stateForBlock, stateForTx, stateHistory, statePrevious } from '../reads/state-reads.js';
import { tokenBalances, tokenContracts, tokenHolders } from '../reads/token-reads.js';
import { bdsPath, readableBlock, type BdsQueryContext } from './path-context.js';
import { blockRefParam, flagParam, limitParam, offsetParam, partParam } from './query-params.js';

/** Current state, history and tokens (spec part 4 "state and tokens"; bds.md §5.1, §6.3). */
export function statePaths(ctx: BdsQueryContext): QueryPathDefinition[] {
  return [
    bdsPath('/state/<prefix>/limit=<n>/offset=<n>', 'current state rows whose key starts with the prefix (matched literally), by key', (q) =>
      stateByPrefix(ctx.knex(), partParam(q, 0, 'prefix'), limitParam(q), offsetParam(q))),
    bdsPath('/state_previous/<key>', 'the current value of a key with its latest change and that change’s predecessor, or null', (q) =>
      statePrevious(ctx.knex(), partParam(q, 0, 'key'))),
    bdsPath('/state_history/<key>/limit=<n>/offset=<n>', 'changes of one key, newest first', (q) =>
      stateHistory(ctx.knex(), partParam(q, 0, 'key'), limitParam(q), offsetParam(q))),
    bdsPath('/state_for_tx/<tx_hash>', 'state changes of one transaction in write order', (q) => stateForTx(ctx.knex(), partParam(q, 0, 'tx_hash'))),
    bdsPath('/state_for_block/<height-or-hash>', 'state changes of one block in (tx_index, write_index) order', async (q) =>
      stateForBlock(ctx.knex(), await readableBlock(ctx, blockRefParam(partParam(q, 0, 'height-or-hash'))))),
    bdsPath('/token_contracts/limit=<n>/offset=<n>', 'XSC001 token contracts, newest first, with name, symbol and logo', async (q) => {
      const limit = limitParam(q);
      const offset = offsetParam(q);
      const { items, total } = await tokenContracts(ctx.knex(), limit, offset);
      return { available: true, items, total, limit, offset };
    }),
    bdsPath('/token_balances/<address>/limit=<n>/offset=<n>/include_zero=<bool>', 'XSC001 balances of one address (zero balances only with include_zero=true)', async (q) => {
      const address = partParam(q, 0, 'address');
      const limit = limitParam(q);
      const offset = offsetParam(q);
      const { items, total } = await tokenBalances(ctx.knex(), address, limit, offset, flagParam(q, 'include_zero'));
      return { available: true, address, items, total, limit, offset };
    }),
    bdsPath('/token_holders/<contract>/limit=<n>/offset=<n>', 'holders of one token by balance, largest first, with the holder count and the exact sum of the balances', async (q) => {
      const contract = partParam(q, 0, 'contract');
      const limit = limitParam(q);
      const offset = offsetParam(q);
      return { available: true, contract, ...(await tokenHolders(ctx.knex(), contract, limit, offset)), limit, offset };
    }),
  ];
}
