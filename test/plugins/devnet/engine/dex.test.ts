import assert from 'node:assert/strict';
import { ChainDecimal } from '../../../../core/chain/decimal.js';
import { isTuple } from '../../../../plugins/devnet/engine/vm/values.js';
import { getAmountIn, getAmountOut } from './dex-math.js';
import { add, div, mul } from '../../../../plugins/devnet/engine/num.js';
import type { ContractEvent } from '../../../../plugins/devnet/engine/types.js';
import { addLiquidity, approve, dexChain } from './dex-fixture.js';
import { ALICE, BOB, CAROL, D, DEADLINE, NOW, str, type TestChain } from './support.js';

const ev = (e: ContractEvent): string[] => [e.contract, e.event, e.caller,
  ...Object.entries(e.data_indexed).map(([k, v]) => `${k}=${str(v)}`),
  ...Object.entries(e.data).map(([k, v]) => `${k}=${str(v)}`)];

function dec(chain: TestChain, key: string): ChainDecimal {
  const v = chain.get(key);
  return typeof v === 'bigint' ? ChainDecimal.from(v) : (v as ChainDecimal);
}

describe('devnet engine: DEX (dex.md §3–§5)', () => {
  let chain: TestChain;
  beforeEach(() => {
    chain = dexChain();
    assert.equal(addLiquidity(chain, ALICE, 'con_aaa', 'con_bbb', '1000', '500').status, 0);
  });

  describe('swapExactTokenForToken', () => {
    it('changes reserves and balances exactly per the formulas and emits Transfer, Transfer, Sync, Swap', () => {
      const before = dec(chain, `con_bbb.balances:${BOB}`);
      approve(chain, BOB, 'con_aaa', D('10'));
      const out = chain.send(BOB, 'con_dex', 'swapExactTokenForToken', {
        amountIn: D('10'), amountOutMin: D('0'), pair: 1n, src: 'con_aaa', to: BOB, deadline: DEADLINE,
      });
      assert.equal(out.status, 0, out.error);
      const expected = getAmountOut(D('10'), D('1000'), D('500'), 30n) as ChainDecimal;
      assert.equal(dec(chain, `con_bbb.balances:${BOB}`).toString(), before.plus(expected).toString());
      assert.equal(chain.text('con_pairs.pairs:1:balance0'), '1010');
      assert.equal(chain.text('con_pairs.pairs:1:balance1'), D('500').minus(expected).toString());
      assert.equal(chain.text('con_pairs.balances:con_aaa'), '1010');
      assert.equal(chain.text('con_aaa.balances:con_pairs'), '1010');
      assert.equal(chain.get('con_pairs.LOCK'), false);
      assert.deepEqual(out.events.map(ev), [
        ['con_aaa', 'Transfer', 'con_dex', `from=${BOB}`, 'to=con_pairs', 'amount=10'],
        ['con_bbb', 'Transfer', 'con_pairs', 'from=con_pairs', `to=${BOB}`, `amount=${expected}`],
        ['con_pairs', 'Sync', 'con_dex', 'pair=1', 'reserve0=1010', `reserve1=${D('500').minus(expected)}`],
        ['con_pairs', 'Swap', 'con_dex', 'pair=1', `to=${BOB}`, 'amount0In=10', 'amount1In=0', 'amount0Out=0', `amount1Out=${expected}`],
      ]);
      const swap = out.events[3]!;
      assert.equal(swap.data['amount1In'], 0n, 'the untouched side is the int 0');
      assert.equal(swap.signer, BOB);
    });

    it('uses the signer\'s zero-fee tier (fee 0) when the owner enabled it', () => {
      const set = chain.send(ALICE, 'con_dex', 'set_zero_fee_trader', { account: BOB, enabled: true });
      assert.deepEqual(set.events.map(ev), [['con_dex', 'ZeroFeeTraderUpdated', ALICE, `account=${BOB}`, 'enabled=true']]);
      assert.equal(chain.send(BOB, 'con_dex', 'getTradeFeeBps', {}).result, 0n);
      approve(chain, BOB, 'con_aaa', D('10'));
      const out = chain.send(BOB, 'con_dex', 'swapExactTokenForToken', {
        amountIn: D('10'), amountOutMin: D('0'), pair: 1n, src: 'con_aaa', to: BOB, deadline: DEADLINE,
      });
      assert.equal(str(out.result), '4.950495049504950495049504950495');
      assert.equal(chain.send(CAROL, 'con_dex', 'set_zero_fee_trader', { account: CAROL, enabled: true }).error, 'SNAKX: FORBIDDEN');
    });

    it('refuses expired deadlines, short outputs, fee tokens and missing approvals with the exact texts', () => {
      const swap = (kwargs: Record<string, unknown>) => chain.send(BOB, 'con_dex', 'swapExactTokenForToken', {
        amountIn: D('10'), amountOutMin: D('0'), pair: 1n, src: 'con_aaa', to: BOB, deadline: DEADLINE, ...kwargs,
      } as never);
      assert.equal(swap({ deadline: NOW }).error, 'SNAKX: EXPIRED');
      assert.equal(swap({ amountOutMin: D('5') }).error, 'SNAKX: INSUFFICIENT_OUTPUT_AMOUNT');
      assert.equal(swap({}).error, 'Not enough coins approved to send! You have 0 and are trying to spend 10');
      assert.equal(swap({ pair: 7n }).error, 'SNAKX: INVALID_PAIR');
      assert.equal(swap({ src: 'con_ccc' }).error, 'SNAKX: INVALID_PATH');
      assert.equal(chain.send(ALICE, 'con_dex', 'set_fee_on_transfer_token', { token: 'con_aaa', enabled: true }).status, 0);
      assert.equal(swap({}).error, 'SNAKX: FEE_TOKEN_REQUIRES_SUPPORTING_ROUTE');
      // Atomic: nothing moved.
      assert.equal(chain.text('con_pairs.pairs:1:reserve0'), '1000');
    });

    it('the fee-on-transfer-supporting variant quotes from the pair surplus and returns the measured output', () => {
      approve(chain, BOB, 'con_aaa', D('10'));
      const out = chain.send(BOB, 'con_dex', 'swapExactTokenForTokenSupportingFeeOnTransferTokens', {
        amountIn: D('10'), amountOutMin: D('4'), pair: 1n, src: 'con_aaa', to: BOB, deadline: DEADLINE,
      });
      assert.equal(out.status, 0, out.error);
      assert.equal(str(out.result), '4.935790171985306494252304523896');
    });

    it('router-only and owner-only entry points refuse other callers', () => {
      assert.equal(chain.send(BOB, 'con_pairs', 'routerSwap', { pair: 1n, amount0Out: D('1'), amount1Out: 0n, to: BOB, fee_bps: 0n }).error, 'SNAKX: FORBIDDEN');
      assert.equal(chain.send(BOB, 'con_pairs', 'sync2', { pair: 1n }).error, 'SNAKX: FORBIDDEN');
      assert.equal(chain.send(BOB, 'con_pairs', 'registerLpToken', { tokenA: 'con_aaa', tokenB: 'con_ccc', lpToken: 'con_lp_bc' }).error, 'SNAKX: FORBIDDEN');
      assert.equal(chain.send(BOB, 'con_pairs', 'enableFee', { en: true }).error, 'SNAKX: FORBIDDEN');
      assert.equal(chain.send(BOB, 'con_pairs', 'swap', { pair: 1n, amount0Out: D('1'), amount1Out: 0n, to: BOB }).error, 'SNAKX: INSUFFICIENT_INPUT_AMOUNT');
      assert.equal(chain.send(BOB, 'con_pairs', 'swap', { pair: 1n, amount0Out: D('1'), amount1Out: 0n, to: 'con_aaa' }).error, 'SNAKX: INVALID_TO');
      assert.equal(chain.send(BOB, 'con_pairs', 'swap', { pair: 1n, amount0Out: D('1000'), amount1Out: 0n, to: BOB }).error, 'SNAKX: INSUFFICIENT_LIQUIDITY');
    });

    it('createPair validates order, identity, existence and LP registration', () => {
      assert.equal(chain.send(BOB, 'con_pairs', 'createPair', { tokenA: 'con_bbb', tokenB: 'con_aaa' }).error, 'SNAKX: BAD_ORDER');
      assert.equal(chain.send(BOB, 'con_pairs', 'createPair', { tokenA: 'con_aaa', tokenB: 'con_aaa' }).error, 'SNAKX: IDENTICAL_ADDRESSES');
      assert.equal(chain.send(BOB, 'con_pairs', 'createPair', { tokenA: 'con_aaa', tokenB: 'con_bbb' }).error, 'SNAKX: PAIR_EXISTS');
      assert.equal(chain.send(BOB, 'con_pairs', 'createPair', { tokenA: 'con_aaa', tokenB: 'con_ccc' }).error, 'SNAKX: LP_TOKEN_NOT_REGISTERED');
      assert.equal(chain.send(BOB, 'con_pairs', 'createPair', { tokenA: 'con_aaa', tokenB: 'con_nope' }).error, 'SNAKX: INVALID_TOKEN');
      assert.equal(chain.send(BOB, 'con_pairs', 'createPair', { tokenA: 'con_bbb', tokenB: 'con_ccc', lpToken: 'con_lp_ab' }).error, 'SNAKX: LP_TOKEN_MISMATCH');
      assert.equal(chain.send(ALICE, 'con_pairs', 'registerLpToken', { tokenA: 'con_aaa', tokenB: 'con_ccc', lpToken: 'con_lp_ab' }).error, 'SNAKX: LP_TOKEN_ALREADY_REGISTERED');
      assert.equal(chain.send(ALICE, 'con_pairs', 'registerLpToken', { tokenA: 'con_aaa', tokenB: 'con_ccc', lpToken: 'con_ccc' }).error, 'SNAKX: INVALID_LP_TOKEN');
      assert.equal(chain.send(BOB, 'con_pairs', 'lpTokenFor', { pair: 9n }).error, 'SNAKX: INVALID_PAIR');
      assert.equal(chain.send(BOB, 'con_pairs', 'lpTokenFor', { pair: 1n }).result, 'con_lp_ab');
      assert.equal(chain.send(BOB, 'con_pairs', 'pairFor', { tokenA: 'con_bbb', tokenB: 'con_aaa' }).result, 1n);
    });
  });

  describe('liquidity', () => {
    it('addLiquidity at the pool ratio: amounts by quote, liquidity = min of both shares, returned in the caller\'s order', () => {
      const ts = dec(chain, 'con_pairs.pairs:1:totalSupply');
      approve(chain, BOB, 'con_aaa', D('100'));
      approve(chain, BOB, 'con_bbb', D('100'));
      // Caller order (bbb, aaa) is reversed relative to the pair (aaa, bbb).
      const out = chain.send(BOB, 'con_dex', 'addLiquidity', {
        tokenA: 'con_bbb', tokenB: 'con_aaa', amountADesired: D('100'), amountBDesired: D('100'),
        amountAMin: D('0'), amountBMin: D('0'), to: BOB, deadline: DEADLINE,
      });
      assert.equal(out.status, 0, out.error);
      // pair order: aDes = 100 aaa, bDes = 100 bbb; bOpt = quote(100, 1000, 500) = 50 ≤ 100.
      const liquidity = div(mul(D('100'), ts), D('1000'));
      const result = out.result as unknown[];
      assert.ok(isTuple(result));
      assert.deepEqual(result.map((v) => str(v as never)), ['50', '100', str(liquidity)]);
      assert.equal(chain.text(`con_lp_ab.balances:${BOB}`), str(liquidity));
      assert.equal(chain.text('con_pairs.pairs:1:reserve0'), '1100');
      assert.equal(chain.text('con_pairs.pairs:1:reserve1'), '550');
      assert.equal(chain.text('con_pairs.pairs:1:totalSupply'), str(add(ts, liquidity)));
      assert.deepEqual(out.events.map((e) => `${e.contract}.${e.event}`), [
        'con_aaa.Transfer', 'con_bbb.Transfer', 'con_lp_ab.Mint', 'con_lp_ab.Transfer', 'con_pairs.Sync', 'con_pairs.Mint',
      ]);
    });

    it('addLiquidity enforces minimums, positive amounts and deadlines', () => {
      const add1 = (kwargs: Record<string, unknown>) => chain.send(BOB, 'con_dex', 'addLiquidity', {
        tokenA: 'con_aaa', tokenB: 'con_bbb', amountADesired: D('100'), amountBDesired: D('100'),
        amountAMin: D('0'), amountBMin: D('0'), to: BOB, deadline: DEADLINE, ...kwargs,
      } as never);
      assert.equal(add1({ amountBMin: D('60') }).error, 'SNAKX: INSUFFICIENT_B_AMOUNT');
      assert.equal(add1({ amountBDesired: D('10'), amountAMin: D('50') }).error, 'SNAKX: INSUFFICIENT_A_AMOUNT');
      assert.equal(add1({ amountADesired: D('0') }).error, 'SNAKX: INSUFFICIENT_AMOUNT');
      assert.equal(add1({ deadline: NOW }).error, 'SNAKX: EXPIRED');
      assert.equal(add1({ lpToken: 'con_lp_bc' }).error, 'SNAKX: LP_TOKEN_MISMATCH');
    });

    it('removeLiquidity burns the LP and pays liquidity × balance / totalSupply of each token', () => {
      const lp = D('100');
      const ts = dec(chain, 'con_pairs.pairs:1:totalSupply');
      const a0 = div(mul(lp, D('1000')), ts);
      const a1 = div(mul(lp, D('500')), ts);
      const beforeA = dec(chain, `con_aaa.balances:${ALICE}`);
      approve(chain, ALICE, 'con_lp_ab', lp);
      const out = chain.send(ALICE, 'con_dex', 'removeLiquidity', {
        tokenA: 'con_aaa', tokenB: 'con_bbb', liquidity: lp, amountAMin: D('0'), amountBMin: D('0'), to: ALICE, deadline: DEADLINE,
      });
      assert.equal(out.status, 0, out.error);
      assert.deepEqual((out.result as unknown[]).map((v) => str(v as never)), [str(a0), str(a1)]);
      assert.equal(dec(chain, `con_aaa.balances:${ALICE}`).toString(), beforeA.plus(a0 as ChainDecimal).toString());
      assert.equal(chain.text('con_pairs.pairs:1:totalSupply'), ts.minus(lp).toString());
      assert.equal(chain.text('con_lp_ab.metadata:total_supply'), ts.minus(lp).toString());
      assert.equal(chain.text('con_pairs.pairs:1:reserve0'), D('1000').minus(a0 as ChainDecimal).toString());
      assert.deepEqual(out.events.map((e) => `${e.contract}.${e.event}`), [
        'con_lp_ab.Transfer', 'con_lp_ab.Burn', 'con_lp_ab.Transfer', 'con_aaa.Transfer', 'con_bbb.Transfer', 'con_pairs.Sync', 'con_pairs.Burn',
      ]);
      const burn = out.events[out.events.length - 1]!;
      assert.deepEqual(ev(burn), ['con_pairs', 'Burn', 'con_dex', 'pair=1', `to=${ALICE}`, `amount0=${a0}`, `amount1=${a1}`]);
    });

    it('removeLiquidity refuses a missing pair and unapproved LP', () => {
      const rm = (kwargs: Record<string, unknown>) => chain.send(ALICE, 'con_dex', 'removeLiquidity', {
        tokenA: 'con_aaa', tokenB: 'con_bbb', liquidity: D('1'), amountAMin: D('0'), amountBMin: D('0'), to: ALICE, deadline: DEADLINE, ...kwargs,
      } as never);
      assert.equal(rm({ tokenB: 'con_ccc' }).error, 'SNAKX: NO_PAIR');
      assert.equal(rm({}).error, 'Not enough coins approved to send. You have 0 and are trying to spend 1');
    });
  });

  describe('multi-hop', () => {
    beforeEach(() => {
      // Pair 2: bbb/ccc, 400 bbb : 1200 ccc.
      assert.equal(addLiquidity(chain, ALICE, 'con_bbb', 'con_ccc', '400', '1200').status, 0);
    });

    it('getAmountsOut chains the per-hop quotes, normalised per hop', () => {
      const out = chain.send(BOB, 'con_dex', 'getAmountsOut', { amountIn: D('10'), src: 'con_aaa', path: [1n, 2n] });
      const hop1 = getAmountOut(D('10'), D('1000'), D('500'), 30n);
      const hop2 = getAmountOut(hop1, D('400'), D('1200'), 30n);
      assert.deepEqual((out.result as unknown[]).map((v) => str(v as never)), ['10', str(hop1), str(hop2)]);
      assert.equal(chain.send(BOB, 'con_dex', 'getAmountsOut', { amountIn: D('10'), src: 'con_ccc', path: [1n] }).error, 'SNAKX: INVALID_PATH');
      assert.equal(chain.send(BOB, 'con_dex', 'getAmountsOut', { amountIn: D('10'), src: 'con_aaa', path: [] }).error, 'SNAKX: INVALID_PATH');
    });

    it('swapExactTokensForTokens moves the intermediate through pair balances and pays the last hop out', () => {
      const hop1 = getAmountOut(D('10'), D('1000'), D('500'), 30n) as ChainDecimal;
      const hop2 = getAmountOut(hop1, D('400'), D('1200'), 30n) as ChainDecimal;
      const before = dec(chain, `con_ccc.balances:${CAROL}`);
      approve(chain, BOB, 'con_aaa', D('10'));
      const out = chain.send(BOB, 'con_dex', 'swapExactTokensForTokens', {
        amountIn: D('10'), amountOutMin: hop2, path: [1n, 2n], src: 'con_aaa', to: CAROL, deadline: DEADLINE,
      });
      assert.equal(out.status, 0, out.error);
      assert.equal(str(out.result), str(hop2));
      assert.equal(dec(chain, `con_ccc.balances:${CAROL}`).toString(), before.plus(hop2).toString());
      assert.equal(chain.text('con_pairs.pairs:1:reserve1'), D('500').minus(hop1).toString());
      assert.equal(chain.text('con_pairs.pairs:2:reserve0'), D('400').plus(hop1).toString());
      assert.equal(chain.text('con_pairs.pairs:2:reserve1'), D('1200').minus(hop2).toString());
      const swaps = out.events.filter((e) => e.event === 'Swap').map(ev);
      assert.deepEqual(swaps, [
        ['con_pairs', 'Swap', 'con_dex', 'pair=1', 'to=2', 'amount0In=10', 'amount1In=0', 'amount0Out=0', `amount1Out=${hop1}`],
        ['con_pairs', 'Swap', 'con_dex', 'pair=2', `to=${CAROL}`, `amount0In=${hop1}`, 'amount1In=0', 'amount0Out=0', `amount1Out=${hop2}`],
      ]);
      assert.equal(out.events.filter((e) => e.event === 'Swap')[0]!.data_indexed['to'], 2n, 'a pair recipient is the int pair id');
    });

    it('the supporting multi-hop variant refuses flagged intermediate tokens', () => {
      assert.equal(chain.send(ALICE, 'con_dex', 'set_fee_on_transfer_token', { token: 'con_bbb', enabled: true }).status, 0);
      approve(chain, BOB, 'con_aaa', D('10'));
      const out = chain.send(BOB, 'con_dex', 'swapExactTokensForTokensSupportingFeeOnTransferTokens', {
        amountIn: D('10'), amountOutMin: D('0'), path: [1n, 2n], src: 'con_aaa', to: BOB, deadline: DEADLINE,
      });
      assert.equal(out.error, 'SNAKX: UNSUPPORTED_INTERMEDIATE_FEE_TOKEN');
      const plain = chain.send(BOB, 'con_dex', 'swapExactTokensForTokens', {
        amountIn: D('10'), amountOutMin: D('0'), path: [1n, 2n], src: 'con_aaa', to: BOB, deadline: DEADLINE,
      });
      assert.equal(plain.error, 'SNAKX: FEE_TOKEN_REQUIRES_SUPPORTING_ROUTE');
    });

    it('the supporting multi-hop variant returns the measured output', () => {
      const hop1 = getAmountOut(D('10'), D('1000'), D('500'), 30n);
      const hop2 = getAmountOut(hop1, D('400'), D('1200'), 30n);
      approve(chain, BOB, 'con_aaa', D('10'));
      const out = chain.send(BOB, 'con_dex', 'swapExactTokensForTokensSupportingFeeOnTransferTokens', {
        amountIn: D('10'), amountOutMin: D('0'), path: [1n, 2n], src: 'con_aaa', to: BOB, deadline: DEADLINE,
      });
      assert.equal(out.status, 0, out.error);
      assert.equal(str(out.result), str(hop2));
    });
  });

  describe('con_dex_helper', () => {
    it('sell: pulls the amount via the helper and returns (amount, output)', () => {
      approve(chain, BOB, 'con_aaa', D('10'), 'con_dex_helper');
      const out = chain.send(BOB, 'con_dex_helper', 'sell', { sell_token: 'con_aaa', buy_token: 'con_bbb', amount: D('10'), slippage: 1n, deadline: DEADLINE });
      assert.equal(out.status, 0, out.error);
      assert.deepEqual((out.result as unknown[]).map((v) => str(v as never)), ['10', '4.935790171985306494252304523896']);
      assert.equal(chain.text('con_aaa.approvals:con_dex_helper:con_dex'), '0');
      const swap = out.events.find((e) => e.event === 'Swap')!;
      assert.equal(swap.signer, BOB);
      assert.equal(swap.data_indexed['to'], BOB);
    });

    it('buy: input = getAmountIn(amount) × (1 + slippage/100) × 1.0001, output measured', () => {
      const needed = getAmountIn(D('5'), D('1000'), D('500'), 30n) as ChainDecimal;
      const input = needed.times(D('1.01')).times(D('1.0001'));
      approve(chain, BOB, 'con_aaa', D('20'), 'con_dex_helper');
      const out = chain.send(BOB, 'con_dex_helper', 'buy', { buy_token: 'con_bbb', sell_token: 'con_aaa', amount: D('5'), deadline: DEADLINE });
      assert.equal(out.status, 0, out.error);
      const [inAmount, outAmount] = out.result as ChainDecimal[];
      assert.equal(str(inAmount), input.toString());
      assert.equal(str(outAmount), str(getAmountOut(input, D('1000'), D('500'), 30n)));
      assert.ok(outAmount!.gte(D('5')));
    });

    it('refuses bad requests with the helper\'s messages', () => {
      const sell = (kwargs: Record<string, unknown>) => chain.send(BOB, 'con_dex_helper', 'sell', {
        sell_token: 'con_aaa', buy_token: 'con_bbb', amount: D('10'), deadline: DEADLINE, ...kwargs,
      } as never);
      assert.equal(sell({ amount: D('0') }).error, 'Amount must be positive');
      assert.equal(sell({ slippage: 101n }).error, 'Slippage must be between 0 and 100%');
      assert.equal(sell({ deadline: null }).error, 'Deadline is required');
      assert.equal(sell({ deadline: NOW }).error, 'Trade deadline has expired');
      assert.equal(sell({ buy_token: 'con_ccc' }).error, 'Pair does not exist');
      const poor = chain.send('e'.repeat(64), 'con_dex_helper', 'buy', { buy_token: 'con_bbb', sell_token: 'con_aaa', amount: D('5'), deadline: DEADLINE });
      assert.match(poor.error ?? '', /^Insufficient balance: have 0, need 10\.233741628927185597195627285896$/);
    });
  });

  it('protocol fee: enableFee mints 1/6 of the sqrt(k) growth to the owner on the next mint', () => {
    assert.equal(chain.send(ALICE, 'con_pairs', 'enableFee', { en: true }).status, 0);
    assert.equal(chain.get('con_pairs.fee_epoch'), 1n);
    // The first mint after the epoch change only records kLast.
    assert.equal(addLiquidity(chain, BOB, 'con_aaa', 'con_bbb', '10', '5').status, 0);
    assert.equal(chain.text('con_pairs.pairs:1:kLast'), str(mul(D('1010'), D('505'))));
    approve(chain, CAROL, 'con_aaa', D('100'));
    chain.send(CAROL, 'con_dex', 'swapExactTokenForToken', { amountIn: D('100'), amountOutMin: D('0'), pair: 1n, src: 'con_aaa', to: CAROL, deadline: DEADLINE });
    const ownerLpBefore = dec(chain, `con_lp_ab.balances:${ALICE}`);
    assert.equal(addLiquidity(chain, BOB, 'con_aaa', 'con_bbb', '10', '10').status, 0);
    assert.ok(dec(chain, `con_lp_ab.balances:${ALICE}`).gt(ownerLpBefore), 'the fee went to feeTo');
  });
});
