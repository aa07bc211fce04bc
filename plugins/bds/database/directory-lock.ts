import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * An exclusive lock on a directory for one process: `<dir>/.lock` holds the owner's pid. PGlite
 * is single-process — two processes opening one data directory would corrupt it — so the BDS
 * worker, `chain-bds-reindex` and `chain-bds-snapshot` take this lock before opening it. A lock
 * left by a process that no longer exists (kill -9) is taken over.
 */
export class DirectoryLockedError extends Error {
  constructor(readonly what: string, readonly dir: string, readonly pid: number) {
    super(`${what} at ${dir} is in use by process ${pid}; stop that process (the host's BDS worker, a reindex or a snapshot import) first`);
    this.name = 'DirectoryLockedError';
  }
}

export class DirectoryLock {
  /** Lock files this process holds: a second open in the same process is refused too. */
  private static readonly held = new Set<string>();
  private released = false;

  private constructor(readonly file: string) {}

  static acquire(dir: string, what: string): DirectoryLock {
    mkdirSync(dir, { recursive: true });
    const file = resolve(join(dir, '.lock'));
    if (DirectoryLock.held.has(file)) throw new DirectoryLockedError(what, dir, process.pid);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(file, 'wx');
        writeSync(fd, String(process.pid));
        closeSync(fd);
        DirectoryLock.held.add(file);
        return new DirectoryLock(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const owner = readOwner(file);
        if (owner !== null && owner !== process.pid && isAlive(owner)) throw new DirectoryLockedError(what, dir, owner);
        rmSync(file, { force: true }); // stale: its owner is gone
      }
    }
    throw new Error(`could not take the lock ${file}; remove it if no process uses ${dir}`);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    DirectoryLock.held.delete(this.file);
    if (readOwner(this.file) === process.pid) rmSync(this.file, { force: true });
  }
}

function readOwner(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
