import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface McpSessionPolicy {
  /** Sessions open at once (initialising ones included); a new one beyond this is refused. */
  maxSessions: number;
  /** A session with no request and no open stream for this long is closed. */
  idleMs: number;
}

export const DEFAULT_MCP_SESSION_POLICY: McpSessionPolicy = { maxSessions: 32, idleMs: 10 * 60_000 };

export interface McpSession {
  readonly id: string;
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
  lastSeen: number;
  /** Requests or SSE streams of this session still open; a session with any is never idle. */
  open: number;
}

/**
 * The Streamable HTTP sessions of the tool server. Capacity is reserved before a session
 * initialises, so concurrent `initialize` requests cannot overshoot the cap. A full store
 * refuses new sessions rather than evicting a live one: evicting would let one noisy client
 * disconnect every other. Idle sessions are swept on a timer that never keeps the process alive.
 */
export class McpSessionStore {
  private readonly sessions = new Map<string, McpSession>();
  private reserved = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(readonly policy: McpSessionPolicy, private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => void this.sweep(), Math.max(50, Math.min(policy.idleMs / 2, 60_000)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** A live session; one past its idle time counts as gone even before the sweeper closes it. */
  get(id: string): McpSession | undefined {
    const session = this.sessions.get(id);
    if (session && this.isIdle(session, this.now())) {
      void this.close(session);
      return undefined;
    }
    return session;
  }

  private isIdle(session: McpSession, now: number): boolean {
    return session.open === 0 && session.lastSeen <= now - this.policy.idleMs;
  }

  /** Takes a slot for a session about to initialise; false when the store is full. */
  reserve(): boolean {
    if (this.sessions.size + this.reserved >= this.policy.maxSessions) {
      void this.sweep();
      if (this.sessions.size + this.reserved >= this.policy.maxSessions) return false;
    }
    this.reserved++;
    return true;
  }

  /** Returns a reserved slot, either because the session initialised (see add) or because it never did. */
  release(): void {
    if (this.reserved > 0) this.reserved--;
  }

  add(session: McpSession): void {
    this.sessions.set(session.id, session);
  }

  delete(id: string): void {
    this.sessions.delete(id);
  }

  /** Marks one request or stream of the session as open until the returned function is called. */
  track(session: McpSession): () => void {
    session.open++;
    session.lastSeen = this.now();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      session.open--;
      session.lastSeen = this.now();
    };
  }

  /** Seconds until the oldest idle session would expire, for Retry-After. */
  retryAfterSeconds(): number {
    let soonest = this.policy.idleMs;
    for (const s of this.sessions.values()) {
      if (s.open === 0) soonest = Math.min(soonest, Math.max(0, s.lastSeen + this.policy.idleMs - this.now()));
    }
    return Math.max(1, Math.ceil(soonest / 1000));
  }

  async sweep(): Promise<void> {
    const now = this.now();
    const idle = [...this.sessions.values()].filter((s) => this.isIdle(s, now));
    await Promise.all(idle.map((s) => this.close(s)));
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((s) => this.close(s)));
  }

  private async close(session: McpSession): Promise<void> {
    this.sessions.delete(session.id);
    await session.server.close().catch(() => undefined);
  }
}
