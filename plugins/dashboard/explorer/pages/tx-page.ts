import type { JsonValue } from 'chainhost/chain';
import { blockchain, tx } from '../../reads/block-reads.js';
import { chiRate, feeOf, NATIVE_TOKEN } from '../../reads/chi-rate.js';
import type { ReadContext } from '../../reads/node-targets.js';
import { optionalAbciValue } from '../../reads/optional-value.js';
import { payloadOf } from '../../reads/tx-decoding.js';
import { addressLink, amt, blockLink, contractLink, href, kv, list, obj, plainJson, pretty, seg, valueCell, status, table, text, tokenLink, when } from '../format.js';
import { deploymentsOf, INLINE_IR_BYTES, IR_SUFFIX, prettyIr, sizeText, SOURCE_SUFFIX, type Deployment } from '../deployment.js';
import { eventDataTable } from '../event-data.js';
import { html, type SafeHtml } from '../html.js';
import { sourceListing } from '../python-highlight.js';
import type { PageView } from '../layout.js';
import { txSentences } from '../tx-sentence.js';

/**
 * `/explorer/tx/<hash>`: what happened in one sentence, then status, block and time, the fee in
 * the native token, who called what; the state it wrote; and one click away the call's
 * arguments, the events, the rewards and the raw result.
 */
export async function txPage(r: ReadContext, hash: string): Promise<PageView> {
  const t = await tx(r, hash);
  const rpc = r.peer;
  const p = payloadOf(t.tx_decoded);
  const meta = obj(t.tx_decoded.metadata);
  const out = obj(t.tx_result.data_decoded);
  const ok = t.tx_result.code === 0 && (out.status === undefined || out.status === 0);
  const chiUsed = out.chi_used ?? out.stamps_used;
  const chiSupplied = p.chi_supplied ?? p.stamps_supplied;
  const events = list(out.events);
  const [[sentence], rate, header, nativeSymbol] = await Promise.all([
    txSentences(r, [{ contract: p.contract, function: p.function, kwargs: p.kwargs, sender: p.sender, ok, error: out.result ?? out.error ?? t.tx_result.log, events }]),
    chiRate(r),
    blockchain(r, Number(t.height), Number(t.height)).then((c) => c.block_metas?.[0]?.header ?? null, () => null),
    optionalAbciValue(r, `/get/${NATIVE_TOKEN}.metadata:token_symbol`),
  ]);
  const native = tokenLink(NATIVE_TOKEN, typeof nativeSymbol === 'string' && nativeSymbol !== '' ? nativeSymbol : NATIVE_TOKEN, rpc);
  const fee = feeOf(chiUsed, chiSupplied, rate);
  const { data_decoded: _decoded, ...rawResult } = t.tx_result;
  const deployments = deploymentsOf(out.state, p);
  const stateRows = list(out.state).map((w) => {
    const write = obj(w);
    return html`<tr><td class="wrap mono">${text(write.key)}</td><td class="wrap mono">${writtenValue(write.key, write.value)}</td></tr>`;
  });
  const eventRows = events.map((e) => {
    const ev = obj(e);
    return html`<tr><td>${text(ev.event)}</td><td>${contractLink(ev.contract, rpc)}</td><td>${addressLink(ev.signer, rpc)}</td>
<td class="wrap">${eventDataTable(e, rpc)}</td></tr>`;
  });
  const decodeFailed = 'error' in t.tx_decoded && 'raw' in t.tx_decoded;
  const body = html`<h1>Transaction</h1>
<p class="lead">${sentence!.html}</p>
<div class="card">${kv([
    ['Status', ok ? status(true) : html`${status(false)} <span class="mono">${text(out.result ?? out.error ?? t.tx_result.log)}</span>`],
    ['Block', blockLink(t.height, rpc)],
    ['Time', header ? when(header.time) : html`<span class="muted">unknown</span>`],
    ['Fee', fee
      ? html`${amt(fee.fee, native)} <span class="muted">(${amt(chiUsed as JsonValue)} chi used of ${amt(chiSupplied as JsonValue)} supplied, at ${amt(fee.chi_rate)} chi per ${native})</span>`
      : html`<span class="muted">${text(chiUsed)} chi used (no chi rate to price it)</span>`],
    ['From', addressLink(p.sender, rpc)],
    ['Called', html`<span class="mono">${sentence!.call}</span>`],
    ['Hash', html`<span class="mono">${t.hash}</span>`],
  ])}</div>
${deployments.map((d) => deploymentSection(d, t.hash, rpc))}
<h2>State changes</h2>
<div class="card">${table(['Key', 'Value'], stateRows, 'No state was written.')}</div>
<h2>Details</h2>
<div class="card">
<details${decodeFailed ? ' open' : ''}><summary>Call and arguments</summary>${decodeFailed
    ? html`<p class="muted">The transaction could not be decoded: ${text(t.tx_decoded.error)}</p><pre tabindex="0">${text(t.tx_decoded.raw)}</pre>`
    : kv([
        ['Sender', addressLink(p.sender, rpc)],
        ['Contract', html`<span class="mono">${sentence!.call}</span>`],
        ['Function', text(p.function)],
        ['Arguments', html`<pre tabindex="0">${pretty(plainJson(shownKwargs(p, deployments)))}</pre>`],
        ['Chain id', text(p.chain_id)],
        ['Nonce', text(p.nonce)],
        ['Chi supplied', text(chiSupplied)],
        ['Index in block', String(t.index)],
        ['Signature', html`<span class="mono">${text(meta.signature)}</span>`],
      ])}</details>
<details><summary>Events (${events.length})</summary>${table(['Event', 'Contract', 'Signer', 'Data'], eventRows, 'No events.')}</details>
<details><summary>Result and rewards</summary>${kv([
    ['Result', html`<span class="mono">${text(out.result ?? out.error)}</span>`],
    ['Chi used', text(chiUsed)],
    ['Rewards', out.rewards ? html`<pre tabindex="0">${pretty(out.rewards)}</pre>` : '—'],
  ])}</details>
<details><summary>Raw result</summary><pre tabindex="0">${pretty(rawResult)}</pre></details>
</div>`;
  return { title: `Tx ${t.hash.slice(0, 12)}: ${sentence!.text.slice(0, 80)}`, section: 'blocks', body };
}

