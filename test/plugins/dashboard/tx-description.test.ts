import assert from 'node:assert/strict';
import { describeTx, pairIdsOf, tokensOf, type TxFacts } from '../../../plugins/dashboard/explorer/tx-description.js';
import { partsText } from '../../../plugins/dashboard/explorer/tx-sentence.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const SYMBOLS = new Map([['currency', 'CHAIN'], ['con_test_token', 'TST']]);
const PAIRS = new Map([[2, ['con_test_token', 'currency'] as const], [3, ['currency', 'con_other'] as const]]);

function sentence(tx: Partial<TxFacts>): string {
  return partsText(describeTx({ contract: 'currency', function: 'transfer', kwargs: {}, sender: A, ok: true, ...tx }, PAIRS), SYMBOLS);
}
const event = (contract: string, name: string, indexed: Record<string, unknown>, data: Record<string, unknown>) =>
  ({ contract, event: name, signer: A, caller: A, data_indexed: indexed, data }) as any;

describe('transactions in words (one describer over the call and its events)', () => {
  it('a transfer from its Transfer event, amounts unwrapped and readable, the token by symbol', () => {
    assert.equal(sentence({ events: [event('currency', 'Transfer', { from: A, to: B }, { amount: { __fixed__: '12.5' } })] }), `Transfer 12.5 CHAIN from ${A} to ${B}`);
    assert.equal(sentence({ events: [event('currency', 'Transfer', { from: A, to: B }, { amount: '999860.665809964488330308371534282672' })] }), `Transfer 999,860.67 CHAIN from ${A} to ${B}`);
  });

  it('a swap from the pair Swap event: what went in and what came out, on which pair', () => {
    const swap = event('con_pairs', 'Swap', { pair: 2, to: A }, { amount0In: '100', amount1In: '0', amount0Out: '0', amount1Out: '9.8712345' });
    const transfers = [event('con_test_token', 'Transfer', { from: A, to: 'con_pairs' }, { amount: '100' }), event('currency', 'Transfer', { from: 'con_pairs', to: A }, { amount: '9.8712345' })];
    assert.equal(sentence({ contract: 'con_dex', function: 'swapExactTokenForToken', events: [...transfers, swap] }), 'Swap 100 TST for 9.87123 CHAIN on pair #2');
    const back = event('con_pairs', 'Swap', { pair: '2', to: A }, { amount0In: '0', amount1In: '42.5', amount0Out: '423.546', amount1Out: '0' });
    assert.equal(sentence({ events: [back] }), 'Swap 42.5 CHAIN for 423.546 TST on pair #2', 'the other direction; a pair id given as text');
    const hop = event('con_pairs', 'Swap', { pair: 3, to: A }, { amount0In: '9.8712345', amount1In: '0', amount0Out: '0', amount1Out: '5' });
    assert.equal(sentence({ events: [swap, hop] }), 'Swap 100 TST for 5 con_other via pairs #2 → #3', 'a route: first in, last out; a token without a symbol by contract');
    assert.deepEqual(pairIdsOf([swap, hop, transfers[0]]), [2, 3]);
  });

  it('liquidity from Mint and Burn, approvals from Approve', () => {
    assert.equal(sentence({ events: [event('con_pairs', 'Mint', { pair: 2, to: A }, { amount0: '100', amount1: '10.0085' })] }), 'Add liquidity: 100 TST and 10.0085 CHAIN to pair #2');
    assert.equal(sentence({ events: [event('con_pairs', 'Burn', { pair: 2, to: A }, { amount0: '1', amount1: '0.1' })] }), 'Remove liquidity: 1 TST and 0.1 CHAIN from pair #2');
    assert.equal(sentence({ contract: 'con_test_token', function: 'approve', events: [event('con_test_token', 'Approve', { from: A, to: B }, { amount: '50' })] }), `Approve ${B} to spend 50 TST`);
  });

  it('a deployment, a failed call with its error, and calls without standard events', () => {
    assert.equal(sentence({ contract: 'submission', function: 'submit_contract', kwargs: { name: 'con_counter', code: 'x = 1' } }), 'Deploy con_counter');
    assert.equal(sentence({ ok: false, kwargs: { amount: 5, to: B }, error: "AssertionError('Not enough coins to send!')" }),
      `Failed: Transfer 5 CHAIN from ${A} to ${B} — AssertionError('Not enough coins to send!')`);
    assert.equal(sentence({ contract: 'con_counter', function: 'increment', kwargs: { by: { __fixed__: '2.50' }, note: 'hi' }, events: [] }), 'Call con_counter.increment(by=2.5, note="hi")');
    assert.equal(sentence({ kwargs: { amount: { __fixed__: '7' }, to: B } }), `Transfer 7 CHAIN from ${A} to ${B}`, 'events not read: the standard call in words');
  });

  it('many transfers are summarised, and every token a sentence names is listed for the symbol lookup', () => {
    const many = Array.from({ length: 5 }, (_, i) => event(i % 2 ? 'currency' : 'con_test_token', 'Transfer', { from: A, to: B }, { amount: String(i + 1) }));
    assert.match(sentence({ events: many }), /^Transfer 1 TST .*; Transfer 2 CHAIN .*; Transfer 3 TST .*; and 2 more$/);
    assert.deepEqual(tokensOf(describeTx({ contract: 'x', function: 'y', kwargs: {}, sender: A, ok: true, events: many })).sort(), ['con_test_token', 'currency']);
  });

  it('a failed deployment names its contract as text: no contract was made, so there is no page to link', () => {
    const deploy = { contract: 'submission', function: 'submit_contract', kwargs: { name: 'con_broken', code: 'x = 1' } };
    const failed = describeTx({ ...deploy, sender: A, ok: false, error: "TypeError('missing name')" });
    assert.equal(partsText(failed, SYMBOLS), "Failed: Deploy con_broken — TypeError('missing name')");
    assert.ok(!failed.some((p) => p.kind === 'contract'), JSON.stringify(failed));
    assert.ok(describeTx({ ...deploy, sender: A, ok: true }).some((p) => p.kind === 'contract' && p.name === 'con_broken'), 'a deployment that succeeded links its contract');
  });
});
