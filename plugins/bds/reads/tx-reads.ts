import type { Knex } from 'knex';
import { resolveBlockRef } from './block-reads.js';
import { firstRow, rows, TX_FIELDS, type BlockRef, type Row } from './columns.js';

/**
 * Indexed transactions. Hashes are stored uppercase (CometBFT form); lookups accept either case.
 * Sender and contract listings are newest first on their `(…, block_height DESC, tx_index DESC)`
 * indexes; `before` is an optional keyset cursor `(height, index)` that stays fast at any depth.
 */
export interface TxCursor {
  block_height: number;
  tx_index: number;
}

export async function txByHash(knex: Knex, hash: string): Promise<Row | null> {
  return firstRow(await knex.raw(`SELECT ${TX_FIELDS} FROM transactions WHERE hash IN (?, upper(?)) LIMIT 1`, [hash, hash]));
}

export async function txsForBlock(knex: Knex, ref: BlockRef): Promise<Row[]> {
  const height = await resolveBlockRef(knex, ref);
  if (height === null) return [];
  return rows(await knex.raw(`SELECT ${TX_FIELDS} FROM transactions WHERE block_height = ? ORDER BY tx_index ASC`, [height]));
}

async function txsBy(knex: Knex, column: 'sender' | 'contract', value: string, limit: number, offset: number, before?: TxCursor): Promise<Row[]> {
  if (before) {
    return rows(await knex.raw(
      `SELECT ${TX_FIELDS} FROM transactions WHERE ${column} = ? AND (block_height, tx_index) < (?, ?)
       ORDER BY block_height DESC, tx_index DESC LIMIT ?`,
      [value, before.block_height, before.tx_index, limit],
    ));
  }
  return rows(await knex.raw(
    `SELECT ${TX_FIELDS} FROM transactions WHERE ${column} = ? ORDER BY block_height DESC, tx_index DESC LIMIT ? OFFSET ?`,
    [value, limit, offset],
  ));
}

export function txsBySender(knex: Knex, sender: string, limit: number, offset: number, before?: TxCursor): Promise<Row[]> {
  return txsBy(knex, 'sender', sender, limit, offset, before);
}

export function txsByContract(knex: Knex, contract: string, limit: number, offset: number, before?: TxCursor): Promise<Row[]> {
  return txsBy(knex, 'contract', contract, limit, offset, before);
}
