import type { Redis } from 'ioredis';
import type Koa from 'koa';
import { ApiError, type Logger, silentLogger } from 'chainhost/plugin';
import type { DashboardOptions } from '../dashboard.config.js';
import type { ClientAddressResolver } from './client-address.js';
import { limitClassOf, type LimitClass } from './limit-class.js';
import { RedisTokenBuckets } from './redis-token-buckets.js';
import { TokenBuckets, type TakeResult } from './token-bucket.js';

/** Where the buckets of every dashboard replica meet: a Redis client and a key prefix. */
export interface SharedLimitStore {
  redis: Redis;
  prefix: string;
  log?: Logger;
}

const LIMIT_CLASSES: readonly LimitClass[] = ['api', 'expensive', 'websocket'];

/**
 * The per-client rate limits of the dashboard: one token-bucket table per limit class, each
 * capped at `maxTrackedClients` with idle eviction, in this process (the default) or shared by
 * every replica through Redis. Used by the HTTP middleware and by the WebSocket upgrade check.
 */
export class DashboardRateLimiter {
  readonly buckets: Record<LimitClass, TokenBuckets | RedisTokenBuckets>;

  constructor(limits: DashboardOptions['limits'], now: () => number = Date.now, shared: SharedLimitStore | null = null) {
    const idleMs = limits.clientIdleSeconds * 1000;
    const bucketsOf = (limitClass: LimitClass) => shared
      ? new RedisTokenBuckets(shared.redis, limits[limitClass], { prefix: `${shared.prefix}${limitClass}:`, maxClients: limits.maxTrackedClients, idleMs, log: shared.log ?? silentLogger }, now)
      : new TokenBuckets(limits[limitClass], limits.maxTrackedClients, idleMs, now);
    this.buckets = Object.fromEntries(LIMIT_CLASSES.map((c) => [c, bucketsOf(c)])) as Record<LimitClass, TokenBuckets | RedisTokenBuckets>;
  }

  /**
   * Takes one token or throws the 429 (`Retry-After` = seconds until a token is back, at least 1).
   * In memory it answers synchronously (no promise on the hot path); with Redis, a promise.
   */
  check(limitClass: LimitClass, client: string): void | Promise<void> {
    const result = this.buckets[limitClass].take(client);
    if (result instanceof Promise) return result.then((r) => this.refuseUnless(limitClass, r));
    this.refuseUnless(limitClass, result);
  }

  private refuseUnless(limitClass: LimitClass, result: TakeResult): void {
    if (result.allowed) return;
    const { ratePerSecond, burst } = this.buckets[limitClass].config;
    const retryAfter = Math.max(1, Math.ceil(result.retryAfterSeconds));
    throw new ApiError(
      429,
      'rate_limited',
      `dashboard rate limit exceeded for ${limitClass} routes (${ratePerSecond}/s, burst ${burst}); retry in ${retryAfter} s`,
      { limit_class: limitClass, retry_after: Number(result.retryAfterSeconds.toFixed(3)), rate_per_second: ratePerSecond, burst },
      { 'Retry-After': String(retryAfter) },
    );
  }

  /** Clients tracked in this process over all classes (bounded by 3 × maxTrackedClients; with Redis, those counted locally during an outage). */
  trackedClients(): number {
    const local = (b: TokenBuckets | RedisTokenBuckets) => (b instanceof RedisTokenBuckets ? b.local : b).clients.size;
    return LIMIT_CLASSES.reduce((sum, c) => sum + local(this.buckets[c]), 0);
  }
}

/** Resolves the client key into `ctx.state.clientKey` (used by every later limit). */
export function clientKeyMiddleware(addresses: ClientAddressResolver): Koa.Middleware {
  return async (ctx, next) => {
    ctx.state.clientKey = addresses.resolve(ctx.req.socket.remoteAddress, ctx.req.headers['x-forwarded-for']);
    await next();
  };
}

export function rateLimitMiddleware(limiter: DashboardRateLimiter): Koa.Middleware {
  return async (ctx, next) => {
    const limitClass = limitClassOf(ctx.path);
    if (limitClass && limitClass !== 'websocket') {
      const pending = limiter.check(limitClass, ctx.state.clientKey as string);
      if (pending) await pending;
    }
    await next();
  };
}
