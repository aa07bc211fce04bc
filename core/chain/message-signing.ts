import { utf8Bytes } from './hashes.js';
import { isAddress, verify, Wallet, type KeySource } from './keys.js';
import { valueMovingText, ValueMovingTextError } from './value-moving-text.js';

/**
 * Two different ways to sign a message, kept apart on purpose (spec §1.7, §9.3):
 * raw Ed25519 over the exact text (the `sign_message` tool, contracts' `crypto.verify`), and
 * the versioned envelope injected wallets sign (crypto.md §4). A signature of one never
 * verifies as the other.
 */

/**
 * Raw signature over the UTF-8 of `message` exactly as given: no trimming, no normalisation.
 * Refuses (ValueMovingTextError) a text whose signature the chain would accept as a transaction
 * or a permit (value-moving-text.ts): transactions are signed only by the submitter, behind its
 * guards (spending policy, confirmation).
 */
export function signRawMessage(key: KeySource, message: string): string {
  const found = valueMovingText(message);
  if (found) throw new ValueMovingTextError(found);
  return Wallet.from(key).sign(utf8Bytes(message));
}

/** Raw verification over the exact text; anything malformed is simply false. */
export function verifyRawMessage(publicKey: string, message: string, signature: string): boolean {
  try {
    return verify(publicKey, utf8Bytes(message), signature);
  } catch {
    return false; // text without a UTF-8 form cannot have been signed
  }
}

/** Protocol constants of the envelope: signed bytes, so the upstream spelling stays. */
export const ENVELOPE_HEADER = '\u0019Xian Signed Message:';
export const ENVELOPE_VERSION = 1;

export interface EnvelopeInput {
  /** The signing address (trimmed and lowercased before use). */
  account: string;
  chainId: string;
  /** Used exactly as given. */
  message: string;
}

export class EnvelopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvelopeError';
  }
}

function byteLength(text: string): number {
  return utf8Bytes(text).length;
}

/** The text that is signed: five lines joined by LF, each field prefixed with its UTF-8 byte length. */
export function buildMessageEnvelope(input: EnvelopeInput): string {
  const account = typeof input.account === 'string' ? input.account.trim().toLowerCase() : '';
  if (!/^[0-9a-f]{64}$/.test(account)) throw new EnvelopeError('envelope account must be 64 hex characters (the signing address)');
  const chainId = typeof input.chainId === 'string' ? input.chainId.trim() : '';
  if (chainId === '') throw new EnvelopeError('envelope chainId must not be empty');
  if (typeof input.message !== 'string') throw new EnvelopeError('envelope message must be a string');
  return [
    ENVELOPE_HEADER,
    String(ENVELOPE_VERSION),
    `chain-id:${byteLength(chainId)}:${chainId}`,
    `account:${byteLength(account)}:${account}`,
    `message:${byteLength(input.message)}:${input.message}`,
  ].join('\n');
}

export interface SignedEnvelope {
  account: string;
  chainId: string;
  message: string;
  envelope: string;
  signature: string;
}

/** Signs the envelope; refuses when `account` is not the signing key's address. */
export function signMessageEnvelope(key: KeySource, input: EnvelopeInput): SignedEnvelope {
  const wallet = Wallet.from(key);
  const envelope = buildMessageEnvelope(input);
  const account = input.account.trim().toLowerCase();
  if (account !== wallet.address) throw new EnvelopeError(`envelope account ${account} is not the signing key's address ${wallet.address}`);
  return { account, chainId: input.chainId.trim(), message: input.message, envelope, signature: wallet.sign(utf8Bytes(envelope)) };
}

/** Verifies an envelope signature by `publicKey`, which must also be the envelope's account. */
export function verifyMessageEnvelope(publicKey: string, input: EnvelopeInput, signature: string): boolean {
  if (!isAddress(publicKey) || typeof input.account !== 'string') return false;
  if (input.account.trim().toLowerCase() !== publicKey.toLowerCase()) return false;
  try {
    return verify(publicKey.toLowerCase(), utf8Bytes(buildMessageEnvelope(input)), signature);
  } catch {
    return false; // an envelope that cannot be built was never signed
  }
}
