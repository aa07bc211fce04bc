import type { Knex } from 'knex';
import type { IndexedBlock, IndexedEvent, IndexedStateChange } from '../indexer-point.js';
import type { NormalizedBlock } from '../block/normalize-block.js';
import { allocateIds, bulkInsert, jsonParam, type ColumnSpec } from './bulk-insert.js';

/**
 * The core rows of a batch of blocks (bds.md §3): blocks, transactions, the sender upserts of
 * `addresses`, state changes with their predecessors, the `state` upserts and events — each
 * table written with one statement per batch. Ids of state changes and events are drawn from
 * their identity sequences first, so predecessors inside the batch can be linked in memory.
 */
const BLOCK_COLUMNS: ColumnSpec[] = [
  { name: 'height', type: 'bigint' }, { name: 'block_hash', type: 'text' }, { name: 'block_time', type: 'bigint' },
  { name: 'block_time_iso', type: 'timestamptz' }, { name: 'tx_count', type: 'integer' }, { name: 'app_hash', type: 'text' },
  { name: 'created_at', type: 'timestamptz' },
];

const TX_COLUMNS: ColumnSpec[] = [
  { name: 'hash', type: 'text' }, { name: 'block_height', type: 'bigint' }, { name: 'block_hash', type: 'text' },
  { name: 'block_time', type: 'bigint' }, { name: 'tx_index', type: 'integer' }, { name: 'sender', type: 'text' },
  { name: 'nonce', type: 'bigint' }, { name: 'contract', type: 'text' }, { name: 'function', type: 'text' },
  { name: 'success', type: 'boolean' }, { name: 'status_code', type: 'integer' }, { name: 'chi_used', type: 'bigint' },
  { name: 'result', type: 'jsonb' }, { name: 'payload', type: 'jsonb' }, { name: 'envelope', type: 'jsonb' },
  { name: 'created_at', type: 'timestamptz' },
];

const ADDRESS_COLUMNS: ColumnSpec[] = [
  { name: 'address', type: 'text' }, { name: 'tx_count', type: 'bigint' }, { name: 'first_block_height', type: 'bigint' },
  { name: 'first_seen', type: 'timestamptz' }, { name: 'last_block_height', type: 'bigint' }, { name: 'last_tx_index', type: 'integer' },
  { name: 'last_seen', type: 'timestamptz' }, { name: 'last_tx_hash', type: 'text' }, { name: 'last_contract', type: 'text' },
  { name: 'last_function', type: 'text' }, { name: 'updated_at', type: 'timestamptz' },
];

const CHANGE_COLUMNS: ColumnSpec[] = [
  { name: 'change_id', type: 'bigint' }, { name: 'block_height', type: 'bigint' }, { name: 'block_hash', type: 'text' },
  { name: 'block_time', type: 'bigint' }, { name: 'tx_hash', type: 'text' }, { name: 'tx_index', type: 'integer' },
  { name: 'write_index', type: 'integer' }, { name: 'key', type: 'text' }, { name: 'new_value', type: 'jsonb' },
  { name: 'previous_change_id', type: 'bigint' }, { name: 'previous_tx_hash', type: 'text' }, { name: 'origin_type', type: 'text' },
  { name: 'created_at', type: 'timestamptz' },
];

const STATE_COLUMNS: ColumnSpec[] = [
  { name: 'key', type: 'text' }, { name: 'value', type: 'jsonb' }, { name: 'last_change_id', type: 'bigint' },
  { name: 'last_tx_hash', type: 'text' }, { name: 'last_block_height', type: 'bigint' }, { name: 'updated_at', type: 'timestamptz' },
];

const EVENT_COLUMNS: ColumnSpec[] = [
  { name: 'id', type: 'bigint' }, { name: 'block_height', type: 'bigint' }, { name: 'tx_hash', type: 'text' },
  { name: 'tx_index', type: 'integer' }, { name: 'event_index', type: 'integer' }, { name: 'contract', type: 'text' },
  { name: 'event', type: 'text' }, { name: 'signer', type: 'text' }, { name: 'caller', type: 'text' },
  { name: 'data_indexed', type: 'jsonb' }, { name: 'data', type: 'jsonb' }, { name: 'created_at', type: 'timestamptz' },
];

