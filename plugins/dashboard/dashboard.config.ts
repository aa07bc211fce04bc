import net from 'node:net';
import { z } from 'zod';
import { EXACT_ORIGIN_RULE, isExactOrigin, type EnvBinding } from 'chainhost/plugin';

/**
 * `plugins.dashboard` options. Defaults follow the upstream dashboard (dashboard.md §1.1, §5.2,
 * §6.4); the dry-run caps are chainhost's (spec 5.7 asks for them, upstream has none of its own).
 * Every nested object uses `prefault({})` so a partial object still gets the inner defaults.
 */
const port = z.number({ error: 'must be a port number' }).int('must be an integer').min(0, 'must be 0..65535').max(65535, 'must be 0..65535');
const int = (min: number, max: number) => z.number({ error: `must be an integer ${min}..${max}` }).int(`must be an integer ${min}..${max}`).min(min, `must be ${min}..${max}`).max(max, `must be ${min}..${max}`);
const rate = z.number({ error: 'must be a number of requests per second' }).min(0.001, 'must be at least 0.001 per second').max(1_000_000_000, 'must be at most 1e9 per second');

/** A token bucket: `ratePerSecond` refill, `burst` capacity (the most requests at once). */
const bucket = (ratePerSecond: number, burst: number) =>
  z.strictObject({ ratePerSecond: rate.default(ratePerSecond), burst: int(1, 1_000_000_000).default(burst) }).prefault({});

const proxyEntry = z.string().refine((v) => parseProxyEntry(v) !== null, 'must be an IP address or a CIDR range such as 10.0.0.0/8 or fd00::/8');

export const dashboardConfigSchema = z.strictObject({
  /** False keeps the plugin loaded but serves nothing (upstream CHAIN_DASHBOARD_ENABLED). */
  enabled: z.boolean().default(true),
  host: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  port: port.default(8080),
  /** `--public-query`: with CHAIN_PUBLIC_QUERY_ENABLED=1 lets the dashboard bind beyond loopback (spec 5.6). */
  publicQuery: z.boolean().default(false),
  /** Deadline of one node call made for a request (ms). */
  requestTimeoutMs: int(100, 120_000).default(10_000),
  /**
   * Proxies whose `X-Forwarded-For` is believed (IPs or CIDR ranges). Empty (default): the
   * header is ignored and the peer address is the client, so nobody can pick their own bucket.
   */
  trustedProxies: z.array(proxyEntry).default([]),
  /**
   * Redis URL (`redis://` or `rediss://`, credentials allowed) shared by every replica: the
   * dashboard keeps its rate, burst and tracked-client limits and its dry-run window there, so N
   * replicas behind a balancer enforce one limit. null keeps them in each process. While Redis
   * does not answer (250 ms per command), limits fall back to per process with a warning, never
   * to none.
   */
  redisUrl: z.string().regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL').nullable().default(null),
  /**
   * Prefix of the Redis keys that hold the shared limits (with `CHAIN_REDIS_URL`). Replicas that
   * must enforce one limit use the same prefix; two dashboards of different deployments on one
   * Redis use different ones.
   */
  redisKeyPrefix: z.string().regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be 1..64 letters, digits, ":", "_", "." or "-"').default('chainhost:dashboard:'),
  /** `?rpc=<url>` inspection of the configured node's known peers (dashboard.md §2). */
  peerInspection: z.strictObject({
    enabled: z.boolean().default(true),
    /** How long the peer allow-list (from `net_info`) is reused. */
    allowListTtlMs: int(0, 3_600_000).default(30_000),
  }).prefault({}),
  limits: z.strictObject({
    /** Off only for benchmarks and trusted single-user set-ups. */
    enabled: z.boolean().default(true),
    /** `/api/config`, `/api/status`. */
    api: bucket(30, 60),
    /** Every other `/api/*` route (one shared bucket per client) and the explorer pages. */
    expensive: bucket(8, 16),
    /** WebSocket upgrades on `/ws`. */
    websocket: bucket(30, 60),
    /** Requests being served at once over all clients; beyond it 503 with Retry-After. */
    maxInFlight: int(1, 100_000).default(32),
    /** Clients with a bucket; beyond it idle clients are dropped, then the least recently seen. */
    maxTrackedClients: int(1, 10_000_000).default(4096),
    /** A client unseen this long is forgotten first when the table is full (seconds). */
    clientIdleSeconds: int(1, 86_400).default(3600),
    /** Largest `limit` query parameter of the list routes. */
    maxPageSize: int(1, 1000).default(500),
  }).prefault({}),
  /** `/api/abci_query/simulate_tx/<hex>`: caps of its own on top of the expensive class (spec 5.7). */
  simulate: z.strictObject({
    enabled: z.boolean().default(true),
    /** Dry runs per client per window (a koa-ratelimit fixed window). */
    maxPerWindow: int(1, 1_000_000).default(30),
    windowMs: int(1000, 3_600_000).default(60_000),
    /** Dry runs running at once over all clients; beyond it 503 with Retry-After. */
    maxConcurrent: int(1, 1000).default(2),
    /** Wall-clock deadline of one dry run (ms); beyond it 504. */
    timeoutMs: int(100, 60_000).default(5_000),
    /** Largest payload, in hex characters. */
    maxPayloadHexChars: int(2, 1_000_000).default(16_384),
  }).prefault({}),
  websocket: z.strictObject({
    /**
     * Browser origins besides the dashboard's own whose pages may open `/ws` (exact
     * `scheme://host[:port]`, no `*`); an upgrade from any other `Origin` is 403. Clients that
     * send no Origin (not browsers) are unaffected.
     */
    allowedOrigins: z.array(z.string().refine(isExactOrigin, EXACT_ORIGIN_RULE)).default([]),
    maxClients: int(1, 100_000).default(100),
    maxClientsPerIp: int(1, 100_000).default(8),
    maxStateSubscriptions: int(1, 100_000).default(64),
    maxEventSubscriptions: int(1, 100_000).default(32),
    maxMessageBytes: int(1024, 64 * 1024).default(64 * 1024),
    /** Messages waiting to be written to one client; when full the client is closed with 1013. */
    maxOutboundQueue: int(1, 100_000).default(128),
    pingIntervalMs: int(1000, 600_000).default(25_000),
    /** How often the node is polled for the `node_status` broadcast while clients are connected. */
    nodeStatusIntervalMs: int(500, 600_000).default(10_000),
  }).prefault({}),
});

export const dashboardEnvBindings: readonly EnvBinding[] = [
  { variable: 'CHAIN_DASHBOARD_HOST', path: ['host'], type: 'string' },
  { variable: 'CHAIN_DASHBOARD_PORT', path: ['port'], type: 'integer' },
  { variable: 'CHAIN_REDIS_URL', path: ['redisUrl'], type: 'string', secret: true },
];

export type DashboardOptions = z.output<typeof dashboardConfigSchema>;
export type DashboardOptionsInput = z.input<typeof dashboardConfigSchema>;
export type BucketOptions = DashboardOptions['limits']['api'];

/** `10.0.0.0/8`, `fd00::/8`, or a single address; null when it is neither. */
export function parseProxyEntry(entry: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address, prefixText, extra] = entry.trim().split('/');
  if (extra !== undefined || !address) return null;
  const version = net.isIP(address);
  if (version === 0) return null;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const max = version === 4 ? 32 : 128;
  if (prefixText === undefined) return { address, prefix: max, family };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return null;
  return { address, prefix: Number(prefixText), family };
}
