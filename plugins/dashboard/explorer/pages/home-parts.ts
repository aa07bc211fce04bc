import type { CometBft, ResultBlockchainInfo, ResultStatus } from 'chainhost/chain';
import { readNode } from '../../http/node-errors.js';
import { blockActivity, type BlockActivity, type RecentTx } from '../../reads/block-activity.js';
import { blockchain } from '../../reads/block-reads.js';
import type { ReadContext } from '../../reads/node-targets.js';
import { blockLink, kv, short, status as okStatus, text, txLink, when, age } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { barLineChart } from '../svg-chart.js';
import { txSentences, type TxSentence } from '../tx-sentence.js';

export const PAGE = 20;

/** What the home page and its live update both show: the node's status, the listed blocks, their transactions in words. */
export interface HomeActivity {
  status: ResultStatus;
  chain: ResultBlockchainInfo;
  blocks: BlockActivity[];
  txs: RecentTx[];
  sentences: TxSentence[];
}

export async function readHomeActivity(r: ReadContext, maxHeight: number | undefined): Promise<HomeActivity> {
  const [status, chain] = await Promise.all([
    readNode('status', () => r.node.status(r.call)),
    blockchain(r, maxHeight !== undefined ? Math.max(1, maxHeight - PAGE + 1) : undefined, maxHeight),
  ]);
  const activity = await blockActivity(r, chain.block_metas ?? []);
  const txs = activity.txs.slice(0, PAGE);
  const sentences = await txSentences(r, txs.map((t) => ({ contract: t.contract, function: t.function, kwargs: t.kwargs, sender: t.sender, ok: t.ok, error: t.error, events: t.events })));
  return { status, chain, blocks: activity.blocks, txs, sentences };
}

/** The "Latest block" card (replaced as a whole by the live update). */
export function latestCard(status: ResultStatus, peers: SafeHtml | string, rpc: string | null): SafeHtml {
  const s = status.sync_info;
  return kv([
    ['Latest block', html`<span data-live="latest-height">${blockLink(s.latest_block_height, rpc)}</span> · ${when(s.latest_block_time)}`],
    ['Block hash', html`<span class="mono">${s.latest_block_hash}</span>`],
    ['Earliest block', s.earliest_block_height],
    ['Catching up', s.catching_up ? 'yes' : 'no'],
    ['Moniker', status.node_info.moniker],
    ['Node id', html`<span class="mono">${status.node_info.id}</span>`],
    ['CometBFT', status.node_info.version],
    ['Peers', peers],
  ]);
}

/** Transactions (bars) and chi (line) per listed block, oldest on the left. */
export function activityChart(blocks: BlockActivity[]): SafeHtml {
  const chronological = [...blocks].reverse();
  if (!chronological.length) return html`<p class="muted">No blocks yet.</p>`;
  return barLineChart({
    title: `Transactions and chi per block, blocks ${chronological[0]!.height}–${chronological[chronological.length - 1]!.height}`,
    description: `Bars: transactions in each of the ${chronological.length} blocks listed below; line: chi used by them.`,
    bars: { name: 'txs', points: chronological.map((b) => ({ label: String(b.height), value: String(b.txs) })) },
    line: { name: 'chi', points: chronological.map((b) => ({ label: String(b.height), value: b.chi.toString() })) },
  });
}

export function blockRow(m: CometBft.BlockMeta, rpc: string | null): SafeHtml {
  return html`<tr data-height="${m.header.height}"><td>${blockLink(m.header.height, rpc)}</td>
<td class="mono" title="${m.block_id.hash}">${short(m.block_id.hash)}</td><td>${m.num_txs}</td>
<td class="mono" title="${m.header.proposer_address}">${short(m.header.proposer_address, 8)}</td>
<td>${age(m.header.time)}</td></tr>`;
}

export function txRow(t: RecentTx, sentence: TxSentence, rpc: string | null): SafeHtml {
  return html`<tr data-tx="${t.hash}"><td>${txLink(t.hash, rpc)}</td><td class="what">${sentence.html}</td><td>${blockLink(t.height, rpc)}</td>
<td class="mono call">${text(t.contract)}.${text(t.function)}</td><td>${age(t.time)}</td><td>${okStatus(t.ok)}</td></tr>`;
}

export const BLOCK_HEADERS = ['Height', 'Hash', 'Txs', 'Proposer', 'Time'];
export const TX_HEADERS = ['Hash', 'What happened', 'Block', 'Call', 'Time', 'Status'];
