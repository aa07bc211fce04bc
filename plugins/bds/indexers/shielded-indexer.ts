import type { BdsIndexer, IndexedEvent } from '../indexer-point.js';
import { bulkInsert, type ColumnSpec } from '../writer/bulk-insert.js';
import { outputPayloadsOf, shieldedOutputsOf } from './shielded-outputs.js';

/**
 * `shielded_outputs` and `shielded_output_tags` (bds.md §2.9-2.10, §5.4): one row per committed
 * output and one per (output, tag). They feed `/shielded_output_tags` (after_id cursor) and
 * `/shielded_wallet_history` (after_note_index cursor).
 */
const BASE: ColumnSpec[] = [
  { name: 'block_height', type: 'bigint' }, { name: 'tx_hash', type: 'text' }, { name: 'tx_index', type: 'integer' },
  { name: 'contract', type: 'text' }, { name: 'function', type: 'text' }, { name: 'action', type: 'text' },
  { name: 'output_index', type: 'integer' }, { name: 'note_index', type: 'integer' }, { name: 'commitment', type: 'text' },
  { name: 'new_root', type: 'text' }, { name: 'payload_hash', type: 'text' }, { name: 'created_at', type: 'timestamptz' },
];
const TAGS: ColumnSpec[] = [...BASE, { name: 'tag_kind', type: 'text' }, { name: 'tag_value', type: 'text' }];

export const shieldedIndexer: BdsIndexer = {
  name: 'shielded',
  capability: 'read',
  description: 'shielded note outputs with their sync_hint and discovery_tag tags',
  apply(block, trx) {
    return this.applyBatch!([block], trx);
  },
  async applyBatch(blocks, trx) {
    const outputs: unknown[][] = [];
    const tags: unknown[][] = [];
    for (const block of blocks) {
      let byTx: Map<string, IndexedEvent[]> | null = null;
      for (const tx of block.transactions) {
        if (!tx.success || !tx.events.length || !outputPayloadsOf(tx)) continue;
        byTx ??= groupByTx(block.events);
        for (const o of shieldedOutputsOf(tx, byTx.get(tx.hash) ?? [])) {
          const row = [block.height, tx.hash, tx.tx_index, tx.contract, tx.function, o.action, o.output_index, o.note_index, o.commitment, o.new_root, o.payload_hash, block.time_iso];
          outputs.push(row);
          for (const t of o.tags) tags.push([...row, t.kind, t.value]);
        }
      }
    }
    await bulkInsert(trx, 'shielded_outputs', BASE, outputs, { onConflict: 'ON CONFLICT (tx_hash, output_index) DO NOTHING', copyWhenFresh: true });
    await bulkInsert(trx, 'shielded_output_tags', TAGS, tags, { onConflict: 'ON CONFLICT (tx_hash, output_index, tag_kind, tag_value) DO NOTHING', copyWhenFresh: true });
  },
};

function groupByTx(events: readonly IndexedEvent[]): Map<string, IndexedEvent[]> {
  const out = new Map<string, IndexedEvent[]>();
  for (const e of events) {
    const list = out.get(e.tx_hash);
    if (list) list.push(e);
    else out.set(e.tx_hash, [e]);
  }
  return out;
}