const LAST_WINS = (col: string) =>
  `${col} = CASE WHEN (EXCLUDED.last_block_height, EXCLUDED.last_tx_index) >= (a.last_block_height, a.last_tx_index) THEN EXCLUDED.${col} ELSE a.${col} END`;

const ADDRESS_UPSERT = `ON CONFLICT (address) DO UPDATE SET
  tx_count = a.tx_count + EXCLUDED.tx_count,
  first_seen = CASE WHEN EXCLUDED.first_block_height < a.first_block_height THEN EXCLUDED.first_seen ELSE a.first_seen END,
  first_block_height = LEAST(EXCLUDED.first_block_height, a.first_block_height),
  ${['last_seen', 'last_tx_hash', 'last_contract', 'last_function'].map(LAST_WINS).join(',\n  ')},
  last_tx_index = CASE WHEN (EXCLUDED.last_block_height, EXCLUDED.last_tx_index) >= (a.last_block_height, a.last_tx_index) THEN EXCLUDED.last_tx_index ELSE a.last_tx_index END,
  last_block_height = GREATEST(EXCLUDED.last_block_height, a.last_block_height),
  updated_at = EXCLUDED.updated_at`;

const STATE_UPSERT = `ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, last_change_id = EXCLUDED.last_change_id,
  last_tx_hash = EXCLUDED.last_tx_hash, last_block_height = EXCLUDED.last_block_height, updated_at = EXCLUDED.updated_at`;

interface AddressAgg {
  row: unknown[];
  count: number;
}

/** Writes the core rows of `blocks` (new heights only, in order) and returns them with ids filled in. */
export async function writeCoreRows(trx: Knex.Transaction, blocks: readonly NormalizedBlock[]): Promise<IndexedBlock[]> {
  const changeCount = blocks.reduce((n, b) => n + b.transactions.reduce((m, t) => m + t.writes.length, 0), 0);
  const eventCount = blocks.reduce((n, b) => n + b.transactions.reduce((m, t) => m + t.events.length, 0), 0);
  const changeIds = await allocateIds(trx, 'state_changes', 'change_id', changeCount);
  const eventIds = await allocateIds(trx, 'events', 'id', eventCount);
  const previous = await currentStateHeads(trx, blocks);

  // One pass for what is small or needed by the indexers (ids, predecessors, the upserts);
  // the big tables' rows are built lazily below, as they stream.
  const addresses = new Map<string, AddressAgg>();
  const stateRows = new Map<string, unknown[]>();
  const result: IndexedBlock[] = [];
  let nextChange = 0;
  let nextEvent = 0;
  for (const block of blocks) {
    const iso = block.time_iso;
    const changes: IndexedStateChange[] = [];
    const events: IndexedEvent[] = [];
    for (const tx of block.transactions) {
      const agg = addresses.get(tx.sender);
      const last = [block.height, tx.tx_index, iso, tx.hash, tx.contract, tx.function, iso];
      if (agg) {
        agg.count++;
        // rows arrive in (height, index) order: the newest replaces the last_* columns
        agg.row.splice(4, 7, last[0], last[1], last[2], last[3], last[4], last[5], last[6]);
      } else {
        addresses.set(tx.sender, { count: 1, row: [tx.sender, 1, block.height, iso, ...last] });
      }
      tx.writes.forEach((write, writeIndex) => {
        const id = changeIds[nextChange++]!;
        const prev = previous.get(write.key) ?? null;
        changes.push({
          change_id: id, tx_hash: tx.hash, tx_index: tx.tx_index, write_index: writeIndex, key: write.key, value: write.value,
          origin_type: tx.origin_type, previous_change_id: prev?.id ?? null, previous_tx_hash: prev?.txHash ?? null,
        });
        previous.set(write.key, { id, txHash: tx.hash });
        stateRows.set(write.key, [write.key, write.value, id, tx.hash, block.height, iso]);
      });
      tx.events.forEach((event, eventIndex) => {
        events.push({ ...event, id: eventIds[nextEvent++]!, tx_hash: tx.hash, tx_index: tx.tx_index, event_index: eventIndex });
      });
    }
    result.push({ ...block, state_changes: changes, events });
  }

  // Every insert is idempotent; naming the arbiter (the natural key) keeps ON CONFLICT as cheap as a plain insert.
  await bulkInsert(trx, 'blocks', BLOCK_COLUMNS, blockRows(result), { onConflict: 'ON CONFLICT (height) DO NOTHING', copyWhenFresh: true });
  await bulkInsert(trx, 'transactions', TX_COLUMNS, txRows(result), { onConflict: 'ON CONFLICT (hash) DO NOTHING', copyWhenFresh: true });
  const addressRows = [...addresses.values()].map((a) => {
    a.row[1] = a.count;
    return a.row;
  });
  await bulkInsert(trx, 'addresses', ADDRESS_COLUMNS, addressRows, { onConflict: ADDRESS_UPSERT, alias: 'a' });
  await bulkInsert(trx, 'state_changes', CHANGE_COLUMNS, changeRows(result), {
    onConflict: 'ON CONFLICT (block_height, tx_index, write_index) DO NOTHING', overridingSystemValue: true, copyWhenFresh: true,
  });
  const latestState = [...stateRows.values()].map((row) => {
    row[1] = jsonParam(row[1]); // serialized once per key: only the batch's last write of it is stored
    return row;
  });
  await bulkInsert(trx, 'state', STATE_COLUMNS, latestState, { onConflict: STATE_UPSERT });
  await bulkInsert(trx, 'events', EVENT_COLUMNS, eventRows(result), { onConflict: 'ON CONFLICT (tx_hash, event_index) DO NOTHING', overridingSystemValue: true, copyWhenFresh: true });
  return result;
}

