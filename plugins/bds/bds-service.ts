import { lookupPaths } from './query/lookup-paths.js';
import { resolve } from 'node:path';
import { QueryPathError, type Logger, type QueryPathDefinition } from 'chainhost/plugin';
import type { BlockSource } from './block/chain-block-source.js';
import type { BdsOptions } from './bds.config.js';
import { BdsDatabase } from './database/bds-database.js';
import { BdsReadReplica } from './database/read-replica.js';
import { prepareSchema } from './database/bds-schema.js';
import { BdsFollower, type BdsDbOperation } from './follower/bds-follower.js';
import { Spool } from './follower/spool.js';
import { WriterLock } from './follower/writer-lock.js';
import type { BdsIndexer } from './indexer-point.js';
import { BUILTIN_INDEXERS } from './indexers/builtin-indexers.js';
import { blockPaths } from './query/block-paths.js';
import { eventPaths } from './query/event-paths.js';
import type { BdsQueryContext } from './query/path-context.js';
import { projectionPaths } from './query/projection-paths.js';
import { statePaths } from './query/state-paths.js';
import { statusPaths } from './query/status-paths.js';
import { BdsStatusReporter } from './status/bds-status.js';
import { BlockWriter } from './writer/block-writer.js';

/**
 * Everything BDS runs, assembled from options: the database, the spool, the writer with every
 * indexer, the follower and the status reporter. The plugin wires it into the host; tests and
 * the maintenance commands assemble it directly.
 */
export interface BdsServiceInput {
  options: BdsOptions;
  home: string;
  source: BlockSource;
  /** Contributed indexers, after the built-in ones. */
  indexers?: () => readonly BdsIndexer[];
  log: Logger;
  /** Told of every database failure of the worker (the plugin's `bds_db_errors_total`). */
  onDbError?: (operation: BdsDbOperation) => void;
  /** A fresh PGlite directory starts in the background (BdsDatabase `background`); `db.ready` says when. */
  backgroundStart?: boolean;
}

/** Longest pause between two questions of a read waiting for the read copy (they start at 1 ms; a healthy replica replays within milliseconds). */
const REPLICA_POLL_MS = 25;

export function databaseOptionsOf(options: BdsOptions, home: string) {
  return {
    url: options.databaseUrl,
    // Relative to home, as the graphql plugin resolves it: both must open the same directory.
    pgliteDir: resolve(home, options.pgliteDir ?? 'bds'),
    schema: options.schema,
    poolMin: options.poolMinSize,
    poolMax: options.poolMaxSize,
    statementTimeoutMs: options.statementTimeoutMs,
    acquireTimeoutMs: options.acquireTimeoutMs,
    applicationName: options.applicationName,
  };
}

/**
 * The pool of the read copy, or null when reads go to the primary. A copy needs a PostgreSQL
 * primary (PGlite has no replicas); its sessions are read-only and named `<applicationName>-read`
 * so the server's `pg_stat_activity` tells the two pools apart.
 */
export function readDatabaseOptionsOf(options: BdsOptions, home: string) {
  const url = options.readDatabaseUrl;
  if (!url) return null;
  const primary = databaseOptionsOf(options, home);
  if (!primary.url) {
    throw new Error('a BDS read database (plugins.bds.readDatabaseUrl / CHAIN_BDS_READ_DATABASE_URL) needs the BDS database on a PostgreSQL server (CHAIN_BDS_DATABASE_URL): PGlite has no replicas');
  }
  return { ...primary, url, readOnly: true, applicationName: `${primary.applicationName}-read` };
}

/**
 * A host that only reads (`writer: false`) opens one read-only pool: on the read copy when there
 * is one, else on the primary. Never PGlite: the writer's process holds it.
 */
function readerOnlyOptionsOf(input: BdsServiceInput) {
  const primary = databaseOptionsOf(input.options, input.home);
  const url = input.options.readDatabaseUrl ?? primary.url;
  if (!url) {
    throw new Error('plugins.bds.writer=false reads a PostgreSQL server: set CHAIN_BDS_READ_DATABASE_URL (a replica) or CHAIN_BDS_DATABASE_URL; PGlite belongs to the writer\'s process');
  }
  return { ...primary, url, readOnly: true, applicationName: `${primary.applicationName}-read` };
}

export function spoolDirOf(options: BdsOptions, home: string): string {
  return resolve(home, options.spoolDir ?? 'bds-spool');
}

/** What a BDS query path answers while the index database of a fresh home is still being created. */
export const STILL_INITIALISING = 'BDS is initialising its index database (first start on a fresh home); the indexed reads answer once it is ready, in a few seconds';

export class BdsService {
  readonly spool: Spool;
  readonly writer: BlockWriter;
  readonly follower: BdsFollower;
  readonly status: BdsStatusReporter;
  readonly lock: WriterLock;
  readonly query: BdsQueryContext;
  /** Where reads go: the read copy's pool when one is configured, else the writer's database. */
  readonly readDb: BdsDatabase;
  readonly replica: BdsReadReplica | null;

