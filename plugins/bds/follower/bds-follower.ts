import { databaseReason, type Logger } from 'chainhost/plugin';
import type { BlockPayload } from '../block/block-payload.js';
import type { BlockSource } from '../block/chain-block-source.js';
import type { BdsDatabase } from '../database/bds-database.js';
import { maxIndexedHeight } from '../reads/block-reads.js';
import { BlockIdentityMismatchError, BlockParentMismatchError, type BlockWriter } from '../writer/block-writer.js';
import { HeightHint } from './height-hint.js';
import type { Spool } from './spool.js';
import { WakeSignal } from './wake-signal.js';
import { WriterLockHeldError, WriterLockLostError } from './writer-lock.js';
import { DEFAULT_FOLLOWER_OPTIONS, timedError, yieldToEventLoop, type FollowerOptions, type TimedError } from './follower-options.js';

export type { FollowerOptions, TimedError };

export interface FollowerDeps {
  db: BdsDatabase;
  source: BlockSource;
  spool: Spool;
  writer: BlockWriter;
  /** Schema guard + writer lock; run before the first write and again after a database error. */
  prepare(): Promise<void>;
  log: Logger;
  /** Told of every database failure the worker meets (the `bds_db_errors_total` counter). */
  onDbError?(operation: BdsDbOperation): void;
}

/** What the worker was doing when the database failed: getting ready (schema, lock, indexed height) or writing blocks. */
export type BdsDbOperation = 'prepare' | 'write';
export const BDS_DB_OPERATIONS: readonly BdsDbOperation[] = ['prepare', 'write'];

/**
 * The BDS worker (bds.md §4). Two loops:
 * - the fetcher learns the node's height (new-block subscription for latency, polling for
 *   completeness), fetches the heights after the indexed one, writes each to the spool FIRST and
 *   then queues it (in memory up to `queueCapacity`; beyond that the spool holds it);
 * - the writer persists the next contiguous height `indexed + 1` — a run of them in catch-up —
 *   in one transaction, then deletes their spool files. A failure (database down, identity
 *   mismatch) is retried after `retryDelayMs`, forever; the fetcher keeps spooling meanwhile
 *   (up to `spoolMaxEntries`), and the writer drains the spool in order when the database returns.
 */
export class BdsFollower {
  readonly options: FollowerOptions;
  /** Highest contiguous indexed height; -1 = empty index, null = not known yet (database not reached). */
  indexedHeight: number | null = null;
  currentHeight: number | null = null;
  workerRunning = false;
  catchupRunning = false;
  dbStatus: 'ok' | 'error' | 'unknown' = 'unknown';
  dbError: string | null = null;
  lastWorkerError: TimedError | null = null;
  lastEnqueueError: TimedError | null = null;
  /** Set while the writer lock is lost and not re-acquired: the `writer_lock_lost` alert. */
  lockLostError: TimedError | null = null;
  private readonly pending = new Map<number, BlockPayload>();
  private readonly hint: HeightHint;
  private readonly workSignal = new WakeSignal();
  private readonly fetchSignal = new WakeSignal();
  private readonly heightWaiters = new Set<() => void>();
  private running = false;
  private ready = false;
  private loops: Promise<void>[] = [];
  private subscription: { unsubscribe(): Promise<void> } | null = null;

  constructor(private readonly deps: FollowerDeps, options: Partial<FollowerOptions> = {}) {
    this.options = { ...DEFAULT_FOLLOWER_OPTIONS, ...options };
    this.hint = new HeightHint(deps.spool.dir);
  }

  get queueDepth(): number {
    return this.pending.size;
  }

  get spool(): Spool {
    return this.deps.spool;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.workerRunning = true;
    this.catchupRunning = true;
    this.loops = [this.workerLoop(), this.fetchLoop()];
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.workSignal.wake();
    this.fetchSignal.wake();
    await Promise.all(this.loops);
    this.loops = [];
    await this.subscription?.unsubscribe().catch(() => undefined);
    this.subscription = null;
    if (this.indexedHeight !== null) this.hint.write(this.indexedHeight, true);
    for (const w of [...this.heightWaiters]) w();
  }

  /** Resolves true once `height` is indexed, false on timeout. */
  waitForHeight(height: number, timeoutMs: number): Promise<boolean> {
    if ((this.indexedHeight ?? -1) >= height) return Promise.resolve(true);
    return new Promise((resolve) => {
      const check = () => {
        if ((this.indexedHeight ?? -1) >= height || !this.running) {
          clearTimeout(timer);
          this.heightWaiters.delete(check);
          resolve((this.indexedHeight ?? -1) >= height);
        }
      };
      const timer = setTimeout(() => {
        this.heightWaiters.delete(check);
        resolve(false);
      }, timeoutMs);
      this.heightWaiters.add(check);
    });
  }

