import assert from 'node:assert/strict';
import { amount, when } from '../../../plugins/dashboard/explorer/format.js';
import { highlightPython } from '../../../plugins/dashboard/explorer/python-highlight.js';
import { barLineChart, candleChart } from '../../../plugins/dashboard/explorer/svg-chart.js';
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
    assert.equal(when('2026-01-01T12:00:00.123456+00:00', now).text, '<time datetime="2026-01-01T12:00:00.123Z">2026-01-01 12:00:00 UTC</time> <span class="muted">(5 min ago)</span>');
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

  it('the candle chart draws one candle per bucket, up or down, with the exact OHLC in each tooltip', () => {
    const svg = candleChart({
      title: 'p', description: 'd', unit: 'B per A',
      candles: [
        { label: '12:00', open: '1.0', high: '1.2', low: '0.9', close: '1.1', volume: '42' },
        { label: EVIL, open: '1.1', high: '1.1', low: '0.100000000000000000000000000001', close: '0.5', volume: '7' },
      ],
    }).text;
    assert.equal(svg.match(/data-point="candle"/g)!.length, 2);
    assert.match(svg, /class="up"[\s\S]*class="down"/);
    assert.ok(svg.includes('low 0.100000000000000000000000000001'), 'the exact low on the axis');
    assert.ok(!svg.includes('<script>'));
  });

  it('contract source is highlighted on the server with everything in it escaped', () => {
    const out = highlightPython(`@export\ndef f(to: str = "${EVIL}"):\n    # <img src=x onerror=alert(1)>\n    return 1\n`).text;
    assert.match(out, /<span class="hljs-keyword">def<\/span>/);
    assert.match(out, /<span class="hljs-string">/);
    assert.ok(!out.includes('<script>') && !out.includes('<img'), out);
    assert.ok(out.includes('&lt;img src=x onerror=alert(1)&gt;'));
  });
});
