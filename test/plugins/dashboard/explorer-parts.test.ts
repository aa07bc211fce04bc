import assert from 'node:assert/strict';
import { amount, amt, plainJson, readable, when } from '../../../plugins/dashboard/explorer/format.js';
import { candleChart, niceTicks, tickLabel, type PriceCandle } from '../../../plugins/dashboard/explorer/candle-chart.js';
import { highlightPython, sourceListing, splitHighlightedLines } from '../../../plugins/dashboard/explorer/python-highlight.js';
import { eventDataTable } from '../../../plugins/dashboard/explorer/event-data.js';
import { barLineChart } from '../../../plugins/dashboard/explorer/svg-chart.js';
import { decimalText } from '../../../plugins/dashboard/reads/dex-reads.js';

const EVIL = '</title><script>alert(1)</script>';

describe('explorer parts: exact values, UTC times, server-side charts and highlighting', () => {
  it('amounts are exact plain decimals whatever the chain encoding, never through a float', () => {
    assert.equal(amount('50E+3'), '50000');
    assert.equal(amount('1.000000000000000000000000000000000001'), '1.000000000000000000000000000000000001');
    assert.equal(amount({ __fixed__: '1E-7' }), '0.0000001');
    assert.equal(amount({ __big_int__: '123456789012345678901234567890' }), '123456789012345678901234567890');
    assert.equal(amount(12345678901234567890n), '12345678901234567890');
    assert.equal(amount('0.30000000000000004'), '0.30000000000000004');
    assert.equal(amount(null), '—');
    assert.equal(amount('not a number'), 'not a number');
    assert.equal(decimalText('11E+6'), '11000000');
    assert.equal(decimalText({ __fixed__: '0.1' }), '0.1');
    assert.equal(decimalText('x'), null);
  });

  it('times are shown in UTC with their age, the instant in datetime', () => {
    const now = Date.parse('2026-01-01T12:05:00Z');
    assert.equal(when('2026-01-01T12:00:00.123456+00:00', now).text, '<time datetime="2026-01-01T12:00:00.123Z">2026-01-01 12:00:00 UTC</time> <span class="muted" data-ago="2026-01-01T12:00:00.123Z">(5 min ago)</span>');
    assert.match(when(null, now).text, /—/);
  });

  it('the bar/line chart has one bar and one point per value, exact values in the tooltips, escaped labels', () => {
    const points = (values: string[]) => values.map((value, i) => ({ label: i === 1 ? EVIL : String(i + 1), value }));
    const svg = barLineChart({ title: EVIL, description: 'd', bars: { name: 'txs', points: points(['1', '0', '3']) }, line: { name: 'chi', points: points(['10', '0', '123456789012345678901']) } }).text;
    assert.equal(svg.match(/data-point="bar"/g)!.length, 3);
    assert.equal(svg.match(/data-point="line"/g)!.length, 3);
    assert.ok(svg.includes('123456789012345678901 chi'), 'the exact value, not a float rendering');
    assert.ok(!svg.includes('<script>'));
    assert.ok(svg.includes('&lt;/title&gt;&lt;script&gt;'));
    assert.match(svg, /role="img" aria-labelledby="(\S+)-t \1-d"/);
  });

  it('amounts read with sensible digits, the exact value in title and data-exact, wrappers unwrapped', () => {
    assert.equal(readable('999860.665809964488330308371534282672'), '999,860.67');
    assert.equal(readable('12345.678912'), '12,345.68');
    assert.equal(readable('9.8712345678'), '9.87123');
    assert.equal(readable('0.000123456789'), '0.000123457');
    assert.equal(readable('1000000'), '1,000,000');
    assert.equal(readable('123456789012345678901234567890'), '123,456,789,012,345,678,901,234,567,890', 'the integer part is never rounded away');
    assert.equal(readable('2.50'), '2.5');
    assert.equal(readable('0'), '0');
    assert.equal(readable('-1.23456789'), '-1.23457');
    const cell = amt({ __fixed__: '12.5' }).text;
    assert.equal(cell, '<span class="amt" title="12.5" data-exact="12.5">12.5</span>');
    const long = amt('0.100000000000000000000000000001', 'TST').text;
    assert.match(long, /title="0\.100000000000000000000000000001" data-exact="0\.100000000000000000000000000001">0\.1<\/span> TST/);
    assert.deepEqual(plainJson({ amount: { __fixed__: '12.5' }, to: 'b', list: [{ __big_int__: '7' }] }), { amount: '12.5', to: 'b', list: ['7'] });
  });

  describe('the price chart', () => {
    const T0 = Date.parse('2026-01-01T12:00:00Z') / 1000;
    const candle = (minute: number, o: string, h: string, l: string, c: string, volume = '1'): PriceCandle =>
      ({ start: T0 + minute * 60, open: o, high: h, low: l, close: c, volume, tooltip: `m${minute} ${o}/${h}/${l}/${c} ${EVIL}` });
    const slotsOf = (svg: string) => [...svg.matchAll(/data-slot="(\d+)"/g)].map((m) => Number(m[1]));

    it('puts candles on a true time axis: an empty minute is an empty slot, not squeezed out', () => {
      const svg = candleChart({ title: 't', description: 'd', intervalSeconds: 60, slots: 10, candles: [candle(0, '1', '1', '1', '1'), candle(1, '1', '1.2', '1', '1.1'), candle(3, '1.1', '1.1', '0.9', '1')] }).text;
      assert.deepEqual(slotsOf(svg), [6, 7, 9], 'minutes 0, 1 and 3 of a window ending at minute 3; minute 2 is a gap');
      const xs = [...svg.matchAll(/class="wick" x1="([0-9.]+)%"/g)].map((m) => Number(m[1]));
      assert.ok(Math.abs((xs[2]! - xs[1]!) - 2 * (xs[1]! - xs[0]!)) < 0.01, `x positions are proportional to time: ${xs}`);
      assert.match(svg, /data-tick="\d+"[^>]*>12:03</, 'the axis is labelled with times');
      assert.ok(!svg.includes('<script>'), 'tooltips escaped');
    });

    it('shows wicks, and direction even for a one-trade candle (against the previous close)', () => {
      const svg = candleChart({ title: 't', description: 'd', intervalSeconds: 60, slots: 5, candles: [
        candle(0, '1', '1.5', '0.8', '1.2'), candle(1, '1.3', '1.3', '1.3', '1.3'), candle(2, '1.1', '1.1', '1.1', '1.1'), candle(3, '1.1', '1.1', '1.0', '1.0')] }).text;
      assert.deepEqual([...svg.matchAll(/data-point="candle"[^>]*class="(up|down)"/g)].map((m) => m[1]), ['up', 'up', 'down', 'down'],
        'one-trade candles at 1.3 (above the 1.2 close) and 1.1 (below 1.3) take their direction from the previous close');
      const wick = /class="wick" x1="[^"]+" x2="[^"]+" y1="([0-9.]+)" y2="([0-9.]+)"/.exec(svg)!;
      assert.ok(Number(wick[2]) - Number(wick[1]) > 20, 'the first candle has a visible high–low wick');
      const flatBody = [...svg.matchAll(/class="body"[^>]*height="([0-9.]+)"/g)].map((m) => Number(m[1]))[1]!;
      assert.ok(flatBody > 2, `a one-trade candle spans from the previous close (height ${flatBody})`);
      assert.equal((svg.match(/class="volume"/g) ?? []).length, 4, 'a volume bar per candle');
    });

    it('labels the price axis with nice ticks and only the digits they need', () => {
      const { ticks, step } = niceTicks(0.100000000000000000000000000001, 0.2);
      assert.deepEqual(ticks, [0.1, 0.15, 0.2]);
      assert.ok(ticks.length >= 3 && ticks.length <= 6, `${ticks}`);
      for (const t of ticks) assert.ok(tickLabel(t, step).length <= 6, `short label ${tickLabel(t, step)}`);
      const svg = candleChart({ title: 't', description: 'd', intervalSeconds: 60, slots: 5, candles: [
        candle(0, '0.100000000000000000000000000001', '0.2', '0.100000000000000000000000000001', '0.19999999999999999999999999')] }).text;
      const labels = [...svg.matchAll(/<text x="60" y="[0-9.]+" text-anchor="end">([^<]+)</g)].map((m) => m[1]!);
      assert.ok(labels.length >= 3, `${labels}`);
      for (const l of labels) assert.ok(l.length <= 8, `no 30-digit labels: ${l}`);
      assert.match(svg, /0\.100000000000000000000000000001/, 'the exact value stays in the tooltip');
    });
  });

  it('contract source is highlighted on the server with everything in it escaped', () => {
    const out = highlightPython(`@export\ndef f(to: str = "${EVIL}"):\n    # <img src=x onerror=alert(1)>\n    return 1\n`).text;
    assert.match(out, /<span class="hljs-keyword">def<\/span>/);
    assert.match(out, /<span class="hljs-string">/);
    assert.ok(!out.includes('<script>') && !out.includes('<img'), out);
    assert.ok(out.includes('&lt;img src=x onerror=alert(1)&gt;'));
  });

  it('a source listing has one numbered row per line, each balanced even inside a multi-line string', () => {
    const source = `def f():\n    """one\n    two <b>\n    """\n    return 1\n`;
    const lines = splitHighlightedLines(highlightPython(source.replace(/\n$/, '')).text);
    assert.equal(lines.length, 5);
    for (const line of lines) {
      assert.equal((line.match(/<span /g) ?? []).length, (line.match(/<\/span>/g) ?? []).length, `balanced: ${line}`);
    }
    assert.match(lines[2]!, /^<span class="hljs-string">\s+two &lt;b&gt;<\/span>$/, 'the docstring span reopened on its second line');
    const listing = sourceListing(source, 'Source of f').text;
    assert.equal((listing.match(/<span class="ln">/g) ?? []).length, 5, 'no empty row for the final newline');
    assert.ok(!listing.includes('<b>'));
  });

  it('event data is a field table whose accounts are short links to their pages (keeping the inspected peer)', () => {
    const addr = 'ab'.repeat(32);
    const out = eventDataTable({ event: 'Transfer', data_indexed: JSON.stringify({ from: addr, to: 'con_pairs' }), data: { amount: { __fixed__: '12.50' }, memo: EVIL } } as never, 'http://peer:26657').text;
    assert.match(out, new RegExp(`<th scope="row">from</th><td><a class="mono" href="/explorer/address/${addr}\\?rpc=http%3A%2F%2Fpeer%3A26657" title="${addr}">ababababab…ababab</a>`));
    assert.match(out, /<th scope="row">to<\/th><td><a class="mono" href="\/explorer\/address\/con_pairs\?rpc=/, 'a named account in an account field links too');
    assert.match(out, /<th scope="row">amount<\/th><td><span class="amt" title="12.5" data-exact="12.5">12.5<\/span>/);
    assert.ok(!out.includes('<script>') && out.includes('&lt;script&gt;'), 'text fields escaped');
  });
});
