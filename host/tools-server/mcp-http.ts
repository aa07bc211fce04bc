import { randomUUID } from 'node:crypto';
import type Router from '@koa/router';
import type Koa from 'koa';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest, type NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isInitializeRequest, isLegacyRequest, type McpHttpHandler } from '@modelcontextprotocol/server';
import { ApiError } from '../../core/errors.js';
import { readJsonBody } from '../../core/http/json-body.js';
import { clientKey } from '../../core/http/server-limits.js';
import type { Host } from '../host.js';
import type { CallLimit } from './call-limit.js';
import type { McpServerFactory } from './mcp-server.js';
import { mcpServerFactory } from './mcp-surface.js';
import { McpSessionStore, type McpSession, type McpSessionPolicy } from './mcp-session-store.js';

export const MCP_PATH = '/mcp';

/**
 * MCP over Streamable HTTP at `/mcp` on the tool server (SDK v2, `@modelcontextprotocol/server`).
 * It sits behind the same guards as the HTTP tool API (token, Origin, Host: they run before
 * any of this) and every McpServer calls tools through the host's ToolInvoker, so unsafe tools
 * are gated exactly as everywhere else. One endpoint serves two protocol eras:
 *
 * - **2026-07-28** (a POST whose body carries the per-request `_meta` envelope, classified by
 *   the SDK's own `isLegacyRequest`): stateless. `createMcpHandler` builds an McpServer for the
 *   request from the factory and keeps nothing afterwards, so any process behind a round-robin
 *   proxy answers any request; a confirmation travels in the signed `requestState` the client
 *   echoes (mcp-confirmations.ts), not in this process's memory.
 * - **2025-06-18 / 2025-11-25** (`initialize`, then `Mcp-Session-Id`): sessions, because that
 *   protocol's server→client requests (`elicitation/create`) ride a held stream of one process.
 *   An `initialize` POST without `Mcp-Session-Id` opens one, making room when the store is full
 *   (see McpSessionStore); every other request must carry a known id — missing → 400, unknown,
 *   expired or evicted → 404 (the MCP signal to re-initialise). Idle sessions expire. GET opens
 *   a session's SSE stream, DELETE ends it.
 */
export class McpHttpEndpoint {
  readonly sessions: McpSessionStore;
  private readonly factory: McpServerFactory;
  private readonly modern: McpHttpHandler;
  private readonly modernNode: NodeMcpRequestHandler;

  constructor(host: Host, policy: McpSessionPolicy, private readonly bodyLimitBytes: number, private readonly limit: CallLimit) {
    this.sessions = new McpSessionStore(policy);
    this.factory = mcpServerFactory(host, 'mcp-http');
    // 'reject': 2025-era requests never reach this handler (they are routed to the sessions above).
    this.modern = createMcpHandler(() => this.factory.create('modern'), {
      legacy: 'reject',
      maxRequestBodySize: bodyLimitBytes,
      onerror: (err) => host.log.debug('MCP request refused', { reason: err.message }),
    });
    this.modernNode = toNodeHandler(this.modern, { maxRequestBodySize: bodyLimitBytes });
  }

  addRoutes(router: Router): void {
    router.post(MCP_PATH, async (ctx) => {
      // The body before the slot: a slow upload holds no slot of the call cap.
      const body = await readJsonBody(ctx, this.bodyLimitBytes);
      this.limit.enter();
      try {
        await this.post(ctx, body);
      } finally {
        this.limit.leave();
      }
    });
    router.get(MCP_PATH, (ctx) => this.existing(ctx));
    router.delete(MCP_PATH, (ctx) => this.existing(ctx));
  }

  async close(): Promise<void> {
    await Promise.all([this.sessions.closeAll(), this.modern.close()]);
  }

  private async post(ctx: Koa.Context, body: unknown): Promise<void> {
    const id = ctx.get('mcp-session-id');
    if (id) {
      await this.handle(ctx, this.sessionOf(id), body);
      return;
    }
    if (!isInitializeRequest(body)) {
      if (!(await isLegacyRequest(await toWebRequest(ctx.req, body), body))) {
        await passThrough(ctx, () => this.modernNode(ctx.req, ctx.res, body));
        return;
      }
      throw new ApiError(400, 'invalid_request', 'missing Mcp-Session-Id header: send an initialize request first to open a session (2025 protocol), or send 2026-07-28 requests with the _meta envelope');
    }
    const client = clientKey(ctx.req.socket.remoteAddress);
    const refusal = this.sessions.reserve(client);
    if (refusal === 'client_busy') {
      const max = this.sessions.policy.maxSessionsPerClient;
      throw new ApiError(429, 'rate_limited', `your address holds ${max} MCP sessions, each answering a request; wait for one, or close one with DELETE ${MCP_PATH}`,
        { max_sessions_per_client: max, retry_after_seconds: 1 }, { 'Retry-After': '1' });
    }
    if (refusal === 'store_busy') {
      const max = this.sessions.policy.maxSessions;
      throw new ApiError(503, 'busy', `all ${max} MCP sessions are answering a request right now; retry in a second`,
        { max_sessions: max, retry_after_seconds: 1 }, { 'Retry-After': '1' });
    }
    let session: McpSession | undefined;
    const server = this.factory.create('legacy');
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        const now = Date.now();
        session = { id: sessionId, transport, server, client, lastActive: now, lastSeen: now, requests: 0, streams: 0 };
        this.sessions.add(session);
      },
      onsessionclosed: (sessionId) => this.sessions.delete(sessionId),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    try {
      await server.connect(transport);
      await passThrough(ctx, () => transport.handleRequest(ctx.req, ctx.res, body));
    } finally {
      this.sessions.release(client);
      // An initialize the transport rejected leaves no session behind: free the server too.
      if (!session) await server.close().catch(() => undefined);
    }
  }

  private async existing(ctx: Koa.Context): Promise<void> {
    const id = ctx.get('mcp-session-id');
    if (!id) throw new ApiError(400, 'invalid_request', `missing Mcp-Session-Id header; ${ctx.method} ${MCP_PATH} needs an open session`);
    await this.handle(ctx, this.sessionOf(id), undefined);
  }

  private sessionOf(id: string): McpSession {
    const session = this.sessions.get(id);
    if (!session) {
      throw new ApiError(404, 'session_not_found', 'unknown or expired MCP session; send a new initialize request', { session_id: id.slice(0, 100) });
    }
    return session;
  }

  /**
   * Hands the raw request to the SDK transport. A POST or DELETE is activity and keeps the
   * session from eviction until its response closes; a GET stream only keeps it from expiring.
   */
  private async handle(ctx: Koa.Context, session: McpSession, body: unknown): Promise<void> {
    const done = this.sessions.track(session, ctx.method === 'GET' ? 'stream' : 'request');
    ctx.res.once('close', done);
    try {
      await passThrough(ctx, () => session.transport.handleRequest(ctx.req, ctx.res, body));
    } catch (err) {
      done();
      throw err;
    }
  }
}

/** Lets the SDK write the raw response; if it fails before writing anything, koa answers with the error shape. */
async function passThrough(ctx: Koa.Context, write: () => Promise<void>): Promise<void> {
  ctx.respond = false;
  try {
    await write();
  } catch (err) {
    if (ctx.res.headersSent) throw err;
    ctx.respond = true;
    throw err;
  }
}
