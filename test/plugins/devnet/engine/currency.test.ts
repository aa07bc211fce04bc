import assert from 'node:assert/strict';
import { ChainDecimal } from '../../../../core/chain/decimal.js';
import { ALICE, BOB, CAROL, D, DAVE, TestChain, str } from './support.js';

describe('devnet engine: currency (contracts.md §6)', () => {
  let chain: TestChain;
  beforeEach(() => {
    chain = TestChain.withGenesis({ dex: false });
  });

  describe('transfer(amount, to)', () => {
    it('moves the amount, emits Transfer{from: caller} and charges the fee on the sender', () => {
      const out = chain.send(ALICE, 'currency', 'transfer', { amount: D('5'), to: DAVE });
      assert.equal(out.status, 0, out.error);
      assert.equal(out.result, null);
      const fee = ChainDecimal.from(BigInt(out.chiUsed)).div(20n);
      assert.equal(chain.text(`currency.balances:${DAVE}`), '5');
      // ALICE is also the foundation owner: the foundation and developer ("sys") rewards come back to her.
      const rewards = out.rewards.filter((r) => r.recipient === ALICE).reduce((s, r) => s.plus(r.amount as ChainDecimal), ChainDecimal.ZERO);
      assert.equal(chain.text(`currency.balances:${ALICE}`), D('999995').minus(fee).plus(rewards).toString());
      assert.deepEqual(out.events.map((e) => [e.contract, e.event, e.signer, e.caller, str(e.data_indexed['from']), str(e.data_indexed['to']), str(e.data['amount'])]),
        [['currency', 'Transfer', ALICE, ALICE, ALICE, DAVE, '5']]);
    });

    it('keeps ints as ints: a new recipient of an int amount holds an int', () => {
      chain.send(BOB, 'currency', 'transfer', { amount: 7n, to: DAVE });
      assert.equal(chain.get(`currency.balances:${DAVE}`), 7n);
    });

    it('refuses non-positive amounts with the exact message', () => {
      const out = chain.send(BOB, 'currency', 'transfer', { amount: D('0'), to: DAVE });
      assert.equal(out.status, 1);
      assert.equal(out.error, 'Cannot send negative balances.');
      assert.equal(out.errorClass, 'AssertionError');
      assert.deepEqual(out.events, []);
    });

    it('refuses overdrafts with the exact message', () => {
      const out = chain.send(BOB, 'currency', 'transfer', { amount: D('2000000'), to: DAVE });
      assert.equal(out.error, 'Not enough coins to send.');
    });

    it('reports Python TypeErrors for bad arguments', () => {
      // The chain VM's texts (xian-vm-core), not CPython's.
      assert.equal(chain.send(BOB, 'currency', 'transfer', { amount: 'x', to: DAVE }).error, 'values str and int are not order-comparable');
      const missing = chain.send(BOB, 'currency', 'transfer', { amount: 1n });
      assert.deepEqual([missing.errorClass, missing.error], ['TypeError', "missing required argument 'to'"]);
      const extra = chain.send(BOB, 'currency', 'transfer', { amount: 1n, to: DAVE, memo: 'hi' });
      assert.deepEqual([extra.errorClass, extra.error], ['TypeError', "unexpected keyword argument 'memo'"]);
      assert.equal(chain.send(BOB, 'currency', 'nope', {}).error, "unknown function 'nope'");
      const missingModule = chain.send(BOB, 'con_missing', 'f', {});
      assert.deepEqual([missingModule.error, missingModule.chiUsed], ["native VM could not load module 'con_missing'", 0]);
    });
  });

  describe('approve / transfer_from', () => {
    it('approve sets (not adds) the allowance at currency.approvals:<owner>:<spender>', () => {
      chain.send(BOB, 'currency', 'approve', { amount: D('10'), to: CAROL });
      const out = chain.send(BOB, 'currency', 'approve', { amount: D('3'), to: CAROL });
      assert.equal(chain.text(`currency.approvals:${BOB}:${CAROL}`), '3');
      assert.deepEqual(out.events.map((e) => [e.event, e.data_indexed['from'], e.data_indexed['to'], str(e.data['amount'])]), [['Approve', BOB, CAROL, '3']]);
    });

    it('transfer_from spends the allowance and emits Transfer{from: main_account}', () => {
      chain.send(BOB, 'currency', 'approve', { amount: D('10'), to: CAROL });
      const out = chain.send(CAROL, 'currency', 'transfer_from', { amount: D('4'), to: DAVE, main_account: BOB });
      assert.equal(out.status, 0, out.error);
      assert.equal(chain.text(`currency.approvals:${BOB}:${CAROL}`), '6');
      assert.equal(chain.text(`currency.balances:${DAVE}`), '4');
      assert.deepEqual(out.events.map((e) => [e.event, e.caller, e.data_indexed['from'], e.data_indexed['to']]), [['Transfer', CAROL, BOB, DAVE]]);
    });

    it('refuses spending beyond the allowance with the interpolated message', () => {
      chain.send(BOB, 'currency', 'approve', { amount: D('1.5'), to: CAROL });
      const out = chain.send(CAROL, 'currency', 'transfer_from', { amount: D('1000'), to: DAVE, main_account: BOB });
      assert.equal(out.status, 1);
      assert.equal(out.error, 'Not enough coins approved to send. You have 1.5 and are trying to spend 1E+3');
      const none = chain.send(DAVE, 'currency', 'transfer_from', { amount: 5n, to: DAVE, main_account: BOB });
      assert.equal(none.error, 'Not enough coins approved to send. You have 0 and are trying to spend 5');
    });

    it('refuses spending beyond the owner balance', () => {
      chain.send(DAVE, 'currency', 'approve', { amount: D('100'), to: CAROL });
      const out = chain.send(CAROL, 'currency', 'transfer_from', { amount: D('1'), to: BOB, main_account: DAVE });
      assert.equal(out.error, 'Not enough coins to send.');
    });
  });

  it('balance_of returns the balance, 0 for unknown accounts', () => {
    assert.equal(chain.send(BOB, 'currency', 'balance_of', { address: CAROL }).result?.toString(), '1000000');
    assert.equal(chain.send(BOB, 'currency', 'balance_of', { address: DAVE }).result, 0n);
  });

  it('change_metadata is operator-only', () => {
    assert.equal(chain.send(BOB, 'currency', 'change_metadata', { key: 'token_name', value: 'X' }).error, 'Only operator can set metadata.');
    assert.equal(chain.send(ALICE, 'currency', 'change_metadata', { key: 'token_name', value: 'X' }).status, 0);
    assert.equal(chain.get('currency.metadata:token_name'), 'X');
  });
});
