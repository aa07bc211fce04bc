import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface McpSessionPolicy {
  /** Sessions open at once (initialising ones included); a new one beyond this is refused. */
  maxSessions: number;
  /** A session with no request and no open stream for this long is closed. */
  idleMs: number;
  /**
   * When the store is full, a session idle at least this long is closed to admit a new client
   * (the least recently seen first), so idle sessions cannot lock new clients out for `idleMs`.
   */
  evictIdleAfterMs: number;
}

export const DEFAULT_MCP_SESSION_POLICY: McpSessionPolicy = { maxSessions: 32, idleMs: 10 * 60_000, evictIdleAfterMs: 10_000 };

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
 * initialises, so concurrent `initialize` requests cannot overshoot the cap. A full store never
 * evicts a live session (one with a request or stream open, or seen within `evictIdleAfterMs`):
 * that would let one noisy client disconnect every other. It does close the least recently seen
 * idle one to admit a new client — otherwise 32 clients that open a session and walk away lock
 * everyone out until `idleMs` (10 min) passes (issue #19); the evicted client gets 404 on its
 * next request and initialises again, as MCP prescribes. Idle sessions are also swept on a
 * timer that never keeps the process alive.
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

  /** Takes a slot for a session about to initialise; false when the store is full of live sessions. */
  reserve(): boolean {
    if (this.full()) {
      // close() removes a session synchronously, before its server finishes closing.
      void this.sweep();
      if (this.full()) {
        const victim = this.leastRecentlySeenIdle(this.policy.evictIdleAfterMs);
        if (!victim) return false;
        void this.close(victim);
      }
    }
    this.reserved++;
    return true;
  }

  private full(): boolean {
    return this.sessions.size + this.reserved >= this.policy.maxSessions;
  }

  private leastRecentlySeenIdle(idleForMs: number): McpSession | undefined {
    const cutoff = this.now() - idleForMs;
    let oldest: McpSession | undefined;
    for (const s of this.sessions.values()) {
      if (s.open === 0 && s.lastSeen <= cutoff && (!oldest || s.lastSeen < oldest.lastSeen)) oldest = s;
    }
    return oldest;
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

  /** Seconds until the oldest idle session could be closed for a new client, for Retry-After. */
  retryAfterSeconds(): number {
    const after = Math.min(this.policy.idleMs, this.policy.evictIdleAfterMs);
    let soonest = after;
    for (const s of this.sessions.values()) {
      if (s.open === 0) soonest = Math.min(soonest, Math.max(0, s.lastSeen + after - this.now()));
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
