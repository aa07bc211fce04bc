import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The last indexed height the worker saw, kept next to the spool. When the database is down at
 * start-up the fetcher still knows where to continue spooling from; a stale hint only makes it
 * fetch blocks that are then found to be indexed and dropped.
 */
export class HeightHint {
  private lastWrite = 0;
  private readonly file: string;

  constructor(dir: string) {
    this.file = join(dir, 'indexed-height');
  }

  read(): number | null {
    try {
      const n = Number(readFileSync(this.file, 'utf8').trim());
      return Number.isSafeInteger(n) && n >= -1 ? n : null;
    } catch {
      return null;
    }
  }

  /** Throttled: at most once a second unless `force`. */
  write(height: number, force = false): void {
    const now = Date.now();
    if (!force && now - this.lastWrite < 1000) return;
    this.lastWrite = now;
    try {
      writeFileSync(`${this.file}.part`, String(height));
      renameSync(`${this.file}.part`, this.file);
    } catch {
      // a hint only
    }
  }
}
