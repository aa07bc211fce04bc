/**
 * Response shapes of the CometBFT 0.38 RPC methods chainhost uses, as the 0.38 server renders
 * them (cometbft-rpc.md §3–§5). Conventions, kept verbatim so the devnet can reproduce them:
 * - Go `int`/`int64`/`uint64` are JSON strings (`Int64String`); `int32`/`uint32` are numbers.
 * - `HexBytes` (block/app/tx hashes, addresses) are uppercase hex without `0x` (`HexString`).
 * - Other byte arrays (txs, abci `key`/`value`/`data`, signatures) are base64 (`Base64String`).
 * - Times are RFC 3339 UTC with nanoseconds.
 * Fields the server may omit are optional here; everything else is always present.
 */
export type Int64String = string;
export type HexString = string;
export type Base64String = string;
export type Rfc3339 = string;

export interface PubKey {
  type: string;
  value: Base64String;
}

// ---- status ----------------------------------------------------------------------------------

export interface NodeInfo {
  protocol_version: { p2p: Int64String; block: Int64String; app: Int64String };
  id: string;
  listen_addr: string;
  /** The chain id. */
  network: string;
  version: string;
  channels: string;
  moniker: string;
  other: { tx_index: string; rpc_address: string };
}

export interface SyncInfo {
  latest_block_hash: HexString;
  latest_app_hash: HexString;
  latest_block_height: Int64String;
  latest_block_time: Rfc3339;
  earliest_block_hash: HexString;
  earliest_app_hash: HexString;
  earliest_block_height: Int64String;
  earliest_block_time: Rfc3339;
  catching_up: boolean;
}

export interface ResultStatus {
  node_info: NodeInfo;
  sync_info: SyncInfo;
  validator_info: { address: HexString; pub_key: PubKey; voting_power: Int64String };
}

// ---- net_info, validators, consensus_state ---------------------------------------------------

export interface Peer {
  node_info: NodeInfo;
  is_outbound: boolean;
  connection_status: Record<string, unknown>;
  remote_ip: string;
}

export interface ResultNetInfo {
  listening: boolean;
  listeners: string[];
  n_peers: Int64String;
  peers: Peer[];
}

export interface Validator {
  address: HexString;
  pub_key: PubKey;
  voting_power: Int64String;
  proposer_priority: Int64String;
}

export interface ResultValidators {
  block_height: Int64String;
  validators: Validator[];
  count: Int64String;
  total: Int64String;
}

export interface ResultConsensusState {
  round_state: {
    'height/round/step': string;
    start_time: Rfc3339;
    proposal_block_hash: HexString;
    locked_block_hash: HexString;
    valid_block_hash: HexString;
    height_vote_set: Array<{
      round: number;
      prevotes: string[];
      prevotes_bit_array: string;
      precommits: string[];
      precommits_bit_array: string;
    }>;
    proposer: { address: HexString; index: number };
  };
}

// ---- blocks ----------------------------------------------------------------------------------

export interface BlockId {
  hash: HexString;
  parts: { total: number; hash: HexString };
}

export interface BlockHeader {
  version: { block: Int64String; app: Int64String };
  chain_id: string;
  height: Int64String;
  time: Rfc3339;
  last_block_id: BlockId;
  last_commit_hash: HexString;
  data_hash: HexString;
  validators_hash: HexString;
  next_validators_hash: HexString;
  consensus_hash: HexString;
  app_hash: HexString;
  last_results_hash: HexString;
  evidence_hash: HexString;
  proposer_address: HexString;
}

export interface CommitSig {
  /** 1 absent, 2 commit, 3 nil. */
  block_id_flag: number;
  validator_address: HexString;
  timestamp: Rfc3339;
  signature: Base64String | null;
}

export interface Commit {
  height: Int64String;
  round: number;
  block_id: BlockId;
  signatures: CommitSig[];
}

export interface Block {
  header: BlockHeader;
  /** Each entry: base64 of the raw tx bytes (the ASCII hex of the signed tx JSON). */
  data: { txs: Base64String[] | null };
  evidence: { evidence: unknown[] | null };
  last_commit: Commit | null;
}

export interface ResultBlock {
  block_id: BlockId;
  block: Block;
}

export interface BlockMeta {
  block_id: BlockId;
  block_size: Int64String;
  header: BlockHeader;
  num_txs: Int64String;
}

export interface ResultBlockchainInfo {
  last_height: Int64String;
  /** At most 20, highest first. */
  block_metas: BlockMeta[];
}

// ---- ABCI results ----------------------------------------------------------------------------

/** 0.38 event attributes are plain strings (not base64 as in Tendermint 0.34). */
export interface EventAttribute {
  key: string;
  value: string;
  index: boolean;
}

