import net, { type Socket } from 'node:net';
import { ApiError } from '../errors.js';
import { isLoopbackHost } from './bind-address.js';

/**
 * DNS-rebinding protection shared by every server the process binds (the tool server, the
 * dashboard, GraphQL, the host's /metrics and the devnet's node RPC): a request is answered only
 * when its `Host` header names this server. A web page that rebinds its own name to 127.0.0.1
 * still sends its own name as Host, so it is refused even though the socket reaches us.
 *
 * Allowed names: the bind host (raw or bracketed IPv6), the loopback names when the server
 * listens on loopback (a wildcard bind listens there too), and the publish host (a container's
 * published address). A wildcard bind also accepts the local address the connection actually
 * arrived on, so clients may dial the machine by IP; a DNS name for such a server must be given
 * as the publish host. The port must be the port the connection arrived on, except with the
 * publish host, whose published port may differ from the container's.
 */
export type HostHeaderAllowed = (header: string | undefined, socket: Socket) => boolean;

export function hostHeaderAllowed(bindHost: string, publishHost: string | null = null): HostHeaderAllowed {
  const bind = normalizeHostName(bindHost);
  const wildcard = bind === '0.0.0.0' || bind === '::';
  const names = new Set<string>();
  if (!wildcard) names.add(bind);
  if (wildcard || isLoopbackHost(bind)) for (const n of ['localhost', '127.0.0.1', '::1']) names.add(n);
  const publish = publishHost ? normalizeHostName(publishHost) : null;

  return (header, socket) => {
    const parsed = parseHostHeader(header ?? '');
    if (!parsed) return false;
    if (publish !== null && parsed.name === publish) return true;
    const nameOk = names.has(parsed.name) || (wildcard && parsed.name === normalizeHostName(socket.localAddress ?? ''));
    return nameOk && parsed.port === socket.localPort;
  };
}

/**
 * The check of a query service or node RPC: only while it is bound to loopback. Beyond loopback
 * (published on purpose with --public-query / publicRpc) it sits behind names and proxies this
 * process cannot know, and a rebinding page gains nothing it could not reach directly.
 */
export function loopbackHostHeaderAllowed(bindHost: string): HostHeaderAllowed | null {
  return isLoopbackHost(bindHost) ? hostHeaderAllowed(bindHost) : null;
}

export function hostHeaderRefusal(header: string | undefined, hint = 'use the address it listens on'): string {
  return `Host header ${JSON.stringify((header ?? '').slice(0, 200))} does not name this server; ${hint} (DNS-rebinding protection)`;
}

/** The allow-check as the 403 ApiError every koa server answers with. */
export function hostHeaderCheck(bindHost: string, publishHost: string | null, hint?: string): (header: string, socket: Socket) => void {
  const allowed = hostHeaderAllowed(bindHost, publishHost);
  return (header, socket) => {
    if (!allowed(header, socket)) throw new ApiError(403, 'forbidden', hostHeaderRefusal(header, hint), { host: header.slice(0, 200) });
  };
}

/**
 * Whether a browser `Origin` is the page's own server: same scheme-less host and port as the
 * request's `Host`. With the Host check in front, that is a page this server served.
 */
export function isSameOrigin(origin: string, hostHeader: string | undefined): boolean {
  if (!hostHeader) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const own = parseHostHeader(hostHeader);
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return own !== null && normalizeHostName(url.hostname) === own.name && port === own.port;
}

/**
 * Whether a browser page may open a WebSocket here. Browsers apply no CORS to WebSockets, so any
 * page the user opens could reach a loopback server: only the server's own pages and exactly
 * listed origins may. A request without `Origin` is not from a browser and is not concerned.
 */
export function browserOriginAllowed(origin: string | undefined, hostHeader: string | undefined, allowed: ReadonlySet<string>): boolean {
  return origin === undefined || isSameOrigin(origin, hostHeader) || allowed.has(origin);
}

/** An entry of an allowed-origins list: exact `scheme://host[:port]`, never `*`. */
export function isExactOrigin(value: string): boolean {
  return value !== '*' && /^https?:\/\/[^/\s]+$/.test(value);
}

export const EXACT_ORIGIN_RULE = 'must be an exact origin such as http://localhost:3000 ("*" is refused)';

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
