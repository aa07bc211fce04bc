import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCallback, type ScryptOptions } from 'node:crypto';
import { Wallet } from '../chain/keys.js';

/**
 * One encrypted account key, version 1 of the file format documented in docs/keystore.md:
 *
 *   { "format": "chainhost-keystore", "version": 1, "alias": "alice", "address": "<64 hex>",
 *     "created_at": "<ISO 8601 UTC>",
 *     "kdf": { "name": "scrypt", "n": 131072, "r": 8, "p": 1, "salt": "<32 bytes hex>" },
 *     "cipher": { "name": "aes-256-gcm", "iv": "<12 bytes hex>", "tag": "<16 bytes hex>" },
 *     "ciphertext": "<the 32-byte Ed25519 seed, encrypted, hex>" }
 *
 * scrypt (memory-hard) turns the passphrase into the AES-256-GCM key; the additional data binds
 * format, version, alias and address, so a file whose alias or address was edited, or whose
 * ciphertext was swapped with another file's, does not decrypt. After decryption the seed's own
 * address must equal the recorded one. Only `alias`, `address` and `created_at` are readable
 * without the passphrase — what `chain-keys list` shows.
 */
export const KEYSTORE_FORMAT = 'chainhost-keystore';
export const KEYSTORE_VERSION = 1;

/** OWASP's scrypt floor for interactive logins: N = 2^17, r = 8, p = 1 (128 MiB, ~0.3 s). */
export const DEFAULT_SCRYPT = { n: 2 ** 17, r: 8, p: 1 } as const;
/** The most a file may ask for, so a planted file cannot make unlocking take minutes or gigabytes. */
const MAX_SCRYPT_N = 2 ** 20;
const MAX_SCRYPT_MEMORY = 1024 * 1024 * 1024;

export interface ScryptParams {
  n: number;
  r: number;
  p: number;
}

export interface KeystoreFile {
  format: typeof KEYSTORE_FORMAT;
  version: typeof KEYSTORE_VERSION;
  alias: string;
  address: string;
  created_at: string;
  kdf: ScryptParams & { name: 'scrypt'; salt: string };
  cipher: { name: 'aes-256-gcm'; iv: string; tag: string };
  ciphertext: string;
}

/** What a keystore file shows without its passphrase. */
export interface KeystoreEntry {
  alias: string;
  address: string;
  created_at: string;
}

/** A keystore problem a user can act on; its message never holds a key or a passphrase. */
export class KeystoreError extends Error {
  constructor(readonly code: 'wrong_passphrase' | 'invalid_file' | 'invalid_alias' | 'duplicate' | 'not_found' | 'weak_passphrase' | 'no_passphrase', message: string) {
    super(message);
    this.name = 'KeystoreError';
  }
}

export const ALIAS_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const MIN_PASSPHRASE_LENGTH = 8;

export function checkAlias(alias: string): string {
  if (!ALIAS_PATTERN.test(alias)) {
    throw new KeystoreError('invalid_alias', `account name ${JSON.stringify(alias.slice(0, 80))} is not allowed: use 1 to 64 letters, digits, "_" or "-", starting with a letter or digit`);
  }
  return alias;
}

export function checkPassphrase(passphrase: string): string {
  if (passphrase.length < MIN_PASSPHRASE_LENGTH) {
    throw new KeystoreError('weak_passphrase', `the keystore passphrase must be at least ${MIN_PASSPHRASE_LENGTH} characters`);
  }
  return passphrase;
}

function deriveKey(passphrase: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = { N: params.n, r: params.r, p: params.p, maxmem: 256 * params.n * params.r + 1024 * 1024 };
  // The asynchronous form runs on libuv's pool: unlocking never blocks the event loop.
  return new Promise((resolve, reject) => scryptCallback(passphrase.normalize('NFC'), salt, 32, options, (err, key) => (err ? reject(err) : resolve(key))));
}

function additionalData(alias: string, address: string): Buffer {
  return Buffer.from(`${KEYSTORE_FORMAT}\n${KEYSTORE_VERSION}\n${alias}\n${address}`, 'utf8');
}

