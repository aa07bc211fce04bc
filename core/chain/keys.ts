import { createPrivateKey, createPublicKey, randomBytes, sign as cryptoSign, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { bytesToHex, hexToBytes, utf8Bytes } from './hashes.js';

/**
 * Account keys: a 32-byte Ed25519 seed is the private key, the 32-byte public key is the
 * address (no hashing, no prefix). Private keys never appear in errors, JSON or inspection:
 * messages say what shape was expected and, at most, the length that was given.
 */

export class KeyFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyFormatError';
  }
}

const HEX64 = /^[0-9a-f]{64}$/;
const ANY_HEX64 = /^[0-9a-fA-F]{64}$/;
const ANY_HEX128 = /^[0-9a-fA-F]{128}$/;

/** Trim, drop an optional 0x, lowercase: the SDKs' input normalisation. */
function normalizeHex(input: string): string {
  const t = input.trim();
  return (t.startsWith('0x') || t.startsWith('0X') ? t.slice(2) : t).toLowerCase();
}

/** A private key as 64 lowercase hex characters. The error never contains the input. */
export function normalizePrivateKey(input: unknown): string {
  if (typeof input !== 'string') throw new KeyFormatError('private key must be a string of 64 hex characters');
  const hex = normalizeHex(input);
  if (hex.length !== 64) {
    throw new KeyFormatError(`private key must be 64 hex characters (a 32-byte Ed25519 seed, optional 0x); got ${hex.length} characters`);
  }
  if (!HEX64.test(hex)) throw new KeyFormatError('private key must contain only hex characters 0-9 and a-f');
  return hex;
}

export function isPrivateKey(input: unknown): boolean {
  try {
    normalizePrivateKey(input);
    return true;
  } catch {
    return false;
  }
}

/** An address (public key) as 64 lowercase hex characters; throws naming the bad value. */
export function normalizeAddress(input: unknown): string {
  const hex = typeof input === 'string' ? normalizeHex(input) : '';
  if (!HEX64.test(hex)) {
    // Short inputs are shown; long ones only by length, in case a private key landed here.
    const shown = typeof input !== 'string' ? typeof input : input.length < 32 ? JSON.stringify(input) : `${input.length} characters`;
    throw new KeyFormatError(`address must be 64 hex characters (an Ed25519 public key); got ${shown}`);
  }
  return hex;
}

/** Whether `value` is an address as the node checks one: exactly 64 hex characters, either case. */
export function isAddress(value: unknown): value is string {
  return typeof value === 'string' && ANY_HEX64.test(value);
}

export function isSignature(value: unknown): value is string {
  return typeof value === 'string' && ANY_HEX128.test(value);
}

/** The address of a private key. */
export function publicKeyFromPrivate(privateKey: string): string {
  return publicKeyOfSeed(hexToBytes(normalizePrivateKey(privateKey)));
}

function messageBytes(message: Uint8Array | string): Uint8Array {
  return typeof message === 'string' ? utf8Bytes(message) : message;
}

/** Raw Ed25519 (RFC 8032) over bytes, or over the UTF-8 of text; 128 lowercase hex characters. */
export function sign(privateKey: string, message: Uint8Array | string): string {
  return signWithSeed(hexToBytes(normalizePrivateKey(privateKey)), messageBytes(message));
}

/** Ed25519 verification; malformed keys, signatures or text give false, never an exception. */
export function verify(publicKey: string, message: Uint8Array | string, signature: string): boolean {
  if (!isAddress(publicKey) || !isSignature(signature)) return false;
  try {
    return cryptoVerify(null, messageBytes(message), publicKeyObject(publicKey.toLowerCase()), hexToBytes(signature));
  } catch {
    return false;
  }
}

/*
 * Key derivation, signing and verifying go through OpenSSL (node:crypto): tweetnacl's pure-JS
 * arithmetic is about 40x slower (it capped the devnet at the verify rate, and took ~6 ms to
 * derive one address here), and OpenSSL is strict like libsodium, the real node's library.
 * Parsed public keys are cached because building a KeyObject costs about as much as a
 * verification.
 */
const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');
const KEY_CACHE_LIMIT = 4096;
const publicKeys = new Map<string, KeyObject>();

function publicKeyObject(hex: string): KeyObject {
  let key = publicKeys.get(hex);
  if (!key) {
    key = createPublicKey({ key: Buffer.concat([SPKI_ED25519, Buffer.from(hex, 'hex')]), format: 'der', type: 'spki' });
    if (publicKeys.size >= KEY_CACHE_LIMIT) publicKeys.delete(publicKeys.keys().next().value!);
    publicKeys.set(hex, key);
  }
  return key;
}

function privateKeyObject(seed: Uint8Array): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });
}

function signWithSeed(seed: Uint8Array, message: Uint8Array): string {
  return bytesToHex(cryptoSign(null, message, privateKeyObject(seed)));
}

/** The Ed25519 public key of a 32-byte seed, as 64 lowercase hex (the SPKI form ends with the raw key). */
function publicKeyOfSeed(seed: Uint8Array): string {
  return createPublicKey(privateKeyObject(seed)).export({ format: 'der', type: 'spki' }).subarray(SPKI_ED25519.length).toString('hex');
}

/** A private key or a wallet, wherever something signs. */
export type KeySource = string | Wallet;

/**
 * One account's key pair. The seed sits in a private field; JSON, `String()` and
 * `util.inspect` show the address only. `exportPrivateKey()` is the one deliberate way out.
 */
export class Wallet {
  readonly #seed: Uint8Array;
  /** The public key, which is the account address (64 lowercase hex). */
  readonly address: string;

  private constructor(seed: Uint8Array) {
    this.#seed = seed;
    this.address = publicKeyOfSeed(seed);
  }

  static fromPrivateKey(privateKey: string): Wallet {
    return new Wallet(hexToBytes(normalizePrivateKey(privateKey)));
  }

  static fromSeed(seed: Uint8Array): Wallet {
    if (seed.length !== 32) throw new KeyFormatError(`an Ed25519 seed is 32 bytes; got ${seed.length}`);
    return new Wallet(Uint8Array.from(seed));
  }

  static generate(): Wallet {
    return new Wallet(randomBytes(32));
  }

  /** A wallet as is, or one made from a private key. */
  static from(source: KeySource): Wallet {
    return source instanceof Wallet ? source : Wallet.fromPrivateKey(source);
  }

  get publicKey(): string {
    return this.address;
  }

  /** Raw Ed25519 signature (128 hex) over bytes or the UTF-8 of text. */
  sign(message: Uint8Array | string): string {
    return signWithSeed(this.#seed, messageBytes(message));
  }

  verify(message: Uint8Array | string, signature: string): boolean {
    return verify(this.address, message, signature);
  }

  /** The private key (64 lowercase hex). Call only to hand the key to its owner. */
  exportPrivateKey(): string {
    return bytesToHex(this.#seed);
  }

  /** The 32-byte seed, copied; for key conversion (box encryption). */
  exportSeed(): Uint8Array {
    return Uint8Array.from(this.#seed);
  }

  toJSON(): { address: string } {
    return { address: this.address };
  }

  toString(): string {
    return `Wallet(${this.address})`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Wallet { address: '${this.address}' }`;
  }
}
