import type { Knex } from 'knex';

/**
 * The BDS database as GraphQL reads it. In a host that also runs the `bds` plugin it is bds's
 * own handle (`BdsTokens.database`, which satisfies this contract; PGlite is single-process: a
 * second instance on the same directory would corrupt it); a standalone `chain-graphql` opens
 * one itself.
 */
export interface BdsSource {
  /** Read it per statement: a shared handle may reconnect with a new instance. */
  readonly knex: Knex;
  /** Schema holding the BDS tables. */
  readonly schema: string;
  readonly kind: 'pglite' | 'postgres';
  /** The worker's `/bds_status` object, when the BDS worker runs in this process. */
  status?(): Promise<Record<string, unknown>>;
  /** Where the data lives, without credentials. */
  describe(): string;
  /** Releases what this plugin opened (nothing for a shared handle). */
  close(): Promise<void>;
}
