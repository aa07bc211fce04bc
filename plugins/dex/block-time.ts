import type { ChainNode } from 'chainhost/chain';
import { nodeApiError } from 'chainhost/plugin';

/**
 * How long a block takes on the node a submit sends to, measured from the node itself: the
 * median gap between the latest (at most 20) block headers. A median ignores the one long idle
 * gap a quiet chain has; it is capped because a chain that makes blocks only on demand (the
 * devnet's default) shows idle gaps, not block times. Cached briefly: a submit asks once.
 */

export interface BlockTimeSource {
  /** Milliseconds one block takes; throws an ApiError when the node cannot be read. */
  blockTimeMs(signal?: AbortSignal): Promise<number>;
}

export interface BlockTimeOptions {
  /** Upper bound of the measured time (default 30 000 ms). */
  capMs?: number;
  /** When fewer than two blocks exist (default 1 000 ms). */
  fallbackMs?: number;
  /** How long one measurement is reused (default 30 000 ms). */
  cacheMs?: number;
  now?: () => number;
}

export class BlockTimeMeter implements BlockTimeSource {
  private cached: { ms: number; at: number } | null = null;
  private readonly capMs: number;
  private readonly fallbackMs: number;
  private readonly cacheMs: number;
  private readonly now: () => number;

  constructor(private readonly node: ChainNode, options: BlockTimeOptions = {}) {
    this.capMs = options.capMs ?? 30_000;
    this.fallbackMs = options.fallbackMs ?? 1_000;
    this.cacheMs = options.cacheMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  async blockTimeMs(signal?: AbortSignal): Promise<number> {
    const t = this.now();
    if (this.cached && t - this.cached.at < this.cacheMs) return this.cached.ms;
    let times: number[];
    try {
      const info = await this.node.blockchain(undefined, undefined, { signal });
      times = info.block_metas.map((m) => Date.parse(m.header.time)).filter(Number.isFinite).sort((a, b) => a - b);
    } catch (err) {
      throw nodeApiError(err, 'cannot read the latest blocks to measure the block time');
    }
    const ms = Math.min(this.capMs, medianGap(times) ?? this.fallbackMs);
    this.cached = { ms, at: t };
    return ms;
  }
}

/** Median of the gaps between sorted instants; null with fewer than two. */
export function medianGap(sorted: readonly number[]): number | null {
  if (sorted.length < 2) return null;
  const gaps = sorted.slice(1).map((v, i) => v - sorted[i]!).sort((a, b) => a - b);
  const mid = gaps.length >> 1;
  return gaps.length % 2 ? gaps[mid]! : (gaps[mid - 1]! + gaps[mid]!) / 2;
}
