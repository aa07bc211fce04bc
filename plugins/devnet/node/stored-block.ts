import type { AbciEvent, BlockHeader, BlockId, Commit, ExecTxResult } from 'chainhost/chain';

/**
 * One committed block as the devnet keeps it in its block log: already in CometBFT's JSON
 * shapes (so RPC answers are a read), plus the state writes the block made — the log doubles
 * as the write-ahead log of application state.
 */
export interface StoredBlock {
  height: number;
  block_id: BlockId;
  header: BlockHeader;
  last_commit: Commit;
  /** Base64 of each raw tx (the raw bytes are the ASCII hex of the signed tx JSON). */
  txs: string[];
  /** Uppercase CometBFT tx hashes, parallel to `txs`. */
  tx_hashes: string[];
  txs_results: ExecTxResult[];
  finalize_block_events: AbciEvent[];
  /** Uppercase hex app hash after executing this block (it appears in the next header). */
  app_hash: string;
  /** Merkle root of this block's results (the next header's `last_results_hash`). */
  results_hash: string;
  /** Bytes of the block as CometBFT would count them (approximation: the JSON size). */
  block_size: number;
  /** Block time in ns since the epoch (as a decimal string). */
  time_nanos: string;
  /** State writes of the block, in order; null deletes. Runtime-encoded values. */
  writes: Array<[string, string | null]>;
  /** State patches applied at this height (contracts.md §8), for BDS and queries. */
  patches?: unknown[];
}
