import type { JsonValue } from 'chainhost/chain';
import { tx } from '../../reads/block-reads.js';
import type { ReadContext } from '../../reads/node-targets.js';
import { payloadOf } from '../../reads/tx-decoding.js';
import { addressLink, blockLink, contractLink, kv, list, obj, pretty, status, table, text } from '../format.js';
import { html } from '../html.js';
import type { PageView } from '../layout.js';

/** `/explorer/tx/<hash>`: overview, payload, signature, result (state changes, events, rewards). */
export async function txPage(r: ReadContext, hash: string): Promise<PageView> {
  const t = await tx(r, hash);
  const rpc = r.peer;
  const p = payloadOf(t.tx_decoded);
  const meta = obj(t.tx_decoded.metadata);
  const out = obj(t.tx_result.data_decoded);
  const ok = t.tx_result.code === 0 && (out.status === undefined || out.status === 0);
  const chiUsed = out.chi_used ?? out.stamps_used;
  const { data_decoded: _decoded, ...rawResult } = t.tx_result;
  const stateRows = list(out.state).map((w) => {
    const write = obj(w);
    return html`<tr><td class="wrap mono">${text(write.key)}</td><td class="wrap mono">${text(write.value)}</td></tr>`;
  });
  const eventRows = list(out.events).map((e) => {
    const ev = obj(e);
    return html`<tr><td>${text(ev.event)}</td><td>${contractLink(ev.contract, rpc)}</td><td>${addressLink(ev.signer, rpc)}</td>
<td class="wrap mono">${text({ ...obj(ev.data_indexed), ...obj(ev.data) } as JsonValue)}</td></tr>`;
  });
  const body = html`<h1>Transaction</h1>
<div class="card">${kv([
    ['Hash', html`<span class="mono">${t.hash}</span>`],
    ['Status', status(ok)],
    ['Block', blockLink(t.height, rpc)],
    ['Index in block', String(t.index)],
    ['Chi used', text(chiUsed)],
    ['Result', html`<span class="mono">${text(out.result ?? out.error)}</span>`],
  ])}</div>
<h2>Payload</h2>
<div class="card">${'error' in t.tx_decoded && 'raw' in t.tx_decoded
    ? html`<p class="muted">The transaction could not be decoded: ${text(t.tx_decoded.error)}</p><pre tabindex="0">${text(t.tx_decoded.raw)}</pre>`
    : kv([
        ['Sender', addressLink(p.sender, rpc)],
        ['Contract', contractLink(p.contract, rpc)],
        ['Function', text(p.function)],
        ['Chain id', text(p.chain_id)],
        ['Nonce', text(p.nonce)],
        ['Chi supplied', text(p.chi_supplied ?? p.stamps_supplied)],
        ['Arguments', html`<pre tabindex="0">${pretty(p.kwargs ?? {})}</pre>`],
        ['Signature', html`<span class="mono">${text(meta.signature)}</span>`],
      ])}</div>
<h2>State changes</h2>
<div class="card">${table(['Key', 'Value'], stateRows, 'No state was written.')}</div>
<h2>Events</h2>
<div class="card">${table(['Event', 'Contract', 'Signer', 'Data'], eventRows, 'No events.')}</div>
${out.rewards ? html`<h2>Rewards</h2><div class="card"><pre tabindex="0">${pretty(out.rewards)}</pre></div>` : ''}
<h2>Raw</h2>
<div class="card"><pre tabindex="0">${pretty(rawResult)}</pre></div>`;
  return { title: `Tx ${t.hash.slice(0, 12)}`, section: 'blocks', body };
}
