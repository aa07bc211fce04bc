import { Decimal } from 'decimal.js';
import type { JsonValue } from 'chainhost/chain';
import { html, type SafeHtml } from './html.js';

/** decimal.js with room for any chain value; `toFixed()` without places prints every digit. */
const PlainDecimal = Decimal.clone({ precision: 200, toExpNeg: -9e15, toExpPos: 9e15 });

/** A link inside the explorer; the inspected peer (`?rpc=`) travels with every link. */
export function href(path: string, rpc: string | null, query: Record<string, string | number | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  if (rpc) params.set('rpc', rpc);
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export function seg(value: string | number | bigint): string {
  return encodeURIComponent(String(value));
}

export function short(text: string, keep = 10): string {
  return text.length > keep * 2 + 1 ? `${text.slice(0, keep)}…${text.slice(-6)}` : text;
}

export function text(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value, bigintReplacer);
  return String(value);
}

export function pretty(value: unknown): string {
  return JSON.stringify(value, bigintReplacer, 2) ?? 'null';
}

function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/** "12 s ago", "3 min ago" … relative to the time the page was rendered. */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

/** What indexes record as the hash of the genesis writes (BDS): not a transaction, so not a tx page. */
export const GENESIS_TX = 'GENESIS';

/** A transaction's page; the genesis writes (`GENESIS`) link to block 0, the genesis page. */
export function txLink(hash: string | null | undefined, rpc: string | null): SafeHtml {
  if (!hash) return html`—`;
  if (hash === GENESIS_TX) return html`<a href="${href('/explorer/block/0', rpc)}">genesis</a>`;
  return html`<a class="mono" href="${href(`/explorer/tx/${seg(hash)}`, rpc)}" title="${hash}">${short(hash)}</a>`;
}

export function blockLink(height: JsonValue | undefined, rpc: string | null): SafeHtml {
  if (height === null || height === undefined || height === '') return html`—`;
  return html`<a href="${href(`/explorer/block/${seg(String(height))}`, rpc)}">${String(height)}</a>`;
}

export function addressLink(address: JsonValue | undefined, rpc: string | null): SafeHtml {
  if (typeof address !== 'string' || address === '') return html`—`;
  return html`<a class="mono" href="${href(`/explorer/address/${seg(address)}`, rpc)}" title="${address}">${short(address)}</a>`;
}

export function contractLink(name: JsonValue | undefined, rpc: string | null): SafeHtml {
  if (typeof name !== 'string' || name === '') return html`—`;
  return html`<a href="${href(`/explorer/contract/${seg(name)}`, rpc)}">${name}</a>`;
}

export function status(ok: boolean | null): SafeHtml {
  if (ok === null) return html`<span class="muted">—</span>`;
  return ok ? html`<span class="ok">OK</span>` : html`<span class="fail">Fail</span>`;
}

