import { hmac } from '@noble/hashes/hmac.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import * as bip39 from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { bytesToHex } from './hashes.js';
import { publicKeyFromPrivate } from './keys.js';

/**
 * Mnemonic wallets (crypto.md §2). Three derivations give different addresses for the same
 * words: the canonical official-wallet scheme v2 (default), its older v1, and SLIP-10 ed25519
 * (legacy JS SDK and the upstream MCP server). Mnemonics are secrets: errors never echo words.
 */

export class MnemonicError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MnemonicError';
  }
}

export type HdScheme = 'v2' | 'v1' | 'slip10';

/** Context strings are protocol constants (hashed), so they keep the upstream spelling. */
const CONTEXT_V2 = new TextEncoder().encode('xian-wallet-seed-v2');
const CONTEXT_V1 = new TextEncoder().encode('xian-wallet-seed-v1');
const WORD_COUNTS = [12, 15, 18, 21, 24] as const;
const WORDS = new Set(wordlist);
const HARDENED = 0x80000000;

/** Path of the legacy JS SDK (coin type 789) for an account index. */
export function legacyJsSdkPath(index: number): string {
  return `m/44'/789'/${index}'/0'/0'`;
}

/** The path the upstream MCP server and the Python SDK's HDWallet example derive. */
export const UPSTREAM_MCP_PATH = "m/44'/0'/0'/0'/0'";

/** A new English mnemonic; 12 words like the browser wallet unless 24 (the Python SDK) is asked for. */
export function generateMnemonic(words: 12 | 15 | 18 | 21 | 24 = 12): string {
  if (!WORD_COUNTS.includes(words)) throw new MnemonicError(`a mnemonic has 12, 15, 18, 21 or 24 words, not ${words}`);
  return bip39.generateMnemonic(wordlist, (words / 3) * 32);
}

/** Trim, lowercase, single spaces: what the wallets do before validating. */
export function normalizeMnemonic(mnemonic: string): string {
  return mnemonic.trim().toLowerCase().split(/\s+/).join(' ');
}

/** Why a mnemonic is not valid, or null; names word positions, never words. */
export function mnemonicProblem(mnemonic: string): string | null {
  if (typeof mnemonic !== 'string') return 'mnemonic must be a string of words';
  const words = normalizeMnemonic(mnemonic).split(' ').filter(Boolean);
  if (!(WORD_COUNTS as readonly number[]).includes(words.length)) {
    return `a mnemonic has 12, 15, 18, 21 or 24 words; got ${words.length}`;
  }
  const unknown = words.findIndex((w) => !WORDS.has(w));
  if (unknown >= 0) return `word ${unknown + 1} is not in the BIP39 English word list`;
  if (!bip39.validateMnemonic(words.join(' '), wordlist)) return 'the mnemonic checksum does not match (a word is wrong or out of order)';
  return null;
}

export function validateMnemonic(mnemonic: string): boolean {
  return mnemonicProblem(mnemonic) === null;
}

/** The 64-byte BIP39 seed (PBKDF2-HMAC-SHA512, 2048 rounds, empty passphrase) of a valid mnemonic. */
export function mnemonicToSeed(mnemonic: string): Uint8Array {
  const problem = mnemonicProblem(mnemonic);
  if (problem) throw new MnemonicError(`invalid mnemonic: ${problem}`);
  return bip39.mnemonicToSeedSync(normalizeMnemonic(mnemonic), '');
}

function uint32be(n: number): Uint8Array {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new MnemonicError(`account index must be an integer 0..4294967295, not ${n}`);
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Canonical v2: SHA-256(seed ‖ "xian-wallet-seed-v2" ‖ uint32_be(index)), index 0 included. */
export function deriveCanonicalKey(seed: Uint8Array, index = 0): string {
  return bytesToHex(sha256(concat(seed, CONTEXT_V2, uint32be(index))));
}

/** Older v1: index 0 hashes seed ‖ context alone; later indexes append uint32_be(index). */
export function deriveV1Key(seed: Uint8Array, index = 0): string {
  const tail = index === 0 ? new Uint8Array(0) : uint32be(index);
  return bytesToHex(sha256(concat(seed, CONTEXT_V1, tail)));
}

/** Parses "m/44'/789'/0'/0'/0'" into hardened indexes; ed25519 SLIP-10 has hardened steps only. */
export function parseSlip10Path(path: string): number[] {
  const parts = path.trim().split('/');
  if (parts.shift() !== 'm') throw new MnemonicError(`SLIP-10 path must start with "m/", got ${JSON.stringify(path)}`);
  return parts.map((part) => {
    const m = /^(\d+)['hH]$/.exec(part);
    if (!m) throw new MnemonicError(`SLIP-10 ed25519 allows hardened steps only (like 44'); got ${JSON.stringify(part)} in ${JSON.stringify(path)}`);
    const n = Number(m[1]);
    if (n >= HARDENED) throw new MnemonicError(`path step ${part} is too large`);
    return n;
  });
}

/** SLIP-10 ed25519: master from HMAC-SHA512("ed25519 seed", seed), then hardened children. */
export function deriveSlip10Key(seed: Uint8Array, path: string): string {
  let I = hmac(sha512, new TextEncoder().encode('ed25519 seed'), seed);
  for (const index of parseSlip10Path(path)) {
    const data = concat(new Uint8Array([0]), I.slice(0, 32), uint32be(index + HARDENED));
    I = hmac(sha512, I.slice(32), data);
  }
  return bytesToHex(I.slice(0, 32));
}

export interface DerivedKey {
  privateKey: string;
  publicKey: string;
  scheme: HdScheme;
  /** Account index (v2, v1) or path (slip10). */
  index?: number;
  path?: string;
}

export interface DeriveOptions {
  /** Default v2, the official wallets' scheme. */
  scheme?: HdScheme;
  /** For v2/v1 (default 0). */
  index?: number;
  /** For slip10 (default the legacy JS SDK path of `index`). */
  path?: string;
}

/** The key of a mnemonic under a scheme; the default matches the browser and mobile wallets. */
export function deriveFromMnemonic(mnemonic: string, options: DeriveOptions = {}): DerivedKey {
  const seed = mnemonicToSeed(mnemonic);
  const scheme = options.scheme ?? 'v2';
  if (scheme !== 'v2' && scheme !== 'v1' && scheme !== 'slip10') throw new MnemonicError(`unknown HD scheme ${JSON.stringify(scheme)}; use v2, v1 or slip10`);
  const index = options.index ?? 0;
  if (scheme === 'slip10') {
    const path = options.path ?? legacyJsSdkPath(index);
    const privateKey = deriveSlip10Key(seed, path);
    return { privateKey, publicKey: publicKeyFromPrivate(privateKey), scheme, path };
  }
  const privateKey = scheme === 'v1' ? deriveV1Key(seed, index) : deriveCanonicalKey(seed, index);
  return { privateKey, publicKey: publicKeyFromPrivate(privateKey), scheme, index };
}