  /**
   * The writer lock's session died (WriterLock.onLost). Writing stops at once: the next batch
   * waits for prepare(), which re-acquires the lock — or, while another writer holds it, keeps
   * failing with the alert up and blocks spooling. A write already in its transaction is rolled
   * back by the lock's check before commit.
   */
  lockLost(err: WriterLockLostError): void {
    this.ready = false;
    if (!this.lockLostError) {
      this.lockLostError = timedError('writer_lock_lost', err.message);
      this.deps.log.error('BDS writer lock lost; writing stopped until it is re-acquired', { reason: err.reason });
    }
    this.workSignal.wake();
  }

  // ---- writer ------------------------------------------------------------------------------

  private async workerLoop(): Promise<void> {
    while (this.running) {
      if (!this.ready && !(await this.becomeReady())) {
        await this.workSignal.wait(this.options.retryDelayMs);
        continue;
      }
      const batch = this.takeBatch();
      if (!batch.length) {
        await this.workSignal.wait(this.options.pollIntervalMs);
        continue;
      }
      try {
        await this.deps.writer.write(batch);
        this.advance(batch);
        this.markDb(null);
        this.lastWorkerError = null;
        // Yield so timers, servers and the fetcher get their turn between batches (a batch's
        // statements may settle back to back; PGlite's run in its own thread, the indexers' JS here).
        await yieldToEventLoop();
      } catch (err) {
        await this.onWriteError(err, batch[0]!.block_meta.height);
        await this.workSignal.wait(this.options.retryDelayMs);
      }
    }
    this.workerRunning = false;
  }

  private async becomeReady(): Promise<boolean> {
    try {
      await this.deps.prepare();
      const max = await maxIndexedHeight(this.deps.db.knex);
      this.indexedHeight = max ?? -1;
      this.ready = true;
      this.markDb(null);
      if (this.lockLostError) this.deps.log.info('BDS writer lock re-acquired; writing resumes', { indexed_height: this.indexedHeight });
      this.lockLostError = null;
      const stale = this.deps.spool.removeUpTo(this.indexedHeight);
      for (const h of [...this.pending.keys()]) if (h <= this.indexedHeight) this.pending.delete(h);
      if (stale) this.deps.log.info('removed spool files of already indexed blocks', { count: stale, indexed_height: this.indexedHeight });
      this.hint.write(this.indexedHeight, true);
      this.fetchSignal.wake();
      for (const w of [...this.heightWaiters]) w();
      return true;
    } catch (err) {
      if (err instanceof WriterLockHeldError) {
        // The database is fine; another writer (chain-bds-reindex, a second host) took the lock.
        this.lockLostError = timedError('writer_lock_lost', `${this.lockLostError ? 'the BDS writer lock was lost and ' : ''}${err.message}; this worker writes nothing until it can take the lock`);
        return false;
      }
      this.markDb(err);
      this.deps.onDbError?.('prepare');
      return false;
    }
  }

  private takeBatch(): BlockPayload[] {
    const next = (this.indexedHeight ?? -1) + 1;
    const batch: BlockPayload[] = [];
    let txs = 0;
    while (batch.length < this.options.batchMaxBlocks) {
      const height = next + batch.length;
      const payload = this.pending.get(height) ?? this.loadSpooled(height);
      if (!payload) break;
      if (batch.length && txs + payload.transactions.length > this.options.batchMaxTxs) break;
      batch.push(payload);
      txs += payload.transactions.length;
    }
    return batch;
  }

  private loadSpooled(height: number): BlockPayload | undefined {
    const entry = this.deps.spool.get(height);
    if (!entry) return undefined;
    try {
      return this.deps.spool.read(entry);
    } catch (err) {
      this.deps.log.warn('unreadable spool file removed; the block will be fetched again', { file: entry.file, error: (err as Error).message });
      this.deps.spool.remove(height);
      this.fetchSignal.wake();
      return undefined;
    }
  }

  private advance(batch: readonly BlockPayload[]): void {
    for (const p of batch) {
      const h = p.block_meta.height;
      this.pending.delete(h);
      this.deps.spool.remove(h);
    }
    this.indexedHeight = batch[batch.length - 1]!.block_meta.height;
    this.hint.write(this.indexedHeight);
    for (const w of [...this.heightWaiters]) w();
    this.fetchSignal.wake();
  }

