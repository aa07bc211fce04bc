import { BoundedClientMap } from './bounded-client-map.js';

export interface BucketConfig {
  /** Tokens added per second. */
  ratePerSecond: number;
  /** Capacity: the most requests a rested client may make at once. */
  burst: number;
}

interface BucketState {
  tokens: number;
  /** ms timestamp of the last refill. */
  at: number;
}

export type TakeResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Per-client token buckets (dashboard.md §5.2): cost 1 per request, continuous refill of
 * `elapsed × rate` up to `burst`; an empty bucket answers how long until one token is back.
 * koa-ratelimit only has fixed windows, which let a client send two full windows back to back
 * at a window edge; a bucket caps every interval. State lives in a BoundedClientMap.
 */
export class TokenBuckets {
  readonly clients: BoundedClientMap<BucketState>;

  constructor(
    readonly config: BucketConfig,
    maxClients: number,
    idleMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.clients = new BoundedClientMap<BucketState>(maxClients, idleMs, now);
  }

  take(client: string): TakeResult {
    const now = this.now();
    const { ratePerSecond, burst } = this.config;
    let state = this.clients.get(client);
    if (!state) {
      state = { tokens: burst, at: now };
      this.clients.set(client, state);
    } else {
      state.tokens = Math.min(burst, state.tokens + ((now - state.at) / 1000) * ratePerSecond);
      state.at = now;
    }
    if (state.tokens >= 1) {
      state.tokens -= 1;
      return { allowed: true };
    }
    return { allowed: false, retryAfterSeconds: (1 - state.tokens) / ratePerSecond };
  }
}
