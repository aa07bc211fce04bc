import { z } from 'zod';
import type { EnvBinding } from 'chainhost/plugin';

/**
 * `plugins.bds` options (bds.md §8, chainhost names). Without a database URL BDS runs on PGlite
 * under `<home>/bds`. The spool defaults to `<home>/bds-spool`. `readDatabaseUrl` sends the
 * reads to a replica of that server.
 */
const positiveInt = (max: number) => z.number({ error: 'must be an integer' }).int('must be an integer').min(1, `must be 1..${max}`).max(max, `must be 1..${max}`);

export const bdsConfigSchema = z.strictObject({
  /** PostgreSQL URL of the BDS database; null runs BDS on embedded PGlite (see `pgliteDir`). */
  databaseUrl: z.string().min(1).nullable().default(null),
  /**
   * A read-only copy of that database (a streaming replica) for every read: the query paths,
   * GraphQL and the dashboard in this host (← CHAIN_BDS_READ_DATABASE_URL). The writer always
   * writes `databaseUrl`.
   */
  readDatabaseUrl: z.string().min(1).nullable().default(null),
  /** How long a read of a height the writer has indexed waits for the read copy to replay it. */
  readWaitMs: z.number().int().min(0).max(60_000).default(2000),
  /**
   * False: this host only reads — the query paths (and so the dashboard's indexed pages and the
   * tools) and GraphQL over `readDatabaseUrl`, else `databaseUrl` — with no worker, no writer lock
   * and no migrations; the one writer runs in another host. For read-surface replicas.
   */
  writer: z.boolean().default(true),
  /** PGlite data directory, relative to `home`; default `<home>/bds`. */
  pgliteDir: z.string().min(1).nullable().default(null),
  schema: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'must be a plain SQL identifier').default('public'),
  spoolDir: z.string().min(1).nullable().default(null),
  queueMaxSize: positiveInt(100_000).default(128),
  catchupEnabled: z.boolean().default(true),
  catchupPollMs: positiveInt(3_600_000).default(1000),
  retryDelayMs: positiveInt(600_000).default(2000),
  batchMaxBlocks: positiveInt(10_000).default(64),
  batchMaxTxs: positiveInt(1_000_000).default(20_000),
  fetchConcurrency: positiveInt(64).default(8),
  spoolMaxEntries: positiveInt(10_000_000).default(100_000),
  spoolWarnEntries: positiveInt(Number.MAX_SAFE_INTEGER).default(256),
  spoolWarnBytes: positiveInt(Number.MAX_SAFE_INTEGER).default(536_870_912),
  diskFreeWarnBytes: z.number().int().min(0).default(2_147_483_648),
  poolMinSize: z.number().int().min(0).max(100).default(1),
  poolMaxSize: positiveInt(100).default(10),
  statementTimeoutMs: z.number().int().min(0).default(0),
  acquireTimeoutMs: z.number().int().min(0).default(10_000),
  applicationName: z.string().min(1).default('chain-bds'),
});

/** The database URLs, which the graphql plugin reads too (it binds the same variables). */
export const bdsEnvBindings: readonly EnvBinding[] = [
  { variable: 'CHAIN_BDS_DATABASE_URL', path: ['databaseUrl'], type: 'string', secret: true },
  { variable: 'CHAIN_BDS_READ_DATABASE_URL', path: ['readDatabaseUrl'], type: 'string', secret: true },
];

export type BdsOptions = z.output<typeof bdsConfigSchema>;

export function defaultBdsOptions(overrides: Partial<BdsOptions> = {}): BdsOptions {
  return bdsConfigSchema.parse(overrides);
}
