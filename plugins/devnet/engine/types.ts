import type { ChainDatetime, ChainDecimal, ChainValue } from 'chainhost/chain';

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
  /** `validator_reward`, `delegator_reward`, `foundation_reward` or `developer_reward`. */
  type: string;
  /** The output's `recipient_key`. */
  recipient: string;
  /** The output's `value` (a ChainDecimal, already divided by the chi rate). */
  amount: ChainValue;
  /** The output's `source_contract` (developer rewards; absent = null in the output). */
  contract?: string;
  /** The output's `validator_key` (validator and delegator records). */
  validatorKey?: string;
  /** The output's `delegator_key` (delegator records). */
  delegatorKey?: string;
}

/** The output's `rewards` object: recipient → amount per bucket, in first-credit order. */
export interface RewardBuckets {
  validator_reward: Map<string, ChainDecimal>;
  delegator_reward: Map<string, ChainDecimal>;
  foundation_reward: Map<string, ChainDecimal>;
  developer_reward: Map<string, ChainDecimal>;
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
  /** Python exception class of the failure (`AssertionError`, `TypeError`, …) for the on-chain repr. */
  errorClass?: string;
  /**
   * The output's `state`: the writes without the nonce key, last value per key, sorted by key
   * (code-point order) — exactly what `tx_result.data.state` lists.
   */
  state?: Array<{ key: string; value: ChainValue | null }>;
  /** The output's `rewards` buckets; null when no reward was produced (status 1, simulation, free mode). */
  rewardBuckets?: RewardBuckets | null;
  /** Raw chi per contract (children excluded, fixed overhead on the entry contract): the developer-reward weights. */
  contractCosts?: Record<string, number>;
}

export interface ExecuteOptions {
  /**
   * Dry run (simulate.md §4): the readonly chi cap `maxChi` instead of chi_supplied, no
   * transaction-byte charge, no nonce write, no rewards. The writes include the fee debit as a
   * preview (upstream's `state` does, simulate.md §2); `feePreview: false` leaves it out. Nothing
   * is persisted either way — the node discards simulation writes.
   */
  simulate?: { maxChi: number; feePreview?: boolean };
}
