import type { JsonValue } from '../../../../core/chain/abci-value.js';
import { address, addresses } from '../../reads/address-reads.js';
import { recentEvents } from '../../reads/contract-reads.js';
import type { ReadContext } from '../../reads/node-targets.js';
import { addressLink, ago, blockLink, contractLink, href, kv, list, obj, pager, table, text, txLink } from '../format.js';
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

/** `/explorer/address/<address>` (BDS): the address's transactions and developer rewards. */
export async function addressPage(r: ReadContext, addr: string, offset: number): Promise<PageView> {
  const result = await address(r, addr, { limit: PAGE, offset });
  const rpc = r.peer;
  const rewards = obj(result.developer_rewards);
  const rows = result.transactions.map((t) => {
    const row = obj(t);
    return html`<tr><td>${txLink(typeof row.tx_hash === 'string' ? row.tx_hash : null, rpc)}</td><td>${blockLink(row.block_height, rpc)}</td>
<td>${contractLink(row.contract, rpc)}</td><td>${text(row.function)}</td><td>${row.success === false ? html`<span class="fail">Fail</span>` : html`<span class="ok">OK</span>`}</td></tr>`;
  });
  const [prev, next] = pages(`/explorer/address/${encodeURIComponent(addr)}`, rpc, offset, result.has_more);
  const body = html`<h1 class="mono">${addr}</h1>
${result.developer_rewards ? html`<div class="card">${kv([
    ['Developer rewards', text(rewards.total_rewards)],
    ['Reward count', text(rewards.reward_count)],
    ['Rewarded txs', text(rewards.tx_count)],
    ['Contracts', text(rewards.contract_count)],
  ])}</div>` : ''}
<h2>Transactions sent</h2>
<div class="card">${table(['Hash', 'Block', 'Contract', 'Function', 'Status'], rows, 'No transactions from this address are indexed.')}${pager(prev, next)}</div>`;
  return { title: `Address ${addr.slice(0, 12)}`, section: 'addresses', body };
}

/** `/explorer/events` (BDS): the newest contract events. */
export async function eventsPage(r: ReadContext, offset: number): Promise<PageView> {
  const result = obj(await recentEvents(r, { limit: PAGE, offset }));
  const rpc = r.peer;
  const items = list(result.items);
  const rows = items.map((e) => {
    const ev = obj(e);
    const created = typeof ev.created_at === 'string' ? ev.created_at : null;
    return html`<tr><td title="${created ?? ''}">${ago(created)}</td><td>${contractLink(ev.contract, rpc)}</td><td>${text(ev.event)}</td>
<td>${addressLink(ev.signer, rpc)}</td><td>${txLink(typeof ev.tx_hash === 'string' ? ev.tx_hash : null, rpc)}</td>
<td class="wrap mono">${text({ ...obj(parseMaybe(ev.data_indexed)), ...obj(parseMaybe(ev.data)) })}</td></tr>`;
  });
  const [prev, next] = pages('/explorer/events', rpc, offset, items.length >= PAGE);
  const body = html`<h1>Events</h1>
<div class="card">${table(['Time', 'Contract', 'Event', 'Signer', 'Tx', 'Data'], rows, 'No events indexed yet.')}${pager(prev, next)}</div>`;
  return { title: 'Events', section: 'events', body };
}

/** BDS JSONB columns may arrive as JSON text (bds.md §6.2). */
function parseMaybe(value: JsonValue | undefined): JsonValue | undefined {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as JsonValue;
  } catch {
    return value;
  }
}
