import { z } from 'zod';
import { QueryPath } from 'chainhost/chain';
import { decimalOut, defineTool, intOut, stateKeySchema, type ToolDefinition, txHashSchema } from 'chainhost/plugin';
import type { BdsReader } from './bds-reader.js';
import type { GraphqlIndexed } from './graphql-indexed.js';
import {
  afterIdArg, bdsLimit, bdsOffset, blockRefArg, blockRefPart, eventOut, rowOf, rowsOf, stateEntryOut, tagKindArg, textArg, withCreated,
} from './indexed-schemas.js';

/** A state key as the history path takes it; NUL cannot be in PostgreSQL text, so it is refused here. */
const historyKeyArg = stateKeySchema.refine((v) => !v.includes('\u0000'), 'key must not contain a NUL character');

/** Events, state history, developer rewards and the shielded feeds (mcp.md §4.6-4.7), read through the BDS query paths. */
export function historyTools(bds: BdsReader, graphql: GraphqlIndexed): ToolDefinition[] {
  const lastId = (items: Array<Record<string, unknown>>, key: string) => (items.length ? (items[items.length - 1]![key] as number) : null);
  return [
    defineTool({
      name: 'get_events_for_tx',
      title: 'Get events of a transaction',
      description: 'Contract events a transaction emitted, in emission order.',
      capability: 'read',
      input: z.object({ tx_hash: txHashSchema }),
      output: z.object({ items: z.array(eventOut) }),
      run: async ({ tx_hash }, { signal }) => ({
        items: rowsOf(await bds.read(QueryPath.build('events_for_tx', [tx_hash]), 'get_events_for_tx', signal)).map(withCreated) as z.input<typeof eventOut>[],
      }),
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
        const answer = await bds.tryRead(path, 'list_events', signal);
        const rows = 'json' in answer ? rowsOf(answer.json) : await graphql.events(contract, event, limit, offset, after_id, 'list_events', answer.noBds, signal);
        const items = rows.map((r) => withCreated(r as never)) as z.input<typeof eventOut>[];
        const maxId = items.reduce<number | null>((m, e) => (m === null || Number(e.id) > m ? Number(e.id) : m), null);
        return { items, next_after_id: maxId ?? after_id ?? null };
      },
    }),
    defineTool({
      name: 'get_state_history',
      title: 'Get state history',
      description: 'Changes of one state key, newest first: value, transaction, block.',
      capability: 'read',
      input: z.object({ key: historyKeyArg, limit: bdsLimit, offset: bdsOffset }),
      output: z.object({ items: z.array(stateEntryOut) }),
      run: async ({ key, limit, offset }, { signal }) => {
        const answer = await bds.tryRead(QueryPath.build('state_history', [key], { limit, offset }), 'get_state_history', signal);
        const rows = 'json' in answer ? rowsOf(answer.json) : await graphql.stateHistory(key, limit, offset, 'get_state_history', answer.noBds, signal);
        return { items: rows.map((r) => withCreated(r as never)) as z.input<typeof stateEntryOut>[] };
      },
    }),
    defineTool({
      name: 'get_state_for_tx',
      title: 'Get state changes of a transaction',
      description: 'The state writes of one transaction, in write order.',
      capability: 'read',
      input: z.object({ tx_hash: txHashSchema }),
      output: z.object({ items: z.array(stateEntryOut) }),
      run: async ({ tx_hash }, { signal }) => ({
        items: rowsOf(await bds.read(QueryPath.build('state_for_tx', [tx_hash]), 'get_state_for_tx', signal)).map(withCreated) as z.input<typeof stateEntryOut>[],
      }),
    }),
    defineTool({
      name: 'get_state_for_block',
      title: 'Get state changes of a block',
      description: 'The state writes of one block in (tx_index, write_index) order; block_ref is a height or a 64-hex block hash.',
      capability: 'read',
      input: z.object({ block_ref: blockRefArg }),
      output: z.object({ items: z.array(stateEntryOut) }),
      run: async ({ block_ref }, { signal }) => ({
        items: rowsOf(await bds.read(QueryPath.build('state_for_block', [blockRefPart(block_ref)]), 'get_state_for_block', signal)) as z.input<typeof stateEntryOut>[],
      }),
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
        const r = rowOf(await bds.read(QueryPath.build('developer_rewards', [recipient_key]), 'get_developer_rewards', signal)) ?? {};
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
        const maxId = items.reduce<number | null>((m, e) => (m === null || Number(e.id) > m ? Number(e.id) : m), null);
        return { items, next_after_id: maxId ?? after_id ?? null };
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

/** NUMERIC text without a trailing fraction of zeros ("0.500" → "0.5", "2.000" → "2"). */
function plainDecimal(text: string): string {
  if (!text.includes('.')) return text;
  const t = text.replace(/0+$/, '').replace(/\.$/, '');
  return t === '-0' ? '0' : t;
}
