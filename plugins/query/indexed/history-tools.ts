import { z } from 'zod';
import { QueryPath } from 'chainhost/chain';
import { decimalOut, defineTool, intOut, stateKeySchema, type ToolDefinition, txHashSchema } from 'chainhost/plugin';
import type { BdsReader } from './bds-reader.js';
import type { GraphqlIndexed } from './graphql-indexed.js';
import { indexedListTool } from './indexed-tool-shapes.js';
import {
  afterIdArg, bdsLimit, bdsOffset, blockRefArg, blockRefPart, eventOut, rowOf, rowsOf, stateEntryOut, tagKindArg, textArg, withCreated,
} from './indexed-schemas.js';

/** A state key as the history path takes it; NUL cannot be in PostgreSQL text, so it is refused here. */
const historyKeyArg = stateKeySchema.refine((v) => !v.includes('\u0000'), 'key must not contain a NUL character');

/**
 * Events, state history, developer rewards and the shielded feeds (mcp.md §4.6-4.7), read through
 * the BDS query paths; on a node without BDS all but the shielded feeds ask GraphQL (upstream's order).
 */
export function historyTools(bds: BdsReader, graphql: GraphqlIndexed): ToolDefinition[] {
  const lastId = (items: Array<Record<string, unknown>>, key: string) => (items.length ? (items[items.length - 1]![key] as number) : null);
  return [
    indexedListTool(bds, {
      name: 'get_events_for_tx',
      title: 'Get events of a transaction',
      description: 'Contract events a transaction emitted, in emission order.',
      input: z.object({ tx_hash: txHashSchema }),
      item: eventOut,
      map: withCreated,
      path: ({ tx_hash }) => QueryPath.build('events_for_tx', [tx_hash]),
      fallback: ({ tx_hash }, ctx) => graphql.eventsForTx(tx_hash, ctx),
    }),
    defineTool({
      name: 'list_events',
      title: 'List indexed events',
      description: 'Events of one contract and event name. Without after_id: newest first with offset (browsing). With after_id: oldest first after that id — restart-safe consumption; continue with next_after_id.',
      capability: 'read',
      input: z.object({ contract: textArg('contract'), event: textArg('event'), limit: bdsLimit, offset: bdsOffset, after_id: afterIdArg }),
      output: z.object({ items: z.array(eventOut), next_after_id: intOut.nullable() }),
      run: async ({ contract, event, limit, offset, after_id }, { signal }) => {
        const path = QueryPath.build('events', [contract, event], after_id === undefined ? { limit, offset } : { limit, after_id });
        const rows = rowsOf(await bds.readOr(path, 'list_events', signal, (ctx) => graphql.events(contract, event, limit, offset, after_id, ctx)));
        const items = rows.map(withCreated) as z.input<typeof eventOut>[];
        return { items, next_after_id: nextAfterId(items, after_id) };
      },
    }),
    indexedListTool(bds, {
      name: 'get_state_history',
      title: 'Get state history',
      description: 'Changes of one state key, newest first: value, transaction, block.',
      input: z.object({ key: historyKeyArg, limit: bdsLimit, offset: bdsOffset }),
      item: stateEntryOut,
      map: withCreated,
      path: ({ key, limit, offset }) => QueryPath.build('state_history', [key], { limit, offset }),
      fallback: ({ key, limit, offset }, ctx) => graphql.stateHistory(key, limit, offset, ctx),
    }),
    indexedListTool(bds, {
      name: 'get_state_for_tx',
      title: 'Get state changes of a transaction',
      description: 'The state writes of one transaction, in write order.',
      input: z.object({ tx_hash: txHashSchema }),
      item: stateEntryOut,
      map: withCreated,
      path: ({ tx_hash }) => QueryPath.build('state_for_tx', [tx_hash]),
      fallback: ({ tx_hash }, ctx) => graphql.stateForTx(tx_hash, ctx),
    }),
    indexedListTool(bds, {
      name: 'get_state_for_block',
      title: 'Get state changes of a block',
      description: 'The state writes of one block in (tx_index, write_index) order; block_ref is a height or a 64-hex block hash.',
      input: z.object({ block_ref: blockRefArg }),
      item: stateEntryOut,
      path: ({ block_ref }) => QueryPath.build('state_for_block', [blockRefPart(block_ref)]),
      fallback: ({ block_ref }, ctx) => graphql.stateForBlock(blockRefPart(block_ref), ctx),
    }),
    defineTool({
      name: 'get_developer_rewards',
      title: 'Get developer rewards',
      description: 'Total developer rewards paid to one recipient key, as an exact decimal string, with counts and the first and last reward.',
      capability: 'read',
      input: z.object({ recipient_key: textArg('recipient_key') }),
      output: z.object({
        recipient_key: z.string(), total_rewards: decimalOut, reward_count: intOut, tx_count: intOut, contract_count: intOut,
        first_block_height: intOut.nullable(), last_block_height: intOut.nullable(), first_reward_at: z.string().nullable(), last_reward_at: z.string().nullable(),
      }),
      run: async ({ recipient_key }, { signal }) => {
        const path = QueryPath.build('developer_rewards', [recipient_key]);
        const r = rowOf(await bds.readOr(path, 'get_developer_rewards', signal, (ctx) => graphql.developerRewards(recipient_key, ctx))) ?? {};
        return { ...r, total_rewards: plainDecimal(String(r.total_rewards ?? '0')) } as never;
      },
    }),
    defineTool({
      name: 'list_shielded_output_tags',
      title: 'List shielded output tags',
      description: 'Shielded outputs carrying a sync_hint or discovery_tag. Without after_id: newest first with offset. With after_id: ascending after that id (resumable); continue with next_after_id.',
      capability: 'read',
      input: z.object({ tag_value: textArg('tag_value'), kind: tagKindArg, limit: bdsLimit, offset: bdsOffset, after_id: afterIdArg }),
      output: z.object({ items: z.array(z.record(z.string(), z.unknown())), next_after_id: intOut.nullable() }),
      run: async ({ tag_value, kind, limit, offset, after_id }, { signal }) => {
        const path = QueryPath.build('shielded_output_tags', [tag_value], after_id === undefined ? { limit, offset, kind } : { limit, after_id, kind });
        const items = rowsOf(await bds.read(path, 'list_shielded_output_tags', signal)).map(withCreated);
        return { items, next_after_id: nextAfterId(items, after_id) };
      },
    }),
    defineTool({
      name: 'list_shielded_wallet_history',
      title: 'List shielded wallet history',
      description: 'Every shielded output from after_note_index on (inclusive), in note order — a wallet rebuilds its note tree from all of them; tag fields and output_payload are filled only where the output carries the tag. Resume with next_after_note_index.',
      capability: 'read',
      input: z.object({ tag_value: textArg('tag_value'), kind: tagKindArg, limit: bdsLimit, after_note_index: z.number().int().min(0).default(0).describe('first note index to return (inclusive)') }),
      output: z.object({ items: z.array(z.record(z.string(), z.unknown())), next_after_note_index: intOut }),
      run: async ({ tag_value, kind, limit, after_note_index }, { signal }) => {
        const path = QueryPath.build('shielded_wallet_history', [tag_value], { limit, after_note_index, kind });
        const items = rowsOf(await bds.read(path, 'list_shielded_wallet_history', signal)).map(withCreated);
        const last = lastId(items, 'note_index');
        return { items, next_after_note_index: last === null ? after_note_index : Number(last) + 1 };
      },
    }),
  ];
}

/** The cursor to continue after a page: its highest id, else the cursor it started from, else null. */
function nextAfterId(items: ReadonlyArray<{ id?: unknown }>, afterId: number | undefined): number | null {
  const maxId = items.reduce<number | null>((m, e) => (m === null || Number(e.id) > m ? Number(e.id) : m), null);
  return maxId ?? afterId ?? null;
}

/** NUMERIC text without a trailing fraction of zeros ("0.500" → "0.5", "2.000" → "2"). */
function plainDecimal(text: string): string {
  if (!text.includes('.')) return text;
  const t = text.replace(/0+$/, '').replace(/\.$/, '');
  return t === '-0' ? '0' : t;
}