function* blockRows(blocks: readonly IndexedBlock[]): Generator<unknown[]> {
  for (const b of blocks) yield [b.height, b.hash, b.time_nanos, b.time_iso, b.transactions.length, b.app_hash, b.time_iso];
}

function* txRows(blocks: readonly IndexedBlock[]): Generator<unknown[]> {
  for (const b of blocks) {
    for (const tx of b.transactions) {
      yield [
        tx.hash, b.height, b.hash, b.time_nanos, tx.tx_index, tx.sender, tx.nonce, tx.contract, tx.function,
        tx.success, tx.status_code, tx.chi_used, jsonParam(tx.result), jsonParam(tx.payload) ?? 'null', jsonParam(tx.envelope) ?? 'null', b.time_iso,
      ];
    }
  }
}

function* changeRows(blocks: readonly IndexedBlock[]): Generator<unknown[]> {
  for (const b of blocks) {
    for (const c of b.state_changes) {
      yield [
        c.change_id, b.height, b.hash, b.time_nanos, c.tx_hash, c.tx_index, c.write_index, c.key, jsonParam(c.value),
        c.previous_change_id, c.previous_tx_hash, c.origin_type, b.time_iso,
      ];
    }
  }
}

function* eventRows(blocks: readonly IndexedBlock[]): Generator<unknown[]> {
  for (const b of blocks) {
    for (const e of b.events) {
      yield [
        e.id, b.height, e.tx_hash, e.tx_index, e.event_index, e.contract, e.event, e.signer, e.caller,
        jsonParam(e.data_indexed) ?? '{}', jsonParam(e.data) ?? '{}', b.time_iso,
      ];
    }
  }
}

/** The current `state` row of every key the batch writes: the predecessor of its first change. */
async function currentStateHeads(trx: Knex.Transaction, blocks: readonly NormalizedBlock[]): Promise<Map<string, { id: number | bigint; txHash: string | null }>> {
  const keys = new Set<string>();
  for (const b of blocks) for (const t of b.transactions) for (const w of t.writes) keys.add(w.key);
  const out = new Map<string, { id: number | bigint; txHash: string | null }>();
  if (!keys.size) return out;
  const r = await trx.raw(`SELECT key, last_change_id, last_tx_hash FROM state WHERE key = ANY(?::text[])`, [[...keys]]);
  for (const row of r.rows as Array<{ key: string; last_change_id: number | bigint; last_tx_hash: string | null }>) {
    out.set(row.key, { id: row.last_change_id, txHash: row.last_tx_hash });
  }
  return out;
}
