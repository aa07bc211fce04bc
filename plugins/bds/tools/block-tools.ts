import { z } from 'zod';
import { intOut, txHashSchema } from '../../../core/tools/chain-schemas.js';
import { defineTool, type ToolDefinition } from '../../../core/tools/tool.js';
import { blockByHash, blockByHeight, listBlocks } from '../reads/block-reads.js';
import { txByHash, txsByContract, txsBySender, txsForBlock } from '../reads/tx-reads.js';
import {
  bdsLimit, bdsOffset, bdsRead, blockOut, blockRefArg, blockRefOf, heightArg, out, textArg, txItem, txOut, type BdsToolDeps,
} from './tool-support.js';

/** Index status, blocks and transactions (mcp.md §4.6). */
export function blockTools(deps: BdsToolDeps): ToolDefinition[] {
  return [
    defineTool({
      name: 'get_bds_status',
      title: 'Get BDS index status',
      description: 'Whether the BDS worker runs, the node height it sees, the highest contiguous indexed height, lag, queue and spool depth, and operator alerts. Check indexed_height before reading a just-finalized transaction from the index.',
      capability: 'read',
      input: z.object({}),
      output: z.object({
        available: z.boolean(), worker_running: z.boolean(), catchup_running: z.boolean(), catching_up: z.boolean(), queue_depth: intOut,
        current_block_height: intOut.nullable(), height_lag: intOut.nullable(), indexed_height: intOut.nullable(), spool_pending_count: intOut,
        db_status: z.string(), alerts: z.array(z.record(z.string(), z.unknown())),
      }),
      run: async () => {
        const s = out(await deps.status());
        const indexed = (s.indexed ?? {}) as Record<string, unknown>;
        return {
          available: true, worker_running: Boolean(s.worker_running), catchup_running: Boolean(s.catchup_running), catching_up: Boolean(s.catching_up),
          queue_depth: s.queue_depth as number, current_block_height: (s.current_block_height ?? null) as number | null, height_lag: (s.height_lag ?? null) as number | null,
          indexed_height: (indexed.indexed_height ?? null) as number | null, spool_pending_count: s.spool_pending_count as number,
          db_status: String(s.db_status), alerts: s.alerts as Array<Record<string, unknown>>,
        };
      },
    }),
    defineTool({
      name: 'list_blocks',
      title: 'List indexed blocks',
      description: 'Indexed blocks, newest first (height 0 is the genesis pseudo-block).',
      capability: 'read',
      input: z.object({ limit: bdsLimit, offset: bdsOffset }),
      output: z.object({ items: z.array(z.object({ height: intOut, block_hash: z.string(), tx_count: intOut, app_hash: z.string(), block_time_iso: z.string() })) }),
      run: ({ limit, offset }) => bdsRead('list_blocks', async () => ({
        items: (await listBlocks(deps.knex(), limit, offset)).map(out).map((b) => ({
          height: b.height as number, block_hash: b.block_hash as string, tx_count: b.tx_count as number, app_hash: b.app_hash as string, block_time_iso: b.block_time_iso as string,
        })),
      })),
    }),
    defineTool({
      name: 'get_block',
      title: 'Get indexed block',
      description: 'One indexed block by height; found is false when the index does not have it (yet).',
      capability: 'read',
      input: z.object({ height: heightArg }),
      output: z.object({ found: z.boolean(), block: blockOut.nullable() }),
      run: ({ height }) => bdsRead('get_block', async () => {
        const row = await blockByHeight(deps.knex(), height);
        return { found: row !== null, block: row ? (out(row) as z.input<typeof blockOut>) : null };
      }),
    }),
    defineTool({
      name: 'get_block_by_hash',
      title: 'Get indexed block by hash',
      description: 'One indexed block by its hash (64 hex, any case).',
      capability: 'read',
      input: z.object({ block_hash: z.string().regex(/^(0x)?[0-9a-fA-F]{64}$/, 'block_hash must be 64 hex characters').transform((h) => h.replace(/^0x/, '').toUpperCase()) }),
      output: z.object({ found: z.boolean(), block: blockOut.nullable() }),
      run: ({ block_hash }) => bdsRead('get_block_by_hash', async () => {
        const row = await blockByHash(deps.knex(), block_hash);
        return { found: row !== null, block: row ? (out(row) as z.input<typeof blockOut>) : null };
      }),
    }),
    defineTool({
      name: 'get_indexed_tx',
      title: 'Get indexed transaction',
      description: 'One transaction from the BDS index by CometBFT hash, with its payload. found is false until its block is indexed (compare get_bds_status indexed_height).',
      capability: 'read',
      input: z.object({ tx_hash: txHashSchema }),
      output: z.object({ found: z.boolean(), transaction: txOut.extend({ payload: z.unknown(), envelope: z.unknown() }).nullable() }),
      run: ({ tx_hash }) => bdsRead('get_indexed_tx', async () => {
        const row = await txByHash(deps.knex(), tx_hash);
        return { found: row !== null, transaction: row ? { ...txItem(row), payload: out(row).payload, envelope: out(row).envelope } : null };
      }),
    }),
    defineTool({
      name: 'list_txs_for_block',
      title: 'List transactions of a block',
      description: 'The indexed transactions of one block in order; block_ref is a height or a 64-hex block hash.',
      capability: 'read',
      input: z.object({ block_ref: blockRefArg }),
      output: z.object({ items: z.array(txOut) }),
      run: ({ block_ref }) => bdsRead('list_txs_for_block', async () => ({ items: (await txsForBlock(deps.knex(), blockRefOf(block_ref))).map(txItem) })),
    }),
    defineTool({
      name: 'list_txs_by_sender',
      title: 'List transactions by sender',
      description: "A sender's indexed transactions, newest first.",
      capability: 'read',
      input: z.object({ sender: textArg('sender'), limit: bdsLimit, offset: bdsOffset }),
      output: z.object({ items: z.array(txOut) }),
      run: ({ sender, limit, offset }) => bdsRead('list_txs_by_sender', async () => ({ items: (await txsBySender(deps.knex(), sender, limit, offset)).map(txItem) })),
    }),
    defineTool({
      name: 'list_txs_by_contract',
      title: 'List transactions by contract',
      description: "Indexed transactions calling one contract, newest first.",
      capability: 'read',
      input: z.object({ contract: textArg('contract'), limit: bdsLimit, offset: bdsOffset }),
      output: z.object({ items: z.array(txOut) }),
      run: ({ contract, limit, offset }) => bdsRead('list_txs_by_contract', async () => ({ items: (await txsByContract(deps.knex(), contract, limit, offset)).map(txItem) })),
    }),
  ];
}
