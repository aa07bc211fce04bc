import { type ChainValue, pythonStr } from 'chainhost/chain';
import { ForeignHash, arg, defineContract, method, optArg, tuple, type ContractContext } from '../contract.js';
import { cmp, eq, gt, lit, lt, lte, mul, onePlusPercent, type Num } from '../num.js';
import { DEX_PAIRS, DEX_ROUTER } from './dex-math.js';

/**
 * `con_dex_helper` (dex.md §5): single-pair `buy` (exact output, input padded by slippage and
 * 1.0001) and `sell` (exact input) through the router's fee-on-transfer-supporting swap. The user
 * approves the helper; the helper approves `con_dex`. It emits no events of its own.
 */
export const CON_DEX_HELPER_SOURCE = `DEX = "con_dex"
DEX_PAIRS = "con_pairs"

toks_to_pair = ForeignHash(foreign_contract=DEX_PAIRS, foreign_name="toks_to_pair")
pairsmap = ForeignHash(foreign_contract=DEX_PAIRS, foreign_name="pairs")


def common_checks(amount: float, slippage: float, deadline: datetime.datetime):
    assert amount > 0, "Amount must be positive"
    assert 0 <= slippage <= 100, "Slippage must be between 0 and 100%"
    assert deadline is not None, "Deadline is required"
    assert now < deadline, "Trade deadline has expired"


def find_pair(token_a: str, token_b: str):
    if token_b < token_a:
        token_a, token_b = token_b, token_a
    pair = toks_to_pair[token_a, token_b]
    assert pair is not None, "Pair does not exist"
    return pair


def oriented_reserves(pair: int, sell_token: str):
    reserve0, reserve1, ignore = importlib.import_module(DEX_PAIRS).getReserves(pair)
    if sell_token == pairsmap[pair, "token0"]:
        return reserve0, reserve1
    return reserve1, reserve0


@export
def buy(buy_token: str, sell_token: str, amount: float, slippage: float = 1, deadline: datetime.datetime = None):
    common_checks(amount, slippage, deadline)
    pair = find_pair(buy_token, sell_token)
    dex = importlib.import_module(DEX)
    fee = dex.getTradeFeeBps(account=ctx.signer)
    reserve_sell, reserve_buy = oriented_reserves(pair, sell_token)
    input_amount = dex.getAmountIn(amount, reserve_sell, reserve_buy, fee) * (1 + slippage / 100) * 1.0001

    token = importlib.import_module(sell_token)
    user_balance = token.balance_of(ctx.caller)
    assert user_balance >= input_amount, f"Insufficient balance: have {user_balance}, need {input_amount}"
    token.transfer_from(input_amount, ctx.this, ctx.caller)
    token.approve(input_amount, DEX)
    output_amount = dex.swapExactTokenForTokenSupportingFeeOnTransferTokens(
        amountIn=input_amount,
        amountOutMin=amount * (1 - slippage / 100),
        pair=pair,
        src=sell_token,
        to=ctx.caller,
        deadline=deadline,
    )
    return input_amount, output_amount


@export
def sell(sell_token: str, buy_token: str, amount: float, slippage: float = 1, deadline: datetime.datetime = None):
    common_checks(amount, slippage, deadline)
    pair = find_pair(buy_token, sell_token)
    dex = importlib.import_module(DEX)
    fee = dex.getTradeFeeBps(account=ctx.signer)
    reserve_sell, reserve_buy = oriented_reserves(pair, sell_token)
    expected = dex.getAmountOut(amount, reserve_sell, reserve_buy, fee)

    token = importlib.import_module(sell_token)
    token.transfer_from(amount, ctx.this, ctx.caller)
    token.approve(amount, DEX)
    output_amount = dex.swapExactTokenForTokenSupportingFeeOnTransferTokens(
        amountIn=amount,
        amountOutMin=expected * (1 - slippage / 100),
        pair=pair,
        src=sell_token,
        to=ctx.caller,
        deadline=deadline,
    )
    return amount, output_amount
`;

const toksToPair = new ForeignHash(DEX_PAIRS, 'toks_to_pair');
const pairsmap = new ForeignHash(DEX_PAIRS, 'pairs', 0n);
const PAD = lit('1.0001');

function commonChecks(ctx: ContractContext, amount: ChainValue, slippage: ChainValue, deadline: ChainValue): void {
  ctx.assert(gt(amount, 0n), 'Amount must be positive');
  ctx.assert(lte(0n, slippage) && lte(slippage, 100n), 'Slippage must be between 0 and 100%');
  ctx.assert(deadline !== null, 'Deadline is required');
  ctx.assert(cmp(ctx.now, deadline, '<') < 0, 'Trade deadline has expired');
}

