import { addresses } from '../../reads/address-reads.js';
import { recentEvents } from '../../reads/contract-reads.js';
import type { ReadContext } from '../../reads/node-targets.js';
import { addressLink, blockLink, contractLink, href, list, obj, pager, parseMaybe, table, text, txLink, when } from '../format.js';
import { html } from '../html.js';
import type { PageView } from '../layout.js';

const PAGE = 50;

function pages(path: string, rpc: string | null, offset: number, hasMore: boolean): [string | null, string | null] {
  return [
    offset > 0 ? href(path, rpc, { offset: Math.max(0, offset - PAGE) }) : null,
    hasMore ? href(path, rpc, { offset: offset + PAGE }) : null,
  ];
}

/** `/explorer/addresses` (BDS): senders, most recently active first. */
export async function addressesPage(r: ReadContext, offset: number): Promise<PageView> {
  const result = await addresses(r, { limit: PAGE, offset });
  const rpc = r.peer;
  const rows = result.items.map((a) => {
    const row = obj(a);
    return html`<tr><td>${addressLink(row.address, rpc)}</td><td>${text(row.tx_count)}</td><td>${blockLink(row.last_block_height, rpc)}</td>
<td>${txLink(typeof row.last_tx_hash === 'string' ? row.last_tx_hash : null, rpc)}</td><td>${contractLink(row.last_contract, rpc)}</td><td>${text(row.last_function)}</td></tr>`;
  });
  const [prev, next] = pages('/explorer/addresses', rpc, offset, result.has_more);
  const body = html`<h1>Addresses</h1>
<div class="card">${table(['Address', 'Txs', 'Last block', 'Last tx', 'Last contract', 'Last function'], rows, 'No addresses indexed yet.')}${pager(prev, next)}</div>`;
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
    return html`<tr><td>${when(created)}</td><td>${contractLink(ev.contract, rpc)}</td><td>${text(ev.event)}</td>
<td>${addressLink(ev.signer, rpc)}</td><td>${txLink(typeof ev.tx_hash === 'string' ? ev.tx_hash : null, rpc)}</td>
<td class="wrap mono">${text({ ...obj(parseMaybe(ev.data_indexed)), ...obj(parseMaybe(ev.data)) })}</td></tr>`;
  });
  const [prev, next] = pages('/explorer/events', rpc, offset, items.length >= PAGE);
  const body = html`<h1>Events</h1>
<div class="card">${table(['Time', 'Contract', 'Event', 'Signer', 'Tx', 'Data'], rows, 'No events indexed yet.')}${pager(prev, next)}</div>`;
  return { title: 'Events', section: 'events', body };
}
