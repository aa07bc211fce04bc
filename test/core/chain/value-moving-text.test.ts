import assert from 'node:assert/strict';
import { Wallet } from '../../../core/chain/keys.js';
import { signMessageEnvelope, signRawMessage } from '../../../core/chain/message-signing.js';
import { canonicalPayload, type TxPayload } from '../../../core/chain/transaction.js';
import { valueMovingText, ValueMovingTextError } from '../../../core/chain/value-moving-text.js';

const SEED = '01'.repeat(32);
const ME = Wallet.fromPrivateKey(SEED).address;
const MULE = 'c'.repeat(64);
const payload: TxPayload = { chain_id: 'chain-local-1', chi_supplied: 100, contract: 'currency', function: 'transfer', kwargs: { amount: 1000, to: MULE }, nonce: 3, sender: ME };

describe('texts a raw signature must never cover (value-moving-text.ts)', () => {
  it('the canonical payload — the exact bytes the node verifies — is refused by signRawMessage, naming the rule', () => {
    const text = canonicalPayload(payload);
    assert.deepEqual(valueMovingText(text)?.rule, 'transaction_payload');
    assert.throws(() => signRawMessage(SEED, text), (err: unknown) => err instanceof ValueMovingTextError && /rule transaction_payload/.test(err.message) && /send_transaction/.test(err.message));
  });

  it('every spacing, key order, duplicate key and the legacy stamps_supplied form is refused too (the legacy node verified the text as received)', () => {
    const variants = [
      JSON.stringify(payload, null, 2),
      ` ${canonicalPayload(payload)}\n`,
      JSON.stringify({ sender: ME, nonce: 3, kwargs: { to: MULE, amount: 1000 }, function: 'transfer', contract: 'currency', chi_supplied: 100, chain_id: 'chain-local-1' }),
      canonicalPayload(payload).replace('"chain_id"', '"nonce":1,"chain_id"'),
      JSON.stringify({ chain_id: 'x', stamps_supplied: 100, contract: 'currency', function: 'transfer', kwargs: {}, nonce: 3, sender: ME }).replace(/,/g, ', ').replace(/":/g, '": '),
      canonicalPayload({ ...payload, kwargs: { amount: { __fixed__: '1000.5' }, to: MULE } }),
      canonicalPayload({ ...payload, nonce: 2n ** 63n }),
    ];
    for (const text of variants) assert.equal(valueMovingText(text)?.rule, 'transaction_payload', text);
  });

  it('an XSC002 permit is refused (it sets an allowance without a transaction)', () => {
    const permit = `${ME}:${MULE}:900000:2030-01-01 00:00:00:currency:chain-local-1`;
    assert.equal(valueMovingText(permit)?.rule, 'xsc002_permit');
    assert.throws(() => signRawMessage(SEED, permit), /rule xsc002_permit/);
  });

  it('other text, JSON that is not a payload, and the envelope of a payload still sign', () => {
    for (const text of ['hello', '', '{}', '[1,2]', '{"payload":1}', JSON.stringify({ ...payload, extra: 1 }), JSON.stringify({ contract: 'currency', function: 'transfer', kwargs: {} }), `${ME}:${MULE}`, '{ not json']) {
      assert.equal(valueMovingText(text), null, text);
      assert.match(signRawMessage(SEED, text), /^[0-9a-f]{128}$/);
    }
    const envelope = signMessageEnvelope(SEED, { account: ME, chainId: 'chain-local-1', message: canonicalPayload(payload) });
    assert.match(envelope.signature, /^[0-9a-f]{128}$/);
  });
});
