import { type CometBft, type Commit, type ResultBlock, type ResultBlockchainInfo, type ResultBlockResults, type ResultTx, type ResultValidators, RpcError } from 'chainhost/chain';
import { merkleProof, precommitSignBytes, rfc3339Nano } from './cometbft-hashing.js';
import { VALIDATOR_POWER } from './block-header.js';
import type { ChainStore } from './chain-store.js';
import type { NodeIdentity } from './node-identity.js';
import type { StoredBlock } from './stored-block.js';

/**
 * Block, result and transaction reads in CometBFT 0.38's shapes and with its errors
 * (`rpc/core/blocks.go`, `tx.go`): heights must be in [1, latest], `blockchain` returns at
 * most 20 metas highest first, `tx` answers `tx (<HASH>) not found`.
 */
export function internal(detail: string): RpcError {
  return new RpcError(-32603, 'Internal error', detail);
}

/** `getHeight`: undefined = latest; otherwise 1 ≤ h ≤ latest. */
export function resolveHeight(store: ChainStore, height: number | undefined): number {
  const latest = store.height;
  if (height === undefined) return latest;
  if (height <= 0) throw internal(`height must be greater than 0, but got ${height}`);
  if (height > latest) throw internal(`height ${height} must be less than or equal to the current blockchain height ${latest}`);
  return height;
}

function load(store: ChainStore, height: number): StoredBlock {
  const b = store.block(height);
  if (!b) throw internal(`height ${height} is not available, lowest height is 1`);
  return b;
}

export function resultBlock(block: StoredBlock | undefined): ResultBlock {
  if (!block) return { block_id: { hash: '', parts: { total: 0, hash: '' } }, block: null as unknown as ResultBlock['block'] };
  return {
    block_id: block.block_id,
    block: { header: block.header, data: { txs: block.txs }, evidence: { evidence: [] }, last_commit: block.last_commit },
  };
}

export function blockAt(store: ChainStore, height: number | undefined): ResultBlock {
  const h = resolveHeight(store, height);
  return resultBlock(h === 0 ? undefined : load(store, h));
}

export function blockByHash(store: ChainStore, hash: Buffer): ResultBlock {
  const h = store.heightOfHash(hash.toString('hex').toUpperCase());
  return resultBlock(h === undefined ? undefined : load(store, h));
}

export function blockResults(store: ChainStore, height: number | undefined): ResultBlockResults {
  const b = load(store, resolveHeight(store, height));
  return {
    height: String(b.height),
    txs_results: b.txs_results.length ? b.txs_results : null,
    finalize_block_events: b.finalize_block_events,
    validator_updates: [],
    consensus_param_updates: null,
    app_hash: Buffer.from(b.app_hash, 'hex').toString('base64'),
  };
}

/** `blockchain`: metas from maxHeight down to minHeight, at most 20. */
export function blockchain(store: ChainStore, min: number | undefined, max: number | undefined): ResultBlockchainInfo {
  const latest = store.height;
  const hi = max === undefined || max === 0 ? latest : Math.min(latest, max);
  let lo = min === undefined || min === 0 ? 1 : Math.max(1, min);
  if (min !== undefined && min < 0) throw internal('heights must be non-negative');
  if (max !== undefined && max < 0) throw internal('heights must be non-negative');
  if (lo > hi) throw internal(`min height ${lo} can't be greater than max height ${hi}`);
  lo = Math.max(lo, hi - 20 + 1);
  const metas: CometBft.BlockMeta[] = [];
  for (let h = hi; h >= lo && h >= 1; h--) metas.push(blockMeta(load(store, h)));
  return { last_height: String(latest), block_metas: metas };
}

export function blockMeta(b: StoredBlock): CometBft.BlockMeta {
  return { block_id: b.block_id, block_size: String(b.block_size), header: b.header, num_txs: String(b.txs.length) };
}

/** `commit`: the canonical commit is the next block's last_commit; the latest block gets a fresh (non-canonical) one. */
export function commitAt(store: ChainStore, identity: NodeIdentity, chainId: string, height: number | undefined) {
  const h = resolveHeight(store, height);
  const b = load(store, h);
  const next = h < store.height ? store.block(h + 1) : undefined;
  let commit: Commit;
  if (next) {
    commit = next.last_commit;
  } else {
    const nanos = BigInt(b.time_nanos) + 1_000_000n;
    const blockId = { hash: Buffer.from(b.block_id.hash, 'hex'), partsTotal: b.block_id.parts.total, partsHash: Buffer.from(b.block_id.parts.hash, 'hex') };
    const signature = identity.validator.sign(precommitSignBytes(chainId, h, 0, blockId, nanos)).toString('base64');
    commit = {
      height: String(h), round: 0, block_id: b.block_id,
      signatures: [{ block_id_flag: 2, validator_address: identity.validator.address, timestamp: rfc3339Nano(nanos), signature }],
    };
  }
  return { signed_header: { header: b.header, commit }, canonical: next !== undefined };
}

export function validators(store: ChainStore, identity: NodeIdentity, height: number | undefined, page: number | undefined, perPage: number | undefined): ResultValidators {
  const h = resolveHeight(store, height);
  // One validator: every page size holds it, so only page 1 exists.
  const p = page ?? 1;
  if (p !== 1) throw internal(`page should be within [1, 1] range, given ${p}`);
  void perPage;
  return {
    block_height: String(h),
    validators: [{
      address: identity.validator.address,
      pub_key: { type: 'tendermint/PubKeyEd25519', value: Buffer.from(identity.validator.publicKey).toString('base64') },
      voting_power: String(VALIDATOR_POWER),
      proposer_priority: '0',
    }],
    count: '1',
    total: '1',
  };
}

export function txResult(block: StoredBlock, index: number, prove = false): ResultTx {
  const result: ResultTx = { hash: block.tx_hashes[index]!, height: String(block.height), index, tx_result: block.txs_results[index]!, tx: block.txs[index]! };
  if (prove) result.proof = txProof(block, index);
  return result;
}

/** `TxProof`: the tx's merkle proof against the block's `data_hash` (leaves are the tx hashes). */
function txProof(block: StoredBlock, index: number) {
  const leaves = block.tx_hashes.map((h) => Buffer.from(h, 'hex'));
  const p = merkleProof(leaves, index);
  return {
    root_hash: p.root.toString('hex').toUpperCase(),
    data: block.txs[index]!,
    proof: { total: String(leaves.length), index: String(index), leaf_hash: p.leafHash.toString('base64'), aunts: p.aunts.map((a) => a.toString('base64')) },
  };
}

export function txByHash(store: ChainStore, hash: Buffer, prove = false): ResultTx {
  const hex = hash.toString('hex').toUpperCase();
  const loc = store.txLocation(hex);
  if (!loc) throw internal(`tx (${hex}) not found`);
  return txResult(load(store, loc.height), loc.index, prove);
}
