import { hash, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import type Koa from 'koa';
import { ApiError } from '../../core/errors.js';
import { isLoopbackHost } from '../../core/net/bind-address.js';

/**
 * The tool server's front door (spec part 5, mcp.md §7.2 and §10), in this order:
 *
 * 1. Host header: must name this server (DNS-rebinding protection) → 403.
 * 2. Origin: a request that carries one must list it exactly in CHAIN_MCP_HTTP_CORS_ORIGINS
 *    → 403 otherwise; listed origins get CORS headers and their preflight is answered here.
 * 3. Bearer token: when CHAIN_MCP_HTTP_TOKEN is set it is enforced on EVERY request, /health
 *    included ("when set, it is always enforced"; health reveals the version and tool counts).
 *    Only a CORS preflight of a listed origin passes without it: browsers never attach
 *    credentials to a preflight, and a preflight returns no data.
 *
 * Every refusal is an ApiError, so it leaves in the one error shape.
 */
export interface ToolsHttpGuardOptions {
  /** The configured bind address (`127.0.0.1`, `::1`, `localhost`, `0.0.0.0`, `::`, an IP or a name). */
  bindHost: string;
  /** HTTP_PUBLISH_HOST: the address a container's port is published on; also a valid Host. */
  publishHost: string | null;
  token: string | null;
  corsOrigins: readonly string[];
  /** Whether a token is required (unsafe tools on, or a non-loopback bind); the host refuses to start without one. */
  tokenRequired: boolean;
}

export const CORS_ALLOW_METHODS = 'GET, POST, DELETE, OPTIONS';
export const CORS_ALLOW_HEADERS = 'authorization, content-type, mcp-session-id, mcp-protocol-version, last-event-id';
export const CORS_EXPOSE_HEADERS = 'mcp-session-id, mcp-protocol-version, www-authenticate';

export function toolsHttpGuards(options: ToolsHttpGuardOptions): Koa.Middleware {
  const hostCheck = hostHeaderCheck(options.bindHost, options.publishHost);
  const origins = new Set(options.corsOrigins);
  const expected = options.token ? digest(options.token) : null;

  // Not async: nothing runs after next(), so no extra promise per request.
  return (ctx, next) => {
    // Results may carry keys (wallet tools) and are per-caller: never cache them.
    ctx.set('Cache-Control', 'no-store');
    hostCheck(ctx);

    const origin = ctx.get('origin');
    if (origins.size) ctx.vary('Origin');
    if (origin) {
      if (!origins.has(origin)) {
        throw new ApiError(403, 'forbidden', `Origin ${JSON.stringify(origin.slice(0, 200))} is not allowed; list it exactly in CHAIN_MCP_HTTP_CORS_ORIGINS`, { origin });
      }
      ctx.set('Access-Control-Allow-Origin', origin);
      ctx.set('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS);
      if (ctx.method === 'OPTIONS' && ctx.get('access-control-request-method')) {
        ctx.set('Access-Control-Allow-Methods', CORS_ALLOW_METHODS);
        ctx.set('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS);
        ctx.set('Access-Control-Max-Age', '600');
        ctx.status = 204;
        return Promise.resolve();
      }
    }

    if (expected) {
      const presented = bearerToken(ctx.get('authorization'));
      if (presented === null || !timingSafeEqual(digest(presented), expected)) {
        const challenge = presented === null ? 'Bearer realm="chainhost"' : 'Bearer realm="chainhost", error="invalid_token"';
        throw new ApiError(401, 'unauthorized',
          presented === null ? 'missing bearer token; send Authorization: Bearer <CHAIN_MCP_HTTP_TOKEN>' : 'wrong bearer token',
          null, { 'WWW-Authenticate': challenge });
      }
    } else if (options.tokenRequired) {
      // Unreachable when the host's bind rules ran (they refuse to start); kept so the guard
      // never fails open if it is mounted elsewhere.
      throw new ApiError(503, 'token_required', 'CHAIN_MCP_HTTP_TOKEN must be set for this server (unsafe tools enabled or non-loopback bind)');
    }
    return next();
  };
}

/** Both sides are hashed first so timingSafeEqual always compares equal-length buffers. */
function digest(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}

function bearerToken(header: string): string | null {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * Allowed Host names: the bind host (raw or bracketed IPv6), the loopback names when the
 * server listens on loopback (a wildcard bind listens there too), and HTTP_PUBLISH_HOST. A
 * wildcard bind also accepts the local address the connection actually arrived on, so clients
 * may dial the machine by IP; a DNS name for such a server must be given as HTTP_PUBLISH_HOST.
 * The port must be the port the connection arrived on, except with the publish host, whose
 * published port may differ from the container's.
 */
export function hostHeaderCheck(bindHost: string, publishHost: string | null): (ctx: Koa.Context) => void {
  const bind = normalizeHostName(bindHost);
  const wildcard = bind === '0.0.0.0' || bind === '::';
  const names = new Set<string>();
  if (!wildcard) names.add(bind);
  if (wildcard || isLoopbackHost(bind)) for (const n of ['localhost', '127.0.0.1', '::1']) names.add(n);
  const publish = publishHost ? normalizeHostName(publishHost) : null;

  return (ctx) => {
    const header = ctx.get('host');
    const parsed = parseHostHeader(header);
    const socket = ctx.req.socket;
    let ok = false;
    if (parsed) {
      if (publish !== null && parsed.name === publish) ok = true;
      else {
        const nameOk = names.has(parsed.name) || (wildcard && parsed.name === normalizeHostName(socket.localAddress ?? ''));
        ok = nameOk && parsed.port === socket.localPort;
      }
    }
    if (!ok) {
      throw new ApiError(403, 'forbidden',
        `Host header ${JSON.stringify(header.slice(0, 200))} does not name this server; use the address it listens on (DNS-rebinding protection) or set HTTP_PUBLISH_HOST`,
        { host: header.slice(0, 200) });
    }
  };
}

/** Lower-case, brackets and IPv4-mapped IPv6 prefixes removed: `[::1]` → `::1`, `::ffff:10.0.0.1` → `10.0.0.1`. */
function normalizeHostName(host: string): string {
  let h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/.test(h)) h = h.slice(7);
  if (h.endsWith('.') && !net.isIP(h)) h = h.slice(0, -1);
  return h;
}

function parseHostHeader(header: string): { name: string; port: number } | null {
  if (!header) return null;
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(header.trim());
  if (!match) return null;
  return { name: normalizeHostName(match[1]!), port: match[2] ? Number(match[2]) : 80 };
}
