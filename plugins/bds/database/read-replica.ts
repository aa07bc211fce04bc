import { databaseReason } from 'chainhost/plugin';
import { firstRow } from '../reads/columns.js';
import type { BdsDatabase } from './bds-database.js';

/**
 * The read side of BDS when reads go to a read-only copy of the database (a PostgreSQL streaming
 * replica, `CHAIN_BDS_READ_DATABASE_URL`): its pool (read-only sessions, see BdsDatabase) and how
 * far the copy has got. The copy replays the writer's commits some time after they happen, so a
 * read of a height the writer has already indexed waits, at most `waitMs`, for the copy to replay
 * it (spec "Read consistency rules" 4: reads see a height once the indexed height reaches it). A
 * height the writer has not indexed yet is not waited for: the answer is the spec's usual "not
 * indexed yet" (null), as without a replica.
 */
export interface ReadReplicaOptions {
  /** Longest wait of one read for the copy to reach a height the writer has. */
  waitMs: number;
  /** Longest pause between two questions of a waiting read (they start at 1 ms and double). */
  pollMs: number;
}

export interface ReadReplicaStatus {
  status: 'ok' | 'error';
  error: string | null;
  /** Highest indexed height on the copy (null: empty, or the copy did not answer). */
  indexed_height: number | null;
  /** The writer's indexed height (on the primary), from the worker's memory. */
  writer_indexed_height: number | null;
  /** Blocks the copy is behind the writer (never negative); null when either is unknown. */
  lag_blocks: number | null;
}

export class BdsReadReplica {
  private polling: Promise<number> | null = null;
  private seen = -1;

  constructor(
    readonly db: BdsDatabase,
    /** The writer's indexed height (null: not known yet); the follower keeps it in memory. */
    private readonly writerHeight: () => number | null,
    readonly options: ReadReplicaOptions,
  ) {}

  /** Highest height on the copy (-1 when empty); concurrent callers share one query. */
  indexedHeight(): Promise<number> {
    this.polling ??= this.db.knex.raw('SELECT max(height) AS height FROM blocks')
      .then((r) => {
        const h = firstRow(r)?.height;
        this.seen = h === null || h === undefined ? -1 : Number(h);
        return this.seen;
      })
      .finally(() => {
        this.polling = null;
      });
    return this.polling;
  }

  /**
   * Resolves true once the copy has `height`, false after `timeoutMs`, or at once when the copy
   * does not answer (the read that follows then fails with the database's reason instead of
   * hanging).
   */
  async waitForHeight(height: number, timeoutMs: number): Promise<boolean> {
    if (this.seen >= height) return true;
    const deadline = Date.now() + timeoutMs;
    // A healthy standby replays within a millisecond or so: ask again soon, then back off to pollMs.
    let pause = 1;
    for (;;) {
      let h: number;
      try {
        h = await this.indexedHeight();
      } catch {
        return false;
      }
      if (h >= height) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, this.options.pollMs, left)));
      pause *= 2;
    }
  }

  /** Before a read that must see `height`: waits (bounded) when the writer has it and the copy not yet. */
  async awaitHeight(height: number): Promise<void> {
    const written = this.writerHeight();
    if (written === null || height > written || this.seen >= height) return;
    await this.waitForHeight(height, this.options.waitMs);
  }

  /** The copy asked now (for `/metrics`); `/bds_status` uses `standing` with the read it already made. */
  async status(): Promise<ReadReplicaStatus> {
    try {
      const h = await this.indexedHeight();
      return this.standing({ height: h >= 0 ? h : null });
    } catch (err) {
      return this.standing({ error: databaseReason(err) });
    }
  }

  /** The copy's standing against the writer, from a height just read on the copy or the reason that read failed. */
  standing(read: { height: number | null } | { error: string }): ReadReplicaStatus {
    const writer = this.writerHeight();
    const writerHeight = writer !== null && writer >= 0 ? writer : null;
    if ('error' in read) return { status: 'error', error: read.error, indexed_height: null, writer_indexed_height: writerHeight, lag_blocks: null };
    const lag = writerHeight === null ? null : Math.max(writerHeight - (read.height ?? -1), 0);
    return { status: 'ok', error: null, indexed_height: read.height, writer_indexed_height: writerHeight, lag_blocks: lag };
  }
}
