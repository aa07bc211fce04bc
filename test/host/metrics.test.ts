import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BootError } from '../../core/errors.js';
import { bootTestHost, fixtureConfig, FIXTURE_PLUGIN, postJson, request, type TestHost } from '../support/test-host.js';
import { parseExposition, samplesOf, valueOf } from './metrics/exposition.js';

/** A counter two plugins register with the same definition: one family in the host. */
const SHARED_COUNTER = JSON.stringify({ name: 'probe_shared_total', help: 'counted by two plugins', labelNames: ['plugin'] });

/** A third-party plugin (plain JS, loaded by path) that registers gauges and counters through the metrics service. */
const GAUGE_PLUGIN = `export default {
  name: 'gauge-probe',
  description: 'registers gauges',
  init(ctx) {
    const metrics = ctx.resolve(Symbol.for('chainhost:metrics'));
    let depth = 0;
    let known = null;
    globalThis.gaugeProbe = { setDepth: (n) => { depth = n; }, setKnown: (v) => { known = v; } };
    metrics.addGauge({ name: 'gauge_probe_known', help: 'null until known', collect: () => known });
    globalThis.gaugeProbe.shared = metrics.addCounter(${SHARED_COUNTER});
    globalThis.gaugeProbe.events = metrics.addCounter({ name: 'gauge_probe_events_total', help: 'events by kind', labelNames: ['kind'], labelValues: { kind: ['a', 'b'] } });
    if (ctx.options.badCounter) metrics.addCounter({ name: 'gauge_probe_events', help: 'no _total suffix' });
    if (ctx.options.conflict) metrics.addCounter({ ...${SHARED_COUNTER}, help: 'another meaning' });
    metrics.addGauge({ name: 'gauge_probe_queue_depth', help: 'items waiting', collect: () => depth });
    metrics.addGauge({ name: 'gauge_probe_pool', help: 'connections by state', labelNames: ['state'],
      collect: async () => [{ labels: { state: 'idle' }, value: 3 }, { labels: { state: 'busy' }, value: 1 }] });
    metrics.addGauge({ name: 'gauge_probe_broken', help: 'always fails', collect: () => { throw new Error('no figure'); } });
    if (ctx.options.duplicate) metrics.addGauge({ name: 'gauge_probe_queue_depth', help: 'again', collect: () => 0 });
  },
};
`;

/** A second plugin sharing the counter. */
const COUNTER_PLUGIN = `export default {
  name: 'counter-probe',
  description: 'shares a counter',
  init(ctx) {
    globalThis.counterProbe = { shared: ctx.resolve(Symbol.for('chainhost:metrics')).addCounter(${SHARED_COUNTER}) };
  },
};
`;

interface ProbeCounter {
  inc(labels?: Record<string, string>, by?: number): void;
}

declare global {
  // eslint-disable-next-line no-var
  var gaugeProbe: { setDepth(n: number): void; setKnown(v: number | null): void; shared: ProbeCounter; events: ProbeCounter };
  // eslint-disable-next-line no-var
  var counterProbe: { shared: ProbeCounter };
}

