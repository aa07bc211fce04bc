/**
 * The devnet execution engine's public surface (what the devnet node imports). The node owns
 * storage, ordering, hashing and the wire formats; the engine turns one transaction into an
 * ExecutionOutcome, builds the genesis state, applies governed state patches and answers the
 * contract-metadata queries. Contracts run on the chain's VM (`chainhost/contracting`) through
 * the host bridge in vm/; see types.ts for the boundary.
 */
export type {
  BlockEnv, ContractEvent, ExecuteOptions, ExecutionOutcome, RewardBuckets, RewardRecord, SignedTx, StateReader,
} from './types.js';
export { Executor, transactionSize, type CallRequest, type CallResult, type EngineConfig } from './executor.js';
export { WriteBuffer } from './write-buffer.js';
export { computeRewards, type RewardSplit } from './rewards.js';
export { ContractError } from './errors.js';
export { TUPLE, isTuple, tuple } from './vm/values.js';
export { buildGenesis, defaultGenesisTokens, DEFAULT_GENESIS_TIME, type DeployRequest, type GenesisOptions, type GenesisResult, type GenesisTokenSpec } from './genesis.js';
export {
  DEFAULT_GOVERNANCE_CONTRACT, StatePatchError, StatePatchHaltError, applyStatePatches, appliedStatePatches, bundleHash,
  loadStatePatchBundle, scheduledPatchRecords, scheduledStatePatches, statePatchBundleInventory,
  type AppliedPatches, type ApplyStatePatchesInput, type StatePatchBundle, type StatePatchChange,
} from './state-patches.js';
export {
  contractInfo, contractIr, contractMethods, contractNames, contractSource, contractVars, listContracts,
  type ContractInfo, type ContractList, type ContractListOptions,
} from './contract-queries.js';
export { XSC001_SOURCE, xsc001Deployment, type Xsc001Options } from './contracts/xsc001-token.js';
export { LP_TOKEN_SOURCE, lpTokenDeployment } from './contracts/lp-token.js';
export { shieldedNoteDeployment } from './contracts/shielded-note.js';
export { SHIELDED_NOTE_SOURCE } from './contracts/shielded-note.source.js';
export { CURRENCY_SOURCE } from './contracts/currency.js';
export { CON_PAIRS_SOURCE } from './contracts/con-pairs.source.js';
export { CON_DEX_SOURCE } from './contracts/con-dex.source.js';
export { CON_DEX_HELPER_SOURCE } from './contracts/con-dex-helper.js';
