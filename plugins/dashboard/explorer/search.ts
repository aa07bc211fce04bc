import { ApiError } from 'chainhost/plugin';
import type { JsonObject } from 'chainhost/chain';
import type { ReadContext } from '../reads/node-targets.js';
import { optionalBds } from '../reads/optional-bds.js';
import { contract, isObject } from '../reads/contract-reads.js';
import { blockLink, href, needsBds, seg, table, text } from './format.js';
import { html, type SafeHtml } from './html.js';
import type { PageView } from './layout.js';

/** Where a search goes: one place (redirect), or a page listing the matches or saying nothing matched. */
export type SearchOutcome = { redirect: string } | { page: PageView; status: number };

const MATCHES = 20;

/**
 * The search box (dashboard.md §7, extended): digits → block (0 is genesis); a whole 64-hex
 * hash → the transaction if the node knows it, else the block or address it names; a dotted key
 * → its state value; a contract name → the contract. Anything else — a token symbol or name
 * (`TST`), a hash prefix — is looked up in the index: one match goes there, several are listed,
 * none is a "not found" page that names what was searched and where.
 */
export async function search(r: ReadContext, query: string): Promise<SearchOutcome> {
  const q = query.trim();
  const rpc = r.peer;
  const go = (path: string, params: Record<string, string> = {}): SearchOutcome => ({ redirect: href(path, rpc, params) });
  if (q === '') return go('/explorer');
  if (/^\d{1,16}$/.test(q) && Number.isSafeInteger(Number(q))) return go(`/explorer/block/${Number(q)}`);
  if (/^[A-Za-z_][A-Za-z0-9_]*\.[^/\s]+$/.test(q)) return go('/explorer/state', { key: q });
  if (/^(0x)?[0-9a-fA-F]{64}$/.test(q)) {
    const hash = q.replace(/^0x/i, '').toUpperCase();
    if (await r.node.tx(hash, r.call).then(() => true, () => false)) return go(`/explorer/tx/${hash}`);
  }
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(q) && await contractExists(r, q)) return go(`/explorer/contract/${seg(q)}`);
  if (q.length > 128 || q.includes('/') || /[\u0000-\u001f\u007f]/.test(q)) {
    throw ApiError.badRequest(`cannot search for ${JSON.stringify(q.slice(0, 80))}: search for a block height, a transaction or block hash (or its first 4+ hex digits), an address, a contract name, a token symbol or name, or a state key`, { parameter: 'q' });
  }
  // The query path takes the text as it is (path segments are not percent-decoded); "/" was refused above.
  const found = await optionalBds(r, `/search/${q}/limit=${MATCHES}`, 'searching by hash prefix or token', (v) => (isObject(v) && Array.isArray(v.items) ? v.items.filter(isObject) : []));
  const matches = found.ok ? found.value : [];
  const exactTokens = matches.filter((m) => m.kind === 'token' && m.exact === true);
  if (exactTokens.length === 1) return go(targetOf(exactTokens[0]!));
  if (matches.length === 1) return go(targetOf(matches[0]!));
  // A 64-hex text the node does not know as a transaction, and nothing in the index: an address (it may simply hold nothing yet).
  if (matches.length === 0 && /^(0x)?[0-9a-fA-F]{64}$/.test(q)) return go(`/explorer/address/${q.replace(/^0x/i, '').toLowerCase()}`);
  if (matches.length === 0 && /^[A-Za-z0-9_.:-]{1,256}$/.test(q) && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(q) && !/^(0x)?[0-9a-fA-F]+$/.test(q)) {
    return go(`/explorer/address/${seg(q)}`);
  }
  return { page: resultsPage(q, matches, found.ok ? null : needsBds(found.reason), rpc), status: matches.length ? 200 : 404 };
}

/** The contract page's own existence rule (source, methods, variables or metadata), so search and page agree. */
async function contractExists(r: ReadContext, name: string): Promise<boolean> {
  try {
    await contract(r, name);
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return false;
    throw err;
  }
}

function targetOf(m: JsonObject): string {
  const id = String(m.id);
  if (m.kind === 'tx') return `/explorer/tx/${seg(id)}`;
  if (m.kind === 'block') return `/explorer/block/${seg(String(m.block_height))}`;
  if (m.kind === 'token') return `/explorer/token/${seg(id)}`;
  return `/explorer/address/${seg(id)}`;
}

const KIND_LABEL: Record<string, string> = { tx: 'Transaction', block: 'Block', address: 'Address', token: 'Token' };

function resultsPage(q: string, matches: JsonObject[], bdsNote: SafeHtml | null, rpc: string | null): PageView {
  const rows = matches.map((m) => {
    const label = m.kind === 'token' ? `${text(m.name)} (${text(m.symbol)}) — ${text(m.id)}` : String(m.id);
    return html`<tr><td>${KIND_LABEL[String(m.kind)] ?? text(m.kind)}</td><td class="mono wrap"><a href="${href(targetOf(m), rpc)}">${label}</a></td>
<td>${m.block_height !== undefined && m.block_height !== null ? blockLink(m.block_height, rpc) : ''}</td></tr>`;
  });
  const body = matches.length
    ? html`<h1>${matches.length} matches for <span class="mono">${q}</span></h1>
<p class="muted">More than one block, transaction, address or token matches; pick one${matches.length >= MATCHES ? ` (the first ${MATCHES} of each kind are listed; type more of the hash to narrow it)` : ''}.</p>
<div class="card">${table(['Kind', 'Match', 'Block'], rows)}</div>`
    : html`<h1>Not found</h1>
<div class="card error"><p>Nothing matches <strong class="mono">${q}</strong>: it is not a block height, a known transaction or contract, a state key, the start of a transaction, block or address hash, or a token symbol or name.</p>
${bdsNote ?? ''}<p class="muted">Searched the node and the index for ${JSON.stringify(q)}.</p>
${/^[A-Za-z0-9_.:-]{1,256}$/.test(q) ? html`<p>If it is an account name, <a href="${href(`/explorer/address/${seg(q)}`, rpc)}">open ${q} as an address</a>.</p>` : ''}</div>`;
  return { title: matches.length ? `Search: ${q}` : 'Not found', section: null, body };
}