/** A written value; a deployment's source and IR are summarised here and shown in their own section. */
function writtenValue(key: JsonValue | undefined, value: JsonValue | undefined): SafeHtml {
  if (typeof key === 'string' && typeof value === 'string') {
    if (key.endsWith(SOURCE_SUFFIX)) return html`<span class="muted">the contract source (${value.split('\n').length} lines, ${sizeText(value)}) — shown above</span>`;
    if (key.endsWith(IR_SUFFIX)) return html`<span class="muted">the compiled IR (${sizeText(value)}) — above, collapsed, and downloadable</span>`;
  }
  return valueCell(value);
}

/** The call's kwargs with a deployment's `code` (shown highlighted above) summarised. */
function shownKwargs(p: { kwargs?: JsonValue }, deployments: Deployment[]): JsonValue {
  const kwargs = obj(p.kwargs ?? {});
  if (deployments.length === 0 || typeof kwargs.code !== 'string') return p.kwargs ?? {};
  return { ...kwargs, code: `(${kwargs.code.split('\n').length} lines of source, shown above)` };
}

/** A deployed contract: its source highlighted with line numbers; the IR collapsed, with a download. */
function deploymentSection(d: Deployment, hash: string, rpc: string | null): SafeHtml {
  const irBlock = d.ir === null
    ? html`<p class="muted">${d.submittedOnly ? 'No IR was stored: the deployment did not complete.' : 'This transaction wrote no IR.'}</p>`
    : html`<p><a href="${href(`/explorer/tx/${seg(hash)}/ir/${seg(d.contract)}`, rpc)}">Download the IR of ${d.contract} (JSON, ${sizeText(d.ir)})</a></p>
<details><summary>Compiled IR (${sizeText(d.ir)})</summary>${Buffer.byteLength(d.ir, 'utf8') <= INLINE_IR_BYTES
    ? html`<pre tabindex="0" role="region" aria-label="IR of ${d.contract}">${prettyIr(d.ir)}</pre>`
    : html`<p class="muted">Too large to show here; use the download.</p>`}</details>`;
  // A deployment that failed created no contract: its name is not a link (it would answer 404).
  return html`<h2>${d.submittedOnly ? html`Submitted contract <span class="mono">${d.contract}</span>` : html`Deployed contract ${contractLink(d.contract, rpc)}`}</h2>
<div class="card">${d.source !== null ? sourceListing(d.source, `Source of ${d.contract}`) : html`<p class="muted">No source stored (artifact only).</p>`}
${irBlock}</div>`;
}
