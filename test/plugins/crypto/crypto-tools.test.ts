import assert from 'node:assert/strict';
import { publicKeyFromPrivate } from '../../../core/chain/keys.js';
import { expectError, startHost, tempHome, type RunningHost } from '../wallet/chain-tool-kit.js';

/** The crypto plugin alone: local cryptography needs no node. */
describe('crypto tools (no node)', function () {
  this.timeout(30_000);
  const seed01 = '01'.repeat(32);
  const seed02 = '02'.repeat(32);
  const addr01 = publicKeyFromPrivate(seed01);
  const addr02 = publicKeyFromPrivate(seed02);
  let home: Awaited<ReturnType<typeof tempHome>>;
  let running: RunningHost;

  before(async () => {
    home = await tempHome();
    running = await startHost({ home: home.dir, chainId: 'crypto-test-1', node: { url: 'http://127.0.0.1:9' }, plugins: { crypto: {} } }, { unsafe: true });
  });
  after(async () => {
    await running?.stop();
    await home?.remove();
  });

  describe('sign_message and verify_signature', () => {
    it('sign the exact text: whitespace, CRLF and astral characters are kept', async () => {
      for (const message of ['', ' ', 'a\r\nb\n', '🦊 naïve ☃', '&lt;b&gt;']) {
        const signed = await running.call('sign_message', { private_key: seed01, message });
        const ok = await running.call('verify_signature', { address: addr01, message, signature: signed.result.signature });
        assert.equal(ok.result.valid, true, JSON.stringify(message));
      }
    });

    it('the envelope defaults to CHAIN_ID and returns the signed text', async () => {
      const r = await running.call('sign_message', { private_key: seed01, message: 'hi', envelope: true });
      assert.equal(r.result.chain_id, 'crypto-test-1');
      assert.equal(r.result.signed_text, `\u0019Xian Signed Message:\n1\nchain-id:13:crypto-test-1\naccount:64:${addr01}\nmessage:2:hi`);
      const wrongChain = await running.call('verify_signature', { address: addr01, message: 'hi', signature: r.result.signature, envelope: true, chain_id: 'other' });
      assert.equal(wrongChain.result.valid, false);
    });

    it('a malformed or foreign signature is valid: false with a reason, not an error', async () => {
      const short = await running.call('verify_signature', { address: addr01, message: 'x', signature: 'abc' });
      assert.deepEqual([short.status, short.result.valid], [200, false]);
      assert.match(short.result.reason, /128 hex/);
      const signed = await running.call('sign_message', { private_key: seed02, message: 'x' });
      const foreign = await running.call('verify_signature', { address: addr01, message: 'x', signature: signed.result.signature });
      assert.equal(foreign.result.valid, false);
    });

    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['sign_message', 'a malformed key', { private_key: 'x', message: 'm' }, 'private_key'],
      ['sign_message', 'a missing message', { private_key: seed01 }, 'message'],
      ['sign_message', 'a message over 100,000 characters', { private_key: seed01, message: 'a'.repeat(100_001) }, 'message'],
      ['sign_message', 'chain_id without envelope', { private_key: seed01, message: 'm', chain_id: 'c' }, 'chain_id'],
      ['verify_signature', 'a bad address', { address: 'nope', message: 'm', signature: 'ab' }, 'address'],
      ['verify_signature', 'a non-boolean envelope', { address: addr01, message: 'm', signature: 'ab', envelope: 'yes' }, 'envelope'],
    ];
    for (const [tool, what, args, field] of cases) {
      it(`${tool}: ${what} is 400 naming ${field}`, async () => {
        expectError(await running.call(tool, args), { code: 'invalid_arguments', status: 422, field });
      });
    }
  });

  describe('encrypt_message and decrypt_message', () => {
    it('either party decrypts; each encryption uses a fresh nonce', async () => {
      const one = await running.call('encrypt_message', { sender_private_key: seed01, receiver_public_key: addr02, message: 'xian-secret' });
      const two = await running.call('encrypt_message', { sender_private_key: seed01, receiver_public_key: addr02, message: 'xian-secret' });
      assert.notEqual(one.result.encrypted_message, two.result.encrypted_message);
      assert.equal(one.result.sender_public_key, addr01);
      const dec = await running.call('decrypt_message', { receiver_private_key: seed02, sender_public_key: addr01, encrypted_message: one.result.encrypted_message.toUpperCase() });
      assert.equal(dec.result.decrypted_message, 'xian-secret');
    });

    it('an altered ciphertext fails to decrypt (400)', async () => {
      const enc = await running.call('encrypt_message', { sender_private_key: seed01, receiver_public_key: addr02, message: 'm' });
      const hex: string = enc.result.encrypted_message;
      const altered = hex.slice(0, -2) + (hex.endsWith('00') ? '01' : '00');
      expectError(await running.call('decrypt_message', { receiver_private_key: seed02, sender_public_key: addr01, encrypted_message: altered }), {
        code: 'invalid_arguments', status: 422, match: /decryption failed/,
      });
    });

    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['encrypt_message', 'a receiver that is not a curve point', { sender_private_key: seed01, receiver_public_key: 'ff'.repeat(32), message: 'm' }, 'receiver_public_key'],
      ['encrypt_message', 'a bad sender key', { sender_private_key: '00', receiver_public_key: addr02, message: 'm' }, 'sender_private_key'],
      ['decrypt_message', 'a ciphertext that is not hex', { receiver_private_key: seed02, sender_public_key: addr01, encrypted_message: 'zz'.repeat(40) }, 'encrypted_message'],
      ['decrypt_message', 'a ciphertext shorter than nonce and MAC', { receiver_private_key: seed02, sender_public_key: addr01, encrypted_message: 'ab'.repeat(39) }, 'encrypted_message'],
    ];
    for (const [tool, what, args, field] of cases) {
      it(`${tool}: ${what} is 400 naming ${field}`, async () => {
        const outcome = await running.call(tool, args);
        expectError(outcome, { code: 'invalid_arguments', status: 422, field });
        assert.ok(!outcome.text.includes(seed01) && !outcome.text.includes(seed02));
      });
    }
  });
});
