import assert from 'node:assert/strict';
import { ChainDecimal } from '../../../../core/chain/decimal.js';
import { chainRecord } from '../../../../core/chain/values.js';
import { transactionSize } from '../../../../plugins/devnet/engine/executor.js';
import { computeRewards } from '../../../../plugins/devnet/engine/rewards.js';
import { addLiquidity, approve, dexChain } from './dex-fixture.js';
import { ALICE, BOB, CAROL, D, DAVE, DEADLINE, MapState, TestChain, makeTx, str } from './support.js';

const COUNTER_SOURCE = `counter = Variable()


@construct
def seed():
    counter.set(0)


@export
def increment():
    counter.set(counter.get() + 1)
    return counter.get()
`;

const sumAmounts = (xs: Array<{ amount: unknown }>): ChainDecimal => xs.reduce((s, r) => s.plus(r.amount as ChainDecimal), ChainDecimal.ZERO);

describe('devnet engine: chi, fees, rewards, atomicity (contracts.md §5)', () => {
  describe('metering (the VM, xvm-gas-1)', () => {
    it('charges the gas schedule node by node (xvm-gas-1), then chi_used = raw // 1000 + 5', () => {
      const chain = TestChain.withGenesis({ dex: false });
      const deployed = chain.send(BOB, 'submission', 'submit_contract', { name: 'con_counter', code: COUNTER_SOURCE });
      assert.equal(deployed.status, 0, deployed.error);
      const tx = makeTx({ sender: BOB, contract: 'con_counter', function: 'increment', kwargs: {}, nonce: 1, chi: 1000 });
      const out = chain.executor.execute(tx, chain.env(), chain.state);
      assert.equal(out.status, 0, out.error);
      // By hand (contracting-vm.md §e.1; `con_counter.counter` is 19 bytes, the stored 0 and 1 one byte each):
      const dispatch = 5_000;
      const setLine = 32 /* expr */ + 5_000 /* call .set */ + 96 /* bin_op */ + 5_000 /* call .get */ + 1_280 /* get */
        + 2 * (19 + 1) /* read */ + 32 /* constant 1 */ + 5_120 /* set */ + 25 * (19 + 1) /* write */;
      const returnLine = 32 /* return */ + 5_000 /* call .get */ + 1_280 /* get */ + 2 * (19 + 1) /* read */;
      const returnValue = 1; // `1`
      const raw = transactionSize(tx) + dispatch + setLine + returnLine + returnValue;
      assert.equal(dispatch + setLine + returnLine + returnValue, 28_453);
      assert.equal(out.chiUsed, Math.floor(raw / 1000) + 5);
      // The entry contract's frame: everything after the dispatch, plus the fixed 5-chi overhead.
      assert.equal(out.contractCosts?.['con_counter'], setLine + returnLine + returnValue + 5_000);
    });

    it('is deterministic', () => {
      const chain = TestChain.withGenesis({ dex: false });
      const tx = makeTx({ sender: BOB, contract: 'currency', function: 'transfer', kwargs: { amount: D('1'), to: DAVE } });
      const a = chain.executor.execute(tx, chain.env(), chain.state);
      const b = chain.executor.execute(tx, chain.env(), chain.state);
      assert.equal(a.chiUsed, b.chiUsed);
      assert.deepEqual(a.writes.map((w) => [w.key, str(w.value)]), b.writes.map((w) => [w.key, str(w.value)]));
    });

    it('aborts with `Out of chi.` at the budget, charges the whole budget and drops the writes', () => {
      const chain = TestChain.withGenesis({ dex: false });
      const out = chain.send(BOB, 'currency', 'transfer', { amount: D('1'), to: DAVE }, { chi: 10 });
      assert.equal(out.status, 1);
      assert.equal(out.error, 'Out of chi.');
      assert.equal(out.chiUsed, 10);
      assert.equal(chain.get(`currency.balances:${DAVE}`), undefined);
      assert.equal(chain.text(`currency.balances:${BOB}`), '999999.5');
      assert.deepEqual(out.state?.map((w) => w.key), [`currency.balances:${BOB}`]);
      assert.deepEqual(out.events, []);
      assert.deepEqual(out.rewards, []);
    });

    it('caps the write set at 128 KiB', () => {
      const chain = TestChain.withGenesis({ dex: false });
      const out = chain.send(ALICE, 'currency', 'change_metadata', { key: 'blob', value: 'x'.repeat(140_000) }, { chi: 100_000 });
      assert.equal(out.error, 'You have exceeded the maximum write capacity per transaction!');
    });
  });

  describe('fee (paid_metered)', () => {
    it('debits chi_used / chi_rate from the sender on success; the write is in `writes` and `state`', () => {
      const chain = TestChain.withGenesis({ dex: false });
      const out = chain.send(BOB, 'currency', 'transfer', { amount: D('5'), to: DAVE });
      const fee = ChainDecimal.from(BigInt(out.chiUsed)).div(20n);
      assert.equal(chain.text(`currency.balances:${BOB}`), D('999995').minus(fee).toString());
      assert.ok(out.writes.some((w) => w.key === `currency.balances:${BOB}`));
      assert.deepEqual(out.state?.map((w) => w.key), [...out.state!.map((w) => w.key)].sort());
    });

    it('debits the fee on failure too; only the fee write and the nonce remain', () => {
      const chain = TestChain.withGenesis({ dex: false });
      const out = chain.send(BOB, 'currency', 'transfer', { amount: D('5000000'), to: DAVE });
      assert.equal(out.status, 1);
      const fee = ChainDecimal.from(BigInt(out.chiUsed)).div(20n);
      assert.deepEqual(out.writes.map((w) => [w.key, str(w.value)]), [
        [`currency.balances:${BOB}`, D('1000000').minus(fee).toString()],
        [`__n.${BOB}:`, '0'],
      ]);
      assert.equal(out.rewardBuckets, null);
    });

    it('clamps at zero (an int 0) when the balance cannot cover the fee', () => {
      const chain = TestChain.withGenesis({ dex: false });
      const out = chain.send(DAVE, 'currency', 'transfer', { amount: D('1'), to: BOB });
      assert.equal(out.status, 1);
      assert.equal(out.writes.find((w) => w.key === `currency.balances:${DAVE}`)?.value, 0n);
    });

    it('writes the nonce for executed transactions, success and failure, outside `state`', () => {
      const chain = TestChain.withGenesis({ dex: false });
      chain.send(BOB, 'currency', 'transfer', { amount: D('1'), to: DAVE });
      const failed = chain.send(BOB, 'currency', 'transfer', { amount: D('0'), to: DAVE });
      assert.equal(chain.get(`__n.${BOB}:`), 1n);
      assert.ok(!failed.state!.some((w) => w.key.startsWith('__n.')));
    });

    it('free_metered: chi is reported, nothing is charged or rewarded', () => {
      const chain = TestChain.withGenesis({ dex: false }, { feeMode: 'free_metered' });
      const out = chain.send(BOB, 'currency', 'transfer', { amount: D('5'), to: DAVE });
      assert.ok(out.chiUsed > 5);
      assert.equal(chain.text(`currency.balances:${BOB}`), '999995');
      assert.deepEqual(out.rewards, []);
    });

    it('a source the compiler refuses fails the deployment with its diagnostics: nothing stored, the fee paid', () => {
      const chain = TestChain.withGenesis({ dex: false });
      const out = chain.send(BOB, 'submission', 'submit_contract', { name: 'con_x', code: 'x = 1' });
      assert.equal(out.status, 1);
      assert.match(out.error!, /^CompilerError: xian\.lint\.E013: Contract must have at least one @export function\n\[/);
      assert.ok(out.chiUsed > 0);
      assert.deepEqual(out.writes.map((w) => w.key), [`currency.balances:${BOB}`, `__n.${BOB}:`]);
      assert.equal(chain.get('con_x.__source__'), undefined);
    });
  });

  describe('reward split (§5.3)', () => {
    it('upstream developer vector: costs {con_parent: 7000, con_child: 3000}, ratios [0,0,0,1], 100 chi, rate 20', () => {
      const state = new MapState();
      state.apply([
        { key: 'rewards.S:value', value: [0n, 0n, 0n, 1n] },
        { key: 'chi_cost.S:value', value: 20n },
        { key: 'foundation.owner', value: 'foundation' },
        { key: 'con_parent.__developer__', value: 'alice' },
        { key: 'con_child.__developer__', value: 'bob' },
      ]);
      const split = computeRewards({ state, chiUsed: 100, contract: 'con_parent', contractCosts: new Map([['con_parent', 7000], ['con_child', 3000]]) });
      assert.deepEqual(split.records.map((r) => [r.type, r.recipient, r.contract, str(r.amount)]), [
        ['developer_reward', 'bob', 'con_child', '1.5'],
        ['developer_reward', 'alice', 'con_parent', '3.5'],
      ]);
      assert.deepEqual([...split.deltas].map(([k, v]) => [k, v.toString()]), [['currency.balances:bob', '1.5'], ['currency.balances:alice', '3.5']]);

      state.apply([{ key: 'con_child.__developer__', value: 'alice' }]);
      const same = computeRewards({ state, chiUsed: 100, contract: 'con_parent', contractCosts: new Map([['con_parent', 7000], ['con_child', 3000]]) });
      assert.equal(same.buckets?.developer_reward.get('alice')?.toString(), '5');
      assert.equal(same.records.length, 2);
    });

    it('upstream validator vector: [0.40,0,0,0.60], 100 chi, commission 1000 bps, self bond 300, alice 200 / bob 500', () => {
      const state = new MapState();
      state.apply([
        { key: 'rewards.S:value', value: [D('0.40'), 0n, 0n, D('0.60')] },
        { key: 'chi_cost.S:value', value: 20n },
        { key: 'foundation.owner', value: 'foundation' },
        { key: 'validators.active_validators', value: ['val'] },
        { key: 'validators.commission_bps:val', value: 1000n },
        { key: 'validators.self_bond:val', value: 300n },
        { key: 'validators.delegator_lists:val', value: ['alice', 'bob'] },
        { key: 'validators.delegations:alice:val', value: 200n },
        { key: 'validators.delegations:bob:val', value: 500n },
      ]);
      const split = computeRewards({ state, chiUsed: 100, contract: 'currency', contractCosts: new Map() });
      assert.deepEqual(split.records.filter((r) => r.type !== 'developer_reward').map((r) => [r.type, r.recipient, str(r.amount), r.validatorKey, r.delegatorKey]), [
        ['validator_reward', 'val', '0.74', 'val', undefined],
        ['delegator_reward', 'alice', '0.36', 'val', 'alice'],
        ['delegator_reward', 'bob', '0.9', 'val', 'bob'],
      ]);
      // The developer share of a contract without __developer__ goes to the foundation owner.
      assert.equal(split.buckets?.developer_reward.get('foundation')?.toString(), '3');
    });

    it('foundation: round(ratio × chi_used, 8) / chi_rate; no validators → that share is not distributed', () => {
      const chain = TestChain.withGenesis({ dex: false, foundationOwner: CAROL });
      const carolBefore = D('1000000');
      const out = chain.send(BOB, 'currency', 'transfer', { amount: D('5'), to: DAVE });
      const chi = BigInt(out.chiUsed);
      const foundation = D('0.01').times(chi).div(20n);
      const developer = D('0.68').times(chi).div(20n);
      assert.deepEqual(out.rewards.map((r) => [r.type, r.recipient, r.contract, str(r.amount)]), [
        ['foundation_reward', CAROL, undefined, foundation.toString()],
        ['developer_reward', CAROL, 'currency', developer.toString()],
      ]);
      assert.equal(chain.text(`currency.balances:${CAROL}`), carolBefore.plus(foundation).plus(developer).toString());
      assert.equal(out.rewardBuckets?.validator_reward.size, 0);
      const distributed = sumAmounts(out.rewards);
      assert.ok(distributed.lt(ChainDecimal.from(chi).div(20n)), 'burn and the validator share stay undistributed');
    });

    it('developer rewards across contracts: one record per contract (sorted by name), weights = raw cost', () => {
      const chain = dexChain();
      addLiquidity(chain, ALICE, 'con_aaa', 'con_bbb', '1000', '500');
      approve(chain, BOB, 'con_aaa', D('10'));
      const out = chain.send(BOB, 'con_dex', 'swapExactTokenForToken', {
        amountIn: D('10'), amountOutMin: D('0'), pair: 1n, src: 'con_aaa', to: BOB, deadline: DEADLINE,
      });
      assert.equal(out.status, 0, out.error);
      const dev = out.rewards.filter((r) => r.type === 'developer_reward');
      assert.deepEqual(dev.map((r) => r.contract), ['con_aaa', 'con_bbb', 'con_dex', 'con_pairs']);
      assert.deepEqual(Object.keys(out.contractCosts!).sort(), ['con_aaa', 'con_bbb', 'con_dex', 'con_pairs']);
      // Tokens were submitted by ALICE; the DEX is a genesis contract of developer "sys" → foundation owner (ALICE too).
      assert.ok(dev.every((r) => r.recipient === ALICE));
      const total = ChainDecimal.from(BigInt(out.chiUsed)).times(D('0.68'));
      assert.ok(total.div(20n).minus(sumAmounts(dev)).abs().lte(D('0.000000000000000000000000001')));
    });
  });

  describe('atomicity', () => {
    it('a failure after tokens moved drops every write and event of the transaction', () => {
      const chain = dexChain();
      addLiquidity(chain, ALICE, 'con_aaa', 'con_bbb', '1000', '500');
      approve(chain, BOB, 'con_aaa', D('100'));
      // con_bbb not approved: the aaa transfer_from succeeds, then the bbb one fails.
      const before = chain.text(`con_aaa.balances:${BOB}`);
      const out = chain.send(BOB, 'con_dex', 'addLiquidity', {
        tokenA: 'con_aaa', tokenB: 'con_bbb', amountADesired: D('100'), amountBDesired: D('50'),
        amountAMin: D('0'), amountBMin: D('0'), to: BOB, deadline: DEADLINE,
      });
      assert.equal(out.status, 1);
      assert.match(out.error!, /^Not enough coins approved to send!/);
      assert.equal(chain.text(`con_aaa.balances:${BOB}`), before);
      assert.equal(chain.text(`con_aaa.approvals:${BOB}:con_dex`), '100');
      assert.deepEqual(out.events, []);
      assert.deepEqual(out.writes.map((w) => w.key), [`currency.balances:${BOB}`, `__n.${BOB}:`]);
    });
  });

  describe('simulate (simulate.md §4)', () => {
    it('no nonce, no rewards; the fee debit is previewed (or left out with feePreview: false)', () => {
      const chain = TestChain.withGenesis({ dex: false });
      const sim = chain.simulate(BOB, 'currency', 'transfer', { amount: D('5'), to: DAVE });
      assert.equal(sim.status, 0);
      assert.ok(!sim.writes.some((w) => w.key.startsWith('__n.')));
      assert.deepEqual(sim.rewards, []);
      const fee = ChainDecimal.from(BigInt(sim.chiUsed)).div(20n);
      assert.equal(str(sim.writes.find((w) => w.key === `currency.balances:${BOB}`)?.value), D('999995').minus(fee).toString());
      const noFee = chain.simulate(BOB, 'currency', 'transfer', { amount: D('5'), to: DAVE }, { maxChi: 1_000_000, feePreview: false });
      assert.equal(str(noFee.writes.find((w) => w.key === `currency.balances:${BOB}`)?.value), '999995');
      // Nothing was committed.
      assert.equal(chain.text(`currency.balances:${BOB}`), '1000000');
      assert.equal(chain.get(`__n.${BOB}:`), undefined);
    });

    it('skips the transaction-byte charge (estimates a little low)', () => {
      const chain = TestChain.withGenesis({ dex: false });
      const kwargs = { amount: D('5'), to: DAVE, };
      const sim = chain.simulate(BOB, 'currency', 'transfer', kwargs);
      const real = chain.executor.execute(makeTx({ sender: BOB, contract: 'currency', function: 'transfer', kwargs }), chain.env(), chain.state);
      assert.ok(real.chiUsed >= sim.chiUsed);
    });

    it('fails with the readonly chi cap: `chi budget exceeded`, chi_used = the cap', () => {
      const chain = TestChain.withGenesis({ dex: false });
      const sim = chain.simulate(BOB, 'currency', 'transfer', { amount: D('5'), to: DAVE }, { maxChi: 8 });
      assert.equal(sim.status, 1);
      assert.equal(sim.error, 'chi budget exceeded during readonly execution: Out of chi.');
      assert.equal(sim.chiUsed, 8);
    });

    it('a failing dry run reports the contract\'s message', () => {
      const chain = TestChain.withGenesis({ dex: false });
      const sim = chain.simulate(DAVE, 'currency', 'transfer', { amount: D('5'), to: BOB });
      assert.equal(sim.result, 'Not enough coins to send.');
      assert.deepEqual(sim.events, []);
    });
  });

  it('kwargs arrive in wire form and are decoded (decimals, datetimes, big ints)', () => {
    const chain = TestChain.withGenesis({ dex: false });
    const tx = makeTx({ sender: ALICE, contract: 'currency', function: 'change_metadata', kwargs: { key: 'k', value: chainRecord([['d', D('1.5')], ['t', DEADLINE], ['i', 2n ** 70n]]) } });
    assert.deepEqual(JSON.parse(JSON.stringify(tx.payload.kwargs['value'])), { d: { __fixed__: '1.5' }, i: { __big_int__: '1180591620717411303424' }, t: { __time__: [2026, 1, 2, 0, 0, 0, 0] } });
    const out = chain.executor.execute(tx, chain.env(), chain.state);
    assert.equal(out.status, 0, out.error);
    const stored = out.writes.find((w) => w.key === 'currency.metadata:k')!.value as Record<string, unknown>;
    assert.ok(stored['d'] instanceof ChainDecimal);
    assert.equal(stored['i'], 2n ** 70n);
  });
});
