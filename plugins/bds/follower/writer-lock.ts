import pg from 'pg';
import type { BdsDatabase } from '../database/bds-database.js';

/**
 * One writer per BDS database. On a PostgreSQL server a session advisory lock, held on its own
 * connection for as long as the writer runs, keyed by the schema (so test schemas side by side
 * do not collide); the reindexer and snapshot import take the same lock and refuse to run while
 * it is held. PGlite needs nothing more: its data directory is already locked to one process.
 */
export class WriterLockHeldError extends Error {
  constructor(readonly where: string) {
    super(`another BDS writer holds the database ${where} (a running host's BDS worker, chain-bds-reindex or chain-bds-snapshot import); stop it first`);
    this.name = 'WriterLockHeldError';
  }
}

const LOCK_CLASS = 0x62647300; // "bds\0": the advisory-lock namespace of chainhost's BDS

export class WriterLock {
  private client: pg.Client | null = null;

  constructor(private readonly db: BdsDatabase) {}

  get held(): boolean {
    return this.db.kind === 'pglite' || this.client !== null;
  }

  /** Takes the lock if not held (again after a lost connection); throws WriterLockHeldError when another session has it. */
  async ensure(): Promise<void> {
    if (this.db.kind === 'pglite') return;
    if (this.client) {
      try {
        await this.client.query('SELECT 1');
        return;
      } catch {
        await this.drop();
      }
    }
    const client = new pg.Client({ connectionString: this.db.options.url!, application_name: 'chain-bds-writer-lock' });
    client.on('error', () => void this.drop());
    await client.connect();
    try {
      const r = await client.query('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [LOCK_CLASS, this.db.schema]);
      if (!r.rows[0]?.locked) throw new WriterLockHeldError(this.db.describe());
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    this.client = client;
  }

  async release(): Promise<void> {
    await this.drop();
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => undefined);
  }
}
