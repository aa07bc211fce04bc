import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * An exclusive lock on a directory for one process: a lock file in it holds the owner's pid.
 * Data directories that only one process may open (the devnet's chain data; PGlite, which is
 * single-process, so the BDS worker, its maintenance commands and a standalone GraphQL server)
 * take it first. A lock left by a process that no longer exists (kill -9) is taken over; a second
 * open inside the same process is refused too.
 */
export class DirectoryLockedError extends Error {
  constructor(readonly what: string, readonly dir: string, readonly pid: number, advice: string) {
    super(pid === process.pid
      ? `${what} at ${dir} is already open: it is in use by process ${pid} (this one); ${advice}`
      : `${what} at ${dir} is in use by process ${pid}; ${advice}`);
    this.name = 'DirectoryLockedError';
  }
}

export interface DirectoryLockOptions {
  /** Lock file name inside the directory (default `.lock`). */
  file?: string;
  /** What to do about it, appended to the error (e.g. "stop that process first"). */
  advice?: string;
}

export class DirectoryLock {
  /** Lock files this process holds: a second open in the same process is refused too. */
  private static readonly held = new Set<string>();
  private released = false;

  private constructor(readonly file: string) {}

  static acquire(dir: string, what: string, options: DirectoryLockOptions = {}): DirectoryLock {
    mkdirSync(dir, { recursive: true });
    const file = resolve(join(dir, options.file ?? '.lock'));
    const advice = options.advice ?? 'stop that process first';
    if (DirectoryLock.held.has(file)) throw new DirectoryLockedError(what, dir, process.pid, advice);
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
        if (owner !== null && owner !== process.pid && isAlive(owner)) throw new DirectoryLockedError(what, dir, owner, advice);
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
