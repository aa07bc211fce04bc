import net from 'node:net';
import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import { ApiError } from '../errors.js';

/**
 * What every HTTP server the host runs (tools, dashboard, GraphQL, metrics) grants one request
 * and one client (issue #30). Without these Node waits 300 s for a request body and counts
 * nothing per client: 256 POSTs sending one byte every 5 s held every tool-call slot until then.
 */
export interface HttpServerLimits {
  /** The request line and headers must arrive within this (Node's `headersTimeout`); else 408 and the socket closes. */
  headersTimeoutMs: number;
  /** The whole request, headers and body, must arrive within this (Node's `requestTimeout`); else 408 and the socket closes. */
  requestTimeoutMs: number;
  /**
   * Requests one client may have open at once on one server, from arrival until the answer is
   * sent (an open stream counts); beyond it 429. A client is a remote address (an IPv6 /64).
   * Loopback peers are exempt: every local process is 127.0.0.1, so a per-address cap there
   * would let one local process lock every other out. Their protection is that a body not yet
   * received takes no slot of the server's own caps and times out at `requestTimeoutMs`.
   */
  maxInFlightPerClient: number;
}

export const DEFAULT_HTTP_SERVER_LIMITS: Readonly<HttpServerLimits> = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxInFlightPerClient: 64,
});

/**
 * `http.createServer` options that enforce the two timeouts. Node checks them on a timer
 * (`connectionsCheckingInterval`, 30 s by default, which would let a slow request live up to
 * 30 s past its deadline); the check here runs at a quarter of the shorter timeout, at most
 * once a second.
 */
export function httpServerOptions(limits: Partial<HttpServerLimits> = {}): ServerOptions {
  const { headersTimeoutMs, requestTimeoutMs } = { ...DEFAULT_HTTP_SERVER_LIMITS, ...limits };
  // Node refuses a headersTimeout above requestTimeout.
  const headersTimeout = Math.min(headersTimeoutMs, requestTimeoutMs);
  return {
    headersTimeout,
    requestTimeout: requestTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 4))),
  };
}

/**
 * The per-client cap of `HttpServerLimits.maxInFlightPerClient`, counted on the raw request so
 * it covers koa routes and direct handlers alike. A slot is held until the response closes
 * (answered, or the socket gone), so a client cannot hold more than its share by abandoning
 * requests either.
 */
export class ClientInFlight {
  private readonly counts = new Map<string, number>();
  /** Requests refused since start. */
  refused = 0;

  constructor(readonly maxPerClient: number) {}

  /** Counts the request against its client, or returns false when that client is at its cap. */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    const key = clientKey(req.socket.remoteAddress);
    if (key === null) return true;
    const held = this.counts.get(key) ?? 0;
    if (held >= this.maxPerClient) {
      this.refused++;
      return false;
    }
    this.counts.set(key, held + 1);
    res.once('close', () => {
      const left = (this.counts.get(key) ?? 1) - 1;
      if (left <= 0) this.counts.delete(key);
      else this.counts.set(key, left);
    });
    return true;
  }

  /** Requests the client at `address` holds now (0 for loopback, which is not counted). */
  heldBy(address: string): number {
    const key = clientKey(address);
    return key === null ? 0 : this.counts.get(key) ?? 0;
  }
}

/** The 429 a client over its cap gets, in the one error shape, written straight on node:http. */
export function refuseOverClientCap(res: ServerResponse, maxPerClient: number): void {
  const body = JSON.stringify(new ApiError(429, 'rate_limited', `too many requests in flight from your address (at most ${maxPerClient}); wait for some to finish`,
    { max_in_flight_per_client: maxPerClient }).toBody());
  res.writeHead(429, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Retry-After': '1', 'Cache-Control': 'no-store' });
  res.end(body);
}

/**
 * Who a peer address is, for per-client caps: the IPv4 address (`::ffff:` mapping removed),
 * the /64 of an IPv6 address (one host usually owns a whole /64, so counting single addresses
 * would let it take any number of shares), null for loopback and anything unparseable.
 */
export function clientKey(address: string | undefined): string | null {
  if (!address) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const a = mapped ? mapped[1]! : address;
  const family = net.isIP(a);
  if (family === 4) return a.startsWith('127.') ? null : a;
  if (family !== 6) return null;
  const groups = expandIpv6(a);
  if (groups.every((g, i) => (i < 7 ? g === 0 : g === 1))) return null; // ::1
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (zone id dropped, embedded IPv4 allowed). */
function expandIpv6(address: string): number[] {
  let a = address.split('%')[0]!.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (v4) {
    const [b0, b1, b2, b3] = v4.slice(1).map(Number) as [number, number, number, number];
    a = `${a.slice(0, v4.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head, tail] = a.includes('::') ? a.split('::') as [string, string] : [a, null];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === null ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((g) => parseInt(g, 16));
}
