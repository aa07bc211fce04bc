import type { ResultBlock, ResultTx } from 'chainhost/chain';
import type { ChainStore } from './chain-store.js';
import { Bounds, isRange, SearchBudget, SearchTooBroadError } from './event-index.js';
import { type Condition, EventQuery, EventQueryError } from './event-query.js';
import { internal, resultBlock, txResult } from './rpc-blocks.js';
import { BLOCK_HEIGHT_KEY, TX_HASH_KEY, TX_HEIGHT_KEY } from './search-index.js';

/**
 * `tx_search` and `block_search` (rpc/core/tx.go, blocks.go) answered from the search index
 * (search-index.ts, event-index.ts) with CometBFT 0.38's kv-indexer semantics:
 *
 * - a `tx.hash` condition answers that transaction alone (every other condition is ignored);
 * - `tx.height`/`block.height`: `=` selects a height unless a range on it is present (then
 *   every `=` on it is dropped, as `dedupHeight` does); ranges are merged per tag;
 * - every other condition is looked up in the event index, all within one event;
 * - transactions sort by (height, index), ascending unless `order_by` is "desc"; blocks
 *   descending unless "asc"; pages as `validatePage`/`validatePerPage`.
 *
 * Queries are at most 512 bytes (CometBFT's `maxQueryLength` for `tx_search`; `block_search`
 * has no cap there — here it has the same one), which bounds the number of conditions (≤ 73).
 * Each request visits at most `workLimit` index entries; a broader query is refused with a
 * message saying how to narrow it. Only the page's blocks are read from the block log.
 */
export const MAX_SEARCH_QUERY_BYTES = 512;

export interface SearchOptions {
  page?: number;
  perPage?: number;
  orderBy?: string;
  prove?: boolean;
  /** Index entries one request may visit (default: the index's `workLimit`). */
  workLimit?: number;
}

export function txSearch(store: ChainStore, queryText: string, options: SearchOptions = {}): { txs: ResultTx[]; total_count: string } {
  return metered(store, queryText, options, searchTxs);
}

export function blockSearch(store: ChainStore, queryText: string, options: SearchOptions = {}): { blocks: ResultBlock[]; total_count: string } {
  return metered(store, queryText, options, searchBlocks);
}

/** Parses and runs one search under its own budget; a budget overrun becomes CometBFT's internal error. */
function metered<T>(store: ChainStore, queryText: string, options: SearchOptions, run: (store: ChainStore, query: EventQuery, options: SearchOptions, budget: SearchBudget) => T): T {
  const query = parseSearchQuery(queryText, options.orderBy);
  const budget = new SearchBudget(options.workLimit ?? store.search.workLimit);
  try {
    return run(store, query, options, budget);
  } catch (err) {
    if (err instanceof SearchTooBroadError) throw internal(err.message);
    throw err;
  } finally {
    store.search.visited += budget.used;
  }
}

function searchTxs(store: ChainStore, query: EventQuery, options: SearchOptions, budget: SearchBudget): { txs: ResultTx[]; total_count: string } {
  const hashCondition = query.conditions.find((c) => c.tag === TX_HASH_KEY);
  if (hashCondition) {
    const found = txByHashCondition(store, hashCondition);
    return { txs: paginate(found ? [found] : [], options.page, options.perPage).map(({ height, index }) => txResult(load(store, height), index, options.prove === true)), total_count: String(found ? 1 : 0) };
  }
  const { rest, span } = heightSpan(query.conditions, TX_HEIGHT_KEY, store.height, budget);
  const index = store.search;
  let ordinals: Ordinals;
  if (span.heights) {
    // CONTAINS on tx.height: only the listed heights.
    ordinals = listOrdinals(span.heights.flatMap((h) => {
      const { from, to } = index.txOrdinals(h, h);
      budget.spend(to - from);
      return Array.from({ length: to - from }, (_, i) => from + i);
    }));
    if (rest.length) {
      const { from, to } = index.txOrdinals(span.min, span.max);
      ordinals = listOrdinals(intersectSorted(ordinals.list!, index.txEvents.search(rest, from, to, budget)));
    }
  } else {
    const { from, to } = index.txOrdinals(span.min, span.max);
    ordinals = rest.length === 0 ? { count: to - from, at: (i) => from + i } : listOrdinals(index.txEvents.search(rest, from, to, budget));
  }
  const desc = options.orderBy === 'desc';
  const page = pageRange(ordinals.count, options.page, options.perPage);
  const txs: ResultTx[] = [];
  for (let i = page.from; i < page.to; i++) {
    const { height, index: position } = index.locate(ordinals.at(desc ? ordinals.count - 1 - i : i));
    txs.push(txResult(load(store, height), position, options.prove === true));
  }
  return { txs, total_count: String(ordinals.count) };
}

