import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * A full copy of committed state at one height, written atomically: temp file, fsync, rename
 * over the old snapshot, fsync the directory. It only shortens start-up — the block log holds
 * every block's writes, so a missing or damaged snapshot just means replaying from genesis.
 */
export interface StateSnapshot {
  height: number;
  /** The app-hash accumulator at `height` (hex). */
  root: string;
  entries: Array<[string, string]>;
}

export function writeSnapshot(file: string, snapshot: StateSnapshot, fsync: boolean): void {
  const body = JSON.stringify({ format: 1, height: snapshot.height, root: snapshot.root, entries: snapshot.entries });
  const text = `${body}\n${createHash('sha256').update(body).digest('hex')}\n`;
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    const buf = Buffer.from(text, 'utf8');
    let written = 0;
    while (written < buf.length) written += writeSync(fd, buf, written);
    if (fsync) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  if (fsync) syncDirectory(dirname(file));
}

/** The snapshot, or undefined when there is none or it does not check out (`onDamage` says why). */
export function readSnapshot(file: string, onDamage: (problem: string) => void = () => {}): StateSnapshot | undefined {
  if (!existsSync(file)) return undefined;
  const damaged = (problem: string) => {
    onDamage(problem);
    return undefined;
  };
  const text = readFileSync(file, 'utf8');
  const nl = text.indexOf('\n');
  if (nl < 0) return damaged('no checksum line');
  const body = text.slice(0, nl);
  if (createHash('sha256').update(body).digest('hex') !== text.slice(nl + 1).trim()) return damaged('checksum mismatch');
  try {
    const parsed = JSON.parse(body) as { format: number } & StateSnapshot;
    if (parsed.format !== 1 || !Number.isInteger(parsed.height) || !Array.isArray(parsed.entries)) return damaged('not a format-1 snapshot');
    return { height: parsed.height, root: parsed.root, entries: parsed.entries };
  } catch {
    return damaged('invalid JSON');
  }
}

export function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try { fsyncSync(fd); } finally { closeSync(fd); }
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic there.
  }
}
