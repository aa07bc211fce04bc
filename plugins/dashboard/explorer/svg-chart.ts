import { html, type SafeHtml } from './html.js';

/**
 * Charts drawn on the server as inline SVG: no script, nothing fetched, so the strict CSP stays
 * strict and the picture is there without JavaScript. Geometry is computed with floats (pixels
 * only); every value a reader sees — axis labels, tooltips (`<title>`), the data table under
 * the chart — is the exact text the chain gave. (The DEX price chart is candle-chart.ts.)
 */

const WIDTH = 720;
const HEIGHT = 220;
const PAD = { left: 64, right: 56, top: 14, bottom: 30 };

export interface SeriesPoint {
  /** Label of the point on the x axis (a block height, a bucket start). */
  label: string;
  /** The exact value as text; its float is only used to place the point. */
  value: string;
}

function num(text: string): number {
  const n = Number(text);
  return Number.isFinite(n) ? n : 0;
}

function scale(min: number, max: number, from: number, to: number): (v: number) => number {
  const span = max - min || 1;
  return (v) => from + ((v - min) / span) * (to - from);
}

function fmt(n: number): string {
  return n.toFixed(1);
}

/** Every `step`-th label (and the last) so the x axis stays legible at any count. */
function xLabels(labels: string[], xOf: (i: number) => number): SafeHtml[] {
  const step = Math.max(1, Math.ceil(labels.length / 6));
  return labels.map((label, i) => (i % step === 0 || i === labels.length - 1
    ? html`<text x="${fmt(xOf(i))}" y="${HEIGHT - 10}" text-anchor="middle">${label}</text>`
    : html``));
}

/**
 * Bars (left axis) and a line (right axis) over the same x points — the home page's
 * transactions and chi per block. Each bar and each line point carries `data-point`.
 */
export function barLineChart(opts: {
  title: string;
  description: string;
  bars: { name: string; points: SeriesPoint[] };
  line: { name: string; points: SeriesPoint[] };
}): SafeHtml {
  const n = opts.bars.points.length;
  const x0 = PAD.left;
  const x1 = WIDTH - PAD.right;
  const band = (x1 - x0) / Math.max(1, n);
  const xOf = (i: number) => x0 + band * (i + 0.5);
  const barMax = Math.max(1, ...opts.bars.points.map((p) => num(p.value)));
  const lineMax = Math.max(1, ...opts.line.points.map((p) => num(p.value)));
  const yBar = scale(0, barMax, HEIGHT - PAD.bottom, PAD.top);
  const yLine = scale(0, lineMax, HEIGHT - PAD.bottom, PAD.top);
  const bars = opts.bars.points.map((p, i) => {
    const y = yBar(num(p.value));
    return html`<rect data-point="bar" class="bar" x="${fmt(xOf(i) - band * 0.35)}" y="${fmt(y)}" width="${fmt(band * 0.7)}" height="${fmt(HEIGHT - PAD.bottom - y)}"><title>${p.label}: ${p.value} ${opts.bars.name}</title></rect>`;
  });
  const path = opts.line.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${fmt(xOf(i))},${fmt(yLine(num(p.value)))}`).join(' ');
  const dots = opts.line.points.map((p, i) =>
    html`<circle data-point="line" class="dot" cx="${fmt(xOf(i))}" cy="${fmt(yLine(num(p.value)))}" r="3"><title>${p.label}: ${p.value} ${opts.line.name}</title></circle>`);
  return frame(opts.title, opts.description, html`
<line class="axis" x1="${x0}" y1="${HEIGHT - PAD.bottom}" x2="${x1}" y2="${HEIGHT - PAD.bottom}"/>
<text class="bar-label" x="${x0 - 6}" y="${PAD.top + 4}" text-anchor="end">${String(barMax)}</text>
<text class="bar-label" x="${x0 - 6}" y="${HEIGHT - PAD.bottom}" text-anchor="end">0</text>
<text class="line-label" x="${x1 + 6}" y="${PAD.top + 4}">${String(lineMax)}</text>
${bars}
${n > 1 ? html`<path class="line" d="${path}"/>` : ''}
${dots}
${xLabels(opts.bars.points.map((p) => p.label), xOf)}
<text class="legend bar-label" x="${x0}" y="${PAD.top - 2}">■ ${opts.bars.name}</text>
<text class="legend line-label" x="${x1}" y="${PAD.top - 2}" text-anchor="end">● ${opts.line.name}</text>`);
}

function frame(title: string, description: string, inner: SafeHtml): SafeHtml {
  const id = `c${Math.abs(hash(title)).toString(36)}`;
  return html`<figure class="chart" tabindex="0"><svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${id}-t ${id}-d" preserveAspectRatio="xMidYMid meet">
<title id="${id}-t">${title}</title><desc id="${id}-d">${description}</desc>${inner}</svg></figure>`;
}

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return h;
}
