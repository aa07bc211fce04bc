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

/**
 * The `data_indexed` containment patterns that match an indexed field equal to `value`: the
 * text, and for digits also the number (the runtime stores an `int` field such as a DEX `pair`
 * as a JSON number). Served by the GIN index on `data_indexed`.
 */
export function indexedMatches(field: string, value: string): string[] {
  const patterns = [JSON.stringify({ [field]: value })];
  if (/^-?[0-9]{1,15}$/.test(value)) patterns.push(JSON.stringify({ [field]: Number(value) }));
  return patterns;
}

export interface EventFilter {
  /** Event names to keep; all when absent. */
  events?: string[];
  /** An indexed field that must equal a value (e.g. a DEX pair id). */
  match?: { field: string; value: string };
}

/**
 * Events of one contract, newest first by id, continuing below `beforeId` (the id keyset cursor
 * of the explorer's "older" links: stable while new events arrive, fast at any depth).
 */
export async function contractEvents(knex: Knex, contract: string, filter: EventFilter, limit: number, beforeId: number | undefined): Promise<Row[]> {
  const where = ['contract = ?'];
  const bindings: Array<string | number> = [contract];
  if (filter.events) {
    where.push(`event IN (${filter.events.map(() => '?').join(', ')})`);
    bindings.push(...filter.events);
  }
  if (filter.match) {
    const patterns = indexedMatches(filter.match.field, filter.match.value);
    where.push(`(${patterns.map(() => 'data_indexed @> ?::jsonb').join(' OR ')})`);
    bindings.push(...patterns);
  }
  if (beforeId !== undefined) {
    where.push('id < ?');
    bindings.push(beforeId);
  }
  return rows(await knex.raw(`SELECT ${EVENT_FIELDS} FROM events WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`, [...bindings, limit]));
}
