import assert from 'node:assert/strict';
import { bytesToHex } from '../../../core/chain/hashes.js';
import { Wallet } from '../../../core/chain/keys.js';
import {
  buildMessageEnvelope,
  ENVELOPE_HEADER,
  EnvelopeError,
  signMessageEnvelope,
  signRawMessage,
  verifyMessageEnvelope,
  verifyRawMessage,
} from '../../../core/chain/message-signing.js';

const SEED_01 = '01'.repeat(32);
const PUB_01 = '8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c';

describe('raw message signing (crypto.md §3)', () => {
  it('matches the vector for "hello"', () => {
    assert.equal(signRawMessage(SEED_01, 'hello'), 'e1430c6ebd0d53573b5c803452174f8991ef5955e0906a09e8fdc7310459e9c82a402526748c3431fe7f0e5faafbf7e703234789734063ee42be17af16438d08');
  });

  it('signs the exact text: spaces, newlines and Unicode are kept', () => {
    const message = '  hello\nwörld ☃  ';
    const sig = signRawMessage(Wallet.fromPrivateKey(SEED_01), message);
    assert.ok(verifyRawMessage(PUB_01, message, sig));
    assert.equal(verifyRawMessage(PUB_01, message.trim(), sig), false);
    assert.equal(verifyRawMessage(PUB_01, message.normalize('NFD'), sig), false);
  });

  it('answers false for malformed input instead of throwing', () => {
    assert.equal(verifyRawMessage(PUB_01, 'hello', 'nothex'), false);
    assert.equal(verifyRawMessage('short', 'hello', '00'.repeat(64)), false);
    assert.equal(verifyRawMessage(PUB_01, '\uD800', '00'.repeat(64)), false);
  });
});

describe('versioned message envelope (crypto.md §4)', () => {
  const input = { account: PUB_01, chainId: 'xian-1', message: 'hello ☃' };

  it('builds the exact envelope bytes of the vector', () => {
    const envelope = buildMessageEnvelope(input);
    assert.equal(bytesToHex(new TextEncoder().encode(envelope)),
      '195869616e205369676e6564204d6573736167653a0a310a636861696e2d69643a363a7869616e2d310a6163636f756e743a36343a386138386533646437343039663139356664353264623264336362613564373263613637303962663164393431323162663337343838303162343066366635630a6d6573736167653a393a68656c6c6f20e29883');
    assert.ok(envelope.startsWith(ENVELOPE_HEADER + '\n1\n'));
    assert.ok(!envelope.endsWith('\n'));
  });

  it('signs the vector', () => {
    const signed = signMessageEnvelope(SEED_01, input);
    assert.equal(signed.signature, '8cd162c15c003cacc0bcfb06a6bfd04a74f4390b3ca74918892ccf6d25e96c0e1e468e8b475fbfbf4ad0ed5547fbd7ea65ec8beb13c8c109ff4dbfc0b9724a0f');
    assert.ok(verifyMessageEnvelope(PUB_01, input, signed.signature));
  });

  it('normalises account and chainId but never the message', () => {
    const messy = { account: `  ${PUB_01.toUpperCase()} `, chainId: ' xian-1 ', message: 'hello ☃' };
    assert.equal(buildMessageEnvelope(messy), buildMessageEnvelope(input));
    assert.notEqual(buildMessageEnvelope({ ...input, message: ' hello ☃' }), buildMessageEnvelope(input));
  });

  it('is distinct from raw signing in both directions', () => {
    const raw = signRawMessage(SEED_01, 'hello ☃');
    assert.equal(verifyMessageEnvelope(PUB_01, input, raw), false);
    const enveloped = signMessageEnvelope(SEED_01, input).signature;
    assert.equal(verifyRawMessage(PUB_01, 'hello ☃', enveloped), false);
  });

  it('refuses a foreign account, an empty chain id and a malformed account', () => {
    const other = Wallet.fromPrivateKey('02'.repeat(32)).address;
    assert.throws(() => signMessageEnvelope(SEED_01, { ...input, account: other }), EnvelopeError);
    assert.throws(() => buildMessageEnvelope({ ...input, chainId: '  ' }), /chainId must not be empty/);
    assert.throws(() => buildMessageEnvelope({ ...input, account: 'bob' }), /64 hex/);
    const sig = signMessageEnvelope(SEED_01, input).signature;
    assert.equal(verifyMessageEnvelope(other, input, sig), false, 'the verifying key must be the account');
    assert.equal(verifyMessageEnvelope(PUB_01, { ...input, chainId: 'xian-2' }, sig), false);
  });
});