describe('host metrics (GET /metrics)', function () {
  this.timeout(20_000);
  let dir: string;
  let gaugePlugin: string;
  let counterPlugin: string;
  let h: TestHost;
  let metricsUrl: string;
  const scrape = async () => {
    const res = await request(metricsUrl);
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    return { text: res.text, samples: parseExposition(res.text) };
  };

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'chain-metrics-'));
    gaugePlugin = path.join(dir, 'gauge-probe.mjs');
    await writeFile(gaugePlugin, GAUGE_PLUGIN);
    counterPlugin = path.join(dir, 'counter-probe.mjs');
    await writeFile(counterPlugin, COUNTER_PLUGIN);
    const config = fixtureConfig({}, { metrics: { host: '127.0.0.1', port: 0 } });
    (config.plugins as Record<string, unknown>)[gaugePlugin] = {};
    (config.plugins as Record<string, unknown>)[counterPlugin] = {};
    h = await bootTestHost(config, { surfaces: { maxInFlightCalls: 1 } });
    metricsUrl = `${h.host.serverUrl('metrics')}/metrics`;
  });
  after(async () => {
    await h?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('is served on its own server, declared from the `metrics` config key, and named in the banner', () => {
    assert.ok(h.host.servers.values().some((s) => s.name === 'metrics' && s.kind === 'query'));
    assert.ok(h.host.describe().includes(`metrics: ${metricsUrl}`), h.host.describe().join('\n'));
  });

  it('counts tool calls by tool and outcome, with a latency histogram; unknown names share one label', async () => {
    const before = (await scrape()).samples;
    const auth = {};
    assert.equal((await postJson(h.url('/tools/echo_text'), { text: 'a' }, auth)).status, 200);
    assert.equal((await postJson(h.url('/tools/echo_text'), { text: 'b' }, auth)).status, 200);
    assert.equal((await postJson(h.url('/tools/echo_text'), { text: 7 }, auth)).status, 422);
    assert.equal((await postJson(h.url('/tools/no_such_tool_4f2a'), {}, auth)).status, 404);
    const { text, samples } = await scrape();
    const delta = (name: string, labels: Record<string, string>) => valueOf(samples, name, labels) - valueOf(before, name, labels);
    assert.equal(delta('chainhost_tool_calls_total', { tool: 'echo_text', transport: 'http', outcome: 'ok' }), 2);
    assert.equal(delta('chainhost_tool_calls_total', { tool: 'echo_text', transport: 'http', outcome: 'error' }), 1);
    assert.equal(delta('chainhost_tool_calls_total', { tool: '(unknown)', transport: 'http', outcome: 'error' }), 1);
    assert.equal(delta('chainhost_tool_call_duration_seconds_count', { tool: 'echo_text', outcome: 'ok' }), 2);
    assert.ok(valueOf(samples, 'chainhost_tool_call_duration_seconds_bucket', { tool: 'echo_text', outcome: 'ok', le: '+Inf' }) >= 2);
    assert.ok(!text.includes('no_such_tool_4f2a'), 'a caller-chosen tool name never becomes a label');
  });

  it('counts HTTP requests by server, route pattern, method and status, never by raw path', async () => {
    const before = (await scrape()).samples;
    await request(h.url('/tools'));
    await request(h.url('/fixture/ping'));
    await request(h.url('/no/such/path/9c1e77'));
    await postJson(h.url('/tools/echo_text'), { text: 'c' });
    const { text, samples } = await scrape();
    const delta = (labels: Record<string, string>) => valueOf(samples, 'chainhost_http_requests_total', labels) - valueOf(before, 'chainhost_http_requests_total', labels);
    assert.equal(delta({ server: 'tools', route: '/tools', method: 'GET', status: '200' }), 1);
    assert.equal(delta({ server: 'tools', route: '/fixture/ping', method: 'GET', status: '200' }), 1);
    assert.equal(delta({ server: 'tools', route: '(unmatched)', method: 'GET', status: '404' }), 1);
    assert.equal(delta({ server: 'tools', route: '/tools/:name', method: 'POST', status: '200' }), 1);
    // The previous scrape itself, on the metrics server.
    assert.ok(delta({ server: 'metrics', route: '/metrics', method: 'GET', status: '200' }) >= 1);
    assert.ok(valueOf(samples, 'chainhost_http_request_duration_seconds_count', { server: 'tools', route: '/tools' }) >= 1);
    assert.ok(!text.includes('9c1e77'), 'an unmatched path never becomes a label');
  });

  it('counts rate-limit rejections (429) by server', async () => {
    const before = valueOf((await scrape()).samples, 'chainhost_http_rate_limited_total', { server: 'tools' });
    // maxInFlightCalls is 1: a second call while the first sleeps is refused with 429.
    const slow = postJson(h.url('/tools/slow_tool'), { ms: 100 });
    await new Promise((r) => setTimeout(r, 20));
    const refused = await postJson(h.url('/tools/slow_tool'), { ms: 0 });
    assert.equal(refused.status, 429);
    assert.equal((await slow).status, 200);
    const { samples } = await scrape();
    assert.equal(valueOf(samples, 'chainhost_http_rate_limited_total', { server: 'tools' }) - before, 1);
    assert.ok(valueOf(samples, 'chainhost_http_requests_total', { server: 'tools', route: '/tools/:name', status: '429' }) >= 1);
  });

  it('serves plugin gauges read at scrape time; a failing collector is counted, not fatal', async () => {
    globalThis.gaugeProbe.setDepth(7);
    let { samples } = await scrape();
    assert.equal(valueOf(samples, 'gauge_probe_queue_depth'), 7);
    assert.equal(valueOf(samples, 'gauge_probe_pool', { state: 'idle' }), 3);
    assert.equal(valueOf(samples, 'gauge_probe_pool', { state: 'busy' }), 1);
    assert.ok(valueOf(samples, 'chainhost_metrics_collect_errors_total', { metric: 'gauge_probe_broken' }) >= 1);
    assert.deepEqual(samplesOf(samples, 'gauge_probe_broken'), [], 'a failed gauge has no sample, not a 0');
    globalThis.gaugeProbe.setDepth(2);
    ({ samples } = await scrape());
    assert.equal(valueOf(samples, 'gauge_probe_queue_depth'), 2);
  });

  it('reports no sample for a gauge whose value is not known yet', async () => {
    globalThis.gaugeProbe.setKnown(null);
    let { text, samples } = await scrape();
    assert.match(text, /# TYPE gauge_probe_known gauge/);
    assert.deepEqual(samplesOf(samples, 'gauge_probe_known'), []);
    globalThis.gaugeProbe.setKnown(5);
    ({ samples } = await scrape());
    assert.equal(valueOf(samples, 'gauge_probe_known'), 5);
  });

  it('serves plugin counters; the same definition from two plugins is one counter', async () => {
    const before = (await scrape()).samples;
    globalThis.gaugeProbe.shared.inc({ plugin: 'gauge' });
    globalThis.counterProbe.shared.inc({ plugin: 'counter' }, 2);
    globalThis.gaugeProbe.shared.inc({ plugin: 'counter' });
    const { text, samples } = await scrape();
    const delta = (labels: Record<string, string>) => valueOf(samples, 'probe_shared_total', labels) - valueOf(before, 'probe_shared_total', labels);
    assert.equal(delta({ plugin: 'gauge' }), 1);
    assert.equal(delta({ plugin: 'counter' }), 3);
    assert.equal(text.match(/^# TYPE probe_shared_total counter$/gm)?.length, 1, 'one family');
  });

  it('keeps counter label values in their allowed list and refuses wrong labels or amounts', async () => {
    const before = (await scrape()).samples;
    const events = globalThis.gaugeProbe.events;
    events.inc({ kind: 'a' });
    events.inc({ kind: 'b' }, 0.5);
    events.inc({ kind: 'caller-chosen-4e1d' });
    assert.throws(() => events.inc({ kind: 'a', extra: 'x' }), (err: Error) => err instanceof TypeError && /takes exactly the labels \[kind\]/.test(err.message));
    assert.throws(() => events.inc({}), TypeError);
    assert.throws(() => events.inc({ kind: 'a' }, -1), (err: Error) => err instanceof RangeError && /finite number ≥ 0/.test(err.message));
    assert.throws(() => events.inc({ kind: 'a' }, Number.NaN), RangeError);
    const { text, samples } = await scrape();
    const delta = (kind: string) => valueOf(samples, 'gauge_probe_events_total', { kind }) - valueOf(before, 'gauge_probe_events_total', { kind });
    assert.equal(delta('a'), 1);
    assert.equal(delta('b'), 0.5);
    assert.equal(delta('(other)'), 1);
    assert.ok(!text.includes('caller-chosen-4e1d'), 'a value outside the list never becomes a label');
  });

  it('includes the Node.js process figures', async () => {
    const { samples } = await scrape();
    assert.ok(samples.some((s) => s.name === 'process_cpu_user_seconds_total'));
    assert.ok(samples.some((s) => s.name === 'nodejs_eventloop_lag_seconds'));
  });

  describe('configuration', () => {
    it('serves nothing without the `metrics` key', async () => {
      const other = await bootTestHost(fixtureConfig());
      try {
        assert.equal(other.host.serverUrl('metrics'), undefined);
        assert.ok(!other.host.servers.values().some((s) => s.name === 'metrics'));
      } finally {
        await other.stop();
      }
    });

    it('counts in memory when no metrics server is configured', async () => {
      const config = fixtureConfig();
      (config.plugins as Record<string, unknown>)[gaugePlugin] = {};
      const other = await bootTestHost(config);
      try {
        globalThis.gaugeProbe.events.inc({ kind: 'b' }, 4);
        assert.equal(valueOf(parseExposition(await other.host.metrics.scrape()), 'gauge_probe_events_total', { kind: 'b' }), 4);
      } finally {
        await other.stop();
      }
    });

    it('refuses a counter name without _total and a different counter under a taken name', async () => {
      const bad = fixtureConfig(null, { metrics: { port: 0 } });
      (bad.plugins as Record<string, unknown>)[gaugePlugin] = { badCounter: true };
      await assert.rejects(bootTestHost(bad), (err: Error) => err instanceof BootError && /counter name "gauge_probe_events" must end in _total/.test(err.message));
      const conflict = fixtureConfig(null, { metrics: { port: 0 } });
      (conflict.plugins as Record<string, unknown>)[gaugePlugin] = { conflict: true };
      await assert.rejects(bootTestHost(conflict), (err: Error) => err instanceof BootError && /probe_shared_total" is registered twice with different help or labels/.test(err.message));
    });

    it('refuses a second gauge with the same name at boot', async () => {
      const config = fixtureConfig(null, { metrics: { port: 0 } });
      (config.plugins as Record<string, unknown>)[gaugePlugin] = { duplicate: true };
      await assert.rejects(bootTestHost(config), (err: Error) => err instanceof BootError && /gauge_probe_queue_depth" is registered twice/.test(err.message));
    });

    it('binds beyond loopback only as a public query service', async () => {
      await assert.rejects(bootTestHost({ plugins: { [FIXTURE_PLUGIN]: {} }, metrics: { host: '0.0.0.0', port: 0 } }),
        (err: Error) => err instanceof BootError && err.code === 'unsafe_bind' && /metrics binds 0\.0\.0\.0/.test(err.message));
    });

    it('names the key and the expected value on a bad port', async () => {
      await assert.rejects(bootTestHost({ plugins: { [FIXTURE_PLUGIN]: {} }, metrics: { port: 70000 } }),
        (err: Error) => /metrics\.port \(in \.chainrc\.json\)=70000: must be 0\.\.65535/.test(err.message));
    });
  });
});
