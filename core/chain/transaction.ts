import { sha256 } from '@noble/hashes/sha2.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import { CanonicalJsonError, canonicalJson, compactJson, JsonSyntaxError, parseCanonical, type JsonObject, type JsonValue } from './canonical-json.js';
import { bytesToHex, pythonFromHex, pythonUtf8Decode, utf8Bytes } from './hashes.js';
import { isAddress, isSignature, verify, Wallet, type KeySource } from './keys.js';
import { wrapRuntimeInts } from './value-codec.js';

/**
 * The signed transaction (transactions.md): canonical payload → Ed25519 signature → canonical
 * wire JSON → lowercase hex of its UTF-8, whose ASCII characters are the raw CometBFT bytes.
 * Decoding runs the node's static CheckTx checks in the node's order and with its messages.
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
  constructor(message: string, readonly detail?: string) {
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

export interface TxValidationOptions {
  chainId: string;
  /** CometBFT mempool `max_tx_bytes`; omitted = no size check. */
  maxTxBytes?: number;
  /** Reject `chi_supplied = 0` as the native validator does (default true; see transactions.md §1.2). */
  rejectZeroChi?: boolean;
}

/**
 * CheckTx step 1 on raw bytes (a hex string is taken as the raw bytes' text): size, hex/UTF-8/
 * JSON decode, canonical check, key sets, field formats, signature, chain id, submission name.
 * Returns the transaction and its CometBFT hash, or throws TransactionValidationError.
 */
export function decodeAndValidateTx(raw: string | Uint8Array, options: TxValidationOptions): { tx: SignedTransaction; hash: string; json: string } {
  const bytes = typeof raw === 'string' ? new TextEncoder().encode(raw) : raw;
  if (options.maxTxBytes !== undefined && bytes.length > options.maxTxBytes) {
    throw new TransactionValidationError(`Transaction exceeds maximum configured size of ${options.maxTxBytes} bytes`);
  }
  const json = decodeText(bytes);
  const tx = validateStatic(json, options);
  return { tx, hash: cometTxHash(bytes), json };
}

function decodeText(bytes: Uint8Array): string {
  let json: string;
  try {
    json = pythonUtf8Decode(pythonFromHex(pythonUtf8Decode(bytes)));
  } catch (err) {
    throw new TransactionValidationError((err as Error).message);
  }
  return json;
}

function validateStatic(json: string, options: TxValidationOptions): SignedTransaction {
  const fail = (message: string, detail?: string): never => { throw new TransactionValidationError(message, detail); };
  let tx: JsonValue;
  try {
    tx = parseCanonical(json);
  } catch (err) {
    if (err instanceof CanonicalJsonError) return fail(err.message, `${err.path}: ${err.reason}`);
    if (err instanceof JsonSyntaxError) return fail(err.message);
    throw err;
  }
  if (!isObject(tx)) return fail(pythonSubscriptError(tx));
  if (!('payload' in tx)) return fail('Invalid payload');

  // check_tx_keys
  const metadata = tx['metadata'];
  if (!isObject(metadata) || Object.keys(metadata).length === 0) return fail('Metadata is missing');
  if (Object.keys(metadata).length !== 1) return fail('Wrong number of metadata entries');
  const payload = tx['payload'];
  if (!isObject(payload) || Object.keys(payload).length === 0) return fail('Payload is missing');
  if (Object.keys(payload).some((k) => !(PAYLOAD_KEYS as readonly string[]).includes(k))) return fail('Payload keys are not valid');
  // The node's four required keys also count null and "" as missing; the devnet adds 0 chi
  // (native validator) and reports the other absent keys the same way (transactions.md §1.2).
  for (const key of ['sender', 'contract', 'function', 'chi_supplied', 'nonce', 'kwargs', 'chain_id']) {
    const v = payload[key];
    const required = key === 'sender' || key === 'contract' || key === 'function' || key === 'chi_supplied';
    const empty = !(key in payload) || (required && (v === null || v === ''));
    const zeroChi = key === 'chi_supplied' && options.rejectZeroChi !== false && (v === 0 || v === 0n);
    if (empty || zeroChi) return fail(`Payload key '${key}' is missing`);
  }

  // check_format
  if (Object.keys(tx).length !== 2 || !('metadata' in tx)) return fail('Transaction has unexpected or missing keys');
  const wellFormed =
    isSignature(metadata['signature']) && isAddress(payload['sender']) && isU64(payload['nonce']) &&
    isU64(payload['chi_supplied']) && typeof payload['contract'] === 'string' && IDENTIFIER.test(payload['contract']) &&
    typeof payload['function'] === 'string' && IDENTIFIER.test(payload['function']) && isObject(payload['kwargs']) &&
    Object.keys(payload['kwargs']).every((k) => IDENTIFIER.test(k)) && typeof payload['chain_id'] === 'string';
  if (!wellFormed) return fail('Transaction has wrongly formatted dictionary');

  const signed = tx as unknown as SignedTransaction;
  if (!verify(signed.payload.sender.toLowerCase(), canonicalPayload(signed.payload), signed.metadata.signature.toLowerCase())) {
    return fail('Bad signature');
  }
  if (signed.payload.chain_id !== options.chainId) return fail('Wrong chain_id');
  if (signed.payload.contract === 'submission' && signed.payload.function === 'submit_contract' && !isSubmissionName(signed.payload.kwargs['name'])) {
    return fail('Transaction contract name is invalid');
  }
  return signed;
}

/** What Python says when `tx["payload"]` is tried on a JSON document that is not an object. */
function pythonSubscriptError(v: JsonValue): string {
  if (Array.isArray(v)) return 'list indices must be integers or slices, not str';
  if (typeof v === 'string') return "string indices must be integers, not 'str'";
  const type = v === null ? 'NoneType' : typeof v === 'boolean' ? 'bool' : 'int';
  return `'${type}' object is not subscriptable`;
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
  const text = compactJson(wrapRuntimeInts(whole), { asciiOnly: true, sortKeys: true });
  return bytesToHex(sha3_256(new TextEncoder().encode(text)));
}
