import { type ChainValue, compareCodePoints } from 'chainhost/chain';
import type { StateReader } from './types.js';

/**
 * A transaction's private view of state: reads see the transaction's own writes first, then the
 * node's StateReader. Nothing reaches the node until the executor hands back `entries()`; a
 * failed transaction simply drops the buffer. `null` marks a deletion. A buffer is itself a
 * StateReader, so buffers stack (genesis runs many calls over one overlay).
 */
export class WriteBuffer implements StateReader {
  private readonly writes = new Map<string, ChainValue | null>();

  constructor(private readonly base: StateReader) {}

  get(key: string): ChainValue | undefined {
    const local = this.writes.get(key);
    if (local !== undefined) return local === null ? undefined : local;
    return this.base.get(key);
  }

  set(key: string, value: ChainValue | null): void {
    this.writes.set(key, value);
  }

  has(key: string): boolean {
    return this.writes.has(key);
  }

  keys(prefix: string, options?: { after?: string; limit?: number }): string[] {
    const merged = new Set(this.base.keys(prefix));
    for (const [k, v] of this.writes) {
      if (!k.startsWith(prefix)) continue;
      if (v === null) merged.delete(k);
      else merged.add(k);
    }
    let out = [...merged].sort(compareCodePoints);
    if (options?.after !== undefined) out = out.filter((k) => compareCodePoints(k, options.after!) > 0);
    if (options?.limit !== undefined) out = out.slice(0, options.limit);
    return out;
  }

  /** Writes in first-write order, each with its final value. */
  entries(): Array<{ key: string; value: ChainValue | null }> {
    const out: Array<{ key: string; value: ChainValue | null }> = [];
    for (const [key, value] of this.writes) out.push({ key, value });
    return out;
  }

  get size(): number {
    return this.writes.size;
  }
}
