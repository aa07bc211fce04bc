import assert from 'node:assert/strict';
import { balanceWrites, involvedAccounts } from '../../../core/tools/submission-output.js';

const [BUYER, SELLER, VALIDATOR] = ['a'.repeat(64), 'b'.repeat(64), 'c'.repeat(64)];

describe('a send\'s compact balances', () => {
  it('include the balances inner calls moved (both sides of every Transfer), not the fee\'s reward writes', () => {
    // con_escrow.release(seller): the escrow pays the seller in an inner currency.transfer.
    const submission = { sender: BUYER, kwargs: { seller: SELLER } };
    const events = [{ contract: 'currency', event: 'Transfer', data_indexed: { from: 'con_escrow', to: SELLER }, data: { amount: '9.9' } }];
    const state = [
      { key: 'currency.balances:con_escrow', value: '0.1' },
      { key: `currency.balances:${SELLER}`, value: '1000009.9' },
      { key: `currency.balances:${BUYER}`, value: '999989.5' },
      { key: `currency.balances:${VALIDATOR}`, value: '0.3' },
    ];
    const shown = balanceWrites(state, involvedAccounts(submission, events)).map((b) => b.address).sort();
    assert.deepEqual(shown, [BUYER, SELLER, 'con_escrow'].sort());
  });
});
