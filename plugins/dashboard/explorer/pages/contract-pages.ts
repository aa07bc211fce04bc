import type { JsonValue } from 'chainhost/chain';
import { contract, contracts, type CONTRACT_SORTS, type SORT_ORDERS } from '../../reads/contract-reads.js';
import type { ReadContext } from '../../reads/node-targets.js';
import { contractActivity } from '../../reads/token-reads.js';
import { optionalAbciValue } from '../../reads/optional-value.js';
import { hashPage, variableValues, type HashPage } from '../../reads/contract-state.js';
import { addressLink, amt, blockLink, contractLink, href, kv, list, needsBds, obj, pager, seg, table, text, tokenLink, txLink, when, age } from '../format.js';
import { sourceListing } from '../python-highlight.js';
import { eventDataTable } from '../event-data.js';
import { html } from '../html.js';
import { hashEntriesTable, variablesTable } from './contract-state-parts.js';
import type { PageView } from '../layout.js';
import { indexedTxSentences } from '../tx-sentence.js';

const PAGE = 50;
/** Entries of each Hash shown on the contract page (the rest one click away, paged). */
const HASH_PREVIEW = 10;
/** Hashes whose entries the contract page reads (more are linked by name). */
const MAX_HASH_PREVIEWS = 10;
/** Entries on one page of a Hash. */
const HASH_PAGE = 50;

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
  const vars = obj(c.variables);
  const names = (value: JsonValue | undefined) => list(value).map((v) => (typeof v === 'string' ? v : text(obj(v).name)));
  const variableNames = names(vars.variables);
  const hashNames = names(vars.hashes);
  const [values, hashes] = await Promise.all([
    variableValues(r, name, variableNames),
    Promise.all(hashNames.slice(0, MAX_HASH_PREVIEWS).map((hash) => hashPage(r, name, hash, { limit: HASH_PREVIEW }))),
  ]);
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
  // The deployment (BDS `contracts.last_tx_hash`; `GENESIS` for genesis contracts) and the newest call, which is the last transaction when there is one.
  const deployTx = typeof s.last_tx_hash === 'string' ? s.last_tx_hash : null;
  const lastTx = newestTx([
    ...(activity.calls.ok ? activity.calls.value.slice(0, 1) : []),
    ...(activity.events.ok ? activity.events.value.items.slice(0, 1) : []),
  ]) ?? deployTx;
  const body = html`<h1>Contract ${c.name}</h1>
<div class="card">${kv([
    ['Owner', addressLink(m.owner, rpc)],
    ['Developer', addressLink(m.developer, rpc)],
    ['Deployer', addressLink(m.deployer, rpc)],
    ['Initiator', addressLink(m.initiator, rpc)],
    ['Created', when(m.submitted_at ?? s.submitted_at)],
    ['Created in block', blockLink(s.submitted_at_block, rpc)],
    ['Deployed by', txLink(deployTx, rpc)],
    ['Last transaction', activity.calls.ok || deployTx ? txLink(lastTx, rpc) : needsBds(activity.calls.reason)],
    ['Indexed transactions', text(s.tx_count)],
    ['Generated rewards', amt(s.total_rewards)],
    ...(typeof tokenName === 'string' || s.xsc001 === true ? [['Token', tokenLink(name, typeof tokenName === 'string' ? tokenName : name, rpc)] as [string, ReturnType<typeof html>]] : []),
  ])}${c.summary === null ? html`<p class="muted">Indexed history (creation block, transaction count, rewards) needs BDS.</p>` : ''}</div>
<h2>Functions</h2>
<div class="card">${methods.length ? html`<ul>${methods}</ul>` : html`<p class="muted">No exported functions.</p>`}</div>
<h2>Variables</h2>
<div class="card">${variablesTable(name, variableNames, values, rpc)}</div>
<h2>Hashes</h2>
${hashNames.length === 0 ? html`<div class="card"><p class="muted">No hashes.</p></div>` : hashNames.map((hash, i) => html`<div class="card"><h3 class="mono">${hash}</h3>${hashes[i]
    ? hashEntriesTable(name, hash, hashes[i] as HashPage, rpc, `All entries of ${hash} →`)
    : html`<p><a href="${href(`/explorer/contract/${seg(name)}/hash/${seg(hash)}`, rpc)}">Entries of ${hash} →</a></p>`}</div>`)}
<h2>Recent calls</h2>
<div class="card">${activity.calls.ok
    ? table(['Hash', 'What happened', 'Block', 'When', 'Function', 'Sender', 'Status'], activity.calls.value.map((t, i) => html`<tr><td>${txLink(typeof t.tx_hash === 'string' ? t.tx_hash : null, rpc)}</td>
