/**
 * `chainhost/chain` — the published chain SDK (package.json `exports`): value codecs and chain
 * values, canonical JSON, decimals, hashes, keys and wallets, message signing, transactions
 * (build, sign, encode, submit, receipts, fees), dry runs (with their caps and refusal counts),
 * ABCI query answers, the node client and the CometBFT RPC shapes.
 * A plugin reaches the host's node with `ctx.resolve(CoreTokens.chainNode)` (`chainhost/plugin`).
 */
export * from '../../core/chain/values.js';
export * from '../../core/chain/value-codec.js';
export * from '../../core/chain/canonical-json.js';
export * from '../../core/chain/json-parser.js';
export * from '../../core/chain/decimal.js';
export * from '../../core/chain/hashes.js';
export * from '../../core/chain/python-repr.js';
export * from '../../core/chain/keys.js';
export * from '../../core/chain/hd-wallet.js';
export * from '../../core/chain/message-signing.js';
export * from '../../core/chain/value-moving-text.js';
export * from '../../core/chain/box-encryption.js';
export * from '../../core/chain/transaction.js';
export * from '../../core/chain/transaction-submitter.js';
export * from '../../core/chain/send-guard.js';
export * from '../../core/chain/tx-receipts.js';
export * from '../../core/chain/user-kwargs.js';
export * from '../../core/chain/simulation.js';
export * from '../../core/chain/chain-simulator.js';
export * from '../../core/chain/simulation-refusals.js';
export * from '../../core/chain/signature-kwargs.js';
export * from '../../core/chain/tx-fee.js';
export * from '../../core/chain/block-time.js';
export * from '../../core/chain/abci-value.js';
export * from '../../core/chain/node.js';
export * from '../../core/chain/chain-id-guard.js';
export * from '../../core/chain/rpc/chain-rpc.js';
export { HttpChainRpc, type HttpChainRpcOptions } from '../../core/chain/rpc/http-chain-rpc.js';
/** CometBFT RPC result shapes, by their CometBFT names (`ResultBlock`, or `CometBft.ResultBlock`, …). */
export type * as CometBft from '../../core/chain/rpc/cometbft-types.js';
/** The same shapes by name, but `BlockMeta`: that name is the transaction hash's block (CometBft.BlockMeta is the RPC's). */
export type {
  Int64String, HexString, Base64String, Rfc3339, PubKey, NodeInfo, SyncInfo, ResultStatus, Peer,
  ResultNetInfo, Validator, ResultValidators, ResultConsensusState, BlockId, BlockHeader, CommitSig,
  Commit, Block, ResultBlock, ResultBlockchainInfo, EventAttribute, AbciEvent, ExecTxResult,
  ResponseCheckTx, ValidatorUpdate, ResultBlockResults, ResponseQuery, ResultAbciQuery, ResultTx,
  ResultBroadcastTx, ResultBroadcastTxCommit, ResultUnconfirmedTxs, ResultNumUnconfirmedTxs,
  GenesisValidator, ResultGenesis, ResultHealth, NewBlockEventValue, TxEventValue, TxProof,
} from '../../core/chain/rpc/cometbft-types.js';
