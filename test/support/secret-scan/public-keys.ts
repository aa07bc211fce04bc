import { createPrivateKey } from 'node:crypto';
import { publicKeyFromPrivate } from '../../../core/chain/keys.js';

/**
 * Ed25519 public keys of candidate seeds. The project's publicKeyFromPrivate (tweetnacl) costs
 * milliseconds per key, too slow for the tens of thousands of hex tokens a test run prints, so
 * candidates are screened through OpenSSL and every hit is confirmed with the project's own
 * derivation (the self-test checks both agree).
 */
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

export function screenPublicKey(seedHex: string): string {
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, Buffer.from(seedHex, 'hex')]), format: 'der', type: 'pkcs8' });
  return Buffer.from(key.export({ format: 'jwk' }).x!, 'base64url').toString('hex');
}

export function confirmedPublicKey(seedHex: string): string {
  return publicKeyFromPrivate(seedHex);
}
