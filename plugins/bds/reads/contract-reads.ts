import type { Knex } from 'knex';
import { rows, type Row } from './columns.js';

/** Contracts whose (latest) deployment was sent by one address, newest first (the explorer's address page). */
export async function contractsByCreator(knex: Knex, address: string, limit: number, offset: number): Promise<Row[]> {
  return rows(await knex.raw(
    `SELECT c.name, c.last_tx_hash, c.submitted_at_block, c.submitted_at, c.xsc001
     FROM contracts c JOIN transactions t ON t.hash = c.last_tx_hash
     WHERE t.sender = ? ORDER BY c.submitted_at_block DESC, c.name ASC LIMIT ? OFFSET ?`,
    [address, limit, offset],
  ));
}
