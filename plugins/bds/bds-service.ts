import { resolve } from 'node:path';
import type { Logger, QueryPathDefinition } from 'chainhost/plugin';
import type { BlockSource } from './block/chain-block-source.js';
import type { BdsOptions } from './bds.config.js';
import { BdsDatabase } from './database/bds-database.js';
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
}

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

export function spoolDirOf(options: BdsOptions, home: string): string {
  return resolve(home, options.spoolDir ?? 'bds-spool');
}

export class BdsService {
  readonly spool: Spool;
  readonly writer: BlockWriter;
  readonly follower: BdsFollower;
  readonly status: BdsStatusReporter;
  readonly lock: WriterLock;
  readonly query: BdsQueryContext;

  private constructor(readonly db: BdsDatabase, readonly input: BdsServiceInput) {
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
    this.status = new BdsStatusReporter(this.follower, db, {
      spoolWarnEntries: o.spoolWarnEntries, spoolWarnBytes: o.spoolWarnBytes, diskFreeWarnBytes: o.diskFreeWarnBytes,
    });
    this.query = { knex: () => db.knex };
  }

  static async open(input: BdsServiceInput): Promise<BdsService> {
    const db = await BdsDatabase.open({ ...databaseOptionsOf(input.options, input.home), logger: input.log });
    return new BdsService(db, input);
  }

  indexers(): readonly BdsIndexer[] {
    return [...BUILTIN_INDEXERS, ...(this.input.indexers?.() ?? [])];
  }

  /** Schema guard, migrations and the writer lock (idempotent). */
  async prepare(): Promise<void> {
    await prepareSchema(this.db, this.indexers());
    await this.lock.ensure();
  }

  queryPaths(): QueryPathDefinition[] {
    return [...statusPaths(this.status, this.spool), ...blockPaths(this.query), ...eventPaths(this.query), ...statePaths(this.query), ...projectionPaths(this.query)];
  }

  start(): void {
    this.follower.start();
  }

  async stop(): Promise<void> {
    await this.follower.stop();
    await this.lock.release();
    await this.db.close();
  }
}
