import type { Knex } from 'knex';
import { rows, type Row } from './columns.js';
import { indexedMatches } from './event-reads.js';

/**
 * Token transfers into and out of one address (the explorer's address page): every `Transfer`
 * event whose indexed `from` or `to` is the address, from any contract, newest first by event id
 * and continuing below `beforeId`. `amount` is the exact NUMERIC text of the event's amount (any
 * runtime encoding), `direction` is `in`, `out` or `self`, `success` the transaction's outcome,
 * and the token's name and symbol come from its `metadata` hash when it has one.
 */
export async function transfersOf(knex: Knex, address: string, limit: number, beforeId: number | undefined): Promise<Row[]> {
  const from = indexedMatches('from', address)[0]!;
  const to = indexedMatches('to', address)[0]!;
  return rows(await knex.raw(
    `SELECT e.id, e.block_height, e.tx_hash, e.tx_index, e.event_index, e.contract, e.created_at,
            e.data_indexed ->> 'from' AS sender, e.data_indexed ->> 'to' AS recipient,
            bds_numeric(e.data -> 'amount')::text AS amount,
            CASE WHEN e.data_indexed ->> 'from' = ? AND e.data_indexed ->> 'to' = ? THEN 'self'
                 WHEN e.data_indexed ->> 'to' = ? THEN 'in' ELSE 'out' END AS direction,
            t.success, ms.value #>> '{}' AS symbol, mn.value #>> '{}' AS name
     FROM events e
     JOIN transactions t ON t.hash = e.tx_hash
     LEFT JOIN state ms ON ms.key = e.contract || '.metadata:token_symbol'
     LEFT JOIN state mn ON mn.key = e.contract || '.metadata:token_name'
     WHERE e.event = 'Transfer' AND (e.data_indexed @> ?::jsonb OR e.data_indexed @> ?::jsonb)
       ${beforeId !== undefined ? 'AND e.id < ?' : ''}
     ORDER BY e.id DESC LIMIT ?`,
    [address, address, address, from, to, ...(beforeId !== undefined ? [beforeId] : []), limit],
  ));
}
