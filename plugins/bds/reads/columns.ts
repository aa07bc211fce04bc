/**
 * The column lists of every BDS row shape (bds.md §6.3), in the reference's field order. Query
 * paths, tools and snapshots select through these so a row looks the same on every surface.
 */
export const BLOCK_FIELDS = 'height, block_hash, block_time, block_time_iso, tx_count, app_hash, created_at';

export const TX_FIELDS =
  'hash AS tx_hash, block_height, block_hash, block_time, tx_index, sender, nonce, contract, function, success, status_code, chi_used, result, payload, envelope, created_at';

export const EVENT_FIELDS = 'id, block_height, tx_hash, tx_index, event_index, contract, event, signer, caller, data_indexed, data, created_at';

export const STATE_PATCH_FIELDS = 'hash, block_height, block_hash, block_time, patch_count, patches, created_at';

export const SHIELDED_TAG_FIELDS =
  'id, block_height, tx_hash, tx_index, contract, function, action, output_index, note_index, commitment, new_root, payload_hash, tag_kind, tag_value, created_at';

export const ADDRESS_FIELDS =
  'address, tx_count, first_block_height, first_seen, last_block_height, last_tx_index, last_seen, last_tx_hash, last_contract, last_function, updated_at';

export type Row = Record<string, unknown>;

/** A 64-character reference is a block hash, anything else a height (bds.md §6.3 `txs_for_block`). */
export type BlockRef = { hash: string } | { height: number };

export function rows(result: { rows: unknown[] }): Row[] {
  return result.rows as Row[];
}

export function firstRow(result: { rows: unknown[] }): Row | null {
  return (result.rows[0] as Row | undefined) ?? null;
}