<td class="what">${callSentences[i]!.html}</td><td>${blockLink(t.block_height, rpc)}</td><td>${age(t.created_at)}</td><td>${text(t.function)}</td><td>${addressLink(t.sender, rpc)}</td>
<td>${t.success === false ? html`<span class="fail">Fail</span>` : html`<span class="ok">OK</span>`}</td></tr>`), 'No calls indexed.')
    : needsBds(activity.calls.reason)}</div>
<h2>Recent events</h2>
<div class="card">${activity.events.ok
    ? table(['When', 'Event', 'Data', 'Signer', 'Tx'], activity.events.value.items.map((e) => html`<tr><td>${age(e.created_at)}</td><td>${text(e.event)}</td>
<td class="wrap">${eventDataTable(e, rpc)}</td><td>${addressLink(e.signer, rpc)}</td>
<td>${txLink(typeof e.tx_hash === 'string' ? e.tx_hash : null, rpc)}</td></tr>`), 'No events indexed.')
    : needsBds(activity.events.reason)}</div>
<h2>Source</h2>
<div class="card">${c.source !== null ? sourceListing(c.source, `Source of ${c.name}`) : html`<p class="muted">No source stored (artifact only).</p>`}
<p><a href="${href(`/explorer/contract/${seg(c.name)}/ir`, rpc)}">Download the compiled IR (JSON)</a></p></div>`;
  return { title: `Contract ${c.name}`, section: 'contracts', body };
}

/** `/explorer/contract/<name>/hash/<hash>?after=<key>`: a Hash's entries and their values, one bounded page at a time. */
export async function hashEntriesPage(r: ReadContext, q: { name: string; hash: string; after?: string }): Promise<PageView> {
  const page = await hashPage(r, q.name, q.hash, { limit: HASH_PAGE, after: q.after });
  const rpc = r.peer;
  const first = q.after ? html`<p><a href="${href(`/explorer/contract/${seg(q.name)}/hash/${seg(q.hash)}`, rpc)}">← First entries</a></p>` : '';
  const body = html`<h1>${contractLink(q.name, rpc)}<span class="mono">.${q.hash}</span></h1>
<div class="card">${q.after ? html`<p class="muted">Entries after <span class="mono">${q.after}</span></p>` : ''}${hashEntriesTable(q.name, q.hash, page, rpc, 'Next entries →')}${first}</div>`;
  return { title: `${q.name}.${q.hash}`, section: 'contracts', body };
}

/**
 * The newest transaction among the newest call to a contract and the newest event it emitted
 * (an inner call — `currency.transfer_from` inside another contract — touches a contract without
 * calling it directly), ordered by block height, then position in the block.
 */
function newestTx(rows: Array<Record<string, JsonValue>>): string | null {
  let best: { hash: string; height: number; index: number } | null = null;
  for (const row of rows) {
    const height = Number(row.block_height);
    const index = Number(row.tx_index ?? 0);
    if (typeof row.tx_hash !== 'string' || !Number.isFinite(height)) continue;
    if (!best || height > best.height || (height === best.height && index > best.index)) best = { hash: row.tx_hash, height, index };
  }
  return best?.hash ?? null;
}
