import type { JsonValue } from 'chainhost/chain';
import { contract, contracts, type CONTRACT_SORTS, type SORT_ORDERS } from '../../reads/contract-reads.js';
import type { ReadContext } from '../../reads/node-targets.js';
import { contractActivity } from '../../reads/token-reads.js';
import { optionalAbciValue } from '../../reads/optional-value.js';
import { addressLink, amt, blockLink, contractLink, href, kv, list, needsBds, obj, pager, parseMaybe, plainJson, table, text, tokenLink, txLink, when, age } from '../format.js';
import { highlightPython } from '../python-highlight.js';
import { html } from '../html.js';
import type { PageView } from '../layout.js';
import { indexedTxSentences } from '../tx-sentence.js';

const PAGE = 50;

/** `/explorer/contracts`: every deployed contract (node state), sortable by creation or name. */
export async function contractsPage(
  r: ReadContext,
  q: { offset: number; sort: (typeof CONTRACT_SORTS)[number]; order: (typeof SORT_ORDERS)[number] },
): Promise<PageView> {
  const result = obj(await contracts(r, { limit: PAGE, ...q }));
  const rpc = r.peer;
  const items = list(result.items);
  const total = typeof result.total === 'number' ? result.total : null;
  const rows = items.map((c) => {
    const item = obj(c);
    return html`<tr><td>${contractLink(item.name, rpc)}</td><td>${text(item.submitted_at)}</td><td>${addressLink(item.developer, rpc)}</td>
<td>${item.has_source === false ? html`<span class="muted">artifact only</span>` : 'source'}</td></tr>`;
  });
  const sortLink = (sort: string, order: string, label: string) =>
    html`<a href="${href('/explorer/contracts', rpc, { sort, order })}">${label}</a>`;
  const prev = q.offset > 0 ? href('/explorer/contracts', rpc, { sort: q.sort, order: q.order, offset: Math.max(0, q.offset - PAGE) }) : null;
  const more = total !== null ? q.offset + items.length < total : items.length >= PAGE;
  const next = more ? href('/explorer/contracts', rpc, { sort: q.sort, order: q.order, offset: q.offset + PAGE }) : null;
  const body = html`<h1>Contracts${total !== null ? html` <span class="muted">(${total})</span>` : ''}</h1>
<p>Sort: ${sortLink('submitted_at', 'desc', 'newest')} · ${sortLink('submitted_at', 'asc', 'oldest')} · ${sortLink('name', 'asc', 'name A–Z')} · ${sortLink('name', 'desc', 'name Z–A')}</p>
<div class="card">${table(['Name', 'Created', 'Developer', 'Code'], rows, 'No contracts.')}${pager(prev, next)}</div>`;
  return { title: 'Contracts', section: 'contracts', body };
}

/**
 * `/explorer/contract/<name>`: who made it, when, its functions with their arguments, variables,
 * the source highlighted on the server, and (BDS) its recent calls and events.
 */
export async function contractPage(r: ReadContext, name: string): Promise<PageView> {
  const [c, activity, tokenName] = await Promise.all([contract(r, name), contractActivity(r, name), optionalAbciValue(r, `/get/${name}.metadata:token_name`)]);
  const rpc = r.peer;
  const callSentences = activity.calls.ok ? await indexedTxSentences(r, activity.calls.value) : [];
  const m = c.metadata;
  const s = obj(c.summary);
  const methods = c.methods.map((method) => {
    const me = obj(method);
    const args = list(me.arguments).map((a) => {
      const arg = obj(a);
      return `${text(arg.name)}${arg.type ? `: ${text(arg.type)}` : ''}`;
    });
    return html`<li class="mono">${text(me.name)}(${args.join(', ')})</li>`;
  });
  const vars = obj(c.variables);
  const names = (value: JsonValue | undefined) => list(value).map((v) => (typeof v === 'string' ? v : text(obj(v).name)));
  const body = html`<h1>Contract ${c.name}</h1>
<div class="card">${kv([
    ['Owner', addressLink(m.owner, rpc)],
    ['Developer', addressLink(m.developer, rpc)],
    ['Deployer', addressLink(m.deployer, rpc)],
    ['Initiator', addressLink(m.initiator, rpc)],
    ['Created', when(m.submitted_at ?? s.submitted_at)],
    ['Created in block', blockLink(s.submitted_at_block, rpc)],
    ['Last transaction', txLink(typeof s.last_tx_hash === 'string' ? s.last_tx_hash : null, rpc)],
    ['Indexed transactions', text(s.tx_count)],
    ['Generated rewards', amt(s.total_rewards)],
    ...(typeof tokenName === 'string' || s.xsc001 === true ? [['Token', tokenLink(name, typeof tokenName === 'string' ? tokenName : name, rpc)] as [string, ReturnType<typeof html>]] : []),
  ])}${c.summary === null ? html`<p class="muted">Indexed history (creation block, transaction count, rewards) needs BDS.</p>` : ''}</div>
<h2>Functions</h2>
<div class="card">${methods.length ? html`<ul>${methods}</ul>` : html`<p class="muted">No exported functions.</p>`}</div>
<h2>State</h2>
<div class="card">${kv([
    ['Variables', names(vars.variables).join(', ') || '—'],
    ['Hashes', names(vars.hashes).join(', ') || '—'],
  ])}</div>
<h2>Recent calls</h2>
<div class="card">${activity.calls.ok
    ? table(['Hash', 'What happened', 'Block', 'When', 'Function', 'Sender', 'Status'], activity.calls.value.map((t, i) => html`<tr><td>${txLink(typeof t.tx_hash === 'string' ? t.tx_hash : null, rpc)}</td>
<td class="what">${callSentences[i]!.html}</td><td>${blockLink(t.block_height, rpc)}</td><td>${age(t.created_at)}</td><td>${text(t.function)}</td><td>${addressLink(t.sender, rpc)}</td>
<td>${t.success === false ? html`<span class="fail">Fail</span>` : html`<span class="ok">OK</span>`}</td></tr>`), 'No calls indexed.')
    : needsBds(activity.calls.reason)}</div>
<h2>Recent events</h2>
<div class="card">${activity.events.ok
    ? table(['When', 'Event', 'Data', 'Signer', 'Tx'], activity.events.value.items.map((e) => html`<tr><td>${age(e.created_at)}</td><td>${text(e.event)}</td>
<td class="wrap mono">${text(plainJson({ ...obj(parseMaybe(e.data_indexed)), ...obj(parseMaybe(e.data)) }))}</td><td>${addressLink(e.signer, rpc)}</td>
<td>${txLink(typeof e.tx_hash === 'string' ? e.tx_hash : null, rpc)}</td></tr>`), 'No events indexed.')
    : needsBds(activity.events.reason)}</div>
<h2>Source</h2>
<div class="card">${c.source !== null ? html`<pre class="source" tabindex="0"><code class="language-python">${highlightPython(c.source)}</code></pre>` : html`<p class="muted">No source stored (artifact only).</p>`}</div>`;
  return { title: `Contract ${c.name}`, section: 'contracts', body };
}