function searchBlocks(store: ChainStore, query: EventQuery, options: SearchOptions, budget: SearchBudget): { blocks: ResultBlock[]; total_count: string } {
  const { rest, span } = heightSpan(query.conditions, BLOCK_HEIGHT_KEY, store.height, budget);
  let heights: Ordinals;
  if (span.heights) {
    heights = listOrdinals(span.heights);
    if (rest.length) heights = listOrdinals(intersectSorted(span.heights, store.search.blockEvents.search(rest, span.min, span.max + 1, budget)));
  } else if (rest.length === 0) {
    heights = { count: Math.max(0, span.max - span.min + 1), at: (i) => span.min + i };
  } else {
    heights = listOrdinals(store.search.blockEvents.search(rest, span.min, span.max + 1, budget));
  }
  const asc = options.orderBy === 'asc';
  const page = pageRange(heights.count, options.page, options.perPage);
  const blocks: ResultBlock[] = [];
  for (let i = page.from; i < page.to; i++) blocks.push(resultBlock(load(store, heights.at(asc ? i : heights.count - 1 - i))));
  return { blocks, total_count: String(heights.count) };
}

function parseSearchQuery(queryText: string, orderBy: string | undefined): EventQuery {
  if (Buffer.byteLength(queryText) > MAX_SEARCH_QUERY_BYTES) throw internal('maximum query length exceeded');
  let query: EventQuery;
  try {
    query = EventQuery.parse(queryText);
  } catch (err) {
    throw internal(err instanceof EventQueryError ? err.message : String(err));
  }
  if (orderBy !== undefined && orderBy !== '' && orderBy !== 'asc' && orderBy !== 'desc') throw internal('expected order_by to be either `asc` or `desc` or empty');
  return query;
}

/** kv.go lookForHash: the first tx.hash condition's argument, hex-decoded. */
function txByHashCondition(store: ChainStore, c: Condition): { height: number; index: number } | undefined {
  const text = c.arg?.text ?? '';
  if (!/^([0-9a-fA-F]{2})*$/.test(text)) throw internal(`error during searching for a hash in the query: encoding/hex: invalid byte in ${JSON.stringify(text)}`);
  if (text === '') throw internal('error while retrieving the result: transaction hash cannot be empty');
  return store.txLocation(text.toUpperCase());
}

interface HeightSpan {
  min: number;
  max: number;
  /** Set when a CONTAINS on the height key picks single heights (ascending). */
  heights?: number[];
}

/**
 * The heights a query admits (dedupHeight + LookForRangesWithHeight): a range on the height
 * key drops every `=` on it; otherwise the first numeric `=` wins. EXISTS on it admits all;
 * CONTAINS tests the height's decimal text (heights are enumerated, within the budget).
 */
function heightSpan(conditions: readonly Condition[], key: string, latest: number, budget: SearchBudget): { rest: Condition[]; span: HeightSpan } {
  const rest = conditions.filter((c) => c.tag !== key);
  const own = conditions.filter((c) => c.tag === key);
  const rangeOps = own.filter(isRange);
  let span: HeightSpan = { min: 1, max: latest };
  if (rangeOps.length > 0 || own.some((c) => c.op === 'CONTAINS' || c.op === 'EXISTS')) {
    const bounds = new Bounds();
    for (const c of rangeOps) bounds.add(c);
    span = rangeOps.length ? bounds.integerSpan(1, latest) : span;
  } else {
    const eq = own.find((c) => c.op === '=' && /^\d+(\.\d+)?$/.test(c.arg!.text));
    if (eq) {
      const h = Math.trunc(Number(eq.arg!.text));
      span = h >= 1 && h <= latest ? { min: h, max: h } : { min: 1, max: 0 };
    }
  }
  const contains = own.filter((c) => c.op === 'CONTAINS');
  if (contains.length > 0 && span.max >= span.min) {
    budget.spend(span.max - span.min + 1);
    const heights: number[] = [];
    for (let h = span.min; h <= span.max; h++) if (contains.every((c) => String(h).includes(c.arg!.text))) heights.push(h);
    span = { ...span, heights };
  }
  return { rest, span };
}

/** A result set by position: a contiguous range computed, or an explicit ascending list. */
interface Ordinals {
  count: number;
  at(i: number): number;
  list?: number[];
}

function listOrdinals(list: number[]): Ordinals {
  return { count: list.length, at: (i) => list[i]!, list };
}

function intersectSorted(a: readonly number[], b: readonly number[]): number[] {
  const set = new Set(b);
  return a.filter((x) => set.has(x));
}

function load(store: ChainStore, height: number) {
  const b = store.block(height);
  if (!b) throw internal(`height ${height} is not available, lowest height is 1`);
  return b;
}

/** CometBFT's validatePerPage (missing or < 1 → 30, at most 100) and validatePage (1-based, in range). */
function pageRange(total: number, page: number | undefined, perPage: number | undefined): { from: number; to: number } {
  const per = perPage === undefined || perPage < 1 ? 30 : Math.min(100, perPage);
  const pages = Math.max(1, Math.ceil(total / per));
  const p = page ?? 1;
  if (p < 1 || p > pages) throw internal(`page should be within [1, ${pages}] range, given ${p}`);
  return { from: (p - 1) * per, to: Math.min(total, p * per) };
}

function paginate<T>(found: T[], page: number | undefined, perPage: number | undefined): T[] {
  const { from, to } = pageRange(found.length, page, perPage);
  return found.slice(from, to);
}
