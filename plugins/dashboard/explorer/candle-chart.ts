import { html, type SafeHtml } from './html.js';
import { readable } from './format.js';

/**
 * The DEX price chart, drawn on the server as SVG (no script; the strict CSP stays strict).
 *
 * - A true time axis: one slot per interval over the window that ends at the newest candle, so
 *   an interval without trades is an empty slot (a gap), not squeezed out.
 * - Candles with wicks (high–low) and a body coloured by direction; a candle whose open equals
 *   its close (a single trade) takes its direction, and its body, from the previous close.
 * - Readable price labels: "nice" ticks (1, 2, 5 × 10ⁿ) printed with just the digits that tell
 *   them apart; volume bars under the price.
 * - Fits any width: horizontal positions are percentages and text stays at its CSS size, so a
 *   phone shows the whole chart, not a cut-off slice. The price labels sit in their own column.
 *
 * Floats only place shapes; each candle's tooltip (`<title>`) carries the exact values.
 */

export interface PriceCandle {
  /** Bucket start, Unix seconds. */
  start: number;
  open: string;
  high: string;
  low: string;
  close: string;
  /** Volume in the base token, exact text. */
  volume: string;
  /** Tooltip text: the exact values as the page wants them worded. */
  tooltip: string;
}

const HEIGHT = 260;
const PRICE_TOP = 10;
const PRICE_BOTTOM = 180;
const VOLUME_TOP = 196;
const VOLUME_BOTTOM = 236;
const AXIS_Y = 252;

function num(text: string): number {
  const n = Number(text);
  return Number.isFinite(n) ? n : 0;
}

const pct = (v: number) => `${v.toFixed(3)}%`;
const px = (v: number) => v.toFixed(1);

/** Ticks at 1, 2 or 5 × 10ⁿ covering [min, max], about `count` of them. */
export function niceTicks(min: number, max: number, count = 4): { ticks: number[]; step: number } {
  const span = max - min || Math.abs(max) || 1;
  const raw = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let t = Math.ceil(min / step) * step; t <= max + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return { ticks, step };
}

/** A tick value with as many decimals as its step needs (no 30-digit labels). */
export function tickLabel(value: number, step: number): string {
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  return readable(value.toFixed(Math.min(decimals, 20)));
}

/** The x-axis label of a bucket start: a date for daily and longer intervals, a time otherwise. */
function timeLabel(start: number, intervalSeconds: number): string {
  const iso = new Date(start * 1000).toISOString();
  return intervalSeconds >= 86_400 ? iso.slice(5, 10) : iso.slice(11, 16);
}

export interface CandleChartOptions {
  title: string;
  description: string;
  candles: PriceCandle[];
  intervalSeconds: number;
  /** Slots on the time axis (the window ends at the newest candle). */
  slots: number;
}

