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
