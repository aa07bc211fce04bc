import type { JsonObject } from 'chainhost/chain';
import { addressOverview, ROWS } from '../../reads/token-reads.js';
import type { ReadContext } from '../../reads/node-targets.js';
import { addressLink, amt, blockLink, contractLink, href, kv, needsBds, pager, stateLink, table, text, tokenLink, txLink, age } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import type { PageView } from '../layout.js';
import { indexedTxSentences } from '../tx-sentence.js';

/**
 * `/explorer/address/<address>`: the native balance (node; works without BDS), every token
 * holding, transfers in and out (paged with the BDS id cursor `?before=`), the contracts it
 * deployed, the transactions it sent (`?offset=`) and its developer rewards. Each section that
 * needs BDS says so when BDS is not there.
 */
export async function addressPage(r: ReadContext, addr: string, page: { before?: number; offset: number }): Promise<PageView> {
  const o = await addressOverview(r, addr, page);
  const rpc = r.peer;
  const self = `/explorer/address/${encodeURIComponent(addr)}`;
  const balanceKey = `currency.balances:${addr}`;

  const holdings = o.holdings.ok
    ? table(['Token', 'Symbol', 'Balance', 'Updated', 'State key'], o.holdings.value.map((h) => html`<tr>
<td>${tokenLink(h.contract, h.name, rpc)}</td><td>${text(h.symbol)}</td><td class="num">${amt(h.balance)}</td>
<td>${blockLink(h.last_block_height, rpc)}</td><td>${stateLink(`${text(h.contract)}.balances:${addr}`, rpc, 'raw')}</td></tr>`), 'No token balances.')
    : needsBds(o.holdings.reason);

  const transfers = o.transfers.ok ? transferTable(o.transfers.value.items, addr, rpc) : needsBds(o.transfers.reason);
  const transferPager = o.transfers.ok
    ? pager(page.before !== undefined ? href(self, rpc) : null, o.transfers.value.next_before_id !== null ? href(self, rpc, { before: o.transfers.value.next_before_id }) : null)
    : html``;

  const contracts = o.contracts.ok
    ? table(['Contract', 'Deployed in block', 'When', 'Token'], o.contracts.value.map((c) => html`<tr><td>${contractLink(c.name, rpc)}</td>
<td>${blockLink(c.submitted_at_block, rpc)}</td><td>${age(c.submitted_at)}</td><td>${c.xsc001 === true ? tokenLink(c.name, 'XSC001', rpc) : ''}</td></tr>`), 'No contracts deployed by this address.')
    : needsBds(o.contracts.reason);

  const sentences = o.transactions.ok ? await indexedTxSentences(r, o.transactions.value.items) : [];
  const sent = o.transactions.ok
    ? table(['Hash', 'What happened', 'Block', 'When', 'Call', 'Status'], o.transactions.value.items.map((t, i) => html`<tr>
<td>${txLink(typeof t.tx_hash === 'string' ? t.tx_hash : null, rpc)}</td><td class="what">${sentences[i]!.html}</td><td>${blockLink(t.block_height, rpc)}</td><td>${age(t.created_at)}</td>
<td class="mono call">${sentences[i]!.call}</td><td>${t.success === false ? html`<span class="fail">Fail</span>` : html`<span class="ok">OK</span>`}</td></tr>`), 'No transactions from this address are indexed.')
    : needsBds(o.transactions.reason);
  const sentPager = o.transactions.ok
    ? pager(page.offset > 0 ? href(self, rpc, { offset: Math.max(0, page.offset - ROWS) }) : null, o.transactions.value.has_more ? href(self, rpc, { offset: page.offset + ROWS }) : null)
    : html``;

  const rewards = o.rewards as JsonObject | null;
  const body = html`<h1><span class="muted">Address</span> <span class="mono">${addr}</span></h1>
<div class="card">${kv([
    ['Balance', html`<strong class="num">${amt(o.balance === null ? '0' : o.balance)}</strong> <span class="muted">currency</span>`],
    ['Raw state', html`${stateLink(balanceKey, rpc)} <span class="muted">(the balance as the node stores it)</span>`],
    ['Developer rewards', rewards ? html`${amt(rewards.total_rewards)} <span class="muted">from ${text(rewards.reward_count)} rewards over ${text(rewards.tx_count)} transactions</span>` : html`<span class="muted">needs BDS</span>`],
  ])}</div>
<h2>Token holdings</h2>
<div class="card">${holdings}</div>
<h2>Transfers in and out</h2>
<div class="card">${transfers}${transferPager}</div>
<h2>Contracts deployed</h2>
<div class="card">${contracts}</div>
<h2>Transactions sent</h2>
<div class="card">${sent}${sentPager}</div>`;
  return { title: `Address ${addr.slice(0, 12)}`, section: 'addresses', body };
}

/** Transfer rows as seen from `addr`: direction, counterparty, exact amount, token, block, time, status. */
export function transferTable(items: JsonObject[], addr: string | null, rpc: string | null): SafeHtml {
  const rows = items.map((t) => {
    const direction = addr === null ? null : t.direction === 'in' ? 'in' : t.direction === 'self' ? 'self' : 'out';
    const counterparty = addr === null ? null : direction === 'in' ? t.sender : t.recipient;
    const data = (t.data_indexed ?? null) as JsonObject | null;
    const from = t.sender ?? data?.from;
    const to = t.recipient ?? data?.to;
    const value = t.amount ?? ((t.data ?? null) as JsonObject | null)?.amount;
    return html`<tr>${addr === null
      ? html`<td>${addressLink(from, rpc)}</td><td>${addressLink(to, rpc)}</td>`
      : html`<td><span class="${direction === 'in' ? 'in' : direction === 'out' ? 'out' : ''}">${direction === 'in' ? 'In' : direction === 'out' ? 'Out' : 'Self'}</span></td><td>${typeof counterparty === 'string' && counterparty !== '' ? addressLink(counterparty, rpc) : html`<span class="muted">${direction === 'in' ? 'minted' : 'none'}</span>`}</td>`}
<td class="num">${amt(value)}</td><td>${tokenLink(t.contract, t.symbol, rpc)}</td><td>${blockLink(t.block_height, rpc)}</td>
<td>${age(t.created_at)}</td><td>${t.success === false ? html`<span class="fail">Fail</span>` : html`<span class="ok">OK</span>`} ${txLink(typeof t.tx_hash === 'string' ? t.tx_hash : null, rpc)}</td></tr>`;
  });
  const head = addr === null ? ['From', 'To'] : ['Direction', 'Counterparty'];
  return table([...head, 'Amount', 'Token', 'Block', 'Time', 'Status · tx'], rows, 'No transfers indexed.');
}
