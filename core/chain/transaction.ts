import { canonicalJson, compactJson, type JsonObject, type JsonValue } from './canonical-json.js';
import { bytesToHex, sha256, sha3_256, utf8Bytes } from './hashes.js';
import { isAddress, Wallet, type KeySource } from './keys.js';
import { hasWideRuntimeInts, wrapRuntimeInts } from './value-codec.js';

/**
 * The signed transaction (transactions.md): canonical payload → Ed25519 signature → canonical
 * wire JSON → lowercase hex of its UTF-8, whose ASCII characters are the raw CometBFT bytes.
 * The signer always emits canonical bytes, the strictest form every node decoder accepts; the
 * node-side admission (any well-formed JSON) lives in plugins/devnet/node/native-tx-validator.ts.
 */

export type JsonInt = number | bigint;

export interface TxPayload {
  chain_id: string;
  chi_supplied: JsonInt;
  contract: string;
  function: string;
  kwargs: JsonObject;
  nonce: JsonInt;
  sender: string;
}

export interface SignedTransaction {
  metadata: { signature: string };
  payload: TxPayload;
}

/** A transaction ready to broadcast. */
export interface EncodedTransaction {
  tx: SignedTransaction;
  /** Canonical wire JSON. */
  json: string;
  /** Lowercase hex of the JSON's UTF-8: the `tx` broadcast parameter (in double quotes). */
  hex: string;
  /** CometBFT hash: uppercase SHA-256 of the hex text. */
  hash: string;
}

/** A CheckTx step-1 refusal; `message` is the node's text, `log` what CheckTx reports. */
export class TransactionValidationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransactionValidationError';
  }

  get log(): string {
    return `TransactionException: ${this.message}`;
  }
}

export const PAYLOAD_KEYS = ['chain_id', 'chi_supplied', 'contract', 'function', 'kwargs', 'nonce', 'sender'] as const;
const IDENTIFIER = /^[a-zA-Z][a-zA-Z0-9_]*$/;
const SUBMISSION_NAME = /^con_[a-zA-Z][a-zA-Z0-9_]*$/;
const MAX_U64 = 2n ** 64n - 1n;

function isU64(v: unknown): v is JsonInt {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0;
  return typeof v === 'bigint' && v >= 0n && v <= MAX_U64;
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Why a payload would be refused by the node, or null; the client-side twin of the static checks. */
export function payloadProblem(p: TxPayload): string | null {
  if (typeof p.chain_id !== 'string' || p.chain_id === '') return 'chain_id must be a non-empty string';
  if (!isU64(p.chi_supplied) || BigInt(p.chi_supplied) < 1n) return 'chi_supplied must be an integer of at least 1';
  if (!isU64(p.nonce)) return 'nonce must be a non-negative integer';
  if (typeof p.contract !== 'string' || !IDENTIFIER.test(p.contract)) return `contract ${JSON.stringify(p.contract)} is not an identifier`;
  if (typeof p.function !== 'string' || !IDENTIFIER.test(p.function)) return `function ${JSON.stringify(p.function)} is not an identifier`;
  if (!isAddress(p.sender) || p.sender !== p.sender.toLowerCase()) return 'sender must be 64 lowercase hex characters';
  if (!isObject(p.kwargs)) return 'kwargs must be an object';
  const badKey = Object.keys(p.kwargs).find((k) => !IDENTIFIER.test(k));
  if (badKey !== undefined) return `kwargs key ${JSON.stringify(badKey)} is not an identifier`;
  if (p.contract === 'submission' && p.function === 'submit_contract' && !isSubmissionName(p.kwargs['name'])) {
    return 'Transaction contract name is invalid';
  }
  return null;
}

function isSubmissionName(name: unknown): boolean {
  return typeof name === 'string' && name.length <= 255 && SUBMISSION_NAME.test(name);
}

function payloadObject(payload: TxPayload): JsonObject {
  const p = Object.create(null) as JsonObject;
  for (const key of PAYLOAD_KEYS) p[key] = payload[key] as JsonValue;
  return p;
}

/** The exact text that is signed: canonical JSON of the seven payload keys. */
export function canonicalPayload(payload: TxPayload): string {
  return canonicalJson(payloadObject(payload));
}

/** Signs a payload; refuses payloads the node would refuse and signers that are not the sender. */
export function signTransaction(payload: TxPayload, key: KeySource): SignedTransaction {
  const problem = payloadProblem(payload);
  if (problem) throw new TypeError(`transaction payload refused: ${problem}`);
  const wallet = Wallet.from(key);
  if (wallet.address !== payload.sender) throw new TypeError(`the signing key belongs to ${wallet.address}, not to the sender ${payload.sender}`);
  return { metadata: { signature: wallet.sign(canonicalPayload(payload)) }, payload };
}

/** Wire JSON, hex and CometBFT hash of a signed transaction. */
export function encodeTransaction(tx: SignedTransaction): EncodedTransaction {
  const wire = Object.create(null) as JsonObject;
  wire['metadata'] = { signature: tx.metadata.signature };
  wire['payload'] = payloadObject(tx.payload);
  const json = canonicalJson(wire);
  const hex = bytesToHex(utf8Bytes(json));
  return { tx, json, hex, hash: cometTxHash(hex) };
}

/** CometBFT hash: uppercase SHA-256 of the raw bytes, which are the ASCII hex text. */
export function cometTxHash(raw: string | Uint8Array): string {
  const bytes = typeof raw === 'string' ? new TextEncoder().encode(raw) : raw;
  return bytesToHex(sha256(bytes)).toUpperCase();
}

/** Block metadata FinalizeBlock attaches before execution (transactions.md §5). */
export interface BlockMeta {
  chain_id: string;
  /** Block hash, lowercase hex. */
  hash: string;
  height: JsonInt;
  /** Block time, nanoseconds since the epoch. */
  nanos: JsonInt;
}

/**
 * The execution hash in `tx_result.data.hash`: SHA3-256 of the runtime encoding (compact,
 * ASCII-escaped, int64-overflowing ints wrapped) of `{b_meta, metadata, payload}` with keys
 * sorted at every depth. Depends on the block, so it is not the CometBFT hash.
 */
export function executionHash(tx: SignedTransaction, bMeta: BlockMeta): string {
  const whole = Object.create(null) as JsonObject;
  whole['b_meta'] = bMeta as unknown as JsonObject;
  whole['metadata'] = tx.metadata as unknown as JsonObject;
  whole['payload'] = tx.payload as unknown as JsonObject;
  // Sorting while writing equals Python's sort-then-encode; the int pass is order-independent.
  // The int pass copies the whole transaction; it changes the text only when an int is wide.
  const text = compactJson(hasWideRuntimeInts(whole) ? wrapRuntimeInts(whole) : whole, { asciiOnly: true, sortKeys: true });
  return bytesToHex(sha3_256(new TextEncoder().encode(text)));
}
