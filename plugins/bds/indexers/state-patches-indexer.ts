import type { BdsIndexer } from '../indexer-point.js';
import { patchChanges } from '../block/normalize-block.js';
import { jsonParam } from '../writer/bulk-insert.js';

/** One `state_patches` row per block where governed patches ran (bds.md §2.12, §3, contracts.md §8). */
export const statePatchesIndexer: BdsIndexer = {
  name: 'state-patches',
  capability: 'read',
  description: 'applied governed state patches',
  async apply(block, trx) {
    if (!block.state_patches.length) return;
    await trx.raw(
      `INSERT INTO state_patches (hash, block_height, block_hash, block_time, patch_count, patches, created_at)
       VALUES (?, ?, ?, ?, ?, ?::jsonb, ?::timestamptz) ON CONFLICT DO NOTHING`,
      [
        block.state_patch_hash ?? `STATE_PATCH_${block.height}`, block.height, block.hash, block.time_nanos.toString(),
        patchChanges(block.state_patches).length, jsonParam(block.state_patches) ?? '[]', block.time_iso,
      ],
    );
  },
};
