import assert from 'node:assert/strict';
import Koa from 'koa';
import ratelimit from 'koa-ratelimit';
import { BoundedClientMap } from '../../../plugins/dashboard/limits/bounded-client-map.js';
import { ClientAddressResolver } from '../../../plugins/dashboard/limits/client-address.js';
import { limitClassOf } from '../../../plugins/dashboard/limits/limit-class.js';
import { TokenBuckets } from '../../../plugins/dashboard/limits/token-bucket.js';
import { globMatch } from '../../../plugins/dashboard/ws/glob.js';
import { dashboardConfigSchema } from '../../../plugins/dashboard/dashboard.config.js';

describe('dashboard limits, piece by piece', () => {
  describe('token buckets: rate and burst per client (dashboard.md §5.2)', () => {
    it('allows a burst, then refuses with the time until one token is back', () => {
      let now = 0;
      const buckets = new TokenBuckets({ ratePerSecond: 2, burst: 3 }, 100, 60_000, () => now);
      for (let i = 0; i < 3; i++) assert.deepEqual(buckets.take('a'), { allowed: true });
      const refused = buckets.take('a');
      assert.equal(refused.allowed, false);
      assert.ok(!refused.allowed && Math.abs(refused.retryAfterSeconds - 0.5) < 1e-9);
      now += 500; // one token refilled at 2/s
      assert.deepEqual(buckets.take('a'), { allowed: true });
      assert.equal(buckets.take('a').allowed, false);
      assert.deepEqual(buckets.take('b'), { allowed: true }, 'another client has its own bucket');
    });

    it('never refills beyond the burst', () => {
      let now = 0;
      const buckets = new TokenBuckets({ ratePerSecond: 100, burst: 2 }, 100, 60_000, () => now);
      buckets.take('a');
      now += 3_600_000;
      assert.equal(buckets.take('a').allowed, true);
      assert.equal(buckets.take('a').allowed, true);
      assert.equal(buckets.take('a').allowed, false);
    });
  });

  describe('tracked clients: bounded memory with idle eviction', () => {
    it('drops idle clients first, then the least recently seen, and never exceeds the cap', () => {
      let now = 0;
      const map = new BoundedClientMap<number>(3, 1000, () => now);
      map.set('old', 1);
      now = 10;
      map.set('b', 2);
      map.set('c', 3);
      now = 2000; // 'old', 'b' and 'c' are idle now
      map.get('c');
      map.set('d', 4);
      assert.deepEqual([...map.keys()].sort(), ['c', 'd'], 'every idle client goes, a recently seen one stays');
      map.set('e', 5);
      map.set('f', 6);
      assert.equal(map.size, 3);
      assert.ok(!map.has('c'), 'the least recently seen goes when nobody is idle');
      for (let i = 0; i < 10_000; i++) map.set(`x${i}`, i);
      assert.equal(map.size, 3);
      assert.ok(map.evictions > 10_000 - 3);
    });

    it('serves as koa-ratelimit\'s memory db', async () => {
      const db = new BoundedClientMap<unknown>(2, 60_000);
      const limiter = ratelimit({ driver: 'memory', db, duration: 60_000, max: 2, id: (ctx) => ctx.get('x-client') });
      const app = new Koa();
      const ctxFor = (client: string) => app.createContext({ headers: { 'x-client': client }, socket: {} } as never, { setHeader() {}, getHeader() {}, removeHeader() {} } as never);
      let passed = 0;
      for (let i = 0; i < 3; i++) await limiter(ctxFor('a'), async () => void passed++);
      assert.equal(passed, 2, 'the window allows max calls per client');
      for (let i = 0; i < 5; i++) await limiter(ctxFor(`client-${i}`), async () => undefined);
      assert.equal(db.size, 2, 'and the bounded db caps the clients it remembers');
    });
  });

  describe('client address: X-Forwarded-For only from configured proxies', () => {
    it('ignores the header when no proxy is configured', () => {
      const r = new ClientAddressResolver([]);
      assert.equal(r.resolve('::ffff:127.0.0.1', '203.0.113.9'), '127.0.0.1');
    });

    it('ignores the header from a peer that is not a trusted proxy', () => {
      const r = new ClientAddressResolver(['10.0.0.0/8']);
      assert.equal(r.resolve('192.0.2.1', '203.0.113.9'), '192.0.2.1');
    });

    it('takes the first untrusted hop from the right', () => {
      const r = new ClientAddressResolver(['10.0.0.0/8', '127.0.0.1']);
      assert.equal(r.resolve('127.0.0.1', '198.51.100.7, 203.0.113.9, 10.1.2.3'), '203.0.113.9');
      assert.equal(r.resolve('127.0.0.1', ['198.51.100.7', '10.1.2.3:4711']), '198.51.100.7');
      assert.equal(r.resolve('127.0.0.1', 'garbage, 10.1.2.3'), '10.1.2.3', 'a malformed hop ends the chain');
      assert.equal(r.resolve('::1', '[2001:db8::1]:443'), '::1', '::1 is not in the trusted list');
    });

    it('refuses a proxy entry that is not an address or range', () => {
      assert.throws(() => new ClientAddressResolver(['not-an-ip']), /not an IP address or CIDR range/);
      assert.equal(dashboardConfigSchema.safeParse({ trustedProxies: ['10.0.0.0/33'] }).success, false);
    });
  });

  describe('limit classes', () => {
    it('puts /api/config and /api/status in the cheap class and everything else under /api and /explorer in the expensive one', () => {
      assert.equal(limitClassOf('/api/config'), 'api');
      assert.equal(limitClassOf('/api/status'), 'api');
      for (const p of ['/api/net_info', '/api/blockchain', '/api/abci_query/get/x', '/api/contract/currency', '/explorer', '/explorer/block/1']) {
        assert.equal(limitClassOf(p), 'expensive', p);
      }
      assert.equal(limitClassOf('/ws'), 'websocket');
      assert.equal(limitClassOf('/'), null);
    });

    it('defaults follow the upstream dashboard', () => {
      const o = dashboardConfigSchema.parse({});
      assert.deepEqual([o.host, o.port, o.publicQuery], ['127.0.0.1', 8080, false]);
      assert.deepEqual(o.limits.api, { ratePerSecond: 30, burst: 60 });
      assert.deepEqual(o.limits.expensive, { ratePerSecond: 8, burst: 16 });
      assert.deepEqual([o.limits.maxInFlight, o.limits.maxTrackedClients, o.limits.clientIdleSeconds], [32, 4096, 3600]);
      assert.deepEqual([o.websocket.maxClients, o.websocket.maxClientsPerIp, o.websocket.maxStateSubscriptions, o.websocket.maxEventSubscriptions, o.websocket.maxMessageBytes, o.websocket.maxOutboundQueue], [100, 8, 64, 32, 65536, 128]);
    });
  });

  describe('subscription patterns match like Python fnmatch', () => {
    const cases: Array<[string, string, boolean]> = [
      ['con_pairs.pairs:1', 'con_pairs.pairs:*', true],
      ['con_pairs.pairs:1', 'con.pairs.pairs:*', false],
      ['currency.balances:my_friend', 'currency.balances:my_*', true],
      ['a.b', 'a?b', true],
      ['x', '[!abc]', true],
      [']', '[]]', true],
      ['Currency.x', 'currency.*', false],
    ];
    for (const [text, pattern, expected] of cases) {
      it(`${JSON.stringify(pattern)} ${expected ? 'matches' : 'does not match'} ${JSON.stringify(text)}`, () => assert.equal(globMatch(text, pattern), expected));
    }
  });
});
