import type { Knex } from 'knex';
import type { JsonObject, JsonValue } from 'chainhost/chain';
import { createExtensionPoint } from 'chainhost/plugin';
import type { BdsMigration } from './database/migrations.js';

/**
 * The BDS indexer extension point (design "Extension points"): projections that run once per
 * finalized block inside the BDS write transaction, during live following and reindex alike.
 * The core rows of the block (blocks, transactions, addresses, state changes, state, events)
 * are already written when `apply` runs, so an indexer can join against them; ids of the
 * block's state changes and events are in the block it receives.
 */
export interface BdsIndexer {
  /** kebab-case, unique; prefixes the indexer's migration names. */
  name: string;
  capability: 'read';
  description?: string;
  /** Tables and indexes the projection needs, applied at start before any block is written. */
  migrations?: readonly BdsMigration[];
  /** Tables the indexer owns, parents first: exported by snapshots, dropped by `--reset`. */
  tables?: readonly string[];
  /**
   * Writes the block's projection with `trx`. Must be idempotent (`ON CONFLICT DO NOTHING` or an
   * upsert); called in strictly increasing height order; a throw rolls back the whole batch and
   * the worker retries it.
   */
  apply(block: IndexedBlock, trx: Knex.Transaction): Promise<void>;
  /**
   * Optional: the whole run of blocks of one transaction at once (catch-up writes many blocks
   * per transaction); when present it is called instead of `apply`, with blocks in height order.
   */
  applyBatch?(blocks: readonly IndexedBlock[], trx: Knex.Transaction): Promise<void>;
}

export interface BdsIndexerRegistrar {
  /** Adds a projection; call in init(). Names are unique across plugins. */
  addIndexer(indexer: BdsIndexer): void;
  /** The BDS database for reading a projection (e.g. in a contributed query path); from init on, per query. */
  knex(): Knex;
}

export const bdsIndexers = createExtensionPoint<BdsIndexerRegistrar>('bds.indexers');

export type OriginType = 'genesis' | 'transaction' | 'state_patch';

/** A reward as stored in `rewards` (value as a plain decimal string). */
export interface IndexedReward {
  reward_index: number;
  type: string;
  recipient_key: string | null;
  source_contract: string | null;
  value: string;
}

/** A contract event as executed (`events[]` of the execution output, defaults applied). */
export interface IndexedEventInput {
  contract: string;
  event: string;
  signer: string;
  caller: string;
  data_indexed: JsonObject;
  data: JsonObject;
}

/** One row of `transactions`, with what it did. Pseudo-transactions (genesis, state patch) included. */
export interface IndexedTransaction {
  hash: string;
  tx_index: number;
  origin_type: OriginType;
  sender: string;
  nonce: number | bigint;
  contract: string;
  function: string;
  success: boolean;
  status_code: number;
  chi_used: number | bigint;
  /** The JSON stored in `result` (null = SQL NULL). */
  result: JsonValue;
  payload: JsonValue;
  envelope: JsonValue;
  /** State writes in order (`write_index` = position). */
  writes: ReadonlyArray<{ key: string; value: JsonValue }>;
  events: readonly IndexedEventInput[];
  rewards: readonly IndexedReward[];
}

/** A state change with the id it received. */
export interface IndexedStateChange {
  change_id: number | bigint;
  tx_hash: string;
  tx_index: number;
  write_index: number;
  key: string;
  value: JsonValue;
  origin_type: OriginType;
  previous_change_id: number | bigint | null;
  previous_tx_hash: string | null;
}

/** An event with the id it received. */
export interface IndexedEvent extends IndexedEventInput {
  id: number | bigint;
  tx_hash: string;
  tx_index: number;
  event_index: number;
}

/** A finalized block as indexers see it. */
export interface IndexedBlock {
  height: number;
  /** Uppercase block hash (`GENESIS` for height 0). */
  hash: string;
  /** Uppercase header app hash (`GENESIS` for height 0). */
  app_hash: string;
  chain_id: string;
  /** Block time, ns since the epoch. */
  time_nanos: bigint;
  /** Block time as ISO-8601 with `+00:00`. */
  time_iso: string;
  /** Rows of `transactions` in `tx_index` order, pseudo-transactions included. */
  transactions: readonly IndexedTransaction[];
  /** State-patch executions of the block (contracts.md §8), empty when none ran. */
  state_patches: readonly JsonValue[];
  state_patch_hash: string | null;
  /** Filled by the writer before indexers run. */
  state_changes: readonly IndexedStateChange[];
  events: readonly IndexedEvent[];
}
