import { readNode } from '../../http/node-errors.js';
import { blockchain } from '../../reads/block-reads.js';
import { rpcAddressOf, type NodeTargets, type ReadContext } from '../../reads/node-targets.js';
import { html } from '../html.js';
import type { PageView } from '../layout.js';
import { blockActivity } from '../../reads/block-activity.js';
import { addressLink, blockLink, contractLink, href, kv, pager, short, status as okStatus, table, text, txLink, when } from '../format.js';
import { barLineChart } from '../svg-chart.js';
import { LIVE_SCRIPT_PATH } from '../live-route.js';

const PAGE = 20;

/**
 * `/explorer`: the node (chain id, height, sync state), a chart of transactions and chi per
 * block over the listed blocks, the newest blocks (20 per page, paged with `?max_height=`) and
 * their transactions, the validator set and the P2P peers — a peer whose RPC address is known
 * links to an inspection of it (`?rpc=`), nothing else can be inspected. On the first page of
 * the configured node, blocks and transactions arrive live over `/ws` when JavaScript is on.
 */
export async function homePage(r: ReadContext, targets: NodeTargets, maxHeight: number | undefined): Promise<PageView> {
  const [status, chain, validators, netInfo] = await Promise.all([
    readNode('status', () => r.node.status(r.call)),
    blockchain(r, maxHeight !== undefined ? Math.max(1, maxHeight - PAGE + 1) : undefined, maxHeight),
    readNode('validators', () => r.node.validators(undefined, { perPage: 100 }, r.call)),
    readNode('net_info', () => r.node.netInfo(r.call)),
  ]);
  const activity = await blockActivity(r, chain.block_metas ?? []);
  const allowed = r.peer === null ? await targets.allowed(r.call).catch(() => new Set<string>()) : new Set<string>();
  const rpc = r.peer;
  const s = status.sync_info;
  const metas = chain.block_metas ?? [];
  const lowest = metas.length ? Number(metas[metas.length - 1]!.header.height) : 0;
  const highest = metas.length ? Number(metas[0]!.header.height) : 0;
  const latest = Number(chain.last_height);
  const newer = maxHeight !== undefined && highest < latest ? href('/explorer', rpc, { max_height: Math.min(latest, highest + PAGE) }) : null;
  const older = lowest > 1 ? href('/explorer', rpc, { max_height: lowest - 1 }) : null;

  const live = rpc === null && maxHeight === undefined;
  const blockRows = metas.map((m) => html`<tr data-height="${m.header.height}"><td>${blockLink(m.header.height, rpc)}</td>
<td class="mono" title="${m.block_id.hash}">${short(m.block_id.hash)}</td><td>${m.num_txs}</td>
<td class="mono" title="${m.header.proposer_address}">${short(m.header.proposer_address, 8)}</td>
<td>${when(m.header.time)}</td></tr>`);
  const txRows = activity.txs.slice(0, PAGE).map((t) => html`<tr data-tx="${t.hash}"><td>${txLink(t.hash, rpc)}</td><td>${blockLink(t.height, rpc)}</td>
<td>${contractLink(t.contract, rpc)}</td><td>${text(t.function)}</td><td>${addressLink(t.sender, rpc)}</td><td>${when(t.time)}</td><td>${okStatus(t.ok)}</td></tr>`);
  const chronological = [...activity.blocks].reverse();
  const chart = chronological.length
    ? barLineChart({
        title: `Transactions and chi per block, blocks ${chronological[0]!.height}–${chronological[chronological.length - 1]!.height}`,
        description: `Bars: transactions in each of the ${chronological.length} blocks listed below; line: chi used by them.`,
        bars: { name: 'txs', points: chronological.map((b) => ({ label: String(b.height), value: String(b.txs) })) },
        line: { name: 'chi', points: chronological.map((b) => ({ label: String(b.height), value: b.chi.toString() })) },
      })
    : html``;
  const self = status.validator_info?.address;
  const validatorRows = (validators.validators ?? []).map((v) => html`<tr><td class="mono">${v.address}${v.address === self ? html` <span class="badge">self</span>` : ''}</td><td>${v.voting_power}</td><td>${v.proposer_priority}</td></tr>`);
  const peerRows = (netInfo.peers ?? []).map((p) => {
    const rpcUrl = peerRpc(p.node_info?.other?.rpc_address, p.remote_ip, allowed);
    return html`<tr><td>${p.node_info?.moniker ?? '—'}</td><td class="mono">${p.remote_ip}</td><td>${p.is_outbound ? 'out' : 'in'}</td>
<td>${rpcUrl ? html`<a href="${href('/explorer', null, { rpc: rpcUrl })}">inspect</a>` : html`<span class="muted">RPC unknown</span>`}</td></tr>`;
  });

  const body = html`<h1>${status.node_info.network}</h1>
<div class="card">${kv([
    ['Latest block', html`${blockLink(s.latest_block_height, rpc)} · ${when(s.latest_block_time)}`],
    ['Block hash', html`<span class="mono">${s.latest_block_hash}</span>`],
    ['Earliest block', s.earliest_block_height],
    ['Catching up', s.catching_up ? 'yes' : 'no'],
    ['Moniker', status.node_info.moniker],
    ['Node id', html`<span class="mono">${status.node_info.id}</span>`],
    ['CometBFT', status.node_info.version],
    ['Peers', `${netInfo.n_peers}${netInfo.listening ? ' (listening)' : ''}`],
  ])}</div>
<h2>Activity</h2>
<div class="card">${chart || html`<p class="muted">No blocks yet.</p>`}</div>
${live ? html`<p id="live-status" class="muted" role="status" aria-live="polite">Showing the blocks as of this page load; with JavaScript on, new ones appear here live.</p>` : ''}
<h2>Blocks</h2>
<div class="card">${liveTable('latest-blocks', 'Latest blocks', ['Height', 'Hash', 'Txs', 'Proposer', 'Time'], blockRows, 'No blocks yet.')}${pager(newer, older)}</div>
<h2>Transactions</h2>
<div class="card">${liveTable('latest-txs', 'Latest transactions', ['Hash', 'Block', 'Contract', 'Function', 'Sender', 'Time', 'Status'], txRows, 'No transactions in these blocks.')}</div>
<h2>Validators <span class="muted">(total power ${String(validators.validators?.reduce((n, v) => n + BigInt(v.voting_power), 0n) ?? 0n)})</span></h2>
<div class="card">${table(['Address', 'Power', 'Priority'], validatorRows, 'No validators.')}</div>
<h2>Peers</h2>
<div class="card">${table(['Moniker', 'Remote IP', 'Direction', 'Inspect'], peerRows, 'No peers.')}</div>`;
  return { title: maxHeight ? `Blocks up to ${maxHeight}` : 'Blocks', section: 'blocks', body, scripts: live ? [LIVE_SCRIPT_PATH] : [] };
}

/** The peer's inspectable RPC URL, only when it is on the allow-list. */
function peerRpc(address: string | undefined, remoteIp: string, allowed: Set<string>): string | null {
  const url = rpcAddressOf(address, remoteIp);
  return url && allowed.has(url) ? url : null;
}

/** A table that always has a body (the live script prepends to it), with an empty-state row. */
function liveTable(id: string, caption: string, headers: string[], rows: ReturnType<typeof html>[], empty: string) {
  return html`<div class="scroll" tabindex="0"><table id="${id}"><caption class="sr-only">${caption}</caption><thead><tr>${headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${rows.length ? rows : html`<tr class="empty"><td colspan="${headers.length}" class="muted">${empty}</td></tr>`}</tbody></table></div>`;
}
