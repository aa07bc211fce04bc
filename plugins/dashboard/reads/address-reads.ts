import type { JsonValue } from 'chainhost/chain';
import { bdsValue } from './bds-value.js';
import { isObject } from './contract-reads.js';
import type { ReadContext } from './node-targets.js';
import { optionalAbciValue } from './optional-value.js';

export interface AddressList {
  available: boolean;
  items: JsonValue[];
  limit: number;
  offset: number;
  has_more: boolean;
}

export interface AddressRecord {
  address: string;
  available: boolean;
  transactions: JsonValue[];
  limit: number;
  offset: number;
  has_more: boolean;
  developer_rewards: JsonValue;
}

/** `/api/addresses` (BDS, dashboard.md §4.7): addresses seen as senders, most recent first. */
export async function addresses(r: ReadContext, page: { limit: number; offset: number }): Promise<AddressList> {
  const value = await bdsValue(r, `/addresses/limit=${page.limit}/offset=${page.offset}`, 'the address list');
  const items = isObject(value) && Array.isArray(value.items) ? value.items : Array.isArray(value) ? value : [];
  const available = isObject(value) && typeof value.available === 'boolean' ? value.available : true;
  return { available, items, limit: page.limit, offset: page.offset, has_more: page.limit > 0 && items.length >= page.limit };
}

/**
 * `/api/address/{address}` (BDS, §4.8): the address's transactions, newest first, and its
 * developer rewards. Transaction rows are BDS tx rows (hash field `tx_hash`).
 */
export async function address(r: ReadContext, addr: string, page: { limit: number; offset: number }): Promise<AddressRecord> {
  const [txs, rewards] = await Promise.all([
    bdsValue(r, `/txs_by_sender/${addr}/limit=${page.limit}/offset=${page.offset}`, `the transactions of ${addr}`),
    optionalAbciValue(r, `/developer_rewards/${addr}`),
  ]);
  const transactions = Array.isArray(txs) ? txs : [];
  return {
    address: addr,
    available: Array.isArray(txs),
    transactions,
    limit: page.limit,
    offset: page.offset,
    has_more: Array.isArray(txs) && page.limit > 0 && transactions.length >= page.limit,
    developer_rewards: isObject(rewards) ? rewards : null,
  };
}
