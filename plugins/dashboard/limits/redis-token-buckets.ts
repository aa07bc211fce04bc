import type { Redis } from 'ioredis';
import type { Logger } from 'chainhost/plugin';
import { TokenBuckets, type BucketConfig, type TakeResult } from './token-bucket.js';

/**
 * The dashboard's token buckets shared by every replica through Redis (`CHAIN_REDIS_URL`): the
 * same refill rule as TokenBuckets, run atomically in one Lua script per request against the
 * Redis server's clock, so N replicas behind a balancer enforce one limit. Tracked clients are a
 * sorted set by last-seen time, capped at `maxClients` (least recently seen evicted first) and
 * idle buckets expire, as in memory.
 *
 * When Redis does not answer within `commandTimeoutMs` (down, unreachable, overloaded), the
 * request is counted in this process's own buckets instead — limits degrade to per-process,
 * never to none and never to an error — with one warning per outage and one line on recovery.
 */
const TAKE_SCRIPT = `
local bucket = KEYS[1]
local clients = KEYS[2]
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local idle_ms = tonumber(ARGV[3])
local max_clients = tonumber(ARGV[4])
local client = ARGV[5]
local bucket_prefix = ARGV[6]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', bucket, 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = burst
else
  tokens = math.min(burst, tokens + (math.max(0, now - at) / 1000) * rate)
end
local allowed = 0
local retry = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  retry = (1 - tokens) / rate
end
redis.call('HSET', bucket, 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', bucket, idle_ms)
redis.call('ZADD', clients, now, client)
redis.call('ZREMRANGEBYSCORE', clients, '-inf', now - idle_ms)
local over = redis.call('ZCARD', clients) - max_clients
if over > 0 then
  local evicted = redis.call('ZPOPMIN', clients, over)
  for i = 1, #evicted, 2 do redis.call('DEL', bucket_prefix .. evicted[i]) end
end
return {allowed, tostring(retry)}
`;

type TakeCommand = (bucket: string, clients: string, rate: number, burst: number, idleMs: number, maxClients: number, client: string, prefix: string) => Promise<[number, string]>;

export interface SharedBucketsOptions {
  /** Key prefix of this limit class, e.g. `chainhost:dashboard:expensive:`. */
  prefix: string;
  maxClients: number;
  idleMs: number;
  log: Logger;
}

export class RedisTokenBuckets {
  /** This process's buckets: used while Redis does not answer. */
  readonly local: TokenBuckets;
  #degraded = false;

  constructor(private readonly redis: Redis, readonly config: BucketConfig, private readonly options: SharedBucketsOptions, now: () => number = Date.now) {
    this.local = new TokenBuckets(config, options.maxClients, options.idleMs, now);
    if (!('chainhostTakeToken' in redis)) redis.defineCommand('chainhostTakeToken', { numberOfKeys: 2, lua: TAKE_SCRIPT });
  }

  /** Whether requests are being counted locally because Redis does not answer. */
  get degraded(): boolean {
    return this.#degraded;
  }

  async take(client: string): Promise<TakeResult> {
    const { prefix, idleMs, maxClients } = this.options;
    let answer: [number, string];
    try {
      const take = (this.redis as unknown as { chainhostTakeToken: TakeCommand }).chainhostTakeToken.bind(this.redis);
      answer = await take(`${prefix}bucket:${client}`, `${prefix}clients`, this.config.ratePerSecond, this.config.burst, idleMs, maxClients, client, `${prefix}bucket:`);
    } catch (err) {
      if (!this.#degraded) {
        this.#degraded = true;
        this.options.log.warn('Redis does not answer: dashboard rate limits are per process until it is back', { prefix, reason: (err as Error).message });
      }
      return this.local.take(client);
    }
    if (this.#degraded) {
      this.#degraded = false;
      this.options.log.info('Redis answers again: dashboard rate limits are shared again', { prefix });
    }
    return answer[0] === 1 ? { allowed: true } : { allowed: false, retryAfterSeconds: Number(answer[1]) };
  }
}