export function kv(rows: Array<[string, SafeHtml | string | number | null | undefined]>): SafeHtml {
  return html`<dl class="kv">${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v ?? '—'}</dd>`)}</dl>`;
}

export function table(headers: string[], rows: SafeHtml[], empty = 'Nothing here yet.'): SafeHtml {
  if (rows.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<div class="scroll" tabindex="0"><table><thead><tr>${headers.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

export function pager(prev: string | null, next: string | null): SafeHtml {
  return html`<div class="pager"><span>${prev ? html`<a href="${prev}">← Newer</a>` : ''}</span><span>${next ? html`<a href="${next}">Older →</a>` : ''}</span></div>`;
}

export function obj(value: JsonValue | undefined): Record<string, JsonValue> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, JsonValue>) : {};
}

export function list(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : [];
}

/**
 * An amount exactly as the chain holds it, in plain notation: decimal text ("50E+3" → "50000"),
 * `{"__fixed__": …}` / `{"__big_int__": …}` wrappers and integers — never through a float.
 * Anything else is shown as text.
 */
export function amount(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : text(value);
  const wrapped = typeof value === 'object' && !Array.isArray(value) ? (value.__fixed__ ?? value.__big_int__) : value;
  if (typeof wrapped === 'string' && /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,4})?$/.test(wrapped.trim())) {
    return new PlainDecimal(wrapped.trim()).toFixed();
  }
  return text(value);
}

/** Times in UTC with the relative age beside them; the machine-readable instant in `datetime`. */
export function when(iso: JsonValue | undefined, now = Date.now()): SafeHtml {
  if (typeof iso !== 'string' || iso === '') return html`<span class="muted">—</span>`;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return html`${iso}`;
  const utc = new Date(t).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC').replace(/Z$/, ' UTC');
  // `data-ago` is the instant the explorer script re-reads to keep the age ticking.
  return html`<time datetime="${new Date(t).toISOString()}">${utc}</time> <span class="muted" data-ago="${new Date(t).toISOString()}">(${ago(iso, now)})</span>`;
}

/**
 * A time in a table row: its age ("12 s ago", ticking with the explorer script), the exact UTC
 * time on hover, the instant in `datetime` — narrow enough for a table to fit its page.
 */
export function age(iso: JsonValue | undefined, now = Date.now()): SafeHtml {
  if (typeof iso !== 'string' || iso === '') return html`<span class="muted">—</span>`;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return html`${iso}`;
  const instant = new Date(t).toISOString();
  return html`<time datetime="${instant}" title="${instant.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}" data-ago="${instant}" data-bare="">${ago(iso, now)}</time>`;
}

/** Significant digits a reader sees of an amount (the exact value is one hover or copy away). */
const SHOWN_DIGITS = 6;

/**
 * An exact decimal text as a reader wants it: at or above 1, the whole integer part and
 * max(2, 6 − its digits) decimals ("999860.665809…" → "999,860.67", "9.8712345" → "9.87123");
 * below 1, six significant digits ("0.000123456789" → "0.000123457"). Thousands grouped,
 * trailing zeros dropped, rounded half-up; only for display.
 */
export function readable(exact: string): string {
  if (!/^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$/.test(exact)) return exact;
  const d = new PlainDecimal(exact);
  if (d.isZero()) return '0';
  const integerDigits = d.abs().gte(1) ? d.abs().trunc().toFixed().length : 0;
  const rounded = integerDigits > 0
    ? d.toDecimalPlaces(Math.max(2, SHOWN_DIGITS - integerDigits), Decimal.ROUND_HALF_UP)
    : d.toSignificantDigits(SHOWN_DIGITS, Decimal.ROUND_HALF_UP);
  const [int, frac] = rounded.toFixed().split('.');
  const grouped = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac ? `${grouped}.${frac}` : grouped;
}

/** A state value: a decimal as a readable amount (exact on hover/copy), anything else as text. */
export function valueCell(value: JsonValue | undefined): SafeHtml {
  const exact = amount(value);
  return /^-?[0-9]+(\.[0-9]+)?$/.test(exact) ? amt(value) : html`${text(plainJson(value))}`;
}

/**
 * An amount for reading: the readable form, the exact chain value in `title` (hover) and
 * `data-exact` (what the explorer script puts on the clipboard when the amount is copied).
 * `{"__fixed__": "12.5"}` shows as 12.5.
 */
export function amt(value: JsonValue | undefined, unit?: SafeHtml | string): SafeHtml {
  const exact = amount(value);
  if (exact === '—') return html`<span class="muted">—</span>`;
  const shown = readable(exact);
  const u = unit === undefined || unit === '' ? '' : html` ${unit}`;
  return html`<span class="amt" title="${exact}" data-exact="${exact}">${shown}</span>${u}`;
}

/** The plain text of a JSON text column (BDS may return JSONB as text). */
export function parseMaybe(value: JsonValue | undefined): JsonValue | undefined {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as JsonValue;
  } catch {
    return value;
  }
}

export function tokenLink(contract: JsonValue | undefined, label: JsonValue | undefined, rpc: string | null): SafeHtml {
  if (typeof contract !== 'string' || contract === '') return html`—`;
  const shown = typeof label === 'string' && label !== '' ? label : contract;
  return html`<a href="${href(`/explorer/token/${seg(contract)}`, rpc)}" title="${contract}">${shown}</a>`;
}

export function pairLink(id: number, label: string, rpc: string | null): SafeHtml {
  return html`<a href="${href(`/explorer/dex/pair/${id}`, rpc)}">${label}</a>`;
}

export function stateLink(key: string, rpc: string | null, label: SafeHtml | string = key): SafeHtml {
  return html`<a class="mono" href="${href('/explorer/state', rpc, { key })}">${label}</a>`;
}

/** A page section that needed BDS and did not get it. */
export function needsBds(reason: string): SafeHtml {
  return html`<p class="muted needs-bds">Needs BDS: ${reason}</p>`;
}

/**
 * A JSON value as a reader wants to see it: the chain's `{"__fixed__": "12.5"}` and
 * `{"__big_int__": "…"}` wrappers become their plain number text ("12.5"), at any depth.
 */
export function plainJson(value: JsonValue | undefined): JsonValue {
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map(plainJson);
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 1 && (keys[0] === '__fixed__' || keys[0] === '__big_int__') && typeof value[keys[0]!] === 'string') return amount(value);
    return Object.fromEntries(keys.map((k) => [k, plainJson(value[k])]));
  }
  return value;
}
