import { statfs } from 'node:fs/promises';
import { databaseReason } from 'chainhost/plugin';
import type { BdsDatabase } from '../database/bds-database.js';
import type { BdsFollower } from '../follower/bds-follower.js';
import type { BdsReadReplica, ReadReplicaStatus } from '../database/read-replica.js';
import { firstRow } from '../reads/columns.js';

/**
 * `/bds_status` (spec part 2, bds.md §7): the spec's fields (`worker_running`,
 * `current_block_height`, `indexed.indexed_height`, `height_lag`, `queue_depth`,
 * `spool_pending_count`, `alerts`) plus upstream's complete set. `indexed_height` is read from
 * the database on every call, so it is safe for read-after-write; the table counts are cached
 * for a few seconds because `count(*)` is linear in the table size. `/metrics` applies the same
 * alert rules to the worker's in-memory figures (`activeAlertCodes`), reading no table.
 *
 * With a read copy (CHAIN_BDS_READ_DATABASE_URL) `indexed` is the copy's: what the reads can see,
 * so a client following the spec's read-after-write rule (wait until `indexed.indexed_height`
 * reaches the block, then read) reads the copy only once it has the block. `read_replica` then
 * tells the writer's height and the copy's lag, and `db_status` stays the writer's database.
 */
export interface StatusThresholds {
  spoolWarnEntries: number;
  spoolWarnBytes: number;
  diskFreeWarnBytes: number;
}

export type Alert = { level: 'error' | 'warning'; code: string; message: string } & Record<string, unknown>;

/** Every alert code `/bds_status` can raise (the worker's own errors included). */
export const ALERT_CODES = [
  'db_unavailable', 'spool_entries_high', 'spool_bytes_high', 'disk_free_low', 'indexed_height_ahead',
  'block_identity_mismatch', 'write_failed', 'fetch_failed', 'writer_lock_lost', 'read_replica_unavailable',
] as const;

const COUNT_CACHE_MS = 5000;
/** How long a scrape waits for the database to answer `select 1` before trusting the worker's last verdict. */
const LIVENESS_TIMEOUT_MS = 1000;

interface AlertInputs {
  dbOk: boolean;
  spoolEntries: number;
  storage: Storage;
  current: number | null;
  indexedHeight: number | null;
}

type Storage = Awaited<ReturnType<typeof storageOf>>;

/** Blocks the index is behind the node (never negative); null until both heights are known. */
export function heightLag(current: number | null, indexedHeight: number | null): number | null {
  return current !== null && indexedHeight !== null ? Math.max(current - indexedHeight, 0) : null;
}

export class BdsStatusReporter {
  private counts: { db: BdsDatabase; at: number; blocks: number; txs: number } | null = null;
  private pinging: Promise<boolean> | null = null;

  constructor(
    private readonly follower: BdsFollower,
    private readonly db: BdsDatabase,
    private readonly thresholds: StatusThresholds,
    private readonly replica: BdsReadReplica | null = null,
  ) {}

