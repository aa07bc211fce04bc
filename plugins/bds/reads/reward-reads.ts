import type { Knex } from 'knex';
import { firstRow, type Row } from './columns.js';

/** Developer-reward aggregates (bds.md §5.2): always one row; sums are NUMERIC strings, "0" when none. */
export async function developerRewards(knex: Knex, recipientKey: string): Promise<Row> {
  return firstRow(await knex.raw(
    `SELECT ?::text AS recipient_key, COALESCE(sum(value), 0)::text AS total_rewards, count(*) AS reward_count,
            count(DISTINCT tx_hash) AS tx_count, count(DISTINCT source_contract) AS contract_count,
            min(block_height) AS first_block_height, max(block_height) AS last_block_height,
            min(created_at) AS first_reward_at, max(created_at) AS last_reward_at
     FROM rewards WHERE type = 'developer_reward' AND recipient_key = ?`,
    [recipientKey, recipientKey],
  ))!;
}

/** A contract with its creator, transaction count and the developer rewards it generated; null when unknown. */
export async function contractSummary(knex: Knex, name: string): Promise<Row | null> {
  return firstRow(await knex.raw(
    `SELECT c.name, c.last_tx_hash, c.submitted_at_block, c.submitted_at, c.xsc001, t.sender AS creator,
            (SELECT count(*) FROM transactions WHERE contract = c.name) AS tx_count,
            r.total_rewards, r.reward_count, r.first_block_height, r.last_block_height, r.first_reward_at, r.last_reward_at
     FROM contracts c
     LEFT JOIN transactions t ON t.hash = c.last_tx_hash
     CROSS JOIN LATERAL (
       SELECT COALESCE(sum(value), 0)::text AS total_rewards, count(*) AS reward_count,
              min(block_height) AS first_block_height, max(block_height) AS last_block_height,
              min(created_at) AS first_reward_at, max(created_at) AS last_reward_at
       FROM rewards WHERE type = 'developer_reward' AND source_contract = c.name) r
     WHERE c.name = ?`,
    [name],
  ));
}
