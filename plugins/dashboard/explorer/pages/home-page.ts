import { readNode } from '../../http/node-errors.js';
import { blockchain } from '../../reads/block-reads.js';
import { rpcAddressOf, type NodeTargets, type ReadContext } from '../../reads/node-targets.js';
import { html } from '../html.js';
import type { PageView } from '../layout.js';
import { ago, blockLink, href, kv, pager, short, table } from '../format.js';

const PAGE = 20;

/**
 * `/explorer`: the node (chain id, height, sync state), the newest blocks (20 per page, paged
 * with `?max_height=`), the validator set and the P2P peers — a peer whose RPC address is
 * known links to an inspection of it (`?rpc=`), nothing else can be inspected.
 */
export async function homePage(r: ReadContext, targets: NodeTargets, maxHeight: number | undefined): Promise<PageView> {
  const [status, chain, validators, netInfo] = await Promise.all([
    readNode('status', () => r.node.status(r.call)),
    blockchain(r, maxHeight !== undefined ? Math.max(1, maxHeight - PAGE + 1) : undefined, maxHeight),
    readNode('validators', () => r.node.validators(undefined, { perPage: 100 }, r.call)),
    readNode('net_info', () => r.node.netInfo(r.call)),
  ]);
  const allowed = r.peer === null ? await targets.allowed(r.call).catch(() => new Set<string>()) : new Set<string>();
  const rpc = r.peer;
  const s = status.sync_info;
  const metas = chain.block_metas ?? [];
  const lowest = metas.length ? Number(metas[metas.length - 1]!.header.height) : 0;
  const highest = metas.length ? Number(metas[0]!.header.height) : 0;
  const latest = Number(chain.last_height);
  const newer = maxHeight !== undefined && highest < latest ? href('/explorer', rpc, { max_height: Math.min(latest, highest + PAGE) }) : null;
  const older = lowest > 1 ? href('/explorer', rpc, { max_height: lowest - 1 }) : null;

  const blockRows = metas.map((m) => html`<tr><td>${blockLink(m.header.height, rpc)}</td>
<td class="mono" title="${m.block_id.hash}">${short(m.block_id.hash)}</td><td>${m.num_txs}</td>
<td class="mono" title="${m.header.proposer_address}">${short(m.header.proposer_address, 8)}</td>
<td title="${m.header.time}">${ago(m.header.time)}</td></tr>`);
  const self = status.validator_info?.address;
  const validatorRows = (validators.validators ?? []).map((v) => html`<tr><td class="mono">${v.address}${v.address === self ? html` <span class="badge">self</span>` : ''}</td><td>${v.voting_power}</td><td>${v.proposer_priority}</td></tr>`);
  const peerRows = (netInfo.peers ?? []).map((p) => {
    const rpcUrl = peerRpc(p.node_info?.other?.rpc_address, p.remote_ip, allowed);
    return html`<tr><td>${p.node_info?.moniker ?? '—'}</td><td class="mono">${p.remote_ip}</td><td>${p.is_outbound ? 'out' : 'in'}</td>
<td>${rpcUrl ? html`<a href="${href('/explorer', null, { rpc: rpcUrl })}">inspect</a>` : html`<span class="muted">RPC unknown</span>`}</td></tr>`;
  });

  const body = html`<h1>${status.node_info.network}</h1>
<div class="card">${kv([
    ['Latest block', html`${blockLink(s.latest_block_height, rpc)} <span class="muted">${ago(s.latest_block_time)}</span>`],
    ['Block hash', html`<span class="mono">${s.latest_block_hash}</span>`],
    ['Earliest block', s.earliest_block_height],
    ['Catching up', s.catching_up ? 'yes' : 'no'],
    ['Moniker', status.node_info.moniker],
    ['Node id', html`<span class="mono">${status.node_info.id}</span>`],
    ['CometBFT', status.node_info.version],
    ['Peers', `${netInfo.n_peers}${netInfo.listening ? ' (listening)' : ''}`],
  ])}</div>
<h2>Blocks</h2>
<div class="card">${table(['Height', 'Hash', 'Txs', 'Proposer', 'Time'], blockRows, 'No blocks yet.')}${pager(newer, older)}</div>
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
