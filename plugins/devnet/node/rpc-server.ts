import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { browserOriginAllowed, type HostHeaderAllowed, hostHeaderRefusal, httpServerOptions, type Logger, loopbackHostHeaderAllowed } from 'chainhost/plugin';
import { rpcErrorBody, type DevnetRpc } from './devnet-rpc.js';
import type { EventBus } from './event-bus.js';
import { batchExceeds } from './json-batch-length.js';
import { jsonText } from './json-text.js';
import { argsFromUri, RPC_METHODS, WEBSOCKET_METHODS } from './rpc-params.js';
import { BodyTooLargeError, rpcLimits, type RpcLimits } from './rpc-limits.js';
import { WebSocketSession } from './websocket-session.js';

/**
 * The node RPC as CometBFT serves it on :26657 (cometbft-rpc.md §1-3): URI requests
 * (`GET|POST /<method>?<param>=<value>`, form bodies too), JSON-RPC (`POST /`, single or batch)
 * and JSON-RPC over WebSocket at `/websocket` with subscriptions. Bodies are pretty-printed
 * JSON; URI errors answer HTTP 500 with the JSON-RPC error envelope, a body over the cap 400
 * and an over-cap batch 200 with one error object (rpc/jsonrpc/server/http_server.go
 * PreChecksHandler). Bodies, batches, connections and subscriptions are capped as CometBFT
 * caps them (rpc-limits.ts).
 */
export class RpcServer {
  private readonly server: http.Server;
  private readonly wss: WebSocketServer;
  private readonly sessions = new Set<WebSocketSession>();
  private readonly limits: RpcLimits;
  /** DNS-rebinding protection while bound to loopback (set by listen). */
  private hostAllowed: HostHeaderAllowed | null = null;

  private readonly allowedOrigins: ReadonlySet<string>;

