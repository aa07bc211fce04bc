import { block, blockResults } from '../../reads/block-reads.js';
import type { ReadContext } from '../../reads/node-targets.js';
import { payloadOf } from '../../reads/tx-decoding.js';
import { blockLink, href, kv, list, obj, status, table, txLink, when } from '../format.js';
import { txSentences } from '../tx-sentence.js';
import { html } from '../html.js';
import type { PageView } from '../layout.js';

/** `/explorer/block/<height>`: header, transactions with their outcome, previous/next. */
export async function blockPage(r: ReadContext, height: number): Promise<PageView> {
  const [b, results, latest] = await Promise.all([
    block(r, height),
    blockResults(r, height),
    r.node.status(r.call).then((st) => Number(st.sync_info.latest_block_height), () => null),
  ]);
  const rpc = r.peer;
  const h = b.block.header;
  const facts = b.decoded_txs.map((tx, i) => {
    const p = payloadOf(tx);
    const res = results.txs_results?.[i];
    const outcome = obj(res?.data_decoded);
    const ok = res?.code === undefined ? null : res.code === 0 && (outcome.status === undefined || outcome.status === 0);
    return { contract: p.contract, function: p.function, kwargs: p.kwargs, sender: p.sender, ok, error: outcome.result ?? outcome.error ?? res?.log, events: list(outcome.events) };
  });
  const sentences = await txSentences(r, facts);
  const rows = b.decoded_txs.map((tx, i) => {
    const f = facts[i]!;
    return html`<tr><td>${i}</td><td>${txLink(tx.tx_hash, rpc)}</td><td class="what">${sentences[i]!.html}</td>
<td class="mono call">${sentences[i]!.call}</td><td>${status(f.ok)}</td></tr>`;
  });
  const body = html`<h1>Block ${h.height}</h1>
<div class="pager"><span>${height > 1 ? html`<a href="${href(`/explorer/block/${height - 1}`, rpc)}">← Block ${height - 1}</a>` : ''}</span>
<span>${latest !== null && height >= latest ? html`<span class="muted">Latest block</span>` : html`<a href="${href(`/explorer/block/${height + 1}`, rpc)}">Block ${height + 1} →</a>`}</span></div>
<div class="card">${kv([
    ['Hash', html`<span class="mono">${b.block_id.hash}</span>`],
    ['Time', when(h.time)],
    ['Chain id', h.chain_id],
    ['Transactions', String(b.decoded_txs.length)],
    ['Proposer', html`<span class="mono">${h.proposer_address}</span>`],
    ['Previous block', html`${blockLink(height > 1 ? height - 1 : null, rpc)} <span class="mono muted">${h.last_block_id?.hash ?? ''}</span>`],
    ['App hash', html`<span class="mono">${h.app_hash}</span>`],
    ['Data hash', html`<span class="mono">${h.data_hash}</span>`],
    ['Validators hash', html`<span class="mono">${h.validators_hash}</span>`],
    ['Results hash', html`<span class="mono">${h.last_results_hash}</span>`],
  ])}</div>
<h2>Transactions</h2>
<div class="card">${table(['#', 'Hash', 'What happened', 'Call', 'Status'], rows, 'This block has no transactions.')}</div>`;
  return { title: `Block ${h.height}`, section: 'blocks', body };
}
