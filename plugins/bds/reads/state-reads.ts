import type { Knex } from 'knex';
import { resolveBlockRef } from './block-reads.js';
import { firstRow, rows, type BlockRef, type Row } from './columns.js';

/**
 * Current state and its history (bds.md §6.3). `/state/<prefix>` escapes `\`, `%` and `_` so the
 * prefix matches literally (upstream lets them act as wildcards; chainhost does better).
 */
export function likePrefix(prefix: string): string {
  return prefix.replace(/[\\%_]/g, (c) => '\\' + c) + '%';
}

export async function stateByPrefix(knex: Knex, prefix: string, limit: number, offset: number): Promise<Row[]> {
  return rows(await knex.raw(
    `SELECT key, value, last_tx_hash, last_block_height, updated_at FROM state WHERE key LIKE ? ESCAPE '\\' ORDER BY key LIMIT ? OFFSET ?`,
    [likePrefix(prefix), limit, offset],
  ));
}

export async function statePrevious(knex: Knex, key: string): Promise<Row | null> {
  return firstRow(await knex.raw(
    `SELECT s.key, s.value AS current_value, s.last_change_id, s.last_tx_hash, s.last_block_height, s.updated_at,
            c.block_hash AS current_block_hash, c.block_time AS current_block_time, c.tx_index AS current_tx_index,
            c.write_index AS current_write_index, c.origin_type AS current_origin_type,
            p.change_id AS previous_change_id, p.new_value AS previous_value, p.tx_hash AS previous_tx_hash,
            p.block_height AS previous_block_height, p.block_hash AS previous_block_hash, p.block_time AS previous_block_time,
            p.tx_index AS previous_tx_index, p.write_index AS previous_write_index, p.origin_type AS previous_origin_type,
            p.created_at AS previous_created_at
     FROM state s
     LEFT JOIN state_changes c ON c.change_id = s.last_change_id
     LEFT JOIN state_changes p ON p.change_id = c.previous_change_id
     WHERE s.key = ?`,
    [key],
  ));
}

export async function stateHistory(knex: Knex, key: string, limit: number, offset: number): Promise<Row[]> {
  return rows(await knex.raw(
    `SELECT key, new_value AS value, tx_hash, block_height, block_hash, block_time, tx_index, write_index,
            previous_change_id, previous_tx_hash, origin_type, created_at
     FROM state_changes WHERE key = ? ORDER BY block_height DESC, tx_index DESC, write_index DESC LIMIT ? OFFSET ?`,
    [key, limit, offset],
  ));
}

export async function stateForTx(knex: Knex, txHash: string): Promise<Row[]> {
  return rows(await knex.raw(
    `SELECT key, new_value AS value, block_height, write_index, origin_type, created_at
     FROM state_changes WHERE tx_hash IN (?, upper(?)) ORDER BY write_index ASC`,
    [txHash, txHash],
  ));
}

export async function stateForBlock(knex: Knex, ref: BlockRef): Promise<Row[]> {
  const height = await resolveBlockRef(knex, ref);
  if (height === null) return [];
  return rows(await knex.raw(
    `SELECT key, new_value AS value, tx_hash, tx_index, write_index, origin_type
     FROM state_changes WHERE block_height = ? ORDER BY tx_index ASC, write_index ASC`,
    [height],
  ));
}