  private constructor(readonly db: BdsDatabase, replicaDb: BdsDatabase | null, readonly input: BdsServiceInput) {
    const o = input.options;
    this.spool = new Spool(spoolDirOf(o, input.home));
    // The lock's check runs inside every write transaction; a loss found between writes stops
    // the follower at once (it re-acquires, or alerts writer_lock_lost while another writer has it).
    this.lock = new WriterLock(db, { onLost: (err) => this.follower.lockLost(err) });
    this.writer = new BlockWriter(db, () => this.indexers(), { beforeCommit: () => this.lock.verify() });
    this.follower = new BdsFollower(
      { db, source: input.source, spool: this.spool, writer: this.writer, prepare: () => this.prepare(), log: input.log, onDbError: input.onDbError },
      {
        queueCapacity: o.queueMaxSize, batchMaxBlocks: o.batchMaxBlocks, batchMaxTxs: o.batchMaxTxs, pollIntervalMs: o.catchupPollMs,
        retryDelayMs: o.retryDelayMs, fetchConcurrency: o.fetchConcurrency, spoolMaxEntries: o.spoolMaxEntries, catchupEnabled: o.catchupEnabled,
      },
    );
    this.replica = replicaDb
      ? new BdsReadReplica(replicaDb, () => this.follower.indexedHeight, { waitMs: o.readWaitMs, pollMs: REPLICA_POLL_MS })
      : null;
    this.readDb = replicaDb ?? db;
    this.status = new BdsStatusReporter(this.follower, db, {
      spoolWarnEntries: o.spoolWarnEntries, spoolWarnBytes: o.spoolWarnBytes, diskFreeWarnBytes: o.diskFreeWarnBytes,
    }, this.replica);
    const replica = this.replica;
    this.query = {
      knex: () => this.readDb.knex,
      awaitHeight: replica ? (height) => replica.awaitHeight(height) : async () => undefined,
    };
  }

  static async open(input: BdsServiceInput): Promise<BdsService> {
    if (!input.options.writer) return new BdsService(await BdsDatabase.open({ ...readerOnlyOptionsOf(input), logger: input.log }), null, input);
    const readOptions = readDatabaseOptionsOf(input.options, input.home);
    const primary = databaseOptionsOf(input.options, input.home);
    const background = input.backgroundStart === true && !primary.url && BdsDatabase.isFreshPgliteDir(primary.pgliteDir);
    const db = await BdsDatabase.open({ ...primary, logger: input.log, background });
    let replicaDb: BdsDatabase | null = null;
    try {
      if (readOptions) replicaDb = await BdsDatabase.open({ ...readOptions, logger: input.log });
    } catch (err) {
      await db.close();
      throw err;
    }
    return new BdsService(db, replicaDb, input);
  }

  /** Resolves true once `height` is readable (on the read copy when there is one), false on timeout. */
  async waitForReadableHeight(height: number, timeoutMs: number): Promise<boolean> {
    // A host that only reads has no worker to wait for: it asks its database.
    if (!this.writes) return new BdsReadReplica(this.readDb, () => null, { waitMs: 0, pollMs: REPLICA_POLL_MS }).waitForHeight(height, timeoutMs);
    const deadline = Date.now() + timeoutMs;
    if (!(await this.follower.waitForHeight(height, timeoutMs))) return false;
    return this.replica ? this.replica.waitForHeight(height, Math.max(deadline - Date.now(), 0)) : true;
  }

  indexers(): readonly BdsIndexer[] {
    return [...BUILTIN_INDEXERS, ...(this.input.indexers?.() ?? [])];
  }

  /** Whether this host writes (the worker, the lock, migrations), or only reads (`writer: false`). */
  get writes(): boolean {
    return this.input.options.writer;
  }

  /** Schema guard, migrations and the writer lock (idempotent). */
  async prepare(): Promise<void> {
    await prepareSchema(this.db, this.indexers());
    await this.lock.ensure();
  }

  queryPaths(): QueryPathDefinition[] {
    const paths = [...statusPaths(this.status, this.spool), ...blockPaths(this.query), ...eventPaths(this.query), ...statePaths(this.query), ...projectionPaths(this.query), ...lookupPaths(this.query)];
    // While a fresh PGlite initialises, say so at once instead of holding the request until it is ready.
    return paths.map((p) => ({
      ...p,
      handler: (query, ctx) => {
        if (!this.readDb.isReady) throw new QueryPathError(STILL_INITIALISING);
        return p.handler(query, ctx);
      },
    }));
  }

  start(): void {
    this.follower.start();
  }

  async stop(): Promise<void> {
    await this.follower.stop();
    await this.lock.release();
    await this.db.close();
    if (this.replica) await this.replica.db.close();
  }
}
