import { Redis } from 'ioredis';
import type { Logger } from 'chainhost/plugin';

/**
 * The dashboard's connection to the Redis its replicas share. A limit check must never wait on
 * an absent Redis: commands fail at once while disconnected (no offline queue) and after 250 ms
 * when Redis hangs, and the callers then count the request in this process. ioredis keeps
 * reconnecting in the background (backing off up to 2 s), so sharing resumes by itself.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 250;

export function connectSharedRedis(url: string, log: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(100 * attempt, 2_000),
    lazyConnect: false,
  });
  let down = false;
  redis.on('error', (err: Error) => {
    // ioredis emits one error per failed reconnect; say it once per outage, without the URL (it may hold a password).
    if (down) return;
    down = true;
    log.warn('Redis connection failed; limits are per process until it is back', { reason: err.message });
  });
  redis.on('ready', () => {
    if (down) log.info('Redis connection is back');
    down = false;
  });
  return redis;
}

/**
 * Waits (at most `timeoutMs`) for the first connection, so a replica that just started does not
 * count its first requests alone while Redis is merely still connecting. A Redis that is down
 * at start does not hold the dashboard back: it serves with per-process limits meanwhile.
 */
export async function firstConnection(redis: Redis, timeoutMs = 2_000): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return new Promise<boolean>((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    redis.on('ready', onReady);
  });
}