export function candleChart(opts: CandleChartOptions): SafeHtml {
  const { intervalSeconds, slots } = opts;
  const sorted = [...opts.candles].sort((a, b) => a.start - b.start);
  const end = sorted.length ? sorted[sorted.length - 1]!.start : 0;
  const first = end - (slots - 1) * intervalSeconds;
  const shown = sorted.filter((c) => c.start >= first);
  const slotOf = (start: number) => Math.round((start - first) / intervalSeconds);
  const xOf = (slot: number) => ((slot + 0.5) / slots) * 100;
  const band = 100 / slots;

  // The previous close before the window: a one-trade candle's body starts there.
  const before = sorted.length > shown.length ? num(sorted[sorted.length - shown.length - 1]!.close) : null;
  const opens = shown.map((c, i) => {
    const previous = i > 0 ? num(shown[i - 1]!.close) : before;
    return num(c.open) === num(c.close) && previous !== null ? previous : num(c.open);
  });
  const min = Math.min(...shown.map((c) => num(c.low)), ...opens);
  const max = Math.max(...shown.map((c) => num(c.high)), ...opens);
  const { ticks, step } = niceTicks(min, max);
  const lo = Math.min(min, ticks[0] ?? min);
  const hi = Math.max(max, ticks[ticks.length - 1] ?? max);
  const pad = (hi - lo) * 0.05 || Math.abs(hi) * 0.05 || 1;
  const yOf = (v: number) => PRICE_BOTTOM - ((v - (lo - pad)) / (hi + pad - (lo - pad))) * (PRICE_BOTTOM - PRICE_TOP);
  const volMax = Math.max(0, ...shown.map((c) => num(c.volume))) || 1;

  const candles = shown.map((c, i) => {
    const close = num(c.close);
    const from = opens[i]!;
    const up = close >= from;
    const x = xOf(slotOf(c.start));
    const top = yOf(Math.max(from, close));
    const bottom = yOf(Math.min(from, close));
    const volumeHeight = (num(c.volume) / volMax) * (VOLUME_BOTTOM - VOLUME_TOP);
    return html`<g data-point="candle" data-start="${c.start}" data-slot="${slotOf(c.start)}" class="${up ? 'up' : 'down'}"><title>${c.tooltip}</title>
<line class="wick" x1="${pct(x)}" x2="${pct(x)}" y1="${px(yOf(num(c.high)))}" y2="${px(yOf(num(c.low)))}"/>
<rect class="body" x="${pct(x - band * 0.3)}" width="${pct(band * 0.6)}" y="${px(top)}" height="${px(Math.max(2, bottom - top))}"/>
<rect class="volume" x="${pct(x - band * 0.3)}" width="${pct(band * 0.6)}" y="${px(VOLUME_BOTTOM - volumeHeight)}" height="${px(Math.max(1, volumeHeight))}"/></g>`;
  });

  const gridLines = ticks.map((t) => html`<line class="grid" x1="0" x2="100%" y1="${px(yOf(t))}" y2="${px(yOf(t))}"/>`);
  const priceLabels = ticks.map((t) => html`<text x="60" y="${px(yOf(t) + 4)}" text-anchor="end">${tickLabel(t, step)}</text>`);
  // Four labels: room for each even at phone width.
  const every = Math.max(1, Math.ceil(slots / 4));
  const timeTicks: SafeHtml[] = [];
  for (let slot = slots - 1; slot >= 0; slot -= every) {
    const start = first + slot * intervalSeconds;
    timeTicks.push(html`<line class="axis" x1="${pct(xOf(slot))}" x2="${pct(xOf(slot))}" y1="${VOLUME_BOTTOM}" y2="${VOLUME_BOTTOM + 4}"/>
<text data-tick="${start}" x="${pct(xOf(slot))}" y="${AXIS_Y}" text-anchor="${slot === slots - 1 ? 'end' : 'middle'}">${timeLabel(start, intervalSeconds)}</text>`);
  }
  const id = `c${Math.abs(hash(opts.title)).toString(36)}`;
  return html`<figure class="chart candle-chart" data-slots="${slots}" data-interval="${intervalSeconds}">
<div class="chart-row"><svg class="y-labels" width="64" height="${HEIGHT}" aria-hidden="true">${priceLabels}
<text class="muted-label" x="60" y="${VOLUME_TOP + 10}" text-anchor="end">vol</text></svg>
<svg class="plot" width="100%" height="${HEIGHT}" role="img" aria-labelledby="${id}-t ${id}-d"><title id="${id}-t">${opts.title}</title><desc id="${id}-d">${opts.description}</desc>
${gridLines}
<line class="axis" x1="0" x2="100%" y1="${VOLUME_BOTTOM}" y2="${VOLUME_BOTTOM}"/>
${candles}
${timeTicks}</svg></div>
<figcaption class="muted">${opts.title}. Each slot is one interval (UTC); an empty slot had no trades.</figcaption></figure>`;
}

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return h;
}