  async status(): Promise<Record<string, unknown>> {
    const f = this.follower;
    const spool = f.spool;
    const entries = spool.list();
    const indexed = await this.indexed(this.replica?.db ?? this.db);
    // The writer's database: answered by the indexed read itself, or (with a read copy) by a ping of its own.
    const writerError = this.replica ? await this.db.ping().then(() => null, (err: unknown) => databaseReason(err)) : indexed.error ?? null;
    const dbOk = writerError === null && f.dbStatus !== 'error';
    const replica = this.replica ? replicaStatusOf(this.replica, indexed) : null;
    const indexedHeight = indexed.row.indexed_height as number | null;
    const current = f.currentHeight;
    const delta = current !== null && indexedHeight !== null ? current - indexedHeight : null;
    const lag = heightLag(current, indexedHeight);
    const storage = await storageOf(spool.dir);
    const alerts = this.alertsOf({ dbOk, spoolEntries: entries.length, storage, current, indexedHeight });
    if (replica?.status === 'error') {
      alerts.push({ level: 'error', code: 'read_replica_unavailable', message: 'BDS read database does not answer: indexed reads fail until it is back', error: replica.error });
    }
    const capacity = f.options.queueCapacity;
    return {
      worker_running: f.workerRunning,
      catchup_running: f.catchupRunning,
      queue_depth: f.queueDepth,
      queue_capacity: capacity,
      queue_utilization: capacity ? f.queueDepth / capacity : 0,
      spool_dir: spool.dir,
      spool_pending_count: entries.length,
      spool_total_bytes: spool.totalBytes,
      spool_oldest_pending: entries.length ? spool.describe(entries[0]!) : null,
      spool_newest_pending: entries.length ? spool.describe(entries[entries.length - 1]!) : null,
      storage,
      db_status: dbOk ? 'ok' : 'error',
      db_error: dbOk ? null : (writerError ?? f.dbError),
      database: { kind: this.db.kind, schema: this.db.schema },
      pool: this.db.poolStats(),
      read_replica: replica,
      last_enqueue_error: f.lastEnqueueError,
      indexed: indexed.row,
      current_block_height: current,
      index_height_delta: delta,
      height_lag: lag,
      catching_up: entries.length > 0 || (lag ?? 0) > 0,
      alerts,
    };
  }

  /**
   * The codes of the alerts active now, for `/metrics`: the same rules as `status()`, fed from
   * what the worker keeps in memory (indexed height, spool and queue counts) so a scrape reads no
   * table. Only database liveness is asked, with `select 1` bounded at LIVENESS_TIMEOUT_MS; when
   * it does not answer in time (a long write holds PGlite, a server still connecting) the worker's
   * last verdict stands.
   */
  async activeAlertCodes(): Promise<Set<string>> {
    const f = this.follower;
    const answers = await this.databaseAnswers();
    const dbOk = f.dbStatus !== 'error' && answers !== false;
    const indexedHeight = f.indexedHeight !== null && f.indexedHeight >= 0 ? f.indexedHeight : null;
    const storage = await storageOf(f.spool.dir);
    const alerts = this.alertsOf({ dbOk, spoolEntries: f.spool.count, storage, current: f.currentHeight, indexedHeight });
    const codes = new Set(alerts.map((a) => a.code));
    // The read database is asked for its highest block, bounded like the liveness ping; no answer in time keeps the alert off.
    if (this.replica && (await withinMs(this.replica.status(), LIVENESS_TIMEOUT_MS))?.status === 'error') codes.add('read_replica_unavailable');
    return codes;
  }

  /** One `select 1` at a time: scrapes during an outage share the pending one instead of queueing more. */
  private async databaseAnswers(): Promise<boolean | null> {
    this.pinging ??= this.db.ping().then(() => true, () => false).finally(() => {
      this.pinging = null;
    });
    return withinMs(this.pinging, LIVENESS_TIMEOUT_MS);
  }

