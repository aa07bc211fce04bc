import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { McpServer } from '@modelcontextprotocol/server';

export interface McpSessionPolicy {
  /** Sessions open at once (initialising ones included). */
  maxSessions: number;
  /**
   * Sessions one client (remote address, IPv6 /64; loopback exempt, see clientKey) may hold. A
   * client at its cap that initialises again gives up its own least recently active session.
   */
  maxSessionsPerClient: number;
  /** A session with no request and no open stream for this long is closed. */
  idleMs: number;
}

export const DEFAULT_MCP_SESSION_POLICY: McpSessionPolicy = { maxSessions: 32, maxSessionsPerClient: 8, idleMs: 10 * 60_000 };

export interface McpSession {
  readonly id: string;
  readonly transport: NodeStreamableHTTPServerTransport;
  readonly server: McpServer;
  /** Who opened it (clientKey of the peer), null for loopback and unknown peers. */
  readonly client: string | null;
  /** When the client last sent a message (POST or DELETE); an open stream is no activity. */
  lastActive: number;
  /** When the session last had nothing open; idle expiry counts from here. */
  lastSeen: number;
  /** POST/DELETE requests of this session being answered: a session with any is never evicted. */
  requests: number;
  /** Open GET streams (SSE). */
  streams: number;
}

/** Why a new session was refused: every session that could make room is answering a request. */
export type SessionRefusal = 'store_busy' | 'client_busy';

/**
 * The Streamable HTTP sessions of the tool server's 2025-era clients (2025-06-18, 2025-11-25:
 * `initialize`, `Mcp-Session-Id`, `elicitation/create` pushed on a held stream). 2026-07-28
 * clients have no sessions: each of their requests is served on its own (mcp-http.ts). Capacity is reserved before a session
 * initialises, so concurrent `initialize` requests cannot overshoot the caps.
 *
 * A new client always gets a session (issue #30): when the store is full, the least recently
 * active session that is not answering a request is closed to make room — an idle one, or one
 * whose only activity is an open GET stream (32 held streams used to answer every new client
 * 503 forever). The evicted client gets 404 on its next request and initialises again, as MCP
 * prescribes. Only when every session is answering a request right now is the new one refused
 * (503, Retry-After 1; those requests end at the tool timeout). The per-client cap keeps one
 * remote client from evicting everyone: past its share it recycles its own sessions.
 * Idle sessions are also swept on a timer that never keeps the process alive.
 */
export class McpSessionStore {
  private readonly sessions = new Map<string, McpSession>();
  private reserved = 0;
  private readonly reservedBy = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;
  /** Sessions closed to admit a new one, since start. */
  evicted = 0;

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
    return session.requests === 0 && session.streams === 0 && session.lastSeen <= now - this.policy.idleMs;
  }

  /**
   * Takes a slot for a session `client` is about to initialise, closing the least recently
   * active evictable session (the client's own first when it is at its cap); a refusal when
   * every candidate is answering a request.
   */
  reserve(client: string | null): SessionRefusal | null {
    void this.sweep(); // close() removes a session synchronously, before its server finishes closing.
    if (client !== null && this.heldBy(client) >= this.policy.maxSessionsPerClient) {
      const own = this.leastRecentlyActiveEvictable((s) => s.client === client);
      if (!own) return 'client_busy';
      this.evict(own);
    }
    if (this.sessions.size + this.reserved >= this.policy.maxSessions) {
      const victim = this.leastRecentlyActiveEvictable(() => true);
      if (!victim) return 'store_busy';
      this.evict(victim);
    }
    this.reserved++;
    if (client !== null) this.reservedBy.set(client, (this.reservedBy.get(client) ?? 0) + 1);
    return null;
  }

  /** Sessions `client` holds or is initialising. */
  heldBy(client: string): number {
    let held = this.reservedBy.get(client) ?? 0;
    for (const s of this.sessions.values()) if (s.client === client) held++;
    return held;
  }

  private leastRecentlyActiveEvictable(match: (s: McpSession) => boolean): McpSession | undefined {
    let oldest: McpSession | undefined;
    for (const s of this.sessions.values()) {
      if (s.requests === 0 && match(s) && (!oldest || s.lastActive < oldest.lastActive)) oldest = s;
    }
    return oldest;
  }

  private evict(session: McpSession): void {
    this.evicted++;
    void this.close(session);
  }

  /** Returns a reserved slot, either because the session initialised (see add) or because it never did. */
  release(client: string | null): void {
    if (this.reserved > 0) this.reserved--;
    if (client === null) return;
    const left = (this.reservedBy.get(client) ?? 1) - 1;
    if (left <= 0) this.reservedBy.delete(client);
    else this.reservedBy.set(client, left);
  }

  add(session: McpSession): void {
    this.sessions.set(session.id, session);
  }

  delete(id: string): void {
    this.sessions.delete(id);
  }

  /**
   * Marks a request (a client message: counts as activity, protects from eviction) or a GET
   * stream (neither) of the session as open until the returned function is called.
   */
  track(session: McpSession, kind: 'request' | 'stream'): () => void {
    const now = this.now();
    if (kind === 'request') {
      session.requests++;
      session.lastActive = now;
    } else {
      session.streams++;
    }
    session.lastSeen = now;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (kind === 'request') session.requests--;
      else session.streams--;
      session.lastSeen = this.now();
    };
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
