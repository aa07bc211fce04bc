import { createPrivateKey, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nacl from 'tweetnacl';
import { ed25519Address, sha256 } from './cometbft-hashing.js';
import { readingHomeFile, RESET_ADVICE } from './home-file-error.js';

/**
 * The devnet's single validator and its p2p node key, kept like CometBFT keeps them:
 * `<home>/config/priv_validator_key.json` and `<home>/config/node_key.json` (amino JSON
 * shapes), generated on first start. The validator's Ed25519 public key is also its chain
 * account address (cometbft-rpc.md §4.1).
 */
export interface ValidatorKey {
  /** 64-byte Ed25519 secret key (seed ‖ public key). */
  secretKey: Uint8Array;
  publicKey: Uint8Array;
  /** CometBFT address: first 20 bytes of SHA-256(pubkey), uppercase hex. */
  address: string;
  /** The chain account: the public key as lowercase hex. */
  account: string;
  /** Ed25519 signature over `message` (native crypto). */
  sign(message: Uint8Array): Buffer;
}

export interface NodeIdentity {
  validator: ValidatorKey;
  /** CometBFT node id: lowercase hex of the first 20 bytes of SHA-256(node pubkey). */
  nodeId: string;
}

export function loadNodeIdentity(home: string): NodeIdentity {
  const dir = join(home, 'config');
  mkdirSync(dir, { recursive: true });
  const validatorFile = join(dir, 'priv_validator_key.json');
  const nodeFile = join(dir, 'node_key.json');
  let validatorSecret = readAminoPrivKey(validatorFile, (j) => j.priv_key);
  if (!validatorSecret) {
    validatorSecret = nacl.sign.keyPair().secretKey;
    const pub = validatorSecret.subarray(32);
    writeFileSync(validatorFile, JSON.stringify({
      address: ed25519Address(pub).toString('hex').toUpperCase(),
      pub_key: { type: 'tendermint/PubKeyEd25519', value: Buffer.from(pub).toString('base64') },
      priv_key: { type: 'tendermint/PrivKeyEd25519', value: Buffer.from(validatorSecret).toString('base64') },
    }, null, 2) + '\n', { mode: 0o600 });
  }
  let nodeSecret = readAminoPrivKey(nodeFile, (j) => j.priv_key);
  if (!nodeSecret) {
    nodeSecret = nacl.sign.keyPair().secretKey;
    writeFileSync(nodeFile, JSON.stringify({ priv_key: { type: 'tendermint/PrivKeyEd25519', value: Buffer.from(nodeSecret).toString('base64') } }) + '\n', { mode: 0o600 });
  }
  const publicKey = validatorSecret.slice(32);
  return {
    validator: {
      secretKey: validatorSecret,
      publicKey,
      address: ed25519Address(publicKey).toString('hex').toUpperCase(),
      account: Buffer.from(publicKey).toString('hex'),
      sign: signerOf(validatorSecret.subarray(0, 32)),
    },
    nodeId: sha256(nodeSecret.subarray(32)).subarray(0, 20).toString('hex'),
  };
}

function readAminoPrivKey(file: string, pick: (json: any) => { value?: string } | undefined): Uint8Array | undefined {
  if (!existsSync(file)) return undefined;
  // The validator key signs every commit of this chain: a new one cannot continue it.
  return readingHomeFile(file, RESET_ADVICE, () => {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new Error(`not valid JSON (${(err as Error).message})`);
    }
    const value = json && typeof json === 'object' ? pick(json)?.value : undefined;
    const bytes = typeof value === 'string' ? Buffer.from(value, 'base64') : undefined;
    if (!bytes || bytes.length !== 64) throw new Error('priv_key.value must be base64 of a 64-byte Ed25519 key');
    return new Uint8Array(bytes);
  });
}

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

function signerOf(seed: Uint8Array): (message: Uint8Array) => Buffer {
  const key: KeyObject = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  return (message) => cryptoSign(null, message, key);
}
