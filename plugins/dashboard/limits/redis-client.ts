import { Redis } from 'ioredis';
import type { Logger } from '../../../core/logger.js';

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
