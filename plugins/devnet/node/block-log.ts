import { createHash } from 'node:crypto';
import { closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';

/**
 * An append-only log of committed blocks, one record per line:
 * `<json>\t<first 16 hex of sha256(json)>\n`. Appending a record (and fsync-ing it) is the
 * commit point of a block. On open, a torn or corrupt **last** record — a kill mid-append — is
 * cut off; corruption anywhere else is refused, since blocks after it could not be trusted.
 */
export interface BlockLogEntry {
  offset: number;
  length: number;
}

export class BlockLogCorruptError extends Error {
  constructor(file: string, offset: number, reason: string) {
    super(`block log ${file} is corrupt at byte ${offset} (${reason}); restore it or start over with reset`);
    this.name = 'BlockLogCorruptError';
  }
}

const CHUNK = 4 * 1024 * 1024;
const TAB = 0x09;
const NEWLINE = 0x0a;
/** `\t` + 16 hex + `\n`. */
const TAIL_LENGTH = 18;

export class BlockLog {
  private fd: number;
  private end: number;

  private constructor(readonly file: string, fd: number, end: number, private readonly fsync: boolean) {
    this.fd = fd;
    this.end = end;
  }

  /**
   * Opens (creating) the log and hands every intact record to `onRecord` in order. Returns the
   * log positioned at its end, with a torn tail already truncated away.
   */
  static open(
    file: string, options: { fsync: boolean; onProgress?: (read: number, size: number) => void },
    onRecord: (record: unknown, entry: BlockLogEntry) => void,
  ): BlockLog {
    const fd = openSync(file, existsSync(file) ? 'r+' : 'w+');
    const size = fstatSync(fd).size;
    let position = 0;
    let pending = Buffer.alloc(0);
    let lastGoodEnd = 0;
    let damage: { offset: number; reason: string } | undefined;
    const chunk = Buffer.allocUnsafe(CHUNK);
    try {
      while (position < size && !damage) {
        const n = readSync(fd, chunk, 0, Math.min(CHUNK, size - position), position);
        if (n <= 0) break;
        options.onProgress?.(position + n, size);
        pending = pending.length ? Buffer.concat([pending, chunk.subarray(0, n)]) : Buffer.from(chunk.subarray(0, n));
        const base = position - (pending.length - n);
        position += n;
        let start = 0;
        for (;;) {
          const nl = pending.indexOf(NEWLINE, start);
          if (nl < 0) break;
          const line = pending.subarray(start, nl);
          const offset = base + start;
          const parsed = parseLine(line);
          if (typeof parsed === 'string') { damage = { offset, reason: parsed }; break; }
          onRecord(parsed, { offset, length: nl + 1 - start });
          lastGoodEnd = base + nl + 1;
          start = nl + 1;
        }
        pending = pending.subarray(start);
      }
    } catch (err) {
      closeSync(fd); // a record the caller refuses ends the open
      throw err;
    }
    if (!damage && lastGoodEnd < size) damage = { offset: lastGoodEnd, reason: 'record without a line end' };
    if (damage) {
      // Only the final record may be damaged: anything after it means a real corruption.
      if (hasNewlineAfter(fd, damage.offset, size)) {
        closeSync(fd);
        throw new BlockLogCorruptError(file, damage.offset, damage.reason);
      }
      ftruncateSync(fd, damage.offset);
      fsyncSync(fd);
      lastGoodEnd = damage.offset;
    }
    return new BlockLog(file, fd, lastGoodEnd, options.fsync);
  }

  /** Appends one record; when this returns (with fsync on) the record survives a crash. */
  append(record: unknown): BlockLogEntry {
    // One UTF-8 encoding of the (large) record into the line buffer, hashed there and written as is.
    const text = JSON.stringify(record);
    const size = Buffer.byteLength(text, 'utf8');
    const line = Buffer.allocUnsafe(size + TAIL_LENGTH);
    line.write(text, 0, 'utf8');
    line.write(`\t${checksum(line.subarray(0, size))}\n`, size, 'latin1');
    const offset = this.end;
    try {
      let written = 0;
      while (written < line.length) written += writeSync(this.fd, line, written, line.length - written, offset + written);
      if (this.fsync) fsyncSync(this.fd);
    } catch (err) {
      // A full disk or an I/O error: the block is not committed. Cut off what reached the file so
      // the log ends at its last whole record and the next attempt appends cleanly.
      try { ftruncateSync(this.fd, offset); } catch { /* the open-time torn-tail repair covers it */ }
      throw err;
    }
    this.end += line.length;
    return { offset, length: line.length };
  }

  read(entry: BlockLogEntry): unknown {
    const buf = Buffer.allocUnsafe(entry.length);
    let got = 0;
    while (got < entry.length) {
      const n = readSync(this.fd, buf, got, entry.length - got, entry.offset + got);
      if (n <= 0) break;
      got += n;
    }
    const parsed = parseLine(buf.subarray(0, Math.max(0, got - 1)));
    if (typeof parsed === 'string') throw new BlockLogCorruptError(this.file, entry.offset, parsed);
    return parsed;
  }

  get size(): number {
    return this.end;
  }

  sync(): void {
    fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd < 0) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = -1;
  }
}

function checksum(json: string | Buffer): string {
  return createHash('sha256').update(json).digest('hex').slice(0, 16);
}

/** The record, or a string saying why the line is not one. */
function parseLine(line: Buffer): unknown {
  const tab = line.lastIndexOf(TAB);
  if (tab < 0) return 'no checksum';
  const json = line.subarray(0, tab).toString('utf8');
  if (line.subarray(tab + 1).toString('latin1') !== checksum(json)) return 'checksum mismatch';
  try {
    return JSON.parse(json);
  } catch {
    return 'invalid JSON';
  }
}

function hasNewlineAfter(fd: number, offset: number, size: number): boolean {
  // A damaged final record may still end in its own line end (bad checksum); any line end
  // before the last byte means records follow it.
  const last = size - 1;
  const buf = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK, size - offset)));
  let pos = offset;
  while (pos < last) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, last - pos), pos);
    if (n <= 0) break;
    if (buf.subarray(0, n).includes(NEWLINE)) return true;
    pos += n;
  }
  return false;
}
