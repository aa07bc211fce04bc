import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ClientInFlight, clientKey, httpServerOptions } from '../../../core/http/server-limits.js';

function fakeRequest(remoteAddress: string): { req: IncomingMessage; res: ServerResponse } {
  const req = { socket: { remoteAddress } } as unknown as IncomingMessage;
  const res = new EventEmitter() as unknown as ServerResponse;
  return { req, res };
}

describe('HTTP server limits: who a client is and how many requests it may hold', () => {
  it('a client is the IPv4 address or the IPv6 /64; loopback is no one client', () => {
    assert.equal(clientKey('203.0.113.5'), '203.0.113.5');
    assert.equal(clientKey('::ffff:203.0.113.5'), '203.0.113.5');
    assert.equal(clientKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
    assert.equal(clientKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'), '2001:db8:1:2::/64');
    assert.equal(clientKey('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(clientKey('127.0.0.1'), null);
    assert.equal(clientKey('127.0.0.2'), null);
    assert.equal(clientKey('::1'), null);
    assert.equal(clientKey('::ffff:127.0.0.1'), null);
    assert.equal(clientKey(undefined), null);
    assert.equal(clientKey('not-an-address'), null);
  });

  it('refuses a client past its cap, frees the slot when the response closes, and never counts another client', () => {
    const cap = new ClientInFlight(2);
    const a1 = fakeRequest('203.0.113.5');
    const a2 = fakeRequest('203.0.113.5');
    assert.equal(cap.admit(a1.req, a1.res), true);
    assert.equal(cap.admit(a2.req, a2.res), true);
    assert.equal(cap.admit(fakeRequest('203.0.113.5').req, fakeRequest('203.0.113.5').res), false);
    assert.equal(cap.refused, 1);
    // Another address, another /64 and loopback are unaffected.
    const b = fakeRequest('198.51.100.7');
    assert.equal(cap.admit(b.req, b.res), true);
    for (let i = 0; i < 10; i++) {
      const local = fakeRequest('127.0.0.1');
      assert.equal(cap.admit(local.req, local.res), true);
    }
    (a1.res as unknown as EventEmitter).emit('close');
    assert.equal(cap.heldBy('203.0.113.5'), 1);
    const a3 = fakeRequest('::ffff:203.0.113.5');
    assert.equal(cap.admit(a3.req, a3.res), true, 'the freed slot is usable, also under the mapped form of the address');
  });

  it('headersTimeout never exceeds requestTimeout and the deadlines are checked often', () => {
    assert.deepEqual(httpServerOptions({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 }), { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 });
    assert.deepEqual(httpServerOptions({ headersTimeoutMs: 5_000, requestTimeoutMs: 2_000 }), { headersTimeout: 2_000, requestTimeout: 2_000, connectionsCheckingInterval: 500 });
  });
});
