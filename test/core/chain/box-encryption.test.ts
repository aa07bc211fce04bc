import assert from 'node:assert/strict';
import {
  decryptAsReceiver,
  decryptAsSender,
  DecryptionError,
  ed25519PublicToX25519,
  ed25519SeedToX25519,
  encryptMessage,
} from '../../../core/chain/box-encryption.js';
import { bytesToHex, hexToBytes } from '../../../core/chain/hashes.js';
import { Wallet } from '../../../core/chain/keys.js';

const SENDER = '01'.repeat(32);
const RECEIVER = '02'.repeat(32);
const SENDER_PUB = Wallet.fromPrivateKey(SENDER).address;
const RECEIVER_PUB = Wallet.fromPrivateKey(RECEIVER).address;
const VECTOR = '03030303030303030303030303030303030303030303030319ef89c8b41efdd82368ca3e5ab3aefe6c11f2cb540636811ec058';

describe('NaCl box encryption (crypto.md §5)', () => {
  it('converts keys from Ed25519 to X25519 as libsodium does', () => {
    assert.equal(bytesToHex(ed25519SeedToX25519(hexToBytes(SENDER))), '58e86efb75fa4e2c410f46e16de9f6acae1a1703528651b69bc176c088bef36e');
    assert.equal(bytesToHex(ed25519PublicToX25519(hexToBytes(RECEIVER_PUB))), '60346e7c911a5f6ba154129174cafe75b294ac3bbd5549632f48cec6266f8410');
  });

  it('matches the vector with the fixed nonce 03×24', () => {
    assert.equal(encryptMessage(SENDER, RECEIVER_PUB, 'xian-secret', new Uint8Array(24).fill(3)), VECTOR);
  });

  it('lets both the receiver and the sender decrypt', () => {
    assert.equal(decryptAsReceiver(SENDER_PUB, RECEIVER, VECTOR), 'xian-secret');
    assert.equal(decryptAsSender(SENDER, RECEIVER_PUB, VECTOR), 'xian-secret');
    assert.equal(decryptAsReceiver(SENDER_PUB, Wallet.fromPrivateKey(RECEIVER), VECTOR.toUpperCase()), 'xian-secret');
  });

  it('draws a fresh random nonce by default and round-trips Unicode', () => {
    const a = encryptMessage(SENDER, RECEIVER_PUB, 'grüße ☃');
    const b = encryptMessage(SENDER, RECEIVER_PUB, 'grüße ☃');
    assert.notEqual(a.slice(0, 48), b.slice(0, 48));
    assert.equal(decryptAsReceiver(SENDER_PUB, RECEIVER, a), 'grüße ☃');
  });

  it('fails cleanly on tampering, wrong keys, short or non-hex input', () => {
    const tampered = VECTOR.slice(0, -2) + (VECTOR.endsWith('58') ? '59' : '58');
    assert.throws(() => decryptAsReceiver(SENDER_PUB, RECEIVER, tampered), DecryptionError);
    assert.throws(() => decryptAsReceiver(SENDER_PUB, '03'.repeat(32), VECTOR), /decryption failed/);
    assert.throws(() => decryptAsReceiver(SENDER_PUB, RECEIVER, VECTOR.slice(0, 60)), /too short/);
    assert.throws(() => decryptAsReceiver(SENDER_PUB, RECEIVER, 'xyz'), /must be hex/);
  });

  it('refuses public keys that are not curve points or have small order', () => {
    assert.throws(() => ed25519PublicToX25519(hexToBytes('ff'.repeat(32))), /not a valid Ed25519 point/);
    const identity = '01' + '00'.repeat(31); // y = 1: the neutral point
    assert.throws(() => encryptMessage(SENDER, identity, 'x'), /small-order/);
  });
});
