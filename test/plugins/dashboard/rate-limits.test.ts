import assert from 'node:assert/strict';
import { request } from '../../support/test-host.js';
import { bootDashboardHost, SLOW_NODE_PLUGIN, type DashboardHost } from './support/dashboard-host.js';
import { slowNode } from './support/slow-node.plugin.js';

/** Fires `count` GETs at once and returns their statuses and Retry-After headers. */
async function burst(url: string, count: number, headers: Record<string, string> = {}) {
  const all = await Promise.all(Array.from({ length: count }, () => request(url, { headers })));
  return all;
}

function count(responses: Array<{ status: number }>, status: number): number {
  return responses.filter((r) => r.status === status).length;
}

describe('dashboard limits (spec part 8, dashboard.md §5)', function () {
  this.timeout(60_000);

  describe('per-client token buckets: a cheap and a stricter expensive class', () => {
    let h: DashboardHost;
    before(async () => {
      h = await bootDashboardHost({
        devnet: false,
        plugins: { [SLOW_NODE_PLUGIN]: {} },
        dashboard: { limits: { api: { ratePerSecond: 0.5, burst: 5 }, expensive: { ratePerSecond: 0.5, burst: 2 } } },
      });
    });
    after(() => h?.stop());

    it('the cheap class allows its burst, then 429 with Retry-After and the error shape', async () => {
      const responses = await burst(h.url('/api/status'), 8);
      assert.equal(count(responses, 200), 5);
      const limited = responses.filter((r) => r.status === 429);
      assert.equal(limited.length, 3);
      for (const r of limited) {
        assert.match(String(r.headers['retry-after']), /^[1-9]\d*$/, 'Retry-After in whole seconds, at least 1');
        assert.equal(r.json.error.code, 'rate_limited');
        assert.equal(r.json.error.details.limit_class, 'api');
        assert.ok(r.json.error.details.retry_after > 0);
      }
      assert.equal(Number(limited[0]!.headers['retry-after']), 2, '(1 - tokens) / 0.5 per second, rounded up');
    });

    it('/api/config shares the cheap bucket', async () => {
      assert.equal((await request(h.url('/api/config'))).status, 429);
    });

    it('the expensive class has its own, smaller bucket shared by all expensive routes', async () => {
      const first = await request(h.url('/api/abci_query/simulate_tx/zz'));
      const second = await request(h.url('/api/contracts?limit=ten'));
      assert.deepEqual([first.status, second.status], [400, 400], 'refused requests still count');
      const third = await request(h.url('/api/net_info'));
      assert.equal(third.status, 429);
      assert.equal(third.json.error.details.limit_class, 'expensive');
    });

    it('explorer pages draw from the expensive bucket and answer 429 as a page', async () => {
      const res = await request(h.url('/explorer'));
      assert.equal(res.status, 429);
      assert.match(String(res.headers['content-type']), /text\/html/);
      assert.ok(res.headers['retry-after']);
      assert.match(res.text, /Too many requests/);
    });

    it('X-Forwarded-For is ignored when no proxy is trusted: a forged header gets no fresh bucket', async () => {
      const res = await request(h.url('/api/status'), { headers: { 'x-forwarded-for': '198.51.100.1' } });
      assert.equal(res.status, 429);
    });

    it('the redirect at / is not limited', async () => {
      assert.equal((await request(h.url('/'))).status, 302);
    });
  });

  describe('tracked clients are capped, X-Forwarded-For trusted from a configured proxy', () => {
    let h: DashboardHost;
    before(async () => {
      h = await bootDashboardHost({
        devnet: false,
        plugins: { [SLOW_NODE_PLUGIN]: {} },
        dashboard: { trustedProxies: ['127.0.0.1', '::1'], limits: { api: { ratePerSecond: 0.01, burst: 1 }, maxTrackedClients: 2 } },
      });
    });
    after(() => h?.stop());
    const as = (client: string) => request(h.url('/api/status'), { headers: { 'x-forwarded-for': `${client}, 127.0.0.1` } });

    it('clients behind the trusted proxy have buckets of their own', async () => {
      assert.equal((await as('198.51.100.1')).status, 200);
      assert.equal((await as('198.51.100.1')).status, 429);
      assert.equal((await as('198.51.100.2')).status, 200);
    });

    it('beyond the cap the least recently seen client is forgotten (memory stays bounded)', async () => {
      // .1 and .2 are tracked; a third client evicts .1, whose next request starts a fresh bucket.
      assert.equal((await as('198.51.100.3')).status, 200);
      assert.equal((await as('198.51.100.1')).status, 200);
      assert.equal((await as('198.51.100.1')).status, 429);
    });
  });

  describe('global in-flight cap', () => {
    let h: DashboardHost;
    before(async () => {
      h = await bootDashboardHost({ devnet: false, plugins: { [SLOW_NODE_PLUGIN]: {} }, dashboard: { limits: { maxInFlight: 2 } } });
    });
    after(() => {
      slowNode.holdStatus = false;
      slowNode.release();
      return h?.stop();
    });

    it('refuses requests beyond the cap with 503 busy and Retry-After: 1, then recovers', async () => {
      slowNode.holdStatus = true;
      const held = [request(h.url('/api/status')), request(h.url('/api/status'))];
      await waitFor(() => slowNode.waiting.length === 2);
      const refused = await request(h.url('/api/status'));
      assert.equal(refused.status, 503);
      assert.equal(refused.headers['retry-after'], '1');
      assert.equal(refused.json.error.code, 'busy');
      assert.match(refused.json.error.message, /2 requests are already in flight/);
      slowNode.holdStatus = false;
      slowNode.release();
      assert.deepEqual((await Promise.all(held)).map((r) => r.status), [200, 200]);
      assert.equal((await request(h.url('/api/status'))).status, 200);
    });
  });

  describe('simulate_tx: a rate window, a concurrency cap and a deadline of its own (spec 5.7)', () => {
    let h: DashboardHost;
    before(async () => {
      h = await bootDashboardHost({
        devnet: false,
        plugins: { [SLOW_NODE_PLUGIN]: {} },
        dashboard: { trustedProxies: ['127.0.0.1'], simulate: { maxPerWindow: 2, windowMs: 60_000, maxConcurrent: 1, timeoutMs: 5_000 } },
      });
    });
    after(() => {
      slowNode.release();
      return h?.stop();
    });
    const dryRun = (client: string) => request(h.url('/api/abci_query/simulate_tx/7b7d'), { headers: { 'x-forwarded-for': client } });

    it('one dry run at a time: a second concurrent one is 503 busy with Retry-After', async () => {
      const first = dryRun('192.0.2.1');
      await waitFor(() => slowNode.waiting.length === 1);
      const second = await dryRun('192.0.2.2');
      assert.equal(second.status, 503);
      assert.equal(second.headers['retry-after'], '1');
      assert.match(second.json.error.message, /dry-run capacity exceeded/);
      slowNode.release();
      const done = await first;
      assert.equal(done.status, 200);
      assert.equal(done.json.response.value.status, 0);
    });

    it('per client, at most maxPerWindow dry runs per window: then 429 with Retry-After', async () => {
      const run = async () => {
        const pending = dryRun('192.0.2.1');
        await waitFor(() => slowNode.waiting.length === 1);
        slowNode.release();
        return pending;
      };
      // 192.0.2.1 used one above; one more is allowed, the next is refused.
      assert.equal((await run()).status, 200);
      const refused = await dryRun('192.0.2.1');
      assert.equal(refused.status, 429);
      assert.equal(refused.json.error.details.limit_class, 'simulate');
      assert.ok(Number(refused.headers['retry-after']) >= 1);
      const other = dryRun('192.0.2.9');
      await waitFor(() => slowNode.waiting.length === 1);
      slowNode.release();
      assert.equal((await other).status, 200, 'another client has its own window');
    });
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
