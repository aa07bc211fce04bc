import { ApiError } from 'chainhost/plugin';
import { passThrough } from '../../reads/abci-pass-through.js';
import type { ReadContext } from '../../reads/node-targets.js';
import { contractLink, kv, pretty } from '../format.js';
import { html } from '../html.js';
import type { PageView } from '../layout.js';

/** `/explorer/state?key=<contract>.<variable>[:<key>…]`: the current value of one state key. */
export async function statePage(r: ReadContext, key: string): Promise<PageView> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*\.[^/]+$/.test(key)) {
    throw ApiError.badRequest(`key must be a state key such as currency.balances:<address> (no "/"), got ${JSON.stringify(key.slice(0, 100))}`, { parameter: 'key' });
  }
  const { response } = await passThrough(r, `/get/${key}`);
  const contract = key.slice(0, key.indexOf('.'));
  const body = html`<h1 class="mono">${key}</h1>
<div class="card">${kv([
    ['Contract', contractLink(contract, r.peer)],
    ['Type', response.info || 'none'],
    ['Read at height', response.height],
    ['Value', response.value === null ? html`<span class="muted">not set</span>` : html`<pre tabindex="0">${typeof response.value === 'string' ? response.value : pretty(response.value)}</pre>`],
  ])}</div>`;
  return { title: key, section: null, body };
}
