import type { Knex } from 'knex';
import { strict as assert } from 'node:assert';
import { jsonText } from '../../../../plugins/bds/block/json-text.js';
import type { SyntheticChain } from './synthetic-chain.js';

/**
 * The content of a BDS index without its surrogate ids (identity values consumed by a rolled-back
 * transaction are never reused, so ids legitimately differ between a clean run and one that
 * crashed); references between rows are replaced by the natural keys they point at.
 */
const QUERIES: Record<string, string> = {
  blocks: `SELECT * FROM blocks ORDER BY height`,
  transactions: `SELECT * FROM transactions ORDER BY block_height, tx_index`,
  addresses: `SELECT * FROM addresses ORDER BY address`,
  state_changes: `SELECT c.block_height, c.block_hash, c.block_time, c.tx_hash, c.tx_index, c.write_index, c.key, c.new_value,
      c.new_value_numeric, c.origin_type, c.created_at, c.previous_tx_hash,
      p.block_height AS prev_height, p.tx_index AS prev_tx_index, p.write_index AS prev_write_index
    FROM state_changes c LEFT JOIN state_changes p ON p.change_id = c.previous_change_id
    ORDER BY c.block_height, c.tx_index, c.write_index`,
  state: `SELECT s.key, s.value, s.value_numeric, s.last_tx_hash, s.last_block_height, s.updated_at, c.block_height AS change_height, c.write_index
    FROM state s JOIN state_changes c ON c.change_id = s.last_change_id ORDER BY s.key`,
  events: `SELECT block_height, tx_hash, tx_index, event_index, contract, event, signer, caller, data_indexed, data, created_at FROM events ORDER BY block_height, tx_index, event_index`,
  rewards: `SELECT block_height, tx_hash, tx_index, reward_index, type, recipient_key, source_contract, value, created_at FROM rewards ORDER BY block_height, tx_index, reward_index`,
  shielded_outputs: `SELECT block_height, tx_hash, tx_index, contract, function, action, output_index, note_index, commitment, new_root, payload_hash, created_at FROM shielded_outputs ORDER BY tx_hash, output_index`,
  shielded_output_tags: `SELECT block_height, tx_hash, output_index, note_index, tag_kind, tag_value FROM shielded_output_tags ORDER BY tx_hash, output_index, tag_kind, tag_value`,
  contracts: `SELECT * FROM contracts ORDER BY name`,
  state_patches: `SELECT * FROM state_patches ORDER BY hash`,
};

export async function fingerprint(knex: Knex): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [table, sql] of Object.entries(QUERIES)) out[table] = jsonText((await knex.raw(sql)).rows);
  return out;
}

/** Contiguous heights 0..tip, each block's identity as the chain has it, and its transaction count. */
export async function assertMatchesChain(knex: Knex, chain: SyntheticChain): Promise<void> {
  const blocks = (await knex.raw(`SELECT height, block_hash, app_hash, tx_count FROM blocks ORDER BY height`)).rows as Array<Record<string, any>>;
  assert.equal(blocks.length, chain.height + 1, 'one row per height, genesis included');
  blocks.forEach((b, i) => {
    assert.equal(Number(b.height), i, `no gap at height ${i}`);
    const p = chain.payload(i);
    assert.equal(b.block_hash, p.block_meta.hash.toUpperCase(), `block hash at ${i}`);
    assert.equal(b.app_hash, p.app_hash.toUpperCase(), `app hash at ${i}`);
    const expected = i === 0 ? 1 : p.transactions.length + (p.state_patches.length ? 1 : 0);
    assert.equal(Number(b.tx_count), expected, `tx_count at ${i}`);
  });
  const perBlock = (await knex.raw(`SELECT block_height, count(*) AS n FROM transactions GROUP BY block_height ORDER BY block_height`)).rows as Array<Record<string, any>>;
  for (const row of perBlock) assert.equal(Number(row.n), Number(blocks[Number(row.block_height)]!.tx_count), `transactions of block ${row.block_height}`);
  const dup = (await knex.raw(`SELECT count(*) AS n FROM (SELECT block_height, tx_index, write_index FROM state_changes GROUP BY 1,2,3 HAVING count(*) > 1) d`)).rows[0] as { n: number };
  assert.equal(Number(dup.n), 0, 'no duplicate state change');
}
