import { canonicalJson, cometTxHash, type JsonObject, PAYLOAD_KEYS, type SignedTransaction, TransactionValidationError, verify } from 'chainhost/chain';
import { parseSerdeJson, SerdeFloat, SerdeJsonError, serdeEqual, type SerdeObject, type SerdeValue } from './serde-json.js';

/**
 * CheckTx step 1 as the production node runs it: the size cap of `check_tx.py`, then the native
 * fast path `decode_and_validate_transaction_static` (xian-contracting
 * `packages/xian-fastpath-core/src/lib.rs`), rule for rule, in its order and with its texts.
 * It accepts any well-formed JSON — whitespace, any key order, `\u` escapes, Python's
 * `json.dumps` defaults — and verifies the signature over the canonical re-serialisation of the
 * payload. The table in plugins/devnet/node/README.md maps each refusal to its source line.
 */

export interface NativeTxOptions {
  chainId: string;
  /** CometBFT mempool `max_tx_bytes`; omitted = no size check. */
  maxTxBytes?: number;
}

/** A refusal; `stage` tells FinalizeBlock whether the bytes decoded (validate) or not (decode). */
export class NativeTxError extends TransactionValidationError {
  constructor(message: string, readonly stage: 'size' | 'decode' | 'validate') {
    super(message);
  }
}

export interface AdmittedTx {
  tx: SignedTransaction;
  /** Uppercase SHA-256 of the bytes as broadcast. */
  hash: string;
}

const WRONGLY_FORMATTED = 'Transaction has wrongly formatted dictionary';
const PAYLOAD_MARKER = '"payload":';

export function decodeAndValidateNative(raw: Uint8Array, options: NativeTxOptions): AdmittedTx {
  if (options.maxTxBytes !== undefined && raw.length > options.maxTxBytes) {
    throw new NativeTxError(`Transaction exceeds maximum configured size of ${options.maxTxBytes} bytes`, 'size');
  }
  const txValue = decodeTransactionBytes(raw);
  return { tx: validateStatic(txValue, options.chainId), hash: cometTxHash(raw) };
}

/** `decode_transaction_bytes_impl` (lib.rs 113-133): UTF-8 → hex → UTF-8 → serde_json → payload cross-check. */
function decodeTransactionBytes(raw: Uint8Array): SerdeValue {
  const utf8Problem = rustUtf8Error(raw);
  if (utf8Problem) decodeFail(utf8Problem);
  const decoded = rustHexDecode(raw);
  if (typeof decoded === 'string') return decodeFail(decoded);
  const utf8Problem2 = rustUtf8Error(decoded);
  if (utf8Problem2) decodeFail(utf8Problem2);
  const txValue = serde(decoded, decodeFail);
  const payloadBytes = extractPayload(decoded, decodeFail);
  const payloadValue = serde(payloadBytes, decodeFail);
  const parsed = isObject(txValue) ? txValue['payload'] : undefined;
  if (parsed === undefined || !serdeEqual(payloadValue, parsed)) decodeFail('Invalid payload');
  return txValue;
}

function serde(bytes: Uint8Array, fail: (m: string) => never): SerdeValue {
  try {
    return parseSerdeJson(bytes);
  } catch (err) {
    if (err instanceof SerdeJsonError) return fail(err.message);
    throw err;
  }
}

/**
 * `extract_payload_string_impl` (lib.rs 58-97): from the first `"payload":` in the text, the
 * brace-balanced span that starts at the next `{`, skipping braces inside strings.
 */
function extractPayload(text: Uint8Array, fail: (m: string) => never): Uint8Array {
  const start = indexOfAscii(text, PAYLOAD_MARKER);
  if (start < 0) return fail("No 'payload' found in the provided JSON string.");
  const brace = text.indexOf(0x7b, start);
  if (brace < 0) return fail("Malformed JSON: No opening brace for 'payload'.");
  let depth = 0;
  let inString = false;
  for (let k = brace; k < text.length; k++) {
    const c = text[k]!;
    if (c === 0x22 && !isEscaped(text, k)) inString = !inString;
    if (!inString) {
      if (c === 0x7b) depth++;
      else if (c === 0x7d) {
        if (depth === 0) break;
        depth--;
      }
    }
    if (depth === 0) return text.subarray(brace, k + 1);
  }
  return fail("Malformed JSON: No matching closing brace for 'payload'.");
}

