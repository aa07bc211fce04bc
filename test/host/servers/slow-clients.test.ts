import assert from 'node:assert/strict';
import net from 'node:net';
import { bootTestHost, fixtureConfig, postJson, TEST_TOKEN, type TestHost } from '../../support/test-host.js';

const AUTH = { authorization: `Bearer ${TEST_TOKEN}` };
const MAX_IN_FLIGHT_CALLS = 4;
const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 2_000;

/** What a raw client saw: the status line (or nothing) and the body, once the server closed the socket. */
interface SlowOutcome { status: number | null; text: string }

/**
 * A client that sends `head` and then one body byte per `everyMs` (never the whole body), and
 * reports what the server answered when it closed the connection.
 */
function slowClient(port: number, head: string, everyMs: number): { outcome: Promise<SlowOutcome>; sent: Promise<void>; stop(): void } {
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  let timer: NodeJS.Timeout | undefined;
  const sent = new Promise<void>((resolve) => socket.once('connect', () => {
    socket.write(head);
    timer = setInterval(() => { if (socket.writable) socket.write('{'); }, everyMs);
    resolve();
  }));
  socket.on('data', (c: Buffer) => (text += c.toString('utf8')));
  socket.on('error', () => undefined);
  const outcome = new Promise<SlowOutcome>((resolve) => socket.once('close', () => {
    clearInterval(timer);
    const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
    resolve({ status: status ? Number(status) : null, text });
  }));
  return { outcome, sent, stop: () => socket.destroy() };
}

describe('HTTP servers: slow clients time out and take no one else\'s slot (issue #30)', function () {
  // Every wait here ends at a server deadline of a few seconds; the mocha timeout only catches a hang.
  this.timeout(120_000);
  let t: TestHost;
  before(async () => {
    t = await bootTestHost(fixtureConfig({ token: TEST_TOKEN }), {
      surfaces: { maxInFlightCalls: MAX_IN_FLIGHT_CALLS, httpLimits: { headersTimeoutMs: HEADERS_TIMEOUT_MS, requestTimeoutMs: REQUEST_TIMEOUT_MS } },
    });
  });
  after(() => t.stop());

  const slowPost = (path: string) => slowClient(t.port,
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${t.port}\r\nAuthorization: Bearer ${TEST_TOKEN}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n`, 200);

  it('bodies still arriving hold no tool-call slot: calls and MCP initialize answer while 4× the cap trickle in; the trickles end in 408', async () => {
    const slow = Array.from({ length: MAX_IN_FLIGHT_CALLS * 4 }, (_, i) => slowPost(i % 2 ? '/tools/echo_text' : '/mcp'));
    try {
      await Promise.all(slow.map((s) => s.sent));
      // Before the fix each slow body took a slot for its whole upload (Node's 300 s): 429 here.
      for (let i = 0; i < MAX_IN_FLIGHT_CALLS * 2; i++) {
        const call = await postJson(t.url('/tools/echo_text'), { text: `call ${i}` }, AUTH);
        assert.equal(call.status, 200, call.text);
        assert.deepEqual(call.json, { text: `call ${i}` });
      }
      const init = await postJson(t.url('/mcp'), {
        jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }, { ...AUTH, accept: 'application/json, text/event-stream' });
      assert.equal(init.status, 200, init.text);
      const outcomes = await Promise.all(slow.map((s) => s.outcome));
      for (const o of outcomes) {
        assert.equal(o.status, 408, `a slow body is cut by the request timeout, got: ${o.text.slice(0, 200) || '(nothing)'}`);
        assert.equal(JSON.parse(o.text.slice(o.text.indexOf('\r\n\r\n') + 4)).error.code, 'request_timeout');
      }
    } finally {
      for (const s of slow) s.stop();
    }
  });

  it('headers that never end are cut by the headers timeout (408)', async () => {
    const slow = slowClient(t.port, `GET /tools HTTP/1.1\r\nHost: 127.0.0.1:${t.port}\r\nX-Slow: `, 200);
    try {
      const outcome = await slow.outcome;
      assert.equal(outcome.status, 408, outcome.text.slice(0, 200) || '(nothing)');
    } finally {
      slow.stop();
    }
  });
});