  private alertsOf({ dbOk, spoolEntries, storage, current, indexedHeight }: AlertInputs): Alert[] {
    const f = this.follower;
    const spool = f.spool;
    const delta = current !== null && indexedHeight !== null ? current - indexedHeight : null;
    const alerts: Alert[] = [];
    if (!dbOk) alerts.push({ level: 'error', code: 'db_unavailable', message: 'BDS database status is degraded' });
    if (spoolEntries >= this.thresholds.spoolWarnEntries) {
      alerts.push({ level: 'warning', code: 'spool_entries_high', message: 'BDS spool entry count exceeded warning threshold', threshold: this.thresholds.spoolWarnEntries, value: spoolEntries });
    }
    if (spool.totalBytes >= this.thresholds.spoolWarnBytes) {
      alerts.push({ level: 'warning', code: 'spool_bytes_high', message: 'BDS spool size exceeded warning threshold', threshold: this.thresholds.spoolWarnBytes, value: spool.totalBytes });
    }
    if (storage.filesystem_total_bytes > 0 && storage.filesystem_free_bytes <= this.thresholds.diskFreeWarnBytes) {
      alerts.push({ level: 'warning', code: 'disk_free_low', message: 'Low free disk space on BDS spool filesystem', threshold: this.thresholds.diskFreeWarnBytes, value: storage.filesystem_free_bytes });
    }
    if (delta !== null && delta < 0) {
      alerts.push({
        level: 'error', code: 'indexed_height_ahead', message: 'BDS indexed height is ahead of the current chain height',
        current_block_height: current, indexed_height: indexedHeight, value: Math.abs(delta),
      });
    }
    if (f.lockLostError) alerts.push({ level: 'error', code: 'writer_lock_lost', message: f.lockLostError.message, recorded_at: f.lockLostError.recorded_at });
    if (f.lastWorkerError) alerts.push({ level: 'error', code: f.lastWorkerError.code, message: f.lastWorkerError.message, recorded_at: f.lastWorkerError.recorded_at });
    if (f.lastEnqueueError?.code === 'fetch_failed') {
      alerts.push({ level: 'warning', code: 'fetch_failed', message: f.lastEnqueueError.message, recorded_at: f.lastEnqueueError.recorded_at });
    }
    return alerts;
  }

  private async indexed(db: BdsDatabase): Promise<IndexedRead> {
    const empty = {
      indexed_app_hash: null, indexed_block_count: 0, indexed_block_hash: null, indexed_block_time: null,
      indexed_block_time_iso: null, indexed_height: null, indexed_tx_count: 0,
    };
    try {
      const knex = db.knex;
      const latest = firstRow(await knex.raw(
        `SELECT height, block_hash, block_time, block_time_iso, app_hash FROM blocks ORDER BY height DESC LIMIT 1`,
      ));
      const now = Date.now();
      if (!this.counts || this.counts.db !== db || now - this.counts.at > COUNT_CACHE_MS) {
        const c = firstRow(await knex.raw(`SELECT (SELECT count(*) FROM blocks) AS blocks, (SELECT count(*) FROM transactions) AS txs`))!;
        this.counts = { db, at: now, blocks: Number(c.blocks), txs: Number(c.txs) };
      }
      return {
        ok: true,
        row: latest
          ? {
              indexed_app_hash: latest.app_hash, indexed_block_count: this.counts.blocks, indexed_block_hash: latest.block_hash,
              indexed_block_time: latest.block_time, indexed_block_time_iso: latest.block_time_iso, indexed_height: latest.height,
              indexed_tx_count: this.counts.txs,
            }
          : empty,
      };
    } catch (err) {
      return { ok: false, error: databaseReason(err), row: empty };
    }
  }
}

/** The value, or null when it takes longer than `ms` (a scrape must not hang on a black-holed server). */
export async function withinMs<T>(value: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
    timer.unref();
  });
  try {
    return await Promise.race([value, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** `read_replica` of `/bds_status`: the copy's height (from the read just made) against the writer's. */
function replicaStatusOf(replica: BdsReadReplica, indexed: IndexedRead): ReadReplicaStatus {
  return indexed.ok
    ? replica.standing({ height: indexed.row.indexed_height === null ? null : Number(indexed.row.indexed_height) })
    : replica.standing({ error: indexed.error ?? 'database error' });
}

interface IndexedRead {
  ok: boolean;
  error?: string;
  row: Record<string, unknown>;
}

async function storageOf(dir: string): Promise<{ filesystem_free_bytes: number; filesystem_total_bytes: number; filesystem_used_bytes: number }> {
  try {
    const s = await statfs(dir);
    const total = s.blocks * s.bsize;
    const free = s.bavail * s.bsize;
    return { filesystem_free_bytes: free, filesystem_total_bytes: total, filesystem_used_bytes: total - s.bfree * s.bsize };
  } catch {
    return { filesystem_free_bytes: 0, filesystem_total_bytes: 0, filesystem_used_bytes: 0 };
  }
}
