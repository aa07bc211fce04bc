import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BootError } from '../../core/errors.js';
import { bootTestHost, fixtureConfig, FIXTURE_PLUGIN, postJson, request, type TestHost } from '../support/test-host.js';

/** One sample line of the Prometheus text format. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(m, `a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of m[2]?.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g) ?? []) labels[l[1]!] = l[2]!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The value of the one sample with this name whose labels include `labels` (0 when absent). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  assert.ok(found.length <= 1, `one ${name} sample for ${JSON.stringify(labels)}, found ${found.length}`);
  return found[0]?.value ?? 0;
}

/** A third-party plugin (plain JS, loaded by path) that registers gauges through the metrics service. */
const GAUGE_PLUGIN = `export default {
  name: 'gauge-probe',
  description: 'registers gauges',
  init(ctx) {
    const metrics = ctx.resolve(Symbol.for('chainhost:metrics'));
    let depth = 0;
    globalThis.gaugeProbe = { setDepth: (n) => { depth = n; } };
    metrics.addGauge({ name: 'gauge_probe_queue_depth', help: 'items waiting', collect: () => depth });
    metrics.addGauge({ name: 'gauge_probe_pool', help: 'connections by state', labelNames: ['state'],
      collect: async () => [{ labels: { state: 'idle' }, value: 3 }, { labels: { state: 'busy' }, value: 1 }] });
    metrics.addGauge({ name: 'gauge_probe_broken', help: 'always fails', collect: () => { throw new Error('no figure'); } });
    if (ctx.options.duplicate) metrics.addGauge({ name: 'gauge_probe_queue_depth', help: 'again', collect: () => 0 });
  },
};
`;

declare global {
  // eslint-disable-next-line no-var
  var gaugeProbe: { setDepth(n: number): void };
}

describe('host metrics (GET /metrics)', function () {
  this.timeout(20_000);
  let dir: string;
  let gaugePlugin: string;
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
    const config = fixtureConfig({}, { metrics: { host: '127.0.0.1', port: 0 } });
    (config.plugins as Record<string, unknown>)[gaugePlugin] = {};
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
    assert.equal((await postJson(h.url('/tools/echo_text'), { text: 7 }, auth)).status, 400);
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
    globalThis.gaugeProbe.setDepth(2);
    ({ samples } = await scrape());
    assert.equal(valueOf(samples, 'gauge_probe_queue_depth'), 2);
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
