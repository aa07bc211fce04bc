import { z } from 'zod';
import { QueryPath } from 'chainhost/chain';
import { defineTool, intOut, type ToolDefinition, txHashSchema } from 'chainhost/plugin';
import type { BdsReader } from './bds-reader.js';
import type { GraphqlIndexed } from './graphql-indexed.js';
import { indexedBlockTool, indexedListTool } from './indexed-tool-shapes.js';
import type { NodeBlocks } from './node-blocks.js';
import {
  bdsLimit, bdsOffset, blockRefArg, blockRefPart, heightArg, rowOf, textArg, txItem, txOut,
} from './indexed-schemas.js';

/**
 * Index status, blocks and transactions (mcp.md §4.6), read through the BDS query paths; on a
 * node without BDS, status and blocks come from the node's RPC and transactions from GraphQL.
 */
export function blockTools(bds: BdsReader, graphql: GraphqlIndexed, node: NodeBlocks): ToolDefinition[] {
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
        const answer = await bds.tryRead('/bds_status', 'get_bds_status', signal);
        if ('noBds' in answer) return node.status(answer.noBds, signal);
        const s = rowOf(answer.json) ?? {};
        const indexed = (s.indexed ?? {}) as Record<string, unknown>;
        return {
          available: true, worker_running: Boolean(s.worker_running), catchup_running: Boolean(s.catchup_running), catching_up: Boolean(s.catching_up),
          queue_depth: s.queue_depth as number, current_block_height: (s.current_block_height ?? null) as number | null, height_lag: (s.height_lag ?? null) as number | null,
          indexed_height: (indexed.indexed_height ?? null) as number | null, spool_pending_count: s.spool_pending_count as number,
          db_status: String(s.db_status), alerts: s.alerts as Array<Record<string, unknown>>,
        };
      },
    }),
    indexedListTool(bds, {
      name: 'list_blocks',
      title: 'List indexed blocks',
      description: 'Indexed blocks, newest first (height 0 is the genesis pseudo-block).',
      input: z.object({ limit: bdsLimit, offset: bdsOffset }),
      item: z.object({ height: intOut, block_hash: z.string(), tx_count: intOut, app_hash: z.string(), block_time_iso: z.string() }),
      map: (b) => ({
        height: b.height as number, block_hash: b.block_hash as string, tx_count: b.tx_count as number, app_hash: b.app_hash as string, block_time_iso: b.block_time_iso as string,
      }),
      path: ({ limit, offset }) => QueryPath.build('blocks', [], { limit, offset }),
      fallback: ({ limit, offset }, ctx) => node.list(limit, offset, ctx.signal),
    }),
    indexedBlockTool(bds, {
      name: 'get_block',
      title: 'Get indexed block',
      description: 'One indexed block by height; found is false when the index does not have it (yet).',
      input: z.object({ height: heightArg }),
      path: ({ height }) => QueryPath.build('block', [height]),
      fallback: ({ height }, ctx) => node.at(height, ctx.signal),
    }),
    indexedBlockTool(bds, {
      name: 'get_block_by_hash',
      title: 'Get indexed block by hash',
      description: 'One indexed block by its hash (64 hex, any case).',
      input: z.object({ block_hash: z.string().regex(/^(0x)?[0-9a-fA-F]{64}$/, 'block_hash must be 64 hex characters').transform((h) => h.replace(/^0x/, '').toUpperCase()) }),
      path: ({ block_hash }) => QueryPath.build('block_by_hash', [block_hash]),
      fallback: ({ block_hash }, ctx) => node.byHash(block_hash, ctx.signal),
    }),
    defineTool({
      name: 'get_indexed_tx',
      title: 'Get indexed transaction',
      description: 'One transaction from the BDS index by CometBFT hash, with its payload. found is false until its block is indexed (compare get_bds_status indexed_height).',
      capability: 'read',
      input: z.object({ tx_hash: txHashSchema }),
      output: z.object({ found: z.boolean(), transaction: txOut.extend({ payload: z.unknown(), envelope: z.unknown() }).nullable() }),
      run: async ({ tx_hash }, { signal }) => {
        const row = rowOf(await bds.readOr(QueryPath.build('tx', [tx_hash]), 'get_indexed_tx', signal, (ctx) => graphql.tx(tx_hash, ctx)));
        return { found: row !== null, transaction: row ? { ...txItem(row), payload: row.payload, envelope: row.envelope } : null };
      },
    }),
    indexedListTool(bds, {
      name: 'list_txs_for_block',
      title: 'List transactions of a block',
      description: 'The indexed transactions of one block in order; block_ref is a height or a 64-hex block hash.',
      input: z.object({ block_ref: blockRefArg }),
      item: txOut,
      map: txItem,
      path: ({ block_ref }) => QueryPath.build('txs_for_block', [blockRefPart(block_ref)]),
      fallback: ({ block_ref }, ctx) => graphql.txsForBlock(blockRefPart(block_ref), ctx),
    }),
    txsByTool(bds, graphql, 'sender', 'List transactions by sender', "A sender's indexed transactions, newest first."),
    txsByTool(bds, graphql, 'contract', 'List transactions by contract', 'Indexed transactions calling one contract, newest first.'),
  ];
}

/** `list_txs_by_sender` and `list_txs_by_contract`: one column's transactions, newest first, paged. */
function txsByTool(bds: BdsReader, graphql: GraphqlIndexed, column: 'sender' | 'contract', title: string, description: string): ToolDefinition {
  // The column's argument first, as the reference lists it: `{sender|contract, limit, offset}`. Typed
  // as if both columns were there; only `column` is, and only `args[column]` is read.
  const input = z.object({ [column]: textArg(column), limit: bdsLimit, offset: bdsOffset }) as z.ZodObject<{
    sender: ReturnType<typeof textArg>; contract: ReturnType<typeof textArg>; limit: typeof bdsLimit; offset: typeof bdsOffset;
  }>;
  return indexedListTool(bds, {
    name: `list_txs_by_${column}`,
    title,
    description,
    input,
    item: txOut,
    map: txItem,
    path: (args) => QueryPath.build(`txs_by_${column}`, [args[column]], { limit: args.limit, offset: args.offset }),
    fallback: (args, ctx) => graphql.txsBy(column, args[column], args.limit, args.offset, ctx),
  });
}
