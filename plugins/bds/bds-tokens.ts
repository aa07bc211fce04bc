import type { Knex } from 'knex';
import { createToken } from 'chainhost/plugin';

/**
 * The BDS database as other plugins read it (GraphQL, DEX candles): bds's own handle, because
 * PGlite is single-process and a second instance on the same directory would corrupt it. Its
 * `knex` is the read pool: the read copy (CHAIN_BDS_READ_DATABASE_URL) when one is set. The
 * handle is published in register() and usable from init() on; `knex` may change when the
 * worker reconnects, so read it per query.
 */
export interface BdsDatabaseHandle {
  readonly knex: Knex;
  /** Schema holding the BDS tables (the connection's search path points at it). */
  readonly schema: string;
  readonly kind: 'pglite' | 'postgres';
  /** `/bds_status` as an object. */
  status(): Promise<Record<string, unknown>>;
  /** The writer's highest contiguous indexed height (-1 empty, null before the database was reached). */
  indexedHeight(): number | null;
  /** Resolves true once `height` is indexed and readable through `knex` (on the read copy when there is one), false on timeout. */
  waitForHeight(height: number, timeoutMs: number): Promise<boolean>;
  /**
   * Settles once the writer indexes (never rejects): at once after start, except on a fresh home
   * whose PGlite database is still being created in the background (the query paths answer
   * "initialising" until then).
   */
  whenIndexing(): Promise<void>;
  /** Where the data lives, without credentials. */
  describe(): string;
  /** Releases nothing: the bds plugin owns the handle (for GraphQL's BdsSource contract). */
  close(): Promise<void>;
}

export const BdsTokens = {
  database: createToken<BdsDatabaseHandle>('bds.database'),
};
