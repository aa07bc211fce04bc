import { z } from 'zod';
import { decimalOut, intOut, stateKeySchema, txHashSchema } from '../../../core/tools/chain-schemas.js';
import { defineTool, type ToolDefinition } from '../../../core/tools/tool.js';
import { eventsAfter, eventsForTx, eventsPage } from '../reads/event-reads.js';
import { developerRewards } from '../reads/reward-reads.js';
import { shieldedTagsAfter, shieldedTagsPage, shieldedWalletHistory } from '../reads/shielded-reads.js';
import { stateForBlock, stateForTx, stateHistory } from '../reads/state-reads.js';
import {
  afterIdArg, bdsLimit, bdsOffset, bdsRead, blockRefArg, blockRefOf, eventOut, out, stateEntryOut, tagKindArg, textArg, withCreated, type BdsToolDeps,
} from './tool-support.js';

/** Events, state history, developer rewards and the shielded feeds (mcp.md §4.6-4.7). */
export function historyTools(deps: BdsToolDeps): ToolDefinition[] {
  const lastId = (items: Array<Record<string, unknown>>, key: string) => (items.length ? (items[items.length - 1]![key] as number) : null);
  return [
    defineTool({
      name: 'get_events_for_tx',
      title: 'Get events of a transaction',
      description: 'Contract events a transaction emitted, in emission order.',
      capability: 'read',
      input: z.object({ tx_hash: txHashSchema }),
      output: z.object({ items: z.array(eventOut) }),
      run: ({ tx_hash }) => bdsRead('get_events_for_tx', async () => ({ items: (await eventsForTx(deps.knex(), tx_hash)).map(withCreated) as z.input<typeof eventOut>[] })),
    }),
    defineTool({
      name: 'list_events',
      title: 'List indexed events',
      description: 'Events of one contract and event name. Without after_id: newest first with offset (browsing). With after_id: oldest first after that id — restart-safe consumption; continue with next_after_id.',
      capability: 'read',
      input: z.object({ contract: textArg('contract'), event: textArg('event'), limit: bdsLimit, offset: bdsOffset, after_id: afterIdArg }),
      output: z.object({ items: z.array(eventOut), next_after_id: intOut.nullable() }),
      run: ({ contract, event, limit, offset, after_id }) => bdsRead('list_events', async () => {
        const rows = after_id === undefined ? await eventsPage(deps.knex(), contract, event, limit, offset) : await eventsAfter(deps.knex(), contract, event, after_id, limit);
        const items = rows.map(withCreated) as z.input<typeof eventOut>[];
        const maxId = items.reduce<number | null>((m, e) => (m === null || Number(e.id) > m ? Number(e.id) : m), null);
        return { items, next_after_id: maxId ?? after_id ?? null };
      }),
    }),
    defineTool({
      name: 'get_state_history',
      title: 'Get state history',
      description: 'Changes of one state key, newest first: value, transaction, block.',
      capability: 'read',
      input: z.object({ key: stateKeySchema, limit: bdsLimit, offset: bdsOffset }),
      output: z.object({ items: z.array(stateEntryOut) }),
      run: ({ key, limit, offset }) => bdsRead('get_state_history', async () => ({ items: (await stateHistory(deps.knex(), key, limit, offset)).map(withCreated) as z.input<typeof stateEntryOut>[] })),
    }),
    defineTool({
      name: 'get_state_for_tx',
      title: 'Get state changes of a transaction',
      description: 'The state writes of one transaction, in write order.',
      capability: 'read',
      input: z.object({ tx_hash: txHashSchema }),
      output: z.object({ items: z.array(stateEntryOut) }),
      run: ({ tx_hash }) => bdsRead('get_state_for_tx', async () => ({ items: (await stateForTx(deps.knex(), tx_hash)).map(withCreated) as z.input<typeof stateEntryOut>[] })),
    }),
    defineTool({
      name: 'get_state_for_block',
      title: 'Get state changes of a block',
      description: 'The state writes of one block in (tx_index, write_index) order; block_ref is a height or a 64-hex block hash.',
      capability: 'read',
      input: z.object({ block_ref: blockRefArg }),
      output: z.object({ items: z.array(stateEntryOut) }),
      run: ({ block_ref }) => bdsRead('get_state_for_block', async () => ({ items: (await stateForBlock(deps.knex(), blockRefOf(block_ref))).map(out) as z.input<typeof stateEntryOut>[] })),
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
      run: ({ recipient_key }) => bdsRead('get_developer_rewards', async () => {
        const r = out(await developerRewards(deps.knex(), recipient_key));
        return { ...r, total_rewards: plainDecimal(String(r.total_rewards)) } as never;
      }),
    }),
    defineTool({
      name: 'list_shielded_output_tags',
      title: 'List shielded output tags',
      description: 'Shielded outputs carrying a sync_hint or discovery_tag. Without after_id: newest first with offset. With after_id: ascending after that id (resumable); continue with next_after_id.',
      capability: 'read',
      input: z.object({ tag_value: textArg('tag_value'), kind: tagKindArg, limit: bdsLimit, offset: bdsOffset, after_id: afterIdArg }),
      output: z.object({ items: z.array(z.record(z.string(), z.unknown())), next_after_id: intOut.nullable() }),
      run: ({ tag_value, kind, limit, offset, after_id }) => bdsRead('list_shielded_output_tags', async () => {
        const rows = after_id === undefined ? await shieldedTagsPage(deps.knex(), kind, tag_value, limit, offset) : await shieldedTagsAfter(deps.knex(), kind, tag_value, after_id, limit);
        const items = rows.map(withCreated);
        const maxId = items.reduce<number | null>((m, e) => (m === null || Number(e.id) > m ? Number(e.id) : m), null);
        return { items, next_after_id: maxId ?? after_id ?? null };
      }),
    }),
    defineTool({
      name: 'list_shielded_wallet_history',
      title: 'List shielded wallet history',
      description: 'Every shielded output from after_note_index on (inclusive), in note order — a wallet rebuilds its note tree from all of them; tag fields and output_payload are filled only where the output carries the tag. Resume with next_after_note_index.',
      capability: 'read',
      input: z.object({ tag_value: textArg('tag_value'), kind: tagKindArg, limit: bdsLimit, after_note_index: z.number().int().min(0).default(0).describe('first note index to return (inclusive)') }),
      output: z.object({ items: z.array(z.record(z.string(), z.unknown())), next_after_note_index: intOut }),
      run: ({ tag_value, kind, limit, after_note_index }) => bdsRead('list_shielded_wallet_history', async () => {
        const items = (await shieldedWalletHistory(deps.knex(), kind, tag_value, after_note_index, limit)).map(withCreated);
        const last = lastId(items, 'note_index');
        return { items, next_after_note_index: last === null ? after_note_index : Number(last) + 1 };
      }),
    }),
  ];
}

/** NUMERIC text without a trailing fraction of zeros ("0.500" → "0.5", "2.000" → "2"). */
function plainDecimal(text: string): string {
  if (!text.includes('.')) return text;
  const t = text.replace(/0+$/, '').replace(/\.$/, '');
  return t === '-0' ? '0' : t;
}
