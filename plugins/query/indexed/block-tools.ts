import { z } from 'zod';
import { QueryPath } from 'chainhost/chain';
import { defineTool, intOut, type ToolDefinition, txHashSchema } from 'chainhost/plugin';
import type { BdsReader } from './bds-reader.js';
import type { GraphqlIndexed } from './graphql-indexed.js';
import {
  bdsLimit, bdsOffset, blockOut, blockRefArg, blockRefPart, heightArg, rowOf, rowsOf, textArg, txItem, txOut, type Row,
} from './indexed-schemas.js';

/** Index status, blocks and transactions (mcp.md §4.6), read through the BDS query paths. */
export function blockTools(bds: BdsReader, graphql: GraphqlIndexed): ToolDefinition[] {
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
      run: async (_args, { signal }) => {
        const s = rowOf(await bds.read('/bds_status', 'get_bds_status', signal)) ?? {};
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
      run: async ({ limit, offset }, { signal }) => ({
        items: rowsOf(await bds.read(QueryPath.build('blocks', [], { limit, offset }), 'list_blocks', signal)).map((b) => ({
          height: b.height as number, block_hash: b.block_hash as string, tx_count: b.tx_count as number, app_hash: b.app_hash as string, block_time_iso: b.block_time_iso as string,
        })),
      }),
    }),
    defineTool({
      name: 'get_block',
      title: 'Get indexed block',
      description: 'One indexed block by height; found is false when the index does not have it (yet).',
      capability: 'read',
      input: z.object({ height: heightArg }),
      output: z.object({ found: z.boolean(), block: blockOut.nullable() }),
      run: async ({ height }, { signal }) => {
        const row = rowOf(await bds.read(QueryPath.build('block', [height]), 'get_block', signal));
        return { found: row !== null, block: row as z.input<typeof blockOut> | null };
      },
    }),
    defineTool({
      name: 'get_block_by_hash',
      title: 'Get indexed block by hash',
      description: 'One indexed block by its hash (64 hex, any case).',
      capability: 'read',
      input: z.object({ block_hash: z.string().regex(/^(0x)?[0-9a-fA-F]{64}$/, 'block_hash must be 64 hex characters').transform((h) => h.replace(/^0x/, '').toUpperCase()) }),
      output: z.object({ found: z.boolean(), block: blockOut.nullable() }),
      run: async ({ block_hash }, { signal }) => {
        const row = rowOf(await bds.read(QueryPath.build('block_by_hash', [block_hash]), 'get_block_by_hash', signal));
        return { found: row !== null, block: row as z.input<typeof blockOut> | null };
      },
    }),
    defineTool({
      name: 'get_indexed_tx',
      title: 'Get indexed transaction',
      description: 'One transaction from the BDS index by CometBFT hash, with its payload. found is false until its block is indexed (compare get_bds_status indexed_height).',
      capability: 'read',
      input: z.object({ tx_hash: txHashSchema }),
      output: z.object({ found: z.boolean(), transaction: txOut.extend({ payload: z.unknown(), envelope: z.unknown() }).nullable() }),
      run: async ({ tx_hash }, { signal }) => {
        const answer = await bds.tryRead(QueryPath.build('tx', [tx_hash]), 'get_indexed_tx', signal);
        const row = 'json' in answer ? rowOf(answer.json) : ((await graphql.tx(tx_hash, 'get_indexed_tx', answer.noBds, signal)) as Row | null);
        return { found: row !== null, transaction: row ? { ...txItem(row), payload: row.payload, envelope: row.envelope } : null };
      },
    }),
    defineTool({
      name: 'list_txs_for_block',
      title: 'List transactions of a block',
      description: 'The indexed transactions of one block in order; block_ref is a height or a 64-hex block hash.',
      capability: 'read',
      input: z.object({ block_ref: blockRefArg }),
      output: z.object({ items: z.array(txOut) }),
      run: async ({ block_ref }, { signal }) => ({
        items: rowsOf(await bds.read(QueryPath.build('txs_for_block', [blockRefPart(block_ref)]), 'list_txs_for_block', signal)).map(txItem),
      }),
    }),
    defineTool({
      name: 'list_txs_by_sender',
      title: 'List transactions by sender',
      description: "A sender's indexed transactions, newest first.",
      capability: 'read',
      input: z.object({ sender: textArg('sender'), limit: bdsLimit, offset: bdsOffset }),
      output: z.object({ items: z.array(txOut) }),
      run: async ({ sender, limit, offset }, { signal }) => ({
        items: rowsOf(await bds.read(QueryPath.build('txs_by_sender', [sender], { limit, offset }), 'list_txs_by_sender', signal)).map(txItem),
      }),
    }),
    defineTool({
      name: 'list_txs_by_contract',
      title: 'List transactions by contract',
      description: "Indexed transactions calling one contract, newest first.",
      capability: 'read',
      input: z.object({ contract: textArg('contract'), limit: bdsLimit, offset: bdsOffset }),
      output: z.object({ items: z.array(txOut) }),
      run: async ({ contract, limit, offset }, { signal }) => ({
        items: rowsOf(await bds.read(QueryPath.build('txs_by_contract', [contract], { limit, offset }), 'list_txs_by_contract', signal)).map(txItem),
      }),
    }),
  ];
}
