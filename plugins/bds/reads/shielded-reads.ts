import type { Knex } from 'knex';
import { rows, SHIELDED_TAG_FIELDS, type Row } from './columns.js';

/**
 * Shielded feeds (bds.md §6.3). Tags: newest first by offset, or `id > after_id` ascending (the
 * resumable mode). Wallet history: EVERY output with `note_index ≥ n` in note order — a wallet
 * rebuilds the note tree from all of them — with the tag, payload hash and output payload filled
 * in only where the output carries the wallet's (kind, tag).
 */
export type TagKind = 'sync_hint' | 'discovery_tag';

export async function shieldedTagsPage(knex: Knex, kind: TagKind, tag: string, limit: number, offset: number): Promise<Row[]> {
  return rows(await knex.raw(
    `SELECT ${SHIELDED_TAG_FIELDS} FROM shielded_output_tags WHERE tag_kind = ? AND tag_value = ?
     ORDER BY block_height DESC, tx_index DESC, output_index DESC LIMIT ? OFFSET ?`,
    [kind, tag, limit, offset],
  ));
}

export async function shieldedTagsAfter(knex: Knex, kind: TagKind, tag: string, afterId: number, limit: number): Promise<Row[]> {
  return rows(await knex.raw(
    `SELECT ${SHIELDED_TAG_FIELDS} FROM shielded_output_tags WHERE tag_kind = ? AND tag_value = ? AND id > ? ORDER BY id ASC LIMIT ?`,
    [kind, tag, afterId, limit],
  ));
}

export async function shieldedWalletHistory(knex: Knex, kind: TagKind, tag: string, afterNoteIndex: number, limit: number): Promise<Row[]> {
  if (limit <= 0) return [];
  return rows(await knex.raw(
    `SELECT o.id AS output_id, NULL::bigint AS event_id, o.tx_hash, o.block_height, o.tx_index, o.contract, o.function, o.action,
            o.output_index, o.note_index, o.commitment, o.new_root,
            CASE WHEN t.id IS NOT NULL THEN o.payload_hash END AS payload_hash, t.tag_kind, t.tag_value,
            tx.payload -> 'kwargs' -> 'output_payloads' ->> o.output_index AS output_payload, o.created_at
     FROM shielded_outputs o
     LEFT JOIN LATERAL (
       SELECT id, tag_kind, tag_value FROM shielded_output_tags g
       WHERE g.tx_hash = o.tx_hash AND g.output_index = o.output_index AND g.tag_kind = ? AND g.tag_value = ? LIMIT 1) t ON true
     LEFT JOIN transactions tx ON t.id IS NOT NULL AND tx.hash = o.tx_hash
     WHERE o.note_index IS NOT NULL AND o.note_index >= ?
     ORDER BY o.note_index ASC, o.id ASC LIMIT ?`,
    [kind, tag, afterNoteIndex, limit],
  ));
}
