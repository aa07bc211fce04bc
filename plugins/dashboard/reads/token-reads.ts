import type { JsonObject, JsonValue } from 'chainhost/chain';
import { isObject } from './contract-reads.js';
import type { ReadContext } from './node-targets.js';
import { optionalAbciValue } from './optional-value.js';
import { optionalBds, type BdsSection } from './optional-bds.js';

/** The explorer's per-page bound on listed rows. */
export const ROWS = 25;

export interface Listing {
  items: JsonObject[];
  next_before_id: number | null;
}

/** The `items` of a BDS page (objects only). */
export function listItems(value: JsonValue): JsonObject[] {
  return isObject(value) && Array.isArray(value.items) ? value.items.filter(isObject) : [];
}

/** A BDS page and its `next_before_id` cursor. */
export function listing(value: JsonValue): Listing {
  const next = isObject(value) && typeof value.next_before_id === 'number' ? value.next_before_id : null;
  return { items: listItems(value), next_before_id: next };
}

export interface AddressOverview {
  /** `currency.balances:<address>` from the node (null when never set). */
  balance: JsonValue;
  holdings: BdsSection<JsonObject[]>;
  transfers: BdsSection<Listing>;
  contracts: BdsSection<JsonObject[]>;
  transactions: BdsSection<{ items: JsonObject[]; has_more: boolean }>;
  rewards: JsonValue;
}

/**
 * Everything the address page shows, read in parallel: the native balance from the node (works
 * without BDS), and from BDS the token holdings, transfers in and out (id cursor `before`), the
 * contracts it deployed, the transactions it sent (offset paging) and its developer rewards.
 */
export async function addressOverview(r: ReadContext, addr: string, page: { before?: number; offset: number }): Promise<AddressOverview> {
  const before = page.before !== undefined ? `/before_id=${page.before}` : '';
  const [balance, holdings, transfers, contracts, transactions, rewards] = await Promise.all([
    optionalAbciValue(r, `/get/currency.balances:${addr}`),
    optionalBds(r, `/token_balances/${addr}/limit=100/offset=0`, 'token holdings', listItems),
    optionalBds(r, `/transfers/${addr}/limit=${ROWS}${before}`, 'transfers', listing),
    optionalBds(r, `/contracts_by_creator/${addr}/limit=${ROWS}/offset=0`, 'deployed contracts', listItems),
    optionalBds(r, `/txs_by_sender/${addr}/limit=${ROWS}/offset=${page.offset}`, 'sent transactions', (v) => {
      const list = Array.isArray(v) ? v.filter(isObject) : [];
      return { items: list, has_more: list.length >= ROWS };
    }),
    optionalAbciValue(r, `/developer_rewards/${addr}`),
  ]);
  return { balance, holdings, transfers, contracts, transactions, rewards: isObject(rewards) ? rewards : null };
}

export interface TokenOverview {
  contract: string;
  name: JsonValue;
  symbol: JsonValue;
  /** `metadata:total_supply` as the contract states it (XSC001 tokens made from the template). */
  total_supply: JsonValue;
  operator: JsonValue;
  holders: BdsSection<{ items: JsonObject[]; holders: number; indexed_supply: string }>;
  transfers: BdsSection<Listing>;
}

/** The token page: metadata from the node, holders and recent transfers from BDS. */
export async function tokenOverview(r: ReadContext, contract: string, before: number | undefined): Promise<TokenOverview> {
  const cursor = before !== undefined ? `/before_id=${before}` : '';
  const [name, symbol, supply, operator, holders, transfers] = await Promise.all([
    optionalAbciValue(r, `/get/${contract}.metadata:token_name`),
    optionalAbciValue(r, `/get/${contract}.metadata:token_symbol`),
    optionalAbciValue(r, `/get/${contract}.metadata:total_supply`),
    optionalAbciValue(r, `/get/${contract}.metadata:operator`),
    optionalBds(r, `/token_holders/${contract}/limit=${ROWS}/offset=0`, 'token holders', (v) => ({
      items: listItems(v),
      holders: isObject(v) && typeof v.holders === 'number' ? v.holders : 0,
      indexed_supply: isObject(v) && typeof v.indexed_supply === 'string' ? v.indexed_supply : '0',
    })),
    optionalBds(r, `/contract_events/${contract}/limit=${ROWS}/events=Transfer${cursor}`, 'token transfers', listing),
  ]);
  return { contract, name, symbol, total_supply: supply, operator, holders, transfers };
}

/** A contract's recent calls and events (BDS) for the contract page. */
export async function contractActivity(r: ReadContext, name: string): Promise<{ calls: BdsSection<JsonObject[]>; events: BdsSection<Listing> }> {
  const [calls, events] = await Promise.all([
    optionalBds(r, `/txs_by_contract/${name}/limit=${ROWS}/offset=0`, 'recent calls', (v) => (Array.isArray(v) ? v.filter(isObject) : [])),
    optionalBds(r, `/contract_events/${name}/limit=${ROWS}`, 'recent events', listing),
  ]);
  return { calls, events };
}
