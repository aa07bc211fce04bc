import { readNode } from '../../http/node-errors.js';
import { rpcAddressOf, type NodeTargets, type ReadContext } from '../../reads/node-targets.js';
import { html, type SafeHtml } from '../html.js';
import type { PageView } from '../layout.js';
import { href, pager, table } from '../format.js';
import { activityChart, BLOCK_HEADERS, blockRow, latestCard, PAGE, readHomeActivity, TX_HEADERS, txRow } from './home-parts.js';

/**
 * `/explorer`: the node (chain id, height, sync state), a chart of transactions and chi per
 * block over the listed blocks, the newest blocks (20 per page, paged with `?max_height=`) and
 * their transactions in words, the validator set and the P2P peers — a peer whose RPC address
 * is known links to an inspection of it (`?rpc=`), nothing else can be inspected. On the first
 * page of the configured node, the card, the chart and the lists follow new blocks live when
 * JavaScript is on (`/ws` tells of a block, `/explorer/live` renders what changed).
 */
export async function homePage(r: ReadContext, targets: NodeTargets, maxHeight: number | undefined): Promise<PageView> {
  const [home, validators, netInfo] = await Promise.all([
    readHomeActivity(r, maxHeight),
    readNode('validators', () => r.node.validators(undefined, { perPage: 100 }, r.call)),
    readNode('net_info', () => r.node.netInfo(r.call)),
  ]);
  const allowed = r.peer === null ? await targets.allowed(r.call).catch(() => new Set<string>()) : new Set<string>();
  const rpc = r.peer;
  const { status, chain } = home;
  const metas = chain.block_metas ?? [];
  const lowest = metas.length ? Number(metas[metas.length - 1]!.header.height) : 0;
  const highest = metas.length ? Number(metas[0]!.header.height) : 0;
  const latest = Number(chain.last_height);
  const newer = maxHeight !== undefined && highest < latest ? href('/explorer', rpc, { max_height: Math.min(latest, highest + PAGE) }) : null;
  const older = lowest > 1 ? href('/explorer', rpc, { max_height: lowest - 1 }) : null;

  const live = rpc === null && maxHeight === undefined;
  const self = status.validator_info?.address;
  const validatorRows = (validators.validators ?? []).map((v) => html`<tr><td class="mono">${v.address}${v.address === self ? html` <span class="badge">self</span>` : ''}</td><td>${v.voting_power}</td><td>${v.proposer_priority}</td></tr>`);
  const peerRows = (netInfo.peers ?? []).map((p) => {
    const rpcUrl = peerRpc(p.node_info?.other?.rpc_address, p.remote_ip, allowed);
    return html`<tr><td>${p.node_info?.moniker ?? '—'}</td><td class="mono">${p.remote_ip}</td><td>${p.is_outbound ? 'out' : 'in'}</td>
<td>${rpcUrl ? html`<a href="${href('/explorer', null, { rpc: rpcUrl })}">inspect</a>` : html`<span class="muted">RPC unknown</span>`}</td></tr>`;
  });
  const peers = `${netInfo.n_peers}${netInfo.listening ? ' (listening)' : ''}`;

  const body = html`<h1>${status.node_info.network}</h1>
<div class="card" id="latest-card" data-peers="${peers}">${latestCard(status, peers, rpc)}</div>
<h2>Activity</h2>
<div class="card" id="activity">${activityChart(home.blocks)}</div>
${live ? html`<p id="live-status" class="muted" role="status" aria-live="polite" data-after="${highest}">Showing the blocks as of this page load; with JavaScript on, new ones appear here live.</p>` : ''}
<h2>Blocks</h2>
<div class="card">${liveTable('latest-blocks', 'Latest blocks', BLOCK_HEADERS, metas.map((m) => blockRow(m, rpc)), 'No blocks yet.')}${pager(newer, older)}</div>
<h2>Transactions</h2>
<div class="card">${liveTable('latest-txs', 'Latest transactions', TX_HEADERS, home.txs.map((t, i) => txRow(t, home.sentences[i]!, rpc)), 'No transactions in these blocks.')}</div>
<h2>Validators <span class="muted">(total power ${String(validators.validators?.reduce((n, v) => n + BigInt(v.voting_power), 0n) ?? 0n)})</span></h2>
<div class="card">${table(['Address', 'Power', 'Priority'], validatorRows, 'No validators.')}</div>
<h2>Peers</h2>
<div class="card">${table(['Moniker', 'Remote IP', 'Direction', 'Inspect'], peerRows, 'No peers.')}</div>`;
  return { title: maxHeight ? `Blocks up to ${maxHeight}` : 'Blocks', section: 'blocks', body };
}

/** The peer's inspectable RPC URL, only when it is on the allow-list. */
function peerRpc(address: string | undefined, remoteIp: string, allowed: Set<string>): string | null {
  const url = rpcAddressOf(address, remoteIp);
  return url && allowed.has(url) ? url : null;
}

/** A table that always has a body (the live script prepends to it), with an empty-state row. */
function liveTable(id: string, caption: string, headers: string[], rows: SafeHtml[], empty: string): SafeHtml {
  return html`<div class="scroll" tabindex="0"><table id="${id}"><caption class="sr-only">${caption}</caption><thead><tr>${headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${rows.length ? rows : html`<tr class="empty"><td colspan="${headers.length}" class="muted">${empty}</td></tr>`}</tbody></table></div>`;
}
