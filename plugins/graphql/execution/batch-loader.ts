/**
 * A minimal DataLoader: `load(key)` calls made while the resolvers of one execution step run
 * are collected and answered by one `batch(keys)` call. Dispatch waits for the current promise
 * jobs and then one `process.nextTick`, as DataLoader does, so sibling resolvers (every node of
 * a page) land in the same batch. Results are cached per request by key.
 */
export class BatchLoader<K, V> {
  private readonly cache = new Map<string, Promise<V>>();
  /** Values already known (primed or answered), for resolvers that can answer without a promise. */
  private readonly settled = new Map<string, V>();
  private queue: Array<{ key: K; id: string; resolve(v: V): void; reject(e: unknown): void }> = [];
  private scheduled = false;

  /**
   * @param batch answers every key: a Map from key id to value (a missing id means `missing`).
   * @param idOf a string identity for a key (tuples of column values).
   */
  constructor(
    private readonly batch: (keys: K[]) => Promise<Map<string, V>>,
    private readonly idOf: (key: K) => string,
    private readonly missing: V,
  ) {}

  load(key: K): Promise<V> {
    const id = this.idOf(key);
    const cached = this.cache.get(id);
    if (cached) return cached;
    if (this.settled.has(id)) {
      // Primed: its promise is made when first asked for (most primed pages are read with peek).
      const known = Promise.resolve(this.settled.get(id)!);
      this.cache.set(id, known);
      return known;
    }
    const promise = new Promise<V>((resolve, reject) => {
      this.queue.push({ key, id, resolve, reject });
    });
    this.cache.set(id, promise);
    if (!this.scheduled) {
      this.scheduled = true;
      void Promise.resolve().then(() => process.nextTick(() => void this.dispatch()));
    }
    return promise;
  }

  /**
   * Answers `key` without a batch (unless it is already asked for): a statement that read these
   * rows along with their parents' (an inlined relation, table-reader.ts) hands them over here.
   */
  prime(key: K, value: V): void {
    const id = this.idOf(key);
    if (this.cache.has(id) || this.settled.has(id)) return;
    this.settled.set(id, value);
  }

  /** The value of `key` when it is already known, else undefined (then `load` it). */
  peek(key: K): V | undefined {
    return this.settled.get(this.idOf(key));
  }

  private async dispatch(): Promise<void> {
    const queue = this.queue;
    this.queue = [];
    this.scheduled = false;
    try {
      const results = await this.batch(queue.map((q) => q.key));
      for (const q of queue) {
        const value = results.has(q.id) ? results.get(q.id)! : this.missing;
        this.settled.set(q.id, value);
        q.resolve(value);
      }
    } catch (err) {
      for (const q of queue) {
        this.cache.delete(q.id);
        q.reject(err);
      }
    }
  }
}

/** Identity of a key tuple; `1` and `"1"` are the same key (bigint columns arrive either way). */
export function keyId(values: readonly unknown[]): string {
  // One text or number (almost every key: a height, a hash): its text, marked so no tuple form can equal it.
  if (values.length === 1) return singleKeyId(values[0]);
  return tupleKeyId(values);
}

/** `keyId([value])` without the array (a joined row's keys, read per row and level). */
export function singleKeyId(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return `=${value}`;
  return tupleKeyId([value]);
}

function tupleKeyId(values: readonly unknown[]): string {
  return JSON.stringify(values.map((v) => (v === null || v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : String(v))));
}