function isEscaped(bytes: Uint8Array, index: number): boolean {
  let slashes = 0;
  for (let k = index; k > 0 && bytes[k - 1] === 0x5c; k--) slashes++;
  return slashes % 2 === 1;
}

function indexOfAscii(bytes: Uint8Array, needle: string): number {
  outer: for (let k = 0; k + needle.length <= bytes.length; k++) {
    for (let j = 0; j < needle.length; j++) if (bytes[k + j] !== needle.charCodeAt(j)) continue outer;
    return k;
  }
  return -1;
}

// Module-level, not per-call closures: CheckTx runs for every transaction.
function decodeFail(message: string): never {
  throw new NativeTxError(message, 'decode');
}

function fail(message: string): never {
  throw new NativeTxError(message, 'validate');
}

/** `validate_transaction_static_impl` (lib.rs 135-221), in its order. */
function validateStatic(txValue: SerdeValue, chainId: string): SignedTransaction {
  if (!isObject(txValue)) return fail(WRONGLY_FORMATTED);
  const metadataValue = txValue['metadata'];
  if (metadataValue === undefined || !isObject(metadataValue)) return fail('Metadata is missing');
  if (Object.keys(metadataValue).length !== 1) return fail('Wrong number of metadata entries');
  if (!exactKeys(metadataValue, ['signature'])) return fail('Transaction has unexpected or missing keys');
  const payloadValue = txValue['payload'];
  if (payloadValue === undefined || !isObject(payloadValue)) return fail('Payload is missing');
  const payload = payloadValue;

  for (const key of ['sender', 'contract', 'function']) {
    const v = payload[key];
    if (typeof v !== 'string' || v === '') return fail(`Payload key '${key}' is missing`);
  }
  if (!truthy(payload['chi_supplied'])) return fail("Payload key 'chi_supplied' is missing");
  if (!exactKeys(payload, PAYLOAD_KEYS)) return fail('Transaction has unexpected or missing keys');

  const { sender, contract, function: fn, chain_id: txChainId, kwargs } = payload;
  const signature = metadataValue['signature'];
  if (typeof sender !== 'string' || typeof signature !== 'string' || typeof contract !== 'string' ||
      typeof fn !== 'string' || typeof txChainId !== 'string' || !isObject(kwargs!)) return fail(WRONGLY_FORMATTED);
  if (!isHexOfLength(sender, 64) || !isHexOfLength(signature, 128) || !isIdentifier(contract) || !isIdentifier(fn) ||
      !Object.keys(kwargs).every(isIdentifier) || !isU64(payload['nonce']) || !isU64(payload['chi_supplied'])) {
    return fail(WRONGLY_FORMATTED);
  }
  if (containsFloat(payload)) return fail(WRONGLY_FORMATTED);
  // No floats left, so the payload is plain JSON and its canonical text is the signed message.
  const signing = payload as unknown as JsonObject;
  if (!verify(sender, canonicalJson(signing), signature)) return fail('Bad signature');
  if (txChainId !== chainId) return fail('Wrong chain_id');
  if (contract === 'submission' && fn === 'submit_contract' && !isSubmissionName(kwargs['name'])) {
    return fail('Transaction contract name is invalid');
  }
  return { metadata: { signature }, payload: signing as unknown as SignedTransaction['payload'] };
}

function isObject(v: SerdeValue | undefined): v is SerdeObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof SerdeFloat);
}

function exactKeys(map: SerdeObject, expected: readonly string[]): boolean {
  const keys = Object.keys(map);
  return keys.length === expected.length && expected.every((k) => k in map);
}