/** Encrypts `wallet`'s seed under `passphrase`. */
export async function sealKey(wallet: Wallet, alias: string, passphrase: string, scrypt: ScryptParams = DEFAULT_SCRYPT, now = new Date()): Promise<KeystoreFile> {
  checkAlias(alias);
  checkPassphrase(passphrase);
  const salt = randomBytes(32);
  const iv = randomBytes(12);
  const key = await deriveKey(passphrase, salt, scrypt);
  const seed = wallet.exportSeed();
  try {
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(additionalData(alias, wallet.address));
    const ciphertext = Buffer.concat([cipher.update(seed), cipher.final()]);
    return {
      format: KEYSTORE_FORMAT, version: KEYSTORE_VERSION, alias, address: wallet.address, created_at: now.toISOString(),
      kdf: { name: 'scrypt', n: scrypt.n, r: scrypt.r, p: scrypt.p, salt: salt.toString('hex') },
      cipher: { name: 'aes-256-gcm', iv: iv.toString('hex'), tag: cipher.getAuthTag().toString('hex') },
      ciphertext: ciphertext.toString('hex'),
    };
  } finally {
    seed.fill(0);
    key.fill(0);
  }
}

/** Decrypts a file into its wallet; a wrong passphrase and a tampered file are both `wrong_passphrase`-or-`invalid_file` errors. */
export async function openKey(file: KeystoreFile, passphrase: string): Promise<Wallet> {
  const key = await deriveKey(passphrase, Buffer.from(file.kdf.salt, 'hex'), file.kdf);
  let seed: Buffer;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(file.cipher.iv, 'hex'));
    decipher.setAAD(additionalData(file.alias, file.address));
    decipher.setAuthTag(Buffer.from(file.cipher.tag, 'hex'));
    seed = Buffer.concat([decipher.update(Buffer.from(file.ciphertext, 'hex')), decipher.final()]);
  } catch {
    // GCM cannot tell a wrong passphrase from an edited file; the passphrase is by far the likelier.
    throw new KeystoreError('wrong_passphrase', `wrong passphrase for keystore account "${file.alias}" (or its file was altered)`);
  } finally {
    key.fill(0);
  }
  try {
    const wallet = Wallet.fromSeed(seed);
    if (wallet.address !== file.address) throw new KeystoreError('invalid_file', `keystore account "${file.alias}": the key does not belong to the recorded address`);
    return wallet;
  } finally {
    seed.fill(0);
  }
}

const HEX = (bytes: number) => new RegExp(`^[0-9a-f]{${bytes * 2}}$`);

/** Checks a parsed file's shape; `where` names it in the message. */
export function parseKeystoreFile(value: unknown, where: string): KeystoreFile {
  const bad = (what: string) => new KeystoreError('invalid_file', `${where}: not a keystore file of version ${KEYSTORE_VERSION} (${what})`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('not a JSON object');
  const f = value as Record<string, any>;
  if (f.format !== KEYSTORE_FORMAT) throw bad('format');
  if (f.version !== KEYSTORE_VERSION) throw bad(`version ${JSON.stringify(f.version)}`);
  if (typeof f.alias !== 'string' || !ALIAS_PATTERN.test(f.alias)) throw bad('alias');
  if (typeof f.address !== 'string' || !HEX(32).test(f.address)) throw bad('address');
  if (typeof f.created_at !== 'string') throw bad('created_at');
  const kdf = f.kdf;
  if (!kdf || kdf.name !== 'scrypt' || !HEX(32).test(kdf.salt ?? '')) throw bad('kdf');
  const { n, r, p } = kdf;
  const powerOfTwo = Number.isSafeInteger(n) && n >= 2 && (n & (n - 1)) === 0;
  if (!powerOfTwo || n > MAX_SCRYPT_N || !Number.isSafeInteger(r) || r < 1 || !Number.isSafeInteger(p) || p < 1 || 128 * n * r * p > MAX_SCRYPT_MEMORY) throw bad('kdf parameters');
  const cipher = f.cipher;
  if (!cipher || cipher.name !== 'aes-256-gcm' || !HEX(12).test(cipher.iv ?? '') || !HEX(16).test(cipher.tag ?? '')) throw bad('cipher');
  if (!HEX(32).test(f.ciphertext ?? '')) throw bad('ciphertext');
  return {
    format: KEYSTORE_FORMAT, version: KEYSTORE_VERSION, alias: f.alias, address: f.address, created_at: f.created_at,
    kdf: { name: 'scrypt', n, r, p, salt: kdf.salt }, cipher: { name: 'aes-256-gcm', iv: cipher.iv, tag: cipher.tag }, ciphertext: f.ciphertext,
  };
}
