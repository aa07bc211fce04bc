import { ApiError } from 'chainhost/plugin';
import { pairsOfToken } from '../../reads/dex-reads.js';
import { bdsValue } from '../../reads/bds-value.js';
import { isObject } from '../../reads/contract-reads.js';
import type { ReadContext } from '../../reads/node-targets.js';
import { tokenOverview } from '../../reads/token-reads.js';
import { addressLink, amt, blockLink, contractLink, href, kv, needsBds, pager, pairLink, stateLink, table, text, tokenLink, age } from '../format.js';
import { html } from '../html.js';
import type { PageView } from '../layout.js';
import { transferTable } from './address-page.js';

const PAGE = 50;

/** `/explorer/tokens` (BDS): the XSC001 token contracts, newest first. */
export async function tokensPage(r: ReadContext, offset: number): Promise<PageView> {
  const value = await bdsValue(r, `/token_contracts/limit=${PAGE}/offset=${offset}`, 'the token list');
  const rpc = r.peer;
  const items = isObject(value) && Array.isArray(value.items) ? value.items.filter(isObject) : [];
  const total = isObject(value) && typeof value.total === 'number' ? value.total : items.length;
  const rows = items.map((t) => html`<tr><td>${tokenLink(t.contract, t.name, rpc)}</td><td>${text(t.symbol)}</td><td>${contractLink(t.contract, rpc)}</td>
<td>${blockLink(t.submitted_at_block, rpc)}</td><td>${age(t.submitted_at)}</td></tr>`);
  const prev = offset > 0 ? href('/explorer/tokens', rpc, { offset: Math.max(0, offset - PAGE) }) : null;
  const next = offset + items.length < total ? href('/explorer/tokens', rpc, { offset: offset + PAGE }) : null;
  const body = html`<h1>Tokens <span class="muted">(${total})</span></h1>
<div class="card">${table(['Token', 'Symbol', 'Contract', 'Created in block', 'Created'], rows, 'No XSC001 tokens indexed.')}${pager(prev, next)}</div>`;
  return { title: 'Tokens', section: 'tokens', body };
}

/**
 * `/explorer/token/<contract>` (XSC001): name, symbol and stated supply from the node, the
 * holders by balance and the recent transfers from BDS (`?before=` id cursor), and the DEX pairs
 * that trade it.
 */
export async function tokenPage(r: ReadContext, contract: string, before: number | undefined): Promise<PageView> {
  const [t, pairs] = await Promise.all([tokenOverview(r, contract, before), pairsOfToken(r, contract)]);
  if (t.name === null && t.symbol === null && t.total_supply === null && (!t.holders.ok || t.holders.value.holders === 0)) {
    throw ApiError.notFound(`token ${contract} not found: no token metadata and no holders under that contract name`, { contract });
  }
  const rpc = r.peer;
  const self = `/explorer/token/${encodeURIComponent(contract)}`;
  const holders = t.holders.ok
    ? table(['Rank', 'Holder', 'Balance', 'Updated in block'], t.holders.value.items.map((h, i) => html`<tr><td>${i + 1}</td><td>${addressLink(h.address, rpc)}</td>
<td class="num">${amt(h.balance)}</td><td>${blockLink(h.last_block_height, rpc)}</td></tr>`), 'No holders indexed.')
    : needsBds(t.holders.reason);
  const transfers = t.transfers.ok ? transferTable(t.transfers.value.items, null, rpc) : needsBds(t.transfers.reason);
  const transferPager = t.transfers.ok
    ? pager(before !== undefined ? href(self, rpc) : null, t.transfers.value.next_before_id !== null ? href(self, rpc, { before: t.transfers.value.next_before_id }) : null)
    : html``;
  const pairRows = pairs.map((p) => html`<tr><td>${pairLink(p.id, `#${p.id} ${p.token0}/${p.token1}`, rpc)}</td><td class="num">${amt(p.reserve0)}</td>
<td class="num">${amt(p.reserve1)}</td><td class="num">${amt(p.price)}</td></tr>`);
  const symbol = typeof t.symbol === 'string' ? t.symbol : null;
  const body = html`<h1>${typeof t.name === 'string' ? t.name : contract}${symbol ? html` <span class="muted">(${symbol})</span>` : ''}</h1>
<div class="card">${kv([
    ['Contract', contractLink(contract, rpc)],
    ['Name', text(t.name)],
    ['Symbol', text(t.symbol)],
    ['Stated total supply', html`<span class="num">${amt(t.total_supply)}</span> <span class="muted">(${stateLink(`${contract}.metadata:total_supply`, rpc, 'metadata')})</span>`],
    ['Held by holders', t.holders.ok ? html`<span class="num">${amt(t.holders.value.indexed_supply)}</span> <span class="muted">across ${t.holders.value.holders} holders (indexed)</span>` : html`<span class="muted">needs BDS</span>`],
    ['Operator', addressLink(t.operator, rpc)],
  ])}</div>
<h2>Top holders</h2>
<div class="card">${holders}</div>
<h2>Recent transfers</h2>
<div class="card">${transfers}${transferPager}</div>
<h2>DEX markets</h2>
<div class="card">${table(['Pair', 'Reserve 0', 'Reserve 1', 'Price (token1 per token0)'], pairRows, 'No DEX pair trades this token.')}</div>`;
  return { title: `Token ${symbol ?? contract}`, section: 'tokens', body };
}
