import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePayload, serializePayload, type BlockPayload } from '../block/block-payload.js';

/**
 * The recovery spool (bds.md §4.1): every fetched block is written here — to `<name>.json.tmp`,
 * then atomically renamed — before it is queued, and removed only after its database commit.
 * A kill -9 or a database outage therefore loses nothing: start-up replays the directory in
 * name order (= height order, names are `<height padded to 20>-<block hash>.json`). Files are
 * not fsync'd: they survive a process crash, and after a machine crash the node still has the
 * blocks to fetch again.
 */
export interface SpoolEntry {
  file: string;
  height: number;
  block_hash: string;
  size_bytes: number;
}

/** A spool file as `/bds_spool` and `/bds_status` describe it. */
export interface SpoolFileInfo extends Record<string, unknown> {
  file: string;
  size_bytes: number;
  block_height: number;
  block_hash: string;
  block_time: string | null;
  tx_count: number | null;
  state_patch_count: number | null;
  app_hash: string | null;
}

const NAME = /^(\d{20})-(.+)\.json$/;

export function spoolFileName(height: number, blockHash: string): string {
  return `${String(height).padStart(20, '0')}-${blockHash.replace(/[^A-Za-z0-9_-]/g, '_')}.json`;
}

export class Spool {
  private readonly entries = new Map<number, SpoolEntry>();
  private bytes = 0;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir)) {
      if (name.endsWith('.tmp')) {
        rmSync(join(dir, name), { force: true }); // torn by a crash before its rename
        continue;
      }
      const m = NAME.exec(name);
      if (!m) continue;
      const height = Number(m[1]);
      const previous = this.entries.get(height);
      if (previous) this.drop(previous); // two files for one height: keep the later name
      this.add({ file: name, height, block_hash: m[2]!, size_bytes: statSync(join(dir, name)).size });
    }
  }

  get count(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  has(height: number): boolean {
    return this.entries.has(height);
  }

  get(height: number): SpoolEntry | undefined {
    return this.entries.get(height);
  }

  /** Entries in height order. */
  list(): SpoolEntry[] {
    return [...this.entries.values()].sort((a, b) => a.height - b.height);
  }

  maxHeight(): number | null {
    let max: number | null = null;
    for (const h of this.entries.keys()) if (max === null || h > max) max = h;
    return max;
  }

  write(payload: BlockPayload): SpoolEntry {
    const height = payload.block_meta.height;
    const file = spoolFileName(height, payload.block_meta.hash);
    const text = serializePayload(payload);
    const tmp = join(this.dir, `${file}.tmp`);
    writeFileSync(tmp, text);
    renameSync(tmp, join(this.dir, file));
    const previous = this.entries.get(height);
    if (previous && previous.file !== file) this.drop(previous);
    else if (previous) this.forget(previous);
    const entry = { file, height, block_hash: payload.block_meta.hash, size_bytes: Buffer.byteLength(text) };
    this.add(entry);
    return entry;
  }

  read(entry: SpoolEntry): BlockPayload {
    return parsePayload(readFileSync(join(this.dir, entry.file), 'utf8'), `spool file ${entry.file}`);
  }

  remove(height: number): void {
    const entry = this.entries.get(height);
    if (entry) this.drop(entry);
  }

  /** Deletes every entry at or below `height` (already indexed); returns how many went. */
  removeUpTo(height: number): number {
    let n = 0;
    for (const entry of [...this.entries.values()]) {
      if (entry.height <= height) {
        this.drop(entry);
        n++;
      }
    }
    return n;
  }

  /** Deletes everything (reindex --reset). */
  clear(): void {
    for (const entry of [...this.entries.values()]) this.drop(entry);
    for (const name of readdirSync(this.dir)) if (name.endsWith('.tmp')) rmSync(join(this.dir, name), { force: true });
  }

  describe(entry: SpoolEntry): SpoolFileInfo {
    const info: SpoolFileInfo = {
      file: entry.file, size_bytes: entry.size_bytes, block_height: entry.height, block_hash: entry.block_hash,
      block_time: null, tx_count: null, state_patch_count: null, app_hash: null,
    };
    try {
      const p = this.read(entry);
      info.block_hash = p.block_meta.hash;
      info.block_time = p.block_time;
      info.tx_count = p.transactions.length;
      info.state_patch_count = p.state_patches.length;
      info.app_hash = p.app_hash;
    } catch {
      // unreadable: listed with what its name says
    }
    return info;
  }

  private add(entry: SpoolEntry): void {
    this.entries.set(entry.height, entry);
    this.bytes += entry.size_bytes;
  }

  private forget(entry: SpoolEntry): void {
    if (this.entries.get(entry.height) === entry) this.entries.delete(entry.height);
    this.bytes -= entry.size_bytes;
  }

  private drop(entry: SpoolEntry): void {
    this.forget(entry);
    rmSync(join(this.dir, entry.file), { force: true });
  }
}
