import { readNode } from '../../http/node-errors.js';
import type { ReadContext } from '../../reads/node-targets.js';
import { href, kv, when } from '../format.js';
import { html } from '../html.js';
import type { PageView } from '../layout.js';

/**
 * `/explorer/block/0`: the genesis state. CometBFT has no block 0, but the chain's indexes
 * record what genesis set (contracts, balances, token metadata) at height 0, so every "block
 * 0" link lands here: what genesis is, when the chain began, and where to go next.
 */
export async function genesisPage(r: ReadContext): Promise<PageView> {
  const { genesis } = await readNode('genesis', () => r.node.genesis(r.call));
  const rpc = r.peer;
  const first = Number(genesis.initial_height) || 1;
  const body = html`<h1>Genesis <span class="muted">(block 0)</span></h1>
<p class="lead">Block 0 is the chain's genesis state: the contracts, balances and token metadata it started with, set before block ${first}. It has no transactions of its own.</p>
<div class="card">${kv([
    ['Chain id', genesis.chain_id],
    ['Genesis time', when(genesis.genesis_time)],
    ['First block', html`<a href="${href(`/explorer/block/${first}`, rpc)}">Block ${first}</a>`],
    ['Genesis validators', String(genesis.validators?.length ?? 0)],
    ['Contracts', html`<a href="${href('/explorer/contracts', rpc, { sort: 'submitted_at', order: 'asc' })}">oldest first</a> <span class="muted">(the genesis contracts lead the list)</span>`],
  ])}</div>`;
  return { title: 'Genesis (block 0)', section: 'blocks', body };
}
