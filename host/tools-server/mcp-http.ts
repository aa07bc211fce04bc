import { randomUUID } from 'node:crypto';
import type Router from '@koa/router';
import type Koa from 'koa';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../../core/errors.js';
import { readJsonBody } from '../../core/http/json-body.js';
import type { Host } from '../host.js';
import type { CallLimit } from './call-limit.js';
import { createMcpServer } from './mcp-server.js';
import { McpSessionStore, type McpSession, type McpSessionPolicy } from './mcp-session-store.js';

export const MCP_PATH = '/mcp';

/**
 * MCP over Streamable HTTP at `/mcp` on the tool server: POST carries JSON-RPC messages, GET
 * opens the server's SSE stream, DELETE ends a session. It sits behind the same guards as the
 * HTTP tool API (token, Origin, Host) and each session's McpServer calls tools through the
 * host's ToolInvoker, so unsafe tools are gated exactly as everywhere else.
 *
 * Sessions: an `initialize` POST without `Mcp-Session-Id` opens one (refused with 503 and
 * Retry-After when the store is full); every other request must carry a known id — missing
 * → 400, unknown or expired → 404 (the MCP signal to re-initialise). Idle sessions expire.
 */
export class McpHttpEndpoint {
  readonly sessions: McpSessionStore;

  constructor(private readonly host: Host, policy: McpSessionPolicy, private readonly bodyLimitBytes: number, private readonly limit: CallLimit) {
    this.sessions = new McpSessionStore(policy);
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

  close(): Promise<void> {
    return this.sessions.closeAll();
  }

  private async post(ctx: Koa.Context, body: unknown): Promise<void> {
    const id = ctx.get('mcp-session-id');
    if (id) {
      await this.handle(ctx, this.sessionOf(id), body);
      return;
    }
    if (!isInitializeRequest(body)) {
      throw new ApiError(400, 'invalid_request', 'missing Mcp-Session-Id header: send an initialize request first to open a session');
    }
    if (!this.sessions.reserve()) {
      const retry = this.sessions.retryAfterSeconds();
      throw new ApiError(503, 'busy', `too many MCP sessions (at most ${this.sessions.policy.maxSessions}); close one with DELETE ${MCP_PATH} or retry later`,
        { max_sessions: this.sessions.policy.maxSessions, retry_after_seconds: retry }, { 'Retry-After': String(retry) });
    }
    let session: McpSession | undefined;
    const server = createMcpServer(this.host, 'mcp-http');
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        session = { id: sessionId, transport, server, lastSeen: Date.now(), open: 0 };
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
      this.sessions.release();
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

  /** Hands the raw request to the SDK transport; the session counts as busy until the response (or SSE stream) closes. */
  private async handle(ctx: Koa.Context, session: McpSession, body: unknown): Promise<void> {
    const done = this.sessions.track(session);
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
