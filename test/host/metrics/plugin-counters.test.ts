import assert from 'node:assert/strict';
import { MAX_COUNTER_SERIES, MAX_LABEL_VALUE_LENGTH } from '../../../core/metrics.js';
import { HostMetrics } from '../../../host/metrics/host-metrics.js';
import { parseExposition, samplesOf, valueOf } from './exposition.js';

describe('HostMetrics: plugin counters and gauges (bounds and names)', () => {
  it('keeps at most MAX_COUNTER_SERIES label sets; later new ones are counted under (other)', async () => {
    const metrics = new HostMetrics();
    const counter = metrics.addCounter({ name: 'probe_open_total', help: 'open label', labelNames: ['key'] });
    for (let i = 0; i < MAX_COUNTER_SERIES + 50; i++) counter.inc({ key: `k${i}` });
    counter.inc({ key: 'k0' }, 2); // a known set keeps counting under its own value
    const samples = samplesOf(parseExposition(await metrics.scrape()), 'probe_open_total');
    assert.equal(samples.length, MAX_COUNTER_SERIES + 1);
    assert.equal(valueOf(samples, 'probe_open_total', { key: '(other)' }), 50);
    assert.equal(valueOf(samples, 'probe_open_total', { key: 'k0' }), 3);
  });

  it('cuts long label values', async () => {
    const metrics = new HostMetrics();
    metrics.addCounter({ name: 'probe_long_total', help: 'long values', labelNames: ['what'] }).inc({ what: 'x'.repeat(500) });
    const [sample] = samplesOf(parseExposition(await metrics.scrape()), 'probe_long_total');
    assert.equal(sample?.labels.what, 'x'.repeat(MAX_LABEL_VALUE_LENGTH));
  });

  it('shows a series at 0 after inc(labels, 0), and an unlabelled counter at 0 from registration', async () => {
    const metrics = new HostMetrics();
    metrics.addCounter({ name: 'probe_reasons_total', help: 'by reason', labelNames: ['reason'], labelValues: { reason: ['a', 'b'] } }).inc({ reason: 'b' }, 0);
    metrics.addCounter({ name: 'probe_plain_total', help: 'no labels' });
    const samples = parseExposition(await metrics.scrape());
    assert.deepEqual(samplesOf(samples, 'probe_reasons_total').map((s) => [s.labels.reason, s.value]), [['b', 0]]);
    assert.equal(samplesOf(samples, 'probe_plain_total')[0]?.value, 0);
  });

  it('names the broken rule for bad metric and label names', () => {
    const metrics = new HostMetrics();
    assert.throws(() => metrics.addCounter({ name: 'bad-name_total', help: 'h' }), /"bad-name_total" is not a Prometheus metric name/);
    assert.throws(() => metrics.addCounter({ name: 'probe_x_total', help: 'h', labelNames: ['__reserved'] }), /label name "__reserved" is not valid/);
    assert.throws(() => metrics.addCounter({ name: 'probe_y_total', help: 'h', labelNames: ['a', 'a'] }), /label "a" is listed twice/);
    assert.throws(() => metrics.addCounter({ name: 'probe_z_total', help: 'h', labelNames: ['a'], labelValues: { b: ['x'] } }), /labelValues names "b", which is not one of its labelNames/);
    assert.throws(() => metrics.addGauge({ name: '9lives', help: 'h', collect: () => 1 }), /gauge name "9lives" is not a Prometheus metric name/);
    assert.throws(() => metrics.addGauge({ name: 'probe_g', help: 'h', labelNames: ['bad label'], collect: () => [] }), /label name "bad label" is not valid/);
  });

  it('refuses a counter under a host metric or gauge name, and a gauge under a counter name', () => {
    const metrics = new HostMetrics();
    assert.throws(() => metrics.addCounter({ name: 'chainhost_tool_calls_total', help: 'h' }), /"chainhost_tool_calls_total" is registered twice/);
    metrics.addGauge({ name: 'probe_depth', help: 'h', collect: () => 1 });
    metrics.addCounter({ name: 'probe_events_total', help: 'h' });
    assert.throws(() => metrics.addGauge({ name: 'probe_events_total', help: 'h', collect: () => 1 }), /is registered twice/);
  });

  it('returns the same handle for the same definition, whatever the order of its lists', () => {
    const metrics = new HostMetrics();
    const a = metrics.addCounter({ name: 'probe_same_total', help: 'h', labelNames: ['r'], labelValues: { r: ['x', 'y'] } });
    const b = metrics.addCounter({ name: 'probe_same_total', help: 'h', labelNames: ['r'], labelValues: { r: ['y', 'x'] } });
    assert.equal(a, b);
    assert.throws(() => metrics.addCounter({ name: 'probe_same_total', help: 'h', labelNames: ['r'], labelValues: { r: ['x'] } }), /different help or labels/);
  });
});
