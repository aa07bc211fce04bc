import type { ChainValue } from '../../../core/chain/values.js';
import type { ChainDatetime } from '../../../core/chain/values.js';

/**
 * The boundary between the devnet node (mempool, blocks, persistence, RPC) and its execution
 * engine (native canonical contracts, chi metering, fees, rewards). The node owns storage and
 * ordering; the engine turns one validated transaction into writes and events.
 */

/** Committed state as the engine reads it. Values are decoded runtime values; a missing key is undefined. */
export interface StateReader {
  get(key: string): ChainValue | undefined;
  /** Keys starting with `prefix`, ascending by UTF-8 bytes, strictly after `after` when given. */
  keys(prefix: string, options?: { after?: string; limit?: number }): string[];
}

/** The block a transaction executes in (FinalizeBlock attaches it as `b_meta`). */
export interface BlockEnv {
  chainId: string;
  height: bigint;
  /** Lowercase hex block hash. */
  hash: string;
  /** Block time, ns since the epoch (CometBFT header time). */
  nanos: bigint;
  now: ChainDatetime;
}

/** A statically validated signed transaction. `payload.kwargs` is still in wire form. */
export interface SignedTx {
  payload: {
    chain_id: string;
    chi_supplied: number;
    contract: string;
    function: string;
    kwargs: Record<string, unknown>;
    nonce: number;
    sender: string;
  };
  signature: string;
  /** Lowercase hex of the canonical wire JSON (what `broadcast_tx_*` carried). */
  rawHex: string;
}

export interface ContractEvent {
  contract: string;
  event: string;
  signer: string;
  caller: string;
  data_indexed: Record<string, ChainValue>;
  data: Record<string, ChainValue>;
}

export interface RewardRecord {
  type: string;
  recipient: string;
  amount: ChainValue;
  contract?: string;
}

/** What executing one transaction produced. `writes` is in write order, last write per key wins; null deletes. */
export interface ExecutionOutcome {
  status: 0 | 1;
  chiUsed: number;
  /** The function's return value (status 0) or the failure message (status 1). */
  result: ChainValue | undefined;
  error?: string;
  writes: Array<{ key: string; value: ChainValue | null }>;
  events: ContractEvent[];
  rewards: RewardRecord[];
}

export interface ExecuteOptions {
  /** Dry run: no fee, no nonce, the readonly chi cap instead of chi_supplied. */
  simulate?: { maxChi: number };
}
