import type { Knex } from 'knex';
import { firstRow, rows, STATE_PATCH_FIELDS, type Row } from './columns.js';

/** Applied state patches (bds.md §6.3) and the state changes each wrote. */
export async function statePatches(knex: Knex, limit: number, offset: number): Promise<Row[]> {
  return rows(await knex.raw(`SELECT ${STATE_PATCH_FIELDS} FROM state_patches ORDER BY block_height DESC, created_at DESC LIMIT ? OFFSET ?`, [limit, offset]));
}

export async function statePatchesForBlock(knex: Knex, height: number): Promise<Row[]> {
  return rows(await knex.raw(`SELECT ${STATE_PATCH_FIELDS} FROM state_patches WHERE block_height = ? ORDER BY created_at`, [height]));
}

export async function statePatch(knex: Knex, hash: string): Promise<Row | null> {
  return firstRow(await knex.raw(`SELECT ${STATE_PATCH_FIELDS} FROM state_patches WHERE hash IN (?, lower(?), upper(?)) LIMIT 1`, [hash, hash, hash]));
}

export async function stateChangesForPatch(knex: Knex, hash: string): Promise<Row[]> {
  return rows(await knex.raw(
    `SELECT key, new_value AS value, block_height, write_index, created_at FROM state_changes
     WHERE tx_hash IN (?, lower(?), upper(?)) AND origin_type = 'state_patch' ORDER BY write_index`,
    [hash, hash, hash],
  ));
}