/** `ensure_truthy` (lib.rs 285-296): integer 0, false, null, "", [], {} and absence are falsy; floats never are. */
function truthy(v: SerdeValue | undefined): boolean {
  if (v === undefined || v === null || v === false) return false;
  if (typeof v === 'number' || typeof v === 'bigint') return BigInt(v) !== 0n;
  if (typeof v === 'string' || Array.isArray(v)) return v.length > 0;
  if (v instanceof SerdeFloat || v === true) return true;
  return Object.keys(v).length > 0;
}

/** `is_non_negative_integer`: serde's `as_u64()` — a JSON integer in 0..2^64-1 (booleans are not numbers). */
function isU64(v: SerdeValue | undefined): boolean {
  return (typeof v === 'number' && v >= 0) || (typeof v === 'bigint' && v >= 0n);
}

function containsFloat(v: SerdeValue): boolean {
  if (v instanceof SerdeFloat) return true;
  if (Array.isArray(v)) return v.some(containsFloat);
  if (isObject(v)) return Object.values(v).some(containsFloat);
  return false;
}

/** `is_hex_of_len`: either case, as `hex::decode` accepts. */
function isHexOfLength(v: string, length: number): boolean {
  return v.length === length && /^[0-9a-fA-F]*$/.test(v);
}

/** `is_identifier`: an ASCII letter, then ASCII letters, digits and `_`. */
function isIdentifier(v: string): boolean {
  return /^[a-zA-Z][a-zA-Z0-9_]*$/.test(v);
}

/** `is_valid_submission_name`: a string of at most 255 bytes, `con_` + identifier. */
function isSubmissionName(v: SerdeValue | undefined): boolean {
  return typeof v === 'string' && Buffer.byteLength(v) <= 255 && v.startsWith('con_') && isIdentifier(v.slice(4));
}

/**
 * Rust's `std::str::from_utf8` error text ("invalid utf-8 sequence of 1 bytes from index 3",
 * "incomplete utf-8 byte sequence from index 3"), or undefined when the bytes are UTF-8.
 */
export function rustUtf8Error(bytes: Uint8Array): string | undefined {
  let k = 0;
  while (k < bytes.length) {
    const b = bytes[k]!;
    if (b < 0x80) { k++; continue; }
    const width = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (width === 0) return `invalid utf-8 sequence of 1 bytes from index ${k}`;
    // The second byte's range depends on the lead (no overlongs, surrogates or > U+10FFFF).
    const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    for (let j = 1; j < width; j++) {
      const c = bytes[k + j];
      if (c === undefined) return `incomplete utf-8 byte sequence from index ${k}`;
      const ok = j === 1 ? c >= lo && c <= hi : c >= 0x80 && c <= 0xbf;
      if (!ok) return `invalid utf-8 sequence of ${j} bytes from index ${k}`;
    }
    k += width;
  }
  return undefined;
}

/** The `hex` crate's `decode`: the bytes, or its error text ("Odd number of digits", "Invalid character 'g' at position 4"). */
export function rustHexDecode(text: Uint8Array): Uint8Array | string {
  if (text.length % 2 !== 0) return 'Odd number of digits';
  const out = new Uint8Array(text.length / 2);
  for (let k = 0; k < text.length; k++) {
    const d = hexValue(text[k]!);
    if (d < 0) return `Invalid character ${rustCharDebug(text[k]!)} at position ${k}`;
    out[k >> 1] = (out[k >> 1]! << 4) | d;
  }
  return out;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** Rust's `{:?}` of `byte as char` (a Latin-1 code point). */
function rustCharDebug(byte: number): string {
  const named: Record<number, string> = { 0: '\\0', 9: '\\t', 10: '\\n', 13: '\\r', 0x27: "\\'", 0x5c: '\\\\' };
  if (named[byte] !== undefined) return `'${named[byte]}'`;
  if (byte < 0x20 || (byte >= 0x7f && byte <= 0xa0) || byte === 0xad) return `'\\u{${byte.toString(16)}}'`;
  return `'${String.fromCharCode(byte)}'`;
}
