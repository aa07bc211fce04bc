import type { QueryPathDefinition } from 'chainhost/plugin';
import { statePatch, statePatches, statePatchesForBlock, stateChangesForPatch } from '../reads/patch-reads.js';
import { contractsByCreator } from '../reads/contract-reads.js';
import { contractSummary, developerRewards } from '../reads/reward-reads.js';
import { shieldedTagsAfter, shieldedTagsPage, shieldedWalletHistory } from '../reads/shielded-reads.js';
import { bdsPath, readableHeight, type BdsQueryContext } from './path-context.js';
import { afterIdParam, afterNoteIndexParam, heightParam, kindParam, limitParam, offsetParam, partParam } from './query-params.js';

/** Developer rewards, shielded feeds and applied state patches (spec part 4 "projections", "patches, BDS needed"). */
export function projectionPaths(ctx: BdsQueryContext): QueryPathDefinition[] {
  return [
    bdsPath('/developer_rewards/<recipient_key>', 'developer-reward totals of one recipient (always one row)', (q) =>
      developerRewards(ctx.knex(), partParam(q, 0, 'recipient_key'))),
    bdsPath('/contracts_by_creator/<address>/limit=<n>/offset=<n>', 'contracts whose deployment the address sent, newest first', async (q) => {
      const address = partParam(q, 0, 'address');
      const limit = limitParam(q);
      const offset = offsetParam(q);
      return { available: true, address, items: await contractsByCreator(ctx.knex(), address, limit, offset), limit, offset };
    }),
    bdsPath('/contract_summary/<name>', 'a contract with its creator, transaction count and developer rewards, or null', (q) =>
      contractSummary(ctx.knex(), partParam(q, 0, 'name'))),
    bdsPath(
      '/shielded_output_tags/<tag>/limit=<n>/after_id=<cursor>/kind=<kind>',
      'shielded outputs carrying a tag: newest first by offset, or after_id=<cursor> ascending (resumable)',
      async (q) => {
        const tag = partParam(q, 0, 'tag');
        const kind = kindParam(q);
        const limit = limitParam(q);
        const offset = offsetParam(q);
        const after = afterIdParam(q);
        const items = after === undefined
          ? await shieldedTagsPage(ctx.knex(), kind, tag, limit, offset)
          : await shieldedTagsAfter(ctx.knex(), kind, tag, after, limit);
        return { available: true, items, limit, offset, ...(after === undefined ? {} : { after_id: after }) };
      },
    ),
    bdsPath(
      '/shielded_wallet_history/<tag>/limit=<n>/after_note_index=<cursor>/kind=<kind>',
      'every shielded output from a note index on (inclusive), with payloads only for the tag’s outputs; resume with the last note_index + 1',
      async (q) => {
        const tag = partParam(q, 0, 'tag');
        const limit = limitParam(q);
        const after = afterNoteIndexParam(q);
        return { available: true, items: await shieldedWalletHistory(ctx.knex(), kindParam(q), tag, after, limit), limit, after_note_index: after };
      },
    ),
    bdsPath('/state_patches/limit=<n>/offset=<n>', 'applied state patches, newest first', (q) => statePatches(ctx.knex(), limitParam(q), offsetParam(q))),
    bdsPath('/state_patches_for_block/<height>', 'state patches applied at one height', async (q) =>
      statePatchesForBlock(ctx.knex(), await readableHeight(ctx, heightParam(partParam(q, 0, 'height'))))),
    bdsPath('/state_patch/<patch_hash>', 'one applied state patch, or null', (q) => statePatch(ctx.knex(), partParam(q, 0, 'patch_hash'))),
    bdsPath('/state_changes_for_patch/<patch_hash>', 'state changes a patch wrote, in write order', (q) =>
      stateChangesForPatch(ctx.knex(), partParam(q, 0, 'patch_hash'))),
  ];
}