  private async onWriteError(err: unknown, height: number): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof WriterLockLostError) {
      this.lockLost(err); // rolled back before commit: nothing of the batch was written
      return;
    }
    if (err instanceof BlockIdentityMismatchError || err instanceof BlockParentMismatchError) {
      this.lastWorkerError = timedError('block_identity_mismatch', message);
      this.deps.log.error(message);
      return;
    }
    this.deps.onDbError?.('write');
    const reachable = await this.deps.db.ping().then(() => true, () => false);
    if (!reachable) {
      this.ready = false; // re-run prepare (writer lock, schema) when it is back
      this.markDb(err);
      this.deps.log.warn('BDS database unavailable; blocks keep spooling', { height, error: message });
    } else {
      this.lastWorkerError = timedError('write_failed', `height ${height}: ${message}`);
      this.deps.log.error('BDS block write failed; retrying', { height, error: message });
    }
  }

  private markDb(err: unknown): void {
    if (err === null) {
      this.dbStatus = 'ok';
      this.dbError = null;
      return;
    }
    this.dbStatus = 'error';
    // Shown in /bds_status: the SQLSTATE or connection code only, never knex's SQL-prefixed message.
    this.dbError = databaseReason(err);
  }

  // ---- fetcher -----------------------------------------------------------------------------

  private async fetchLoop(): Promise<void> {
    while (this.running) {
      let fetched = 0;
      try {
        await this.ensureSubscribed();
        fetched = await this.fetchPass();
      } catch (err) {
        this.lastEnqueueError = timedError('fetch_failed', `BDS could not fetch blocks from ${this.deps.source.describe()}: ${(err as Error).message}`);
        await this.fetchSignal.wait(this.options.retryDelayMs);
        continue;
      }
      if (!fetched) await this.fetchSignal.wait(this.options.catchupEnabled ? this.options.pollIntervalMs : 3_600_000);
    }
    this.catchupRunning = false;
  }

  private async ensureSubscribed(): Promise<void> {
    if (this.subscription || !this.deps.source.subscribe) return;
    try {
      this.subscription = await this.deps.source.subscribe((height) => {
        if (this.currentHeight === null || height > this.currentHeight) this.currentHeight = height;
        this.fetchSignal.wake();
      });
    } catch (err) {
      this.deps.log.debug('new-block subscription unavailable; polling only', { error: (err as Error).message });
    }
  }

  /** Fetches and spools the next missing heights; returns how many it added. */
  private async fetchPass(): Promise<number> {
    const latest = await this.deps.source.latestHeight();
    if (this.currentHeight === null || latest > this.currentHeight) this.currentHeight = latest;
    // A cold start with the database down (never reached, no hint, nothing spooled) spools from
    // genesis: blocks the database turns out to hold already are dropped when it is back, and the
    // spool cap bounds the work.
    const base = this.indexedHeight ?? this.hint.read() ?? this.spoolFloor() ?? -1;
    const limit = this.dbStatus === 'ok' ? this.options.queueCapacity : this.options.spoolMaxEntries;
    const spool = this.deps.spool;
    const heights: number[] = [];
    for (let h = base + 1; h <= latest && spool.count + heights.length < limit; h++) {
      if (!spool.has(h) && !this.pending.has(h)) heights.push(h);
    }
    if (!heights.length) return 0;
    const concurrency = Math.max(1, this.options.fetchConcurrency);
    let added = 0;
    for (let i = 0; i < heights.length && this.running; i += concurrency) {
      const chunk = heights.slice(i, i + concurrency);
      const payloads = await Promise.all(chunk.map((h) => this.deps.source.fetch(h)));
      for (const payload of payloads) {
        this.enqueue(payload);
        added++;
      }
      this.workSignal.wake();
      await yieldToEventLoop();
    }
    return added;
  }

  private spoolFloor(): number | null {
    const first = this.deps.spool.list()[0];
    return first ? first.height - 1 : null;
  }

  /** Spool first, then the in-memory queue when it has room (bds.md §4 step 1). */
  private enqueue(payload: BlockPayload): void {
    const height = payload.block_meta.height;
    if (this.indexedHeight !== null && height <= this.indexedHeight) return;
    this.deps.spool.write(payload);
    if (this.pending.size < this.options.queueCapacity) {
      this.pending.set(height, payload);
      this.lastEnqueueError = null;
    } else {
      this.lastEnqueueError = timedError('pending_buffer_full', 'BDS pending buffer is full; block will be recovered via catch-up');
    }
  }
}