function findPair(ctx: ContractContext, a: ChainValue, b: ChainValue): ChainValue {
  const [x, y] = typeof a === 'string' && typeof b === 'string' && b < a ? [b, a] : [a, b];
  const pair = toksToPair.get(ctx, x, y);
  ctx.assert(pair !== null, 'Pair does not exist');
  return pair;
}

function orientedReserves(ctx: ContractContext, pair: ChainValue, sellToken: ChainValue): [ChainValue, ChainValue] {
  const [reserve0, reserve1] = ctx.call(DEX_PAIRS, 'getReserves', { pair }) as ChainValue[];
  if (eq(sellToken, pairsmap.get(ctx, pair, 'token0'))) return [reserve0!, reserve1!];
  return [reserve1!, reserve0!];
}

function swap(ctx: ContractContext, sellToken: ChainValue, amountIn: ChainValue, amountOutMin: ChainValue, pair: ChainValue, deadline: ChainValue): ChainValue {
  return ctx.call(DEX_ROUTER, 'swapExactTokenForTokenSupportingFeeOnTransferTokens', {
    amountIn, amountOutMin, pair, src: sellToken, to: ctx.caller, deadline,
  });
}

const HELPER_ARGS_COST = 6_000;

export const conDexHelper = defineContract({
  id: 'con_dex_helper',
  source: CON_DEX_HELPER_SOURCE,
  methods: [
    method('buy', [
      arg('buy_token', 'str'), arg('sell_token', 'str'), arg('amount', 'float'),
      optArg('slippage', 'float', 1n), optArg('deadline', 'datetime.datetime', null),
    ], (ctx, a) => {
      commonChecks(ctx, a.amount!, a.slippage!, a.deadline!);
      const sell = String(a.sell_token);
      const pair = findPair(ctx, a.buy_token!, a.sell_token!);
      const fee = ctx.call(DEX_ROUTER, 'getTradeFeeBps', { account: ctx.signer });
      const [reserveSell, reserveBuy] = orientedReserves(ctx, pair, sell);
      const needed = ctx.call(DEX_ROUTER, 'getAmountIn', { amountOut: a.amount!, reserveIn: reserveSell, reserveOut: reserveBuy, feeBps: fee });
      const inputAmount = mul(mul(needed, onePlusPercent(a.slippage as Num, 1)), PAD);
      const userBalance = ctx.call(sell, 'balance_of', { address: ctx.caller });
      if (lt(userBalance, inputAmount)) {
        ctx.assert(false, `Insufficient balance: have ${pythonStr(userBalance)}, need ${pythonStr(inputAmount)}`);
      }
      ctx.call(sell, 'transfer_from', { amount: inputAmount, to: ctx.this, main_account: ctx.caller });
      ctx.call(sell, 'approve', { amount: inputAmount, to: DEX_ROUTER });
      const output = swap(ctx, sell, inputAmount, mul(a.amount!, onePlusPercent(a.slippage as Num, -1)), pair, a.deadline!);
      return tuple(inputAmount, output);
    }, HELPER_ARGS_COST),
    method('sell', [
      arg('sell_token', 'str'), arg('buy_token', 'str'), arg('amount', 'float'),
      optArg('slippage', 'float', 1n), optArg('deadline', 'datetime.datetime', null),
    ], (ctx, a) => {
      commonChecks(ctx, a.amount!, a.slippage!, a.deadline!);
      const sell = String(a.sell_token);
      const pair = findPair(ctx, a.buy_token!, a.sell_token!);
      const fee = ctx.call(DEX_ROUTER, 'getTradeFeeBps', { account: ctx.signer });
      const [reserveSell, reserveBuy] = orientedReserves(ctx, pair, sell);
      const expected = ctx.call(DEX_ROUTER, 'getAmountOut', { amountIn: a.amount!, reserveIn: reserveSell, reserveOut: reserveBuy, feeBps: fee });
      ctx.call(sell, 'transfer_from', { amount: a.amount!, to: ctx.this, main_account: ctx.caller });
      ctx.call(sell, 'approve', { amount: a.amount!, to: DEX_ROUTER });
      const output = swap(ctx, sell, a.amount!, mul(expected, onePlusPercent(a.slippage as Num, -1)), pair, a.deadline!);
      return tuple(a.amount!, output);
    }, HELPER_ARGS_COST),
  ],
});
