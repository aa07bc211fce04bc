/**
 * A Map of per-client state with a hard cap on how many clients it tracks. koa-ratelimit's
 * memory driver (and a naive bucket table) keeps one entry per client forever, so a flood from
 * many addresses grows memory without bound. When this map is full, a new client first evicts
 * every client idle longer than `idleMs`, then the least recently seen ones until there is room
 * (dashboard.md §5.2). It is a real `Map` subclass so koa-ratelimit can use it as its `db`.
 *
 * Recency is kept by re-inserting a key into `seen` on every touch: Map iteration order is
 * insertion order, so the first entries are always the least recently seen.
 */
export class BoundedClientMap<V> extends Map<string, V> {
  private readonly seen = new Map<string, number>();
  /** Clients dropped to make room, since creation. */
  evictions = 0;

  constructor(
    readonly maxEntries: number,
    readonly idleMs: number,
    private readonly now: () => number = Date.now,
  ) {
    super();
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
  }

  override get(key: string): V | undefined {
    const value = super.get(key);
    if (value !== undefined) this.touch(key);
    return value;
  }

  override set(key: string, value: V): this {
    if (!super.has(key) && super.size >= this.maxEntries) this.makeRoom();
    super.set(key, value);
    this.touch(key);
    return this;
  }

  override delete(key: string): boolean {
    this.seen.delete(key);
    return super.delete(key);
  }

  override clear(): void {
    this.seen.clear();
    super.clear();
  }

  private touch(key: string): void {
    this.seen.delete(key);
    this.seen.set(key, this.now());
  }

  private makeRoom(): void {
    const cutoff = this.now() - this.idleMs;
    for (const [key, at] of this.seen) {
      if (at > cutoff) break;
      this.delete(key);
      this.evictions++;
    }
    for (const key of this.seen.keys()) {
      if (super.size < this.maxEntries) break;
      this.delete(key);
      this.evictions++;
    }
  }
}
