import type { QueryPathDefinition } from 'chainhost/plugin';
import { blockByHash, blockByHeight, listBlocks } from '../reads/block-reads.js';
import { listAddresses } from '../reads/event-reads.js';
import { txByHash, txsByContract, txsBySender, txsForBlock } from '../reads/tx-reads.js';
import { bdsPath, readableBlock, readableHeight, type BdsQueryContext } from './path-context.js';
import { beforeParam, blockRefParam, heightParam, limitParam, offsetParam, partParam } from './query-params.js';

/** Blocks, transactions and addresses (spec part 4 "blocks and transactions"; bds.md §6.3). */
export function blockPaths(ctx: BdsQueryContext): QueryPathDefinition[] {
  return [
    bdsPath('/blocks/limit=<n>/offset=<n>', 'indexed blocks, newest first', (q) => listBlocks(ctx.knex(), limitParam(q), offsetParam(q))),
    bdsPath('/block/<height>', 'one indexed block by height, or null', async (q) => blockByHeight(ctx.knex(), await readableHeight(ctx, heightParam(partParam(q, 0, 'height'))))),
    bdsPath('/block_by_hash/<hash>', 'one indexed block by hash (any case), or null', (q) => blockByHash(ctx.knex(), partParam(q, 0, 'hash'))),
    bdsPath('/tx/<tx_hash>', 'one indexed transaction by CometBFT hash (any case), or null', (q) => txByHash(ctx.knex(), partParam(q, 0, 'tx_hash'))),
    bdsPath('/txs_for_block/<height-or-hash>', 'transactions of one block in tx_index order (64 characters = block hash)', async (q) =>
      txsForBlock(ctx.knex(), await readableBlock(ctx, blockRefParam(partParam(q, 0, 'height-or-hash'))))),
    bdsPath('/txs_by_sender/<address>/limit=<n>/offset=<n>', "a sender's transactions, newest first (before=<height>:<tx_index> continues after the last row seen, fast at any depth)", (q) =>
      txsBySender(ctx.knex(), partParam(q, 0, 'address'), limitParam(q), offsetParam(q), beforeParam(q))),
    bdsPath('/txs_by_contract/<contract>/limit=<n>/offset=<n>', "a contract's transactions, newest first (before=<height>:<tx_index> as for txs_by_sender)", (q) =>
      txsByContract(ctx.knex(), partParam(q, 0, 'contract'), limitParam(q), offsetParam(q), beforeParam(q))),
    bdsPath('/addresses/limit=<n>/offset=<n>', 'senders by latest activity', async (q) => {
      const limit = limitParam(q);
      const offset = offsetParam(q);
      return { available: true, items: await listAddresses(ctx.knex(), limit, offset), limit, offset };
    }),
  ];
}