  constructor(
    private readonly rpc: DevnetRpc, private readonly events: EventBus, private readonly logger: Logger,
    limits: Partial<RpcLimits> = {}, allowedOrigins: readonly string[] = [],
  ) {
    this.limits = rpcLimits(limits);
    this.allowedOrigins = new Set(allowedOrigins);
    // The host's own servers' timeouts (chainhost/plugin), at CometBFT's read_timeout.
    const timeouts = httpServerOptions({ headersTimeoutMs: this.limits.readTimeoutMs, requestTimeoutMs: this.limits.readTimeoutMs });
    this.server = http.createServer(timeouts, (req, res) => {
      this.serve(req, res).catch((err) => {
        this.logger.error('rpc request failed', { error: err instanceof Error ? err.message : String(err) });
        if (!res.headersSent) send(res, 500, { jsonrpc: '2.0', id: -1, error: { code: -32603, message: 'Internal error', data: String(err) } });
      });
    });
    this.server.keepAliveTimeout = 10_000;
    // CometBFT's max_open_connections (a LimitListener): HTTP and WebSocket sockets together.
    this.server.maxConnections = this.limits.maxOpenConnections;
    this.wss = new WebSocketServer({ noServer: true, maxPayload: this.limits.maxBodyBytes });
    this.server.on('upgrade', (req, socket, head) => {
      if (this.hostAllowed && !this.hostAllowed(req.headers.host, req.socket)) {
        socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      if (new URL(req.url ?? '/', 'http://x').pathname !== '/websocket') return refuseUpgrade(socket);
      // As the dashboard's /ws: any page the user opens could otherwise subscribe (and take the
      // max_subscription_clients slots). CometBFT itself accepts every Origin; a local devnet should not.
      if (!browserOriginAllowed(req.headers.origin, req.headers.host, this.allowedOrigins)) return refuseOrigin(socket);
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        const session = new WebSocketSession(ws, this.rpc, this.events, this.logger, this.limits);
        this.sessions.add(session);
        ws.on('close', () => this.sessions.delete(session));
      });
    });
  }

  async listen(port: number, host: string): Promise<AddressInfo> {
    this.hostAllowed = loopbackHostHeaderAllowed(host);
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    return this.server.address() as AddressInfo;
  }

  async close(): Promise<void> {
    for (const s of this.sessions) s.close();
    this.wss.close();
    this.server.closeAllConnections?.();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (this.hostAllowed && !this.hostAllowed(req.headers.host, req.socket)) return sendText(res, 403, hostHeaderRefusal(req.headers.host));
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = url.pathname.replace(/^\/+/, '');
    if (method === '' && req.method === 'POST') return this.serveJsonRpc(req, res);
    if (method === '') return sendText(res, 200, routesPage());
    if (method === 'websocket') return sendText(res, 400, 'Bad Request\n'); // gorilla/websocket's refusal of a plain GET
    // CometBFT's PreChecksHandler caps every request's body, whatever the path.
    if (Number(req.headers['content-length'] ?? 0) > this.limits.maxBodyBytes) return this.refuseBody(res);
    const specs = RPC_METHODS[method];
    if (!specs || WEBSOCKET_METHODS[method]) return sendText(res, 404, NOT_FOUND);
    if (req.method !== 'GET' && req.method !== 'POST' && req.method !== 'HEAD') return sendText(res, 405, 'Method Not Allowed');
    let params = url.searchParams;
    if (req.method === 'POST' && /application\/x-www-form-urlencoded/i.test(req.headers['content-type'] ?? '')) {
      // Go's FormValue: URL query first, then the form body.
      const raw = await readBody(req, this.limits.maxBodyBytes).catch((err: unknown) => err);
      if (raw instanceof BodyTooLargeError) return this.refuseBody(res);
      if (raw instanceof Error) throw raw;
      const body = new URLSearchParams((raw as Buffer).toString('utf8'));
      params = new URLSearchParams([...body, ...url.searchParams]);
    }
    try {
      const result = await this.rpc.call(method, argsFromUri(specs, params));
      send(res, 200, { jsonrpc: '2.0', id: -1, result });
    } catch (err) {
      send(res, 500, { jsonrpc: '2.0', id: -1, error: rpcErrorBody(err) });
    }
  }

  private async serveJsonRpc(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let body: unknown;
    try {
      const raw = await readBody(req, this.limits.maxBodyBytes);
      // An over-cap batch is refused before it is parsed (json-batch-length.ts).
      if (batchExceeds(raw, this.limits.maxBatchSize)) return this.refuseBatch(res);
      body = JSON.parse(raw.toString('utf8'));
    } catch (err) {
      if (err instanceof BodyTooLargeError) return this.refuseBody(res);
      return send(res, 500, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error', data: `error unmarshaling request: ${(err as Error).message}` } });
    }
    const batch = Array.isArray(body);
    const requests = batch ? (body as unknown[]) : [body];
    if (requests.length > this.limits.maxBatchSize) return this.refuseBatch(res);
    const responses: unknown[] = [];
    for (const request of requests) {
      const r = request as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown } | null;
      if (!r || typeof r !== 'object' || typeof r.method !== 'string') {
        responses.push({ jsonrpc: '2.0', id: r?.id ?? null, error: { code: -32600, message: 'Invalid Request', data: 'request has no method' } });
        continue;
      }
      if (r.id === undefined || r.id === null) continue; // a notification: CometBFT answers nothing
      if (WEBSOCKET_METHODS[r.method]) {
        responses.push({ jsonrpc: '2.0', id: r.id, error: { code: -32601, message: 'Method not found', data: `${r.method} is only available on the WebSocket (/websocket)` } });
        continue;
      }
      try {
        responses.push({ jsonrpc: '2.0', id: r.id, result: await this.rpc.handle(r.method, r.params) });
      } catch (err) {
        responses.push({ jsonrpc: '2.0', id: r.id, error: rpcErrorBody(err) });
      }
    }
    if (responses.length === 0) return sendText(res, 200, '');
    send(res, 200, batch ? responses : responses[0]);
  }

  /** PreChecksHandler answers an over-cap batch with WriteRPCResponseHTTP: HTTP 200, one error object without an id. */
  private refuseBatch(res: http.ServerResponse): void {
    const data = `batch request exceeds maximum (${this.limits.maxBatchSize}) allowed number of requests`;
    send(res, 200, { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request', data } });
  }

  /** CometBFT's PreChecksHandler: HTTP 400, `-32600` `error reading request body: http: request body too large`, no id. */
  private refuseBody(res: http.ServerResponse): void {
    const data = `error reading request body: ${new BodyTooLargeError().message}`;
    send(res, 400, { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request', data } });
  }
}

/**
 * The body, or BodyTooLargeError as soon as it (or its declared length) passes `max`; the rest
 * is then discarded unread, up to a bound, so the answer still reaches the client.
 */
function readBody(req: http.IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => {
      reject(new BodyTooLargeError());
      let discarded = 0;
      req.removeAllListeners('data');
      req.on('data', (c: Buffer) => {
        discarded += c.length;
        if (discarded > 16 * max) req.destroy();
      });
    };
    if (Number(req.headers['content-length'] ?? 0) > max) return tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) return tooLarge();
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Go's http.NotFound body, which CometBFT's mux answers for every unknown path. */
const NOT_FOUND = '404 page not found\n';

/** An upgrade to a path other than /websocket gets the same 404 as a plain request, then the socket closes. */
function refuseUpgrade(socket: Duplex): void {
  socket.end([
    'HTTP/1.1 404 Not Found',
    'Content-Type: text/plain; charset=utf-8',
    'X-Content-Type-Options: nosniff',
    `Content-Length: ${Buffer.byteLength(NOT_FOUND)}`,
    'Connection: close',
    '',
    NOT_FOUND,
  ].join('\r\n'));
}

function refuseOrigin(socket: Duplex): void {
  const text = 'Forbidden: Origin not allowed; list it in plugins.devnet.allowedOrigins\n';
  socket.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  const text = jsonText(body, 2);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function sendText(res: http.ServerResponse, status: number, text: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function routesPage(): string {
  const lines = Object.entries(RPC_METHODS).map(([m, specs]) => `//localhost:26657/${m}${specs.length ? '?' + specs.map((s) => `${s.name}=_`).join('&') : ''}`);
  return `Available endpoints:\n${lines.join('\n')}\n\nWebSocket: /websocket (subscribe, unsubscribe, unsubscribe_all)\n`;
}
