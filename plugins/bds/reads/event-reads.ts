import type { Knex } from 'knex';
import { ADDRESS_FIELDS, EVENT_FIELDS, rows, type Row } from './columns.js';

/**
 * Events (bds.md §6.3): per transaction, per (contract, event) newest first by offset, or
 * oldest first after an id cursor — the restart-safe consumption mode, served by the
 * `(contract, event, id)` index at any depth.
 */
export async function eventsForTx(knex: Knex, txHash: string): Promise<Row[]> {
  return rows(await knex.raw(`SELECT ${EVENT_FIELDS} FROM events WHERE tx_hash IN (?, upper(?)) ORDER BY event_index ASC`, [txHash, txHash]));
}

export async function eventsPage(knex: Knex, contract: string, event: string, limit: number, offset: number): Promise<Row[]> {
  return rows(await knex.raw(
    `SELECT ${EVENT_FIELDS} FROM events WHERE contract = ? AND event = ?
     ORDER BY block_height DESC, tx_index DESC, event_index DESC LIMIT ? OFFSET ?`,
    [contract, event, limit, offset],
  ));
}

export async function eventsAfter(knex: Knex, contract: string, event: string, afterId: number, limit: number): Promise<Row[]> {
  return rows(await knex.raw(
    `SELECT ${EVENT_FIELDS} FROM events WHERE contract = ? AND event = ? AND id > ? ORDER BY id ASC LIMIT ?`,
    [contract, event, afterId, limit],
  ));
}

export async function recentEvents(knex: Knex, limit: number, offset: number): Promise<Row[]> {
  return rows(await knex.raw(`SELECT ${EVENT_FIELDS} FROM events ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, [limit, offset]));
}

export async function listAddresses(knex: Knex, limit: number, offset: number): Promise<Row[]> {
  return rows(await knex.raw(
    `SELECT ${ADDRESS_FIELDS} FROM addresses ORDER BY last_block_height DESC, last_tx_index DESC, address ASC LIMIT ? OFFSET ?`,
    [limit, offset],
  ));
}
