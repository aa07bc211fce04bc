import { addresses } from '../../reads/address-reads.js';
import { recentEvents } from '../../reads/contract-reads.js';
import type { ReadContext } from '../../reads/node-targets.js';
import { ApiError } from 'chainhost/plugin';
import { bdsValue } from '../../reads/bds-value.js';
import { addressLink, amt, blockLink, contractLink, href, list, obj, pager, table, text, txLink, age } from '../format.js';
import { eventDataTable } from '../event-data.js';
import { html, type SafeHtml } from '../html.js';
import type { PageView } from '../layout.js';

const PAGE = 50;

function pages(path: string, rpc: string | null, offset: number, hasMore: boolean): [string | null, string | null] {
  return [
    offset > 0 ? href(path, rpc, { offset: Math.max(0, offset - PAGE) }) : null,
    hasMore ? href(path, rpc, { offset: offset + PAGE }) : null,
  ];
}

/**
 * `/explorer/addresses` (BDS): every address that holds or received value or sent a
 * transaction (`/accounts`), most recently active first. A node whose index predates
 * `/accounts` is read through `/addresses` (senders only), and the page says so.
 */
export async function addressesPage(r: ReadContext, offset: number): Promise<PageView> {
  const rpc = r.peer;
  let rows: SafeHtml[];
  let hasMore: boolean;
  let note: SafeHtml | string = '';
  let total: number | null = null;
  try {
    const value = obj(await bdsValue(r, `/accounts/limit=${PAGE}/offset=${offset}`, 'the address list'));
    const items = list(value.items).map(obj);
    total = typeof value.total === 'number' ? value.total : null;
    hasMore = total !== null ? offset + items.length < total : items.length >= PAGE;
    rows = items.map((a) => html`<tr><td>${addressLink(a.address, rpc)}</td><td class="num">${amt(a.balance ?? '0')}</td><td>${text(a.tokens_held)}</td>
<td>${text(a.tx_count)}</td><td>${blockLink(a.last_block_height, rpc)}</td></tr>`);
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 'bds_unavailable')) throw err;
    const result = await addresses(r, { limit: PAGE, offset });
    hasMore = result.has_more;
    note = html`<p class="muted">This index lists senders only (it has no <span class="mono">/accounts</span>).</p>`;
    rows = result.items.map((a) => {
      const row = obj(a);
      return html`<tr><td>${addressLink(row.address, rpc)}</td><td class="muted">—</td><td class="muted">—</td><td>${text(row.tx_count)}</td><td>${blockLink(row.last_block_height, rpc)}</td></tr>`;
    });
  }
  const [prev, next] = pages('/explorer/addresses', rpc, offset, hasMore);
  const body = html`<h1>Addresses${total !== null ? html` <span class="muted">(${total})</span>` : ''}</h1>
<p class="muted">Every address that holds or has received the native token or an XSC001 token, or has sent a transaction; most recently active first.</p>
<div class="card">${note}${table(['Address', 'Balance', 'Tokens held', 'Txs sent', 'Last active in block'], rows, 'No addresses indexed yet.')}${pager(prev, next)}</div>`;
  return { title: 'Addresses', section: 'addresses', body };
}

/** `/explorer/events` (BDS): the newest contract events. */
export async function eventsPage(r: ReadContext, offset: number): Promise<PageView> {
  const result = obj(await recentEvents(r, { limit: PAGE, offset }));
  const rpc = r.peer;
  const items = list(result.items);
  const rows = items.map((e) => {
    const ev = obj(e);
    const created = typeof ev.created_at === 'string' ? ev.created_at : null;
    return html`<tr><td>${age(created)}</td><td>${contractLink(ev.contract, rpc)}</td><td>${text(ev.event)}</td>
<td>${addressLink(ev.signer, rpc)}</td><td>${txLink(typeof ev.tx_hash === 'string' ? ev.tx_hash : null, rpc)}</td>
<td class="wrap">${eventDataTable(ev, rpc)}</td></tr>`;
  });
  const [prev, next] = pages('/explorer/events', rpc, offset, items.length >= PAGE);
  const body = html`<h1>Events</h1>
<div class="card">${table(['Time', 'Contract', 'Event', 'Signer', 'Tx', 'Data'], rows, 'No events indexed yet.')}${pager(prev, next)}</div>`;
  return { title: 'Events', section: 'events', body };
}
