import { compareKeys, lowerBound } from './key-order.js';
import { StateRoot } from './state-root.js';

/**
 * Committed application state: key → runtime-encoded value text (encoding.md §2), with a
 * UTF-8-ordered key index for prefix scans, the app-hash accumulator, and versioned read views
 * so a dry run that started before a commit keeps reading the state it started on.
 */
export interface TextStateReader {
  readonly height: number;
  get(key: string): string | undefined;
  /** Keys starting with `prefix`, ascending by UTF-8 bytes, strictly after `after` when given. */
  keys(prefix: string, after?: string, limit?: number): string[];
}

export interface StateView extends TextStateReader {
  close(): void;
}

export type StateWrites = ReadonlyMap<string, string | null>;

export class StateStore implements TextStateReader {
  private readonly values = new Map<string, string>();
  private sorted: string[] = [];
  private readonly unsorted = new Set<string>();
  /** Deleted keys still present in `sorted` (skipped on scan until compaction). */
  private readonly deleted = new Set<string>();
  /** Per committed height, the value each written key had before it (kept while a view needs it). */
  private readonly undo = new Map<number, Map<string, string | undefined>>();
  private readonly views = new Set<{ height: number }>();
  readonly root: StateRoot;
  height: number;

  constructor(entries: Iterable<readonly [string, string]> = [], height = 0, rootSum?: bigint) {
    for (const [k, v] of entries) this.values.set(k, v);
    this.sorted = [...this.values.keys()].sort(compareKeys);
    this.height = height;
    this.root = new StateRoot(rootSum ?? 0n);
    if (rootSum === undefined) for (const [k, v] of this.values) this.root.update(k, undefined, v);
  }

  get size(): number {
    return this.values.size;
  }

  get(key: string): string | undefined {
    return this.values.get(key);
  }

  entries(): IterableIterator<[string, string]> {
    return this.values.entries();
  }

  keys(prefix: string, after?: string, limit = Number.MAX_SAFE_INTEGER): string[] {
    this.settleIndex();
    const out: string[] = [];
    const start = after !== undefined && compareKeys(after, prefix) >= 0 ? lowerBound(this.sorted, after, false) : lowerBound(this.sorted, prefix, true);
    for (let i = start; i < this.sorted.length && out.length < limit; i++) {
      const key = this.sorted[i]!;
      if (!key.startsWith(prefix)) break;
      if (this.values.has(key)) out.push(key);
    }
    return out;
  }

  /** Applies one committed block's writes (null deletes) and moves to `height`. */
  apply(writes: StateWrites, height: number): void {
    const undo = this.views.size > 0 ? new Map<string, string | undefined>() : undefined;
    for (const [key, value] of writes) {
      const before = this.values.get(key);
      if (undo && !undo.has(key)) undo.set(key, before);
      if (value === null) {
        if (before === undefined) continue;
        this.values.delete(key);
        if (this.unsorted.has(key)) this.unsorted.delete(key);
        else this.deleted.add(key);
      } else {
        if (before === undefined && !this.deleted.delete(key)) this.unsorted.add(key);
        this.values.set(key, value);
      }
      this.root.update(key, before, value ?? undefined);
    }
    if (undo) this.undo.set(height, undo);
    this.height = height;
  }

  /** A read view pinned to the current height; close it when done so its undo data can go. */
  view(): StateView {
    const pin = { height: this.height };
    this.views.add(pin);
    const store = this;
    let open = true;
    return {
      height: pin.height,
      get: (key) => store.valueAt(key, pin.height),
      keys: (prefix, after, limit) => store.keysAt(pin.height, prefix, after, limit),
      close() {
        if (!open) return;
        open = false;
        store.views.delete(pin);
        store.dropUnneededUndo();
      },
    };
  }

  private valueAt(key: string, height: number): string | undefined {
    for (let h = height + 1; h <= this.height; h++) {
      const u = this.undo.get(h);
      if (u?.has(key)) return u.get(key);
    }
    return this.values.get(key);
  }

  private keysAt(height: number, prefix: string, after?: string, limit = Number.MAX_SAFE_INTEGER): string[] {
    if (height === this.height) return this.keys(prefix, after, limit);
    const changed = new Set<string>();
    for (let h = height + 1; h <= this.height; h++) {
      for (const key of this.undo.get(h)?.keys() ?? []) {
        if (key.startsWith(prefix) && (after === undefined || compareKeys(key, after) > 0)) changed.add(key);
      }
    }
    const candidates = new Set(this.keys(prefix, after, limit + changed.size));
    for (const key of changed) candidates.add(key);
    return [...candidates].filter((k) => this.valueAt(k, height) !== undefined).sort(compareKeys).slice(0, limit);
  }

  private dropUnneededUndo(): void {
    let min = Infinity;
    for (const v of this.views) min = Math.min(min, v.height);
    for (const h of this.undo.keys()) if (h <= min) this.undo.delete(h);
  }

  private settleIndex(): void {
    if (this.unsorted.size > 0) {
      const fresh = [...this.unsorted].sort(compareKeys);
      this.unsorted.clear();
      const merged: string[] = new Array(this.sorted.length + fresh.length);
      let i = 0, j = 0, k = 0;
      while (i < this.sorted.length || j < fresh.length) {
        if (j >= fresh.length || (i < this.sorted.length && compareKeys(this.sorted[i]!, fresh[j]!) <= 0)) merged[k++] = this.sorted[i++]!;
        else merged[k++] = fresh[j++]!;
      }
      this.sorted = merged;
    }
    // Deleted keys stay in the index (skipped on scan) until they are a large share of it.
    if (this.deleted.size > 1024 && this.deleted.size * 2 > this.sorted.length) {
      this.sorted = this.sorted.filter((k) => this.values.has(k));
      this.deleted.clear();
    }
  }
}
