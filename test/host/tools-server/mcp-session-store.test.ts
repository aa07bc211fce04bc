import assert from 'node:assert/strict';
import { McpSessionStore, type McpSession } from '../../../host/tools-server/mcp-session-store.js';

/** A stored session with a stub server: what the store reads and what closing it does. */
function session(id: string, client: string | null, lastActive: number, closed: string[]): McpSession {
  const server = { close: async () => void closed.push(id) } as unknown as McpSession['server'];
  return { id, transport: {} as McpSession['transport'], server, client, lastActive, lastSeen: lastActive, requests: 0, streams: 0 };
}

describe('MCP session store: per-client cap and eviction (issue #30)', () => {
  let now = 1_000;
  const clock = () => now;

  it('a client at its cap recycles its own least recently active session, never another client\'s', () => {
    const closed: string[] = [];
    const store = new McpSessionStore({ maxSessions: 10, maxSessionsPerClient: 2, idleMs: 600_000 }, clock);
    try {
      store.add(session('other', '198.51.100.7', 1, closed));
      store.add(session('x1', '203.0.113.5', 5, closed));
      store.add(session('x2', '203.0.113.5', 3, closed));
      assert.equal(store.reserve('203.0.113.5'), null);
      assert.deepEqual(closed, ['x2'], 'its own oldest, though another client\'s session is older still');
      assert.equal(store.heldBy('203.0.113.5'), 2, 'x1 and the reservation');
      store.release('203.0.113.5');
      assert.equal(store.heldBy('203.0.113.5'), 1);
    } finally {
      void store.closeAll();
    }
  });

  it('a client whose sessions are all answering requests is refused (client_busy) rather than evicting others', () => {
    const closed: string[] = [];
    const store = new McpSessionStore({ maxSessions: 10, maxSessionsPerClient: 2, idleMs: 600_000 }, clock);
    try {
      const a = session('x1', '203.0.113.5', 5, closed);
      const b = session('x2', '203.0.113.5', 6, closed);
      store.add(a);
      store.add(b);
      store.track(a, 'request');
      store.track(b, 'request');
      assert.equal(store.reserve('203.0.113.5'), 'client_busy');
      assert.deepEqual(closed, []);
      assert.equal(store.reserve('198.51.100.7'), null, 'another client is admitted');
    } finally {
      void store.closeAll();
    }
  });

  it('a full store evicts the least recently active session that is not answering a request; an open stream does not protect it', () => {
    const closed: string[] = [];
    const store = new McpSessionStore({ maxSessions: 3, maxSessionsPerClient: 3, idleMs: 600_000 }, clock);
    try {
      const streaming = session('streaming', null, 1, closed);
      const working = session('working', null, 0, closed);
      const recent = session('recent', null, 2, closed);
      for (const s of [streaming, working, recent]) store.add(s);
      store.track(streaming, 'stream');
      store.track(working, 'request');
      now = 5_000;
      assert.equal(store.reserve(null), null);
      assert.deepEqual(closed, ['streaming'], 'the oldest, "working", is answering a request; the stream-only one goes');
      assert.equal(streaming.lastActive, 1, 'a stream is no activity');
      const admitted = session('new', null, now, closed);
      store.add(admitted);
      store.release(null);
      store.track(recent, 'request');
      store.track(admitted, 'request');
      assert.equal(store.reserve(null), 'store_busy', 'every session left is answering a request');
    } finally {
      void store.closeAll();
    }
  });
});
