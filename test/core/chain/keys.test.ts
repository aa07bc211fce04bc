import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import {
  isAddress,
  isPrivateKey,
  KeyFormatError,
  normalizeAddress,
  normalizePrivateKey,
  publicKeyFromPrivate,
  sign,
  verify,
  Wallet,
} from '../../../core/chain/keys.js';

const SEED_01 = '01'.repeat(32);
const PUB_01 = '8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c';

describe('keys and addresses (crypto.md §1)', () => {
  it('derives the public key (address) of the vector seeds', () => {
    assert.equal(publicKeyFromPrivate(SEED_01), PUB_01);
    assert.equal(publicKeyFromPrivate('02'.repeat(32)), '8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394');
    assert.equal(publicKeyFromPrivate('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f'), '03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8');
  });

  it('normalises private keys: trim, optional 0x, lowercase', () => {
    assert.equal(normalizePrivateKey(`  0x${'AB'.repeat(32)}\n`), 'ab'.repeat(32));
    assert.equal(publicKeyFromPrivate(` 0X${SEED_01.toUpperCase()} `), PUB_01);
    assert.ok(isPrivateKey(SEED_01));
    assert.ok(!isPrivateKey('01'.repeat(31)));
  });

  it('never echoes a private key in an error', () => {
    const secret = 'c0ffee' + '5'.repeat(57); // 63 characters: one short
    const secretNonHex = 'z' + '7'.repeat(63);
    for (const bad of [secret, secretNonHex, `${SEED_01}00`]) {
      assert.throws(() => normalizePrivateKey(bad), (err: unknown) => {
        assert.ok(err instanceof KeyFormatError);
        assert.ok(!err.message.includes(bad), 'message must not contain the key');
        assert.ok(!err.message.includes(bad.slice(0, 16)), 'message must not contain part of the key');
        return true;
      });
      assert.throws(() => sign(bad, 'x'), (err: unknown) => err instanceof Error && !err.message.includes(bad.slice(0, 16)));
      assert.throws(() => Wallet.fromPrivateKey(bad), (err: unknown) => err instanceof Error && !err.message.includes(bad.slice(0, 16)));
    }
    assert.throws(() => normalizePrivateKey(42), /must be a string/);
  });

  it('checks addresses as the node does (64 hex, either case)', () => {
    assert.ok(isAddress(PUB_01));
    assert.ok(isAddress(PUB_01.toUpperCase()));
    assert.ok(!isAddress(`0x${PUB_01}`));
    assert.ok(!isAddress(PUB_01.slice(1)));
    assert.equal(normalizeAddress(` 0x${PUB_01.toUpperCase()} `), PUB_01);
    assert.throws(() => normalizeAddress('bob'), /address must be 64 hex characters.*"bob"/);
    assert.throws(() => normalizeAddress(`${SEED_01}0`), (err: unknown) => err instanceof KeyFormatError && /got 65 characters/.test(err.message) && !err.message.includes(SEED_01));
  });
});

describe('signing and verification (raw Ed25519)', () => {
  it('signs text as its UTF-8 bytes and verifies it', () => {
    const sig = sign(SEED_01, 'hello');
    assert.equal(sig, 'e1430c6ebd0d53573b5c803452174f8991ef5955e0906a09e8fdc7310459e9c82a402526748c3431fe7f0e5faafbf7e703234789734063ee42be17af16438d08');
    assert.equal(sign(SEED_01, new TextEncoder().encode('hello')), sig);
    assert.ok(verify(PUB_01, 'hello', sig));
    assert.ok(verify(PUB_01.toUpperCase(), 'hello', sig.toUpperCase()), 'either case verifies');
  });

  it('returns false, never throws, for anything malformed', () => {
    const sig = sign(SEED_01, 'hello');
    assert.equal(verify(PUB_01, 'hello!', sig), false);
    assert.equal(verify(PUB_01, 'hello', sig.slice(2)), false);
    assert.equal(verify(PUB_01, 'hello', 'zz' + sig.slice(2)), false);
    assert.equal(verify('bob', 'hello', sig), false);
    assert.equal(verify('ff'.repeat(32), 'hello', sig), false);
    assert.equal(verify(PUB_01, 'a\uD800', sig), false);
  });
});

describe('Wallet', () => {
  const wallet = Wallet.fromPrivateKey(SEED_01);

  it('exposes the address and signs like the free functions', () => {
    assert.equal(wallet.address, PUB_01);
    assert.equal(wallet.publicKey, PUB_01);
    assert.equal(wallet.sign('hello'), sign(SEED_01, 'hello'));
    assert.ok(wallet.verify('hello', wallet.sign('hello')));
    assert.equal(Wallet.from(wallet), wallet);
    assert.equal(Wallet.from(SEED_01).address, PUB_01);
  });

  it('never reveals the private key through JSON, String or inspect', () => {
    for (const shown of [JSON.stringify(wallet), String(wallet), inspect(wallet), inspect({ nested: wallet }, { depth: 5 }), `${Object.keys(wallet)}`]) {
      assert.ok(!shown.includes(SEED_01), shown);
      assert.ok(shown.includes(PUB_01) || shown === 'address', shown);
    }
    assert.deepEqual(JSON.parse(JSON.stringify(wallet)), { address: PUB_01 });
  });

  it('hands the key out only when asked, and generates fresh keys', () => {
    assert.equal(wallet.exportPrivateKey(), SEED_01);
    const a = Wallet.generate();
    const b = Wallet.generate();
    assert.notEqual(a.address, b.address);
    assert.equal(publicKeyFromPrivate(a.exportPrivateKey()), a.address);
    assert.throws(() => Wallet.fromSeed(new Uint8Array(31)), /32 bytes/);
  });
});
