import { sha512 } from '@noble/hashes/sha2.js';
import nacl from 'tweetnacl';
import { bytesToHex, hexToBytes, utf8Bytes, utf8TextOrNull } from './hashes.js';
import { KeyFormatError, normalizeAddress, Wallet, type KeySource } from './keys.js';

/**
 * Message encryption in the Python SDK's format (crypto.md §5): NaCl `crypto_box` between the
 * two accounts' keys converted from Ed25519 to X25519, output hex of nonce(24) ‖ MAC(16) ‖
 * ciphertext. The shared key is symmetric, so sender and receiver can both decrypt.
 */

export class DecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecryptionError';
  }
}

const P = 2n ** 255n - 19n;
const D = mod(-121665n * inverse(121666n));

function mod(a: bigint): bigint {
  const r = a % P;
  return r < 0n ? r + P : r;
}

function power(base: bigint, exp: bigint): bigint {
  let result = 1n;
  let b = mod(base);
  for (let e = exp; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
  }
  return result;
}

function inverse(a: bigint): bigint {
  return power(a, P - 2n);
}

/** libsodium `crypto_sign_ed25519_sk_to_curve25519`: SHA-512 of the seed, first half, clamped. */
export function ed25519SeedToX25519(seed: Uint8Array): Uint8Array {
  if (seed.length !== 32) throw new KeyFormatError('an Ed25519 seed is 32 bytes');
  const h = sha512(seed).slice(0, 32);
  h[0]! &= 248;
  h[31]! &= 127;
  h[31]! |= 64;
  return h;
}

/**
 * libsodium `crypto_sign_ed25519_pk_to_curve25519`: Montgomery u = (1 + y) / (1 − y).
 * Refuses encodings that are not curve points, as libsodium does.
 */
export function ed25519PublicToX25519(publicKey: Uint8Array): Uint8Array {
  if (publicKey.length !== 32) throw new KeyFormatError('an Ed25519 public key is 32 bytes');
  const le = Uint8Array.from(publicKey);
  le[31]! &= 0x7f; // drop the sign bit of x
  const y = BigInt('0x' + bytesToHex(le.reverse()));
  if (y >= P || !isOnCurve(y)) throw new KeyFormatError('public key is not a valid Ed25519 point');
  const u = mod((1n + y) * inverse(mod(1n - y)));
  const out = new Uint8Array(32);
  let v = u;
  for (let i = 0; i < 32; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** Whether some x satisfies −x² + y² = 1 + d·x²·y², i.e. x² = (y² − 1) / (d·y² + 1) is a square. */
function isOnCurve(y: bigint): boolean {
  const y2 = mod(y * y);
  const x2 = mod((y2 - 1n) * inverse(mod(D * y2 + 1n)));
  return x2 === 0n || power(x2, (P - 1n) / 2n) === 1n;
}

function boxKeys(mine: KeySource, theirAddress: string): { secret: Uint8Array; shared: Uint8Array } {
  const secret = ed25519SeedToX25519(Wallet.from(mine).exportSeed());
  const theirs = ed25519PublicToX25519(hexToBytes(normalizeAddress(theirAddress), 'public key'));
  // libsodium refuses an all-zero shared secret (a small-order public key); so do we.
  if (nacl.scalarMult(secret, theirs).every((b) => b === 0)) throw new KeyFormatError('public key is a small-order point');
  return { secret, shared: nacl.box.before(theirs, secret) };
}

/**
 * Encrypts `plaintext` from sender to receiver. `nonce` is for reproducible tests only; real
 * use draws 24 random bytes, because reusing a nonce with the same key pair breaks secrecy.
 */
export function encryptMessage(senderKey: KeySource, receiverAddress: string, plaintext: string, nonce: Uint8Array = nacl.randomBytes(24)): string {
  if (nonce.length !== 24) throw new TypeError('box nonce must be 24 bytes');
  const { shared } = boxKeys(senderKey, receiverAddress);
  const boxed = nacl.box.after(utf8Bytes(plaintext), nonce, shared);
  return bytesToHex(nonce) + bytesToHex(boxed);
}

function open(myKey: KeySource, otherAddress: string, cipherHex: string): string {
  let bytes: Uint8Array;
  try {
    bytes = hexToBytes(cipherHex.trim(), 'ciphertext');
  } catch {
    throw new DecryptionError('ciphertext must be hex (nonce ‖ MAC ‖ ciphertext)');
  }
  if (bytes.length < 24 + 16) throw new DecryptionError(`ciphertext is too short: ${bytes.length} bytes, at least 40 needed`);
  const { shared } = boxKeys(myKey, otherAddress);
  const plain = nacl.box.open.after(bytes.slice(24), bytes.slice(0, 24), shared);
  if (!plain) throw new DecryptionError('decryption failed: wrong keys, or the ciphertext was altered');
  const text = utf8TextOrNull(plain);
  if (text === null) throw new DecryptionError('decrypted bytes are not UTF-8 text');
  return text;
}

/** The receiver decrypts with its own key and the sender's address. */
export function decryptAsReceiver(senderAddress: string, receiverKey: KeySource, cipherHex: string): string {
  return open(receiverKey, senderAddress, cipherHex);
}

/** The sender reads back what it sent, with its own key and the receiver's address. */
export function decryptAsSender(senderKey: KeySource, receiverAddress: string, cipherHex: string): string {
  return open(senderKey, receiverAddress, cipherHex);
}
