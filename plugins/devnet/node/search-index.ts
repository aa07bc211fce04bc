import type { AbciEvent, ExecTxResult } from 'chainhost/chain';
import { EventIndex } from './event-index.js';

/**
 * What `tx_search` and `block_search` answer from, kept as blocks commit (and rebuilt in the
 * same pass that reads the block log at start-up): the event index of transactions (a
 * transaction is its ordinal in the chain) and of blocks' FinalizeBlock events (a block is its
 * height), plus where each height's transactions start, so `tx.height` ranges map to ordinal
 * ranges by arithmetic and a transaction's (height, index) by binary search.
 */
export interface IndexableBlock {
  height: number;
  txs_results: readonly ExecTxResult[];
  finalize_block_events: readonly AbciEvent[];
}

export const TX_HEIGHT_KEY = 'tx.height';
export const TX_HASH_KEY = 'tx.hash';
export const BLOCK_HEIGHT_KEY = 'block.height';
/** Index entries one search request may visit before it is refused as too broad. */
export const DEFAULT_SEARCH_WORK_LIMIT = 50_000;

export class SearchIndex {
  readonly txEvents = new EventIndex(new Set([TX_HASH_KEY, TX_HEIGHT_KEY]));
  readonly blockEvents = new EventIndex(new Set([BLOCK_HEIGHT_KEY]));
  /** txStart[h] = transactions in heights 1..h (txStart[0] = 0). */
  private readonly txStart: number[] = [0];
  workLimit = DEFAULT_SEARCH_WORK_LIMIT;
  /** Index entries visited by all searches so far (each request's is capped by `workLimit`). */
  visited = 0;

  add(block: IndexableBlock): void {
    if (block.height !== this.txStart.length) throw new Error(`search index: expected height ${this.txStart.length}, got ${block.height}`);
    const first = this.txStart[block.height - 1]!;
    block.txs_results.forEach((r, i) => this.txEvents.add(first + i, r.events ?? []));
    this.blockEvents.add(block.height, block.finalize_block_events);
    this.txStart.push(first + block.txs_results.length);
  }

  get height(): number {
    return this.txStart.length - 1;
  }

  /** Ordinals of the transactions in heights [min, max]: [from, to). */
  txOrdinals(min: number, max: number): { from: number; to: number } {
    if (min > max) return { from: 0, to: 0 };
    return { from: this.txStart[min - 1]!, to: this.txStart[max]! };
  }

  /** Height and index in block of a transaction ordinal. */
  locate(ordinal: number): { height: number; index: number } {
    // The first height whose end is past the ordinal.
    let a = 1;
    let b = this.height;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (this.txStart[m]! <= ordinal) a = m + 1;
      else b = m;
    }
    return { height: a, index: ordinal - this.txStart[a - 1]! };
  }
}
