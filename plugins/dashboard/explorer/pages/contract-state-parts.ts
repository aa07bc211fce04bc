import type { JsonValue } from 'chainhost/chain';
import type { HashPage } from '../../reads/contract-state.js';
import { addressLink, href, seg, stateLink, table, valueCell } from '../format.js';
import { html, type SafeHtml } from '../html.js';

/** A Hash key (`<k1>:<k2>…`) part by part; an account key links (short) to its page. */
export function hashKeyCell(key: string, rpc: string | null): SafeHtml {
  const parts = key.split(':').map((part) => (/^[0-9a-f]{64}$/i.test(part) ? addressLink(part, rpc) : html`<span class="mono">${part}</span>`));
  return html`${parts.map((p, i) => (i === 0 ? p : html`<span class="muted"> : </span>${p}`))}`;
}

/** A current state value: an account key as a short link, an amount readable (exact on hover), null as what it means. */
function stateValue(value: JsonValue | undefined, rpc: string | null): SafeHtml {
  if (value === null || value === undefined) return html`<span class="muted">not set (or empty)</span>`;
  if (typeof value === 'string' && /^[0-9a-f]{64}$/i.test(value)) return addressLink(value, rpc);
  return valueCell(value);
}

/** The Variables of a contract with their current values, each linked to its state key. */
export function variablesTable(contract: string, names: string[], values: Map<string, JsonValue>, rpc: string | null): SafeHtml {
  const rows = names.map((v) => html`<tr><td>${stateLink(`${contract}.${v}`, rpc, v)}</td><td class="wrap">${values.has(v)
    ? stateValue(values.get(v), rpc)
    : html`<span class="muted">not read (more than the page shows)</span>`}</td></tr>`);
  return table(['Variable', 'Value'], rows, 'No variables.');
}

/** One page of a Hash's entries (key parts, value), with a link to the next page when there is one. */
export function hashEntriesTable(contract: string, hash: string, page: HashPage, rpc: string | null, moreLabel: string): SafeHtml {
  if (!page.listed) return html`<p class="muted">The node does not list keys (no <span class="mono">/keys</span> query), so the entries of ${hash} cannot be shown.</p>`;
  const rows = page.entries.map((e) => html`<tr><td class="wrap">${hashKeyCell(e.key, rpc)}</td><td class="wrap">${e.value === undefined
    ? html`<span class="muted">key contains "/": not readable by path</span>`
    : stateValue(e.value, rpc)}</td></tr>`);
  const next = page.next_after !== null
    ? html`<p><a href="${href(`/explorer/contract/${seg(contract)}/hash/${seg(hash)}`, rpc, { after: page.next_after })}">${moreLabel}</a></p>`
    : '';
  return html`${table(['Key', 'Value'], rows, 'No entries.')}${next}`;
}
