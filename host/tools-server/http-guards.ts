import { hash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import { ApiError } from '../../core/errors.js';
import { hostHeaderCheck } from '../../core/net/host-header.js';

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

/**
 * What the guards decided for a request they let through: the CORS headers to add (a listed
 * Origin), and whether it is a preflight the guards answer themselves (204, no data).
 */
export interface GuardDecision {
  headers: Record<string, string> | null;
  preflight: boolean;
}

const PASS: GuardDecision = { headers: null, preflight: false };

/**
 * The guards as one check over the raw request, shared by the koa middleware and the direct
 * POST /tools/{name} path so both refuse exactly alike. Throws the refusal as an ApiError.
 */
export interface ToolsHttpGate {
  check(req: IncomingMessage): GuardDecision;
  /** Headers every answer carries, refusals included. */
  readonly alwaysHeaders: Readonly<Record<string, string>>;
}

export function toolsHttpGate(options: ToolsHttpGuardOptions): ToolsHttpGate {
  const hostCheck = hostHeaderCheck(options.bindHost, options.publishHost, 'use the address it listens on or set HTTP_PUBLISH_HOST');
  const origins = new Set(options.corsOrigins);
  const expected = options.token ? digest(options.token) : null;
  // Results may carry keys (wallet tools) and are per-caller: never cache them.
  const alwaysHeaders: Record<string, string> = { 'Cache-Control': 'no-store' };
  if (origins.size) alwaysHeaders['Vary'] = 'Origin';

  const check = (req: IncomingMessage): GuardDecision => {
    hostCheck(req.headers.host ?? '', req.socket);
    let decision = PASS;
    const origin = req.headers.origin;
    if (origin) {
      if (!origins.has(origin)) {
        throw new ApiError(403, 'forbidden', `Origin ${JSON.stringify(origin.slice(0, 200))} is not allowed; list it exactly in CHAIN_MCP_HTTP_CORS_ORIGINS`, { origin });
      }
      const headers: Record<string, string> = { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': CORS_EXPOSE_HEADERS };
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
        headers['Access-Control-Allow-Methods'] = CORS_ALLOW_METHODS;
        headers['Access-Control-Allow-Headers'] = CORS_ALLOW_HEADERS;
        headers['Access-Control-Max-Age'] = '600';
        return { headers, preflight: true };
      }
      decision = { headers, preflight: false };
    }

    if (expected) {
      const presented = bearerToken(req.headers.authorization ?? '');
      if (presented === null || !timingSafeEqual(digest(presented), expected)) {
        const challenge = presented === null ? 'Bearer realm="chainhost"' : 'Bearer realm="chainhost", error="invalid_token"';
        throw new ApiError(401, 'unauthorized',
          presented === null ? 'missing bearer token; send Authorization: Bearer <CHAIN_MCP_HTTP_TOKEN>' : 'wrong bearer token',
          null, { ...decision.headers, 'WWW-Authenticate': challenge });
      }
    } else if (options.tokenRequired) {
      // Unreachable when the host's bind rules ran (they refuse to start); kept so the guard
      // never fails open if it is mounted elsewhere.
      throw new ApiError(503, 'token_required', 'CHAIN_MCP_HTTP_TOKEN must be set for this server (unsafe tools enabled or non-loopback bind)', null, decision.headers ?? {});
    }
    return decision;
  };
  return { check, alwaysHeaders };
}

/** The gate as koa middleware, for every route of the tools server but the direct one. */
export function toolsHttpGuards(gate: ToolsHttpGate): Koa.Middleware {
  // Not async: nothing runs after next(), so no extra promise per request.
  return (ctx, next) => {
    ctx.set(gate.alwaysHeaders);
    const decision = gate.check(ctx.req);
    if (decision.headers) ctx.set(decision.headers);
    if (decision.preflight) {
      ctx.status = 204;
      return Promise.resolve();
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
