import type { JsonObject } from 'chainhost/chain';
import { existingContracts, isObject } from '../reads/contract-reads.js';
import { optionalBds } from '../reads/optional-bds.js';
import type { ReadContext } from '../reads/node-targets.js';
import { optionalAbciValue } from '../reads/optional-value.js';
import { PAIRS_CONTRACT } from '../reads/dex-reads.js';
import { addressLink, amt, contractLink, pairLink, readable, amount, text, tokenLink } from './format.js';
import { html, type SafeHtml } from './html.js';
import { describeTx, pairIdsOf, tokensOf, type Part, type TxFacts } from './tx-description.js';

/** A transaction's sentence as markup (links, readable amounts with exact titles) and as plain text. */
export interface TxSentence {
  html: SafeHtml;
  text: string;
  /** `contract.function`, the contract linked only when one is deployed under that name. */
  call: SafeHtml;
}

/**
 * Describes transactions for one page: reads what the sentences need — the tokens of the DEX
 * pairs their events name and the symbols of the tokens they move — once for all of them (a
 * bounded number of node reads: distinct pairs and tokens on the page), then renders each.
 */
export async function txSentences(r: ReadContext, txs: TxFacts[]): Promise<TxSentence[]> {
  const pairIds = [...new Set(txs.flatMap((tx) => pairIdsOf(tx.events)))];
  const pairs = new Map(
    (await Promise.all(pairIds.map(async (id) => {
      const [t0, t1] = await Promise.all([0, 1].map((n) => optionalAbciValue(r, `/get/${PAIRS_CONTRACT}.pairs:${id}:token${n}`)));
      return typeof t0 === 'string' && typeof t1 === 'string' ? [[id, [t0, t1] as const] as const] : [];
    }))).flat(),
  );
  const described = txs.map((tx) => describeTx(tx, pairs));
  const tokens = [...new Set(described.flatMap(tokensOf))];
  const named = [
    ...described.flatMap((parts) => parts.flatMap((p) => (p.kind === 'contract' ? [p.name] : []))),
    ...txs.flatMap((tx) => (typeof tx.contract === 'string' ? [tx.contract] : [])),
  ];
  const [symbols, known] = await Promise.all([
    Promise.all(tokens.map(async (c) => {
      const symbol = await optionalAbciValue(r, `/get/${c}.metadata:token_symbol`);
      return typeof symbol === 'string' && symbol !== '' ? [[c, symbol] as const] : [];
    })).then((found) => new Map(found.flat())),
    existingContracts(r, named),
  ]);
  return described.map((parts, i) => ({
    html: renderParts(parts, symbols, known, r.peer),
    text: partsText(parts, symbols),
    call: html`${knownContractLink(txs[i]!.contract, known, r.peer)}.${text(txs[i]!.function)}`,
  }));
}

/** A contract by name: a link when it is deployed, plain text when not (a call to a missing contract). */
function knownContractLink(name: unknown, known: ReadonlySet<string>, rpc: string | null): SafeHtml {
  if (typeof name !== 'string' || name === '') return html`—`;
  return known.has(name) ? contractLink(name, rpc) : html`<span class="mono">${name}</span>`;
}

function renderParts(parts: Part[], symbols: ReadonlyMap<string, string>, known: ReadonlySet<string>, rpc: string | null): SafeHtml {
  return html`<span class="sentence">${parts.map((p) => {
    switch (p.kind) {
      case 'text': return html`${p.text}`;
      case 'amount': return amt(p.value, p.token ? tokenLink(p.token, symbols.get(p.token) ?? p.token, rpc) : undefined);
      case 'address': return addressLink(p.address, rpc);
      case 'contract': return knownContractLink(p.name, known, rpc);
      case 'pair': return pairLink(p.id, `#${p.id}`, rpc);
      case 'error': return html`<span class="fail-reason">${p.text}</span>`;
    }
  })}</span>`;
}

/** The sentence as plain text (page titles, tests): amounts readable, tokens by symbol. */
export function partsText(parts: Part[], symbols: ReadonlyMap<string, string> = new Map()): string {
  return parts.map((p) => {
    switch (p.kind) {
      case 'text': return p.text;
      case 'amount': return `${readable(amount(p.value))}${p.token ? ` ${symbols.get(p.token) ?? p.token}` : ''}`;
      case 'address': return p.address;
      case 'contract': return p.name;
      case 'pair': return `#${p.id}`;
      case 'error': return p.text;
    }
  }).join('');
}

/**
 * Sentences for indexed transaction rows (BDS `transactions` rows: `payload`, `success`,
 * `result`): the events of each successful one are read from the index (`/events_for_tx`, one
 * read per listed row, in parallel), so a listing says what each call did, not just its name.
 */
export async function indexedTxSentences(r: ReadContext, rows: JsonObject[]): Promise<TxSentence[]> {
  const facts = await Promise.all(rows.map(async (row): Promise<TxFacts> => {
    const payload = isObject(row.payload) ? row.payload : {};
    const ok = row.success === false ? false : row.success === true ? true : null;
    const events = ok && typeof row.tx_hash === 'string'
      ? await optionalBds(r, `/events_for_tx/${row.tx_hash}`, 'the events of a transaction', (v) => (Array.isArray(v) ? v : isObject(v) && Array.isArray(v.items) ? v.items : []))
      : null;
    return {
      contract: row.contract ?? payload.contract, function: row.function ?? payload.function, kwargs: payload.kwargs, sender: row.sender ?? payload.sender,
      ok, error: row.result, events: events?.ok ? events.value : undefined,
    };
  }));
  return txSentences(r, facts);
}
