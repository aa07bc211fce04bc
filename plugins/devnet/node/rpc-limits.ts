/**
 * The RPC server's resource caps, with CometBFT 0.38's `[rpc]` defaults (config.toml): a
 * request body (and a WebSocket message) is at most `max_body_bytes`, a JSON-RPC batch holds at
 * most `max_request_batch_size` calls, the listener keeps at most `max_open_connections`
 * sockets (HTTP and WebSocket together), at most `max_subscription_clients` clients hold
 * subscriptions, each at most `max_subscriptions_per_client`, a query is at most 512 bytes, and
 * a request (headers and body) must arrive within `read_timeout` (10 s), so a client sending one
 * byte at a time cannot hold a connection slot for Node's default 300 s.
 * No request, however large or numerous its parts, makes the node buffer or loop without bound.
 */
export interface RpcLimits {
  maxBodyBytes: number;
  maxBatchSize: number;
  maxOpenConnections: number;
  maxSubscriptionClients: number;
  maxSubscriptionsPerClient: number;
  maxQueryLength: number;
  /** CometBFT's `read_timeout`: the whole request must arrive within it (else 408 and the socket closes). */
  readTimeoutMs: number;
}

export const DEFAULT_RPC_LIMITS: Readonly<RpcLimits> = Object.freeze({
  maxBodyBytes: 1_000_000,
  maxBatchSize: 10,
  maxOpenConnections: 900,
  maxSubscriptionClients: 100,
  maxSubscriptionsPerClient: 5,
  maxQueryLength: 512,
  readTimeoutMs: 10_000,
});

export function rpcLimits(overrides: Partial<RpcLimits> = {}): RpcLimits {
  const limits = { ...DEFAULT_RPC_LIMITS, ...overrides };
  for (const [key, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`RPC limit ${key} must be an integer >= 1, got ${value}`);
  }
  return limits;
}

/** A request body beyond `maxBodyBytes` (Go's MaxBytesReader text, which CometBFT passes on). */
export class BodyTooLargeError extends Error {
  constructor() {
    super('http: request body too large');
    this.name = 'BodyTooLargeError';
  }
}
