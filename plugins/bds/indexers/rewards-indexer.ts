import type { BdsIndexer, IndexedBlock } from '../indexer-point.js';
import { bulkInsert, type ColumnSpec } from '../writer/bulk-insert.js';

/**
 * `rewards` rows (bds.md §2.8, §3 step 4): the execution output's `reward_records`, else its
 * flattened `rewards` buckets. Developer rewards (`/developer_rewards`, `/contract_summary`)
 * are aggregates over these rows.
 */
const COLUMNS: ColumnSpec[] = [
  { name: 'block_height', type: 'bigint' }, { name: 'tx_hash', type: 'text' }, { name: 'tx_index', type: 'integer' },
  { name: 'reward_index', type: 'integer' }, { name: 'type', type: 'text' }, { name: 'recipient_key', type: 'text' },
  { name: 'source_contract', type: 'text' }, { name: 'value', type: 'numeric' }, { name: 'created_at', type: 'timestamptz' },
];

const DECIMAL = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]{1,4})?$/;

export const rewardsIndexer: BdsIndexer = {
  name: 'rewards',
  capability: 'read',
  description: 'validator, delegator, foundation and developer rewards per transaction',
  apply(block, trx) {
    return this.applyBatch!([block], trx);
  },
  async applyBatch(blocks, trx) {
    await bulkInsert(trx, 'rewards', COLUMNS, rewardRows(blocks), { onConflict: 'ON CONFLICT (block_height, tx_index, reward_index) DO NOTHING', copyWhenFresh: true });
  },
};

/** Built lazily: on the COPY path each row is serialized as it streams. */
function* rewardRows(blocks: readonly IndexedBlock[]): Generator<unknown[]> {
  for (const block of blocks) {
    for (const tx of block.transactions) {
      for (const r of tx.rewards) {
        if (!DECIMAL.test(r.value)) continue; // NUMERIC NOT NULL: a malformed amount is not a reward
        yield [block.height, tx.hash, tx.tx_index, r.reward_index, r.type, r.recipient_key, r.source_contract, r.value, block.time_iso];
      }
    }
  }
}
