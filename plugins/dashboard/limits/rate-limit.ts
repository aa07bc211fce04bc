import type Koa from 'koa';
import { ApiError } from '../../../core/errors.js';
import type { DashboardOptions } from '../dashboard.config.js';
import type { ClientAddressResolver } from './client-address.js';
import { limitClassOf, type LimitClass } from './limit-class.js';
import { TokenBuckets } from './token-bucket.js';

/**
 * The per-client rate limits of the dashboard: one token-bucket table per limit class, each
 * capped at `maxTrackedClients` with idle eviction. Used by the HTTP middleware and by the
 * WebSocket upgrade check.
 */
export class DashboardRateLimiter {
  readonly buckets: Record<LimitClass, TokenBuckets>;

  constructor(limits: DashboardOptions['limits'], now: () => number = Date.now) {
    const idleMs = limits.clientIdleSeconds * 1000;
    this.buckets = {
      api: new TokenBuckets(limits.api, limits.maxTrackedClients, idleMs, now),
      expensive: new TokenBuckets(limits.expensive, limits.maxTrackedClients, idleMs, now),
      websocket: new TokenBuckets(limits.websocket, limits.maxTrackedClients, idleMs, now),
    };
  }

  /** Takes one token or throws the 429 (`Retry-After` = seconds until a token is back, at least 1). */
  check(limitClass: LimitClass, client: string): void {
    const result = this.buckets[limitClass].take(client);
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

  /** Clients currently tracked over all classes (bounded by 3 × maxTrackedClients). */
  trackedClients(): number {
    return this.buckets.api.clients.size + this.buckets.expensive.clients.size + this.buckets.websocket.clients.size;
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
    if (limitClass && limitClass !== 'websocket') limiter.check(limitClass, ctx.state.clientKey as string);
    await next();
  };
}
