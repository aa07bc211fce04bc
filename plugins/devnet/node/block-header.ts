import type { BlockHeader, BlockId, Commit } from 'chainhost/chain';
import {
  commitHash, consensusParamsHash, dataHash, headerHash, merkleRoot, precommitSignBytes, rfc3339Nano, validatorsHash,
  type BlockIdBytes,
} from './cometbft-hashing.js';
import type { ValidatorKey } from './node-identity.js';
import type { StoredBlock } from './stored-block.js';

/**
 * Builds a block's CometBFT header, id and last commit. The header carries the app hash and
 * results hash of the *previous* block (CometBFT executes a block after agreeing on it), the
 * last commit is the devnet validator's real precommit signature over the previous block, and
 * the block time is that precommit's timestamp (BFT time with one validator).
 */
export const VALIDATOR_POWER = 10;
export const BLOCK_MAX_GAS = -1;
const EMPTY_HASH_HEX = merkleRoot([]).toString('hex').toUpperCase();

export const EMPTY_BLOCK_ID: BlockId = { hash: '', parts: { total: 0, hash: '' } };

export interface HeaderInput {
  chainId: string;
  height: number;
  timeNanos: bigint;
  prev: StoredBlock | undefined;
  /** App hash for block 1 (the genesis state's), uppercase hex. */
  genesisAppHash: string;
  rawTxs: readonly Uint8Array[];
  validator: ValidatorKey;
  maxBlockBytes: number;
}

export interface BuiltHeader {
  header: BlockHeader;
  blockId: BlockId;
  lastCommit: Commit;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex').toUpperCase();
const bytes = (h: string) => Buffer.from(h, 'hex');

function idBytes(id: BlockId): BlockIdBytes {
  return { hash: bytes(id.hash), partsTotal: id.parts.total, partsHash: bytes(id.parts.hash) };
}

export function buildHeader(input: HeaderInput): BuiltHeader {
  const { prev, validator } = input;
  const time = rfc3339Nano(input.timeNanos);
  let lastCommit: Commit;
  let lastCommitHash: Buffer;
  if (prev) {
    const signature = validator.sign(precommitSignBytes(input.chainId, prev.height, 0, idBytes(prev.block_id), input.timeNanos));
    lastCommit = {
      height: String(prev.height), round: 0, block_id: prev.block_id,
      signatures: [{ block_id_flag: 2, validator_address: validator.address, timestamp: time, signature: signature.toString('base64') }],
    };
    lastCommitHash = commitHash([{ flag: 2, address: bytes(validator.address), timeNanos: input.timeNanos, signature }]);
  } else {
    lastCommit = { height: '0', round: 0, block_id: EMPTY_BLOCK_ID, signatures: [] };
    lastCommitHash = commitHash([]);
  }
  const valsHash = hex(validatorsHash([{ pubKey: validator.publicKey, power: VALIDATOR_POWER }]));
  const header: BlockHeader = {
    version: { block: '11', app: '0' },
    chain_id: input.chainId,
    height: String(input.height),
    time,
    last_block_id: prev ? prev.block_id : EMPTY_BLOCK_ID,
    last_commit_hash: hex(lastCommitHash),
    data_hash: hex(dataHash(input.rawTxs)),
    validators_hash: valsHash,
    next_validators_hash: valsHash,
    consensus_hash: hex(consensusParamsHash(input.maxBlockBytes, BLOCK_MAX_GAS)),
    app_hash: prev ? prev.app_hash : input.genesisAppHash,
    last_results_hash: prev ? prev.results_hash : '',
    evidence_hash: EMPTY_HASH_HEX,
    proposer_address: validator.address,
  };
  const hash = headerHash({
    versionBlock: 11, versionApp: 0, chainId: input.chainId, height: input.height, timeNanos: input.timeNanos,
    lastBlockId: idBytes(header.last_block_id), lastCommitHash, dataHash: bytes(header.data_hash),
    validatorsHash: bytes(valsHash), nextValidatorsHash: bytes(valsHash), consensusHash: bytes(header.consensus_hash),
    appHash: bytes(header.app_hash), lastResultsHash: bytes(header.last_results_hash), evidenceHash: bytes(header.evidence_hash),
    proposerAddress: bytes(validator.address),
  });
  // One block part; its hash is simplified to a leaf over header hash and data hash (the proto
  // encoding of the whole block is not reproduced).
  const partsHash = merkleRoot([Buffer.concat([hash, bytes(header.data_hash)])]);
  const blockId: BlockId = { hash: hex(hash), parts: { total: 1, hash: hex(partsHash) } };
  return { header, blockId, lastCommit };
}
