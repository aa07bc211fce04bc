import { createHash } from 'node:crypto';

/**
 * CometBFT 0.38's hashing of block data, reproduced so devnet blocks hash like a real node's:
 * RFC 6962 merkle roots (`crypto/merkle`), the header hash over the proto encoding of its 14
 * fields, `data_hash` over the tx hashes, `last_results_hash` over the deterministic ExecTxResult
 * fields, validator-set and consensus-param hashes, and the canonical precommit sign bytes.
 * Only the block part-set hash is simplified (one part over the JSON block, not the proto one).
 */
export function sha256(...parts: Uint8Array[]): Buffer {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

const EMPTY = new Uint8Array(0);
const LEAF_PREFIX = Uint8Array.of(0);
const INNER_PREFIX = Uint8Array.of(1);

/** `merkle.HashFromByteSlices`. */
export function merkleRoot(items: readonly Uint8Array[]): Buffer {
  if (items.length === 0) return sha256(EMPTY);
  if (items.length === 1) return sha256(LEAF_PREFIX, items[0]!);
  const k = splitPoint(items.length);
  return sha256(INNER_PREFIX, merkleRoot(items.slice(0, k)), merkleRoot(items.slice(k)));
}

/** `merkle.ProofsFromByteSlices` for one item: the root and the aunts, from the leaf's sibling up. */
export function merkleProof(items: readonly Uint8Array[], index: number): { root: Buffer; leafHash: Buffer; aunts: Buffer[] } {
  if (items.length === 1) {
    const leaf = sha256(LEAF_PREFIX, items[0]!);
    return { root: leaf, leafHash: leaf, aunts: [] };
  }
  const k = splitPoint(items.length);
  if (index < k) {
    const sub = merkleProof(items.slice(0, k), index);
    const right = merkleRoot(items.slice(k));
    return { root: sha256(INNER_PREFIX, sub.root, right), leafHash: sub.leafHash, aunts: [...sub.aunts, right] };
  }
  const sub = merkleProof(items.slice(k), index - k);
  const left = merkleRoot(items.slice(0, k));
  return { root: sha256(INNER_PREFIX, left, sub.root), leafHash: sub.leafHash, aunts: [...sub.aunts, left] };
}

function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

// ---- minimal protobuf writer ---------------------------------------------------------------

export function varint(value: bigint | number): Uint8Array {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Uint8Array.from(out);
}

function concat(parts: Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}

/** A varint field; proto3 omits zero. */
function fVarint(field: number, value: bigint | number): Uint8Array {
  return BigInt(value) === 0n ? EMPTY : concat([varint(field << 3), varint(value)]);
}

/** A length-delimited field; `always` for gogoproto non-nullable messages. */
function fBytes(field: number, bytes: Uint8Array, always = false): Uint8Array {
  return bytes.length === 0 && !always ? EMPTY : concat([varint((field << 3) | 2), varint(bytes.length), bytes]);
}

function fSfixed64(field: number, value: bigint): Uint8Array {
  if (value === 0n) return EMPTY;
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(value);
  return concat([varint((field << 3) | 1), b]);
}

/** google.protobuf.Timestamp from ns since the epoch. */
export function timestampProto(nanos: bigint): Uint8Array {
  const seconds = nanos / 1_000_000_000n;
  const rest = nanos % 1_000_000_000n;
  return concat([fVarint(1, seconds), fVarint(2, rest)]);
}

export interface BlockIdBytes {
  hash: Uint8Array;
  partsTotal: number;
  partsHash: Uint8Array;
}

function blockIdProto(id: BlockIdBytes): Uint8Array {
  return concat([fBytes(1, id.hash), fBytes(2, concat([fVarint(1, id.partsTotal), fBytes(2, id.partsHash)]), true)]);
}

export interface HeaderFields {
  versionBlock: number;
  versionApp: number | bigint;
  chainId: string;
  height: number;
  timeNanos: bigint;
  lastBlockId: BlockIdBytes;
  lastCommitHash: Uint8Array;
  dataHash: Uint8Array;
  validatorsHash: Uint8Array;
  nextValidatorsHash: Uint8Array;
  consensusHash: Uint8Array;
  appHash: Uint8Array;
  lastResultsHash: Uint8Array;
  evidenceHash: Uint8Array;
  proposerAddress: Uint8Array;
}

/** `Header.Hash()`: merkle root of the proto-encoded fields (gogotypes wrappers via cdcEncode). */
export function headerHash(h: HeaderFields): Buffer {
  const wrapBytes = (b: Uint8Array) => fBytes(1, b);
  return merkleRoot([
    concat([fVarint(1, h.versionBlock), fVarint(2, h.versionApp)]),
    fBytes(1, Buffer.from(h.chainId, 'utf8')),
    fVarint(1, h.height),
    timestampProto(h.timeNanos),
    blockIdProto(h.lastBlockId),
    wrapBytes(h.lastCommitHash),
    wrapBytes(h.dataHash),
    wrapBytes(h.validatorsHash),
    wrapBytes(h.nextValidatorsHash),
    wrapBytes(h.consensusHash),
    wrapBytes(h.appHash),
    wrapBytes(h.lastResultsHash),
    wrapBytes(h.evidenceHash),
    wrapBytes(h.proposerAddress),
  ]);
}

/** `Txs.Hash()` (0.38): merkle root over each tx's SHA-256. */
export function dataHash(rawTxs: readonly Uint8Array[]): Buffer {
  return merkleRoot(rawTxs.map((tx) => sha256(tx)));
}

/** `ABCIResults.Hash()`: merkle root over the deterministic fields {code, data, gas_wanted, gas_used}. */
export function resultsHash(results: ReadonlyArray<{ code: number; data: Uint8Array }>): Buffer {
  return merkleRoot(results.map((r) => concat([fVarint(1, r.code), fBytes(2, r.data)])));
}

/** `ValidatorSet.Hash()` for Ed25519 validators. */
export function validatorsHash(validators: ReadonlyArray<{ pubKey: Uint8Array; power: number }>): Buffer {
  return merkleRoot(validators.map((v) => concat([fBytes(1, fBytes(1, v.pubKey)), fVarint(2, v.power)])));
}

/** `ConsensusParams.Hash()`: SHA-256 of HashedParams{block_max_bytes, block_max_gas}. */
export function consensusParamsHash(maxBytes: number, maxGas: number): Buffer {
  return sha256(concat([fVarint(1, maxBytes), fVarint(2, maxGas)]));
}

/** `Commit.Hash()`: merkle root over the proto CommitSig entries. */
export function commitHash(sigs: ReadonlyArray<{ flag: number; address: Uint8Array; timeNanos: bigint; signature: Uint8Array }>): Buffer {
  return merkleRoot(sigs.map((s) => concat([
    fVarint(1, s.flag), fBytes(2, s.address), fBytes(3, timestampProto(s.timeNanos), true), fBytes(4, s.signature),
  ])));
}

/** `VoteSignBytes` of a precommit: length-delimited CanonicalVote. */
export function precommitSignBytes(chainId: string, height: number, round: number, blockId: BlockIdBytes, timeNanos: bigint): Uint8Array {
  const canonicalBlockId = concat([fBytes(1, blockId.hash), fBytes(2, concat([fVarint(1, blockId.partsTotal), fBytes(2, blockId.partsHash)]), true)]);
  const vote = concat([
    fVarint(1, 2),
    fSfixed64(2, BigInt(height)),
    fSfixed64(3, BigInt(round)),
    fBytes(4, canonicalBlockId),
    fBytes(5, timestampProto(timeNanos), true),
    fBytes(6, Buffer.from(chainId, 'utf8')),
  ]);
  return concat([varint(vote.length), vote]);
}

/** A CometBFT Ed25519 address: the first 20 bytes of SHA-256(pubkey). */
export function ed25519Address(pubKey: Uint8Array): Buffer {
  return sha256(pubKey).subarray(0, 20);
}

/** RFC 3339 UTC with up to 9 fractional digits, trailing zeros trimmed (Go's RFC3339Nano). */
export function rfc3339Nano(nanos: bigint): string {
  const ms = nanos / 1_000_000n;
  const iso = new Date(Number(ms)).toISOString().slice(0, 19);
  const frac = (nanos % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${iso}${frac ? '.' + frac : ''}Z`;
}