export interface AbciEvent {
  type: string;
  attributes: EventAttribute[];
}

/** ABCI `ExecTxResult` (emit-defaults: every field present; int64 as strings). */
export interface ExecTxResult {
  /** Execution status: 0 success, 1 failure or rejected inside the block. */
  code: number;
  /** Base64 of the execution-output JSON (or `{"error": …}` for a rejected tx). */
  data: Base64String | null;
  log: string;
  info: string;
  gas_wanted: Int64String;
  gas_used: Int64String;
  events: AbciEvent[] | null;
  codespace: string;
}

/** ABCI `ResponseCheckTx` (emit-defaults): the same fields as ExecTxResult, from the mempool check. */
export type ResponseCheckTx = ExecTxResult;

export interface ValidatorUpdate {
  pub_key: unknown;
  power: Int64String;
}

export interface ResultBlockResults {
  height: Int64String;
  /** `null` for an empty block. */
  txs_results: ExecTxResult[] | null;
  finalize_block_events: AbciEvent[] | null;
  validator_updates: ValidatorUpdate[] | null;
  consensus_param_updates: unknown;
  app_hash: Base64String;
}

/** ABCI `ResponseQuery` (emit-defaults; `proof_ops` is spelled `proofOps`). */
export interface ResponseQuery {
  code: number;
  log: string;
  info: string;
  index: Int64String;
  /** Base64 (may be null/absent when the handler failed). */
  key: Base64String | null;
  /** Base64; null = no value; `AA==` (one zero byte) = no value for unknown paths. */
  value: Base64String | null;
  proofOps: unknown;
  height: Int64String;
  codespace: string;
}

export interface ResultAbciQuery {
  response: ResponseQuery;
}

// ---- transactions ----------------------------------------------------------------------------

export interface ResultTx {
  hash: HexString;
  height: Int64String;
  index: number;
  tx_result: ExecTxResult;
  /** Base64 of the raw tx bytes. */
  tx: Base64String;
  /** Only with `prove=true`: the merkle proof of the tx in the block's data hash. */
  proof?: TxProof;
}

/** `broadcast_tx_sync` / `broadcast_tx_async`. `data` is HexBytes (empty for this application). */
export interface ResultBroadcastTx {
  code: number;
  data: HexString;
  log: string;
  codespace: string;
  /** CometBFT tx hash: uppercase SHA-256 of the raw tx bytes. */
  hash: HexString;
}

/** `broadcast_tx_commit` (development only; `tx_result` replaced `deliver_tx` in 0.38). */
export interface ResultBroadcastTxCommit {
  check_tx: ResponseCheckTx;
  tx_result: ExecTxResult;
  hash: HexString;
  height: Int64String;
}

export interface ResultUnconfirmedTxs {
  n_txs: Int64String;
  total: Int64String;
  total_bytes: Int64String;
  txs: Base64String[] | null;
}

/** `num_unconfirmed_txs`: the same shape with `txs` null. */
export type ResultNumUnconfirmedTxs = ResultUnconfirmedTxs;

// ---- genesis, health -------------------------------------------------------------------------

export interface GenesisValidator {
  address: HexString;
  pub_key: PubKey;
  power: Int64String;
  name: string;
}

export interface ResultGenesis {
  genesis: {
    genesis_time: Rfc3339;
    chain_id: string;
    initial_height: Int64String;
    consensus_params: unknown;
    validators: GenesisValidator[] | null;
    app_hash: HexString;
    app_state?: unknown;
  };
}

/** `health` answers an empty object. */
export type ResultHealth = Record<string, never>;

// ---- WebSocket events ------------------------------------------------------------------------

export const NEW_BLOCK_QUERY = "tm.event='NewBlock'";
export const TX_QUERY = "tm.event='Tx'";

/** `data.value` of a `tendermint/event/NewBlock` event. */
export interface NewBlockEventValue {
  block: Block;
  block_id: BlockId;
  /** Empty lists and the zero app hash may be omitted. */
  result_finalize_block: {
    events?: AbciEvent[] | null;
    tx_results?: ExecTxResult[] | null;
    validator_updates?: ValidatorUpdate[] | null;
    consensus_param_updates?: unknown;
    app_hash?: Base64String;
  };
}

/** `data.value` of a `tendermint/event/Tx` event. */
export interface TxEventValue {
  TxResult: {
    height: Int64String;
    /** Omitted when 0. */
    index?: number;
    tx: Base64String;
    result: ExecTxResult;
  };
}

/** `types.TxProof` (cometbft types/tx.go): `data` is the raw tx (base64), `root_hash` the block's data hash. */
export interface TxProof {
  root_hash: string;
  data: string;
  proof: { total: string; index: string; leaf_hash: string; aunts: string[] };
}
