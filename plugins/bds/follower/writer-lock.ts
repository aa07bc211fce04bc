import pg from 'pg';
import type { BdsDatabase } from '../database/bds-database.js';

/**
 * One writer per BDS database. On a PostgreSQL server a session advisory lock, held on a
 * dedicated connection for as long as the writer runs, keyed by the schema (so test schemas side
 * by side do not collide); the reindexer and snapshot import take the same lock and refuse to
 * run while it is held. PGlite needs nothing more: its data directory is already locked to one
 * process, and there is no session another process could end.
 *
 * A session lock dies with its session — an `idle_session_timeout`, a firewall dropping the
 * connection, `pg_terminate_backend` — without telling the writer (issue #19: the worker kept
 * writing unlocked and `chain-bds-reindex --reset` ran beside it). So the lock session is
 * checked every `checkIntervalMs` (and it reports a dropped socket at once), `verify()` checks it
 * again inside every write transaction before it commits, and a loss is reported through
 * `onLost` so the writer stops and re-acquires (or stays stopped, alerting, while another
 * writer holds it).
 */
export class WriterLockHeldError extends Error {
  constructor(readonly where: string) {
    super(`another BDS writer holds the database ${where} (a running host's BDS worker, chain-bds-reindex or chain-bds-snapshot import); stop it first`);
    this.name = 'WriterLockHeldError';
  }
}

/** The lock session ended under a writer: nothing more may be committed until it is re-acquired. */
export class WriterLockLostError extends Error {
  constructor(readonly where: string, readonly reason: string) {
    super(`the BDS writer lock on ${where} was lost (${reason}); writing stopped until it is re-acquired`);
    this.name = 'WriterLockLostError';
  }
}

export interface WriterLockOptions {
  /** How often the lock session is checked while held (ms). */
  checkIntervalMs?: number;
  /** Deadline of one check; a lock session that does not answer in time counts as lost (ms). */
  checkTimeoutMs?: number;
  /** Told once per loss, with the reason. */
  onLost?(error: WriterLockLostError): void;
}

export const DEFAULT_WRITER_LOCK_CHECK_MS = 3_000;
const LOCK_CLASS = 0x62647300; // "bds\0": the advisory-lock namespace of chainhost's BDS

export class WriterLock {
  private client: pg.Client | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly checkIntervalMs: number;
  private readonly checkTimeoutMs: number;

  constructor(private readonly db: BdsDatabase, private readonly options: WriterLockOptions = {}) {
    this.checkIntervalMs = options.checkIntervalMs ?? DEFAULT_WRITER_LOCK_CHECK_MS;
    this.checkTimeoutMs = options.checkTimeoutMs ?? 5_000;
  }

  get held(): boolean {
    return this.db.kind === 'pglite' || this.client !== null;
  }

  /** Takes the lock if not held (again after a loss); throws WriterLockHeldError when another session has it. */
  async ensure(): Promise<void> {
    if (this.db.kind === 'pglite') return;
    if (this.client) {
      try {
        await this.verify();
        return;
      } catch {
        // lost: reported by verify; take it again below
      }
    }
    const client = new pg.Client({ connectionString: this.db.options.url!, application_name: 'chain-bds-writer-lock' });
    client.on('error', (err) => this.lose(client, `lock session failed: ${err.message}`));
    client.on('end', () => this.lose(client, 'lock session ended'));
    await client.connect();
    try {
      const r = await client.query('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [LOCK_CLASS, this.db.schema]);
      if (!r.rows[0]?.locked) throw new WriterLockHeldError(this.db.describe());
    } catch (err) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw err;
    }
    this.client = client;
    this.heartbeat = setInterval(() => void this.verify().catch(() => undefined), this.checkIntervalMs);
    this.heartbeat.unref();
  }

  /**
   * Resolves while the lock session is alive (so the lock is held); otherwise reports the loss
   * and throws WriterLockLostError. Run inside every write transaction before it commits.
   */
  async verify(): Promise<void> {
    if (this.db.kind === 'pglite') return;
    const client = this.client;
    if (!client) throw new WriterLockLostError(this.db.describe(), 'not held');
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`lock session did not answer in ${this.checkTimeoutMs} ms`)), this.checkTimeoutMs);
        }),
      ]);
    } catch (err) {
      const reason = (err as Error).message;
      this.lose(client, reason);
      throw new WriterLockLostError(this.db.describe(), reason);
    } finally {
      clearTimeout(timer);
    }
    if (this.client !== client) throw new WriterLockLostError(this.db.describe(), 'lock session ended');
  }

  async release(): Promise<void> {
    const client = this.detach();
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }

  /** Drops a lock session that died; tells onLost once (a release is not a loss). */
  private lose(client: pg.Client, reason: string): void {
    if (this.client !== client) return;
    this.detach();
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    this.options.onLost?.(new WriterLockLostError(this.db.describe(), reason));
  }

  private detach(): pg.Client | null {
    const client = this.client;
    this.client = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    return client;
  }
}
