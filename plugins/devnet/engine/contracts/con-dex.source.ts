/** The canonical source text of `con_dex` (the router) as the devnet stores it (dex.md §4). */
export const CON_DEX_SOURCE = `DEX_PAIRS = "con_pairs"
DEFAULT_TRADE_FEE_BPS = 30
ZERO_TRADE_FEE_BPS = 0

toks_to_pair = ForeignHash(foreign_contract=DEX_PAIRS, foreign_name="toks_to_pair")
pairsmap = ForeignHash(foreign_contract=DEX_PAIRS, foreign_name="pairs")
owner = Variable()
fee_on_transfer_tokens = Hash(default_value=False)
zero_fee_signers = Hash(default_value=False)

ZeroFeeTraderUpdated = LogEvent(event="ZeroFeeTraderUpdated", params={
    "account": {"type": str, "idx": True},
    "enabled": {"type": bool},
})

token_interface = [
    importlib.Func("transfer_from", args=("amount", "to", "main_account")),
    importlib.Func("transfer", args=("amount", "to")),
    importlib.Func("balance_of", args=("address",)),
]


@construct
def constructor():
    owner.set(ctx.caller)


def PAIRS():
    return importlib.import_module(DEX_PAIRS)


def canonicalize_tokens(tokenA: str, tokenB: str):
    if tokenB < tokenA:
        return tokenB, tokenA, True
    return tokenA, tokenB, False


def normalize_token_amount(token: str, amount: float, round_up: bool = False):
    assert amount >= 0, "SNAKX: NEGATIVE_AMOUNT"
    t = importlib.import_module(token)
    if not importlib.enforce_interface(t, [importlib.Func("get_metadata", args=())]):
        return amount
    precision = t.get_metadata().get("precision")
    if not isinstance(precision, int) or precision < 0:
        return amount
    scaled = amount * 10 ** precision
    n = int(scaled)
    if round_up and n < scaled:
        n += 1
    if precision == 0:
        return n
    return n / 10 ** precision


def actual_balance(token: str, address: str):
    t = importlib.import_module(token)
    assert importlib.enforce_interface(t, token_interface), "SNAKX: INVALID_TOKEN"
    balance = t.balance_of(address)
    return 0 if balance is None else balance


def transfer_into_pairs(token: str, src: str, amount: float):
    assert amount > 0, "SNAKX: INSUFFICIENT_INPUT_AMOUNT"
    balance_before = actual_balance(token, DEX_PAIRS)
    importlib.import_module(token).transfer_from(amount, DEX_PAIRS, src)
    return actual_balance(token, DEX_PAIRS) - balance_before


def pair_tokens(pair: int):
    token0 = pairsmap[pair, "token0"]
    token1 = pairsmap[pair, "token1"]
    assert token0 and token1, "SNAKX: INVALID_PAIR"
    return token0, token1


def validate_path(src: str, path: list):
    assert isinstance(path, list) and len(path) >= 1, "SNAKX: INVALID_PATH"
    current = src
    for pair in path:
        token0, token1 = pair_tokens(pair)
        assert current == token0 or current == token1, "SNAKX: INVALID_PATH"
        current = token1 if current == token0 else token0
    return current


def assert_plain_path(src: str, path: list):
    current = src
    assert not fee_on_transfer_tokens[current], "SNAKX: FEE_TOKEN_REQUIRES_SUPPORTING_ROUTE"
    for pair in path:
        token0, token1 = pair_tokens(pair)
        assert current == token0 or current == token1, "SNAKX: INVALID_PATH"
        current = token1 if current == token0 else token0
        assert not fee_on_transfer_tokens[current], "SNAKX: FEE_TOKEN_REQUIRES_SUPPORTING_ROUTE"
    return current


def assert_supported_fee_path(src: str, path: list):
    current = src
    for index in range(0, len(path)):
        token0, token1 = pair_tokens(path[index])
        assert current == token0 or current == token1, "SNAKX: INVALID_PATH"
        current = token1 if current == token0 else token0
        if index < len(path) - 1:
            assert not fee_on_transfer_tokens[current], "SNAKX: UNSUPPORTED_INTERMEDIATE_FEE_TOKEN"
    return current


def fee_factor(feeBps: int):
    assert feeBps in (ZERO_TRADE_FEE_BPS, DEFAULT_TRADE_FEE_BPS), "SNAKX: INVALID_FEE_BPS"
    return (10000 - feeBps) / 10000


@export
def set_fee_on_transfer_token(token: str, enabled: bool):
    assert ctx.caller == owner.get(), "SNAKX: FORBIDDEN"
    fee_on_transfer_tokens[token] = enabled


@export
def set_zero_fee_trader(account: str, enabled: bool):
    assert ctx.caller == owner.get(), "SNAKX: FORBIDDEN"
    zero_fee_signers[account] = enabled
    ZeroFeeTraderUpdated({"account": account, "enabled": enabled})


@export
def getTradeFeeBps(account: str = None):
    if zero_fee_signers[account or ctx.signer]:
        return ZERO_TRADE_FEE_BPS
    return DEFAULT_TRADE_FEE_BPS


@export
def getAmountOut(amountIn: float, reserveIn: float, reserveOut: float, feeBps: int = 30):
    f = fee_factor(feeBps)
    assert amountIn > 0, "SNAKX: INSUFFICIENT_INPUT_AMOUNT"
    assert reserveIn > 0 and reserveOut > 0, "SNAKX: INSUFFICIENT_LIQUIDITY"
    amountInWithFee = amountIn * f
    numerator = amountInWithFee * reserveOut
    denominator = reserveIn + amountInWithFee
    return numerator / denominator


@export
def getAmountIn(amountOut: float, reserveIn: float, reserveOut: float, feeBps: int = 30):
    f = fee_factor(feeBps)
    assert amountOut > 0, "SNAKX: INSUFFICIENT_OUTPUT_AMOUNT"
    assert reserveIn > 0 and reserveOut > 0 and reserveOut > amountOut, "SNAKX: INSUFFICIENT_LIQUIDITY"
    numerator = reserveIn * amountOut
    denominator = (reserveOut - amountOut) * f
    return numerator / denominator


@export
def quote(a: float, rA: float, rB: float):
    assert a > 0, "SNAKX: INSUFFICIENT_AMOUNT"
    assert rA > 0 and rB > 0, "SNAKX: INSUFFICIENT_LIQUIDITY"
    return (a * rB) / rA


@export
def getAmountsOut(amountIn: float, src: str, path: list):
    fee = getTradeFeeBps()
    amountIn = normalize_token_amount(src, amountIn)
    validate_path(src, path)
    amounts = [amountIn]
    for x in range(0, len(path)):
        token0, token1 = pair_tokens(path[x])
        reserve0, reserve1, ignore = PAIRS().getReserves(path[x])
        if src == token0:
            reserveIn, reserveOut, src = reserve0, reserve1, token1
        else:
            reserveIn, reserveOut, src = reserve1, reserve0, token0
        amounts.append(normalize_token_amount(src, getAmountOut(amounts[x], reserveIn, reserveOut, fee)))
    return amounts


@export
def swapExactTokenForToken(amountIn: float, amountOutMin: float, pair: int, src: str, to: str, deadline: datetime.datetime):
    assert now < deadline, "SNAKX: EXPIRED"
    token_out = assert_plain_path(src, [pair])
    amountIn = normalize_token_amount(src, amountIn)
    amountOutMin = normalize_token_amount(token_out, amountOutMin)
    fee = getTradeFeeBps()
    token0, token1 = pair_tokens(pair)
    reserve0, reserve1, ignore = PAIRS().getReserves(pair)
    order = src == token0
    if not order:
        reserve0, reserve1 = reserve1, reserve0
    amount = normalize_token_amount(token_out, getAmountOut(amountIn, reserve0, reserve1, fee))
    assert amount >= amountOutMin, "SNAKX: INSUFFICIENT_OUTPUT_AMOUNT"
    actual_amount_in = transfer_into_pairs(src, ctx.caller, amountIn)
    if order:
        PAIRS().sync2(pair, actual_amount_in, 0)
    else:
        PAIRS().sync2(pair, 0, actual_amount_in)
    PAIRS().routerSwap(pair, 0 if order else amount, amount if order else 0, to, fee)
    return amount


@export
def swapExactTokenForTokenSupportingFeeOnTransferTokens(amountIn: float, amountOutMin: float, pair: int, src: str, to: str, deadline: datetime.datetime):
    assert now < deadline, "SNAKX: EXPIRED"
    token_out = assert_supported_fee_path(src, [pair])
    amountIn = normalize_token_amount(src, amountIn)
    amountOutMin = normalize_token_amount(token_out, amountOutMin)
    fee = getTradeFeeBps()
    token0, token1 = pair_tokens(pair)
    order = src == token0
    balance_before = actual_balance(token_out, to)
    actual_amount_in = transfer_into_pairs(src, ctx.caller, amountIn)
    if order:
        PAIRS().sync2(pair, actual_amount_in, 0)
    else:
        PAIRS().sync2(pair, 0, actual_amount_in)
    reserve0, reserve1, ignore = PAIRS().getReserves(pair)
    sur0, sur1 = PAIRS().getSurplus(pair)
    if not order:
        reserve0, reserve1 = reserve1, reserve0
    amount = normalize_token_amount(token_out, getAmountOut(sur0 if order else sur1, reserve0, reserve1, fee))
    PAIRS().routerSwap(pair, 0 if order else amount, amount if order else 0, to, fee)
    received = actual_balance(token_out, to) - balance_before
    assert received >= amountOutMin, "SNAKX: INSUFFICIENT_OUTPUT_AMOUNT"
    return received


def internal_swap(amounts: list, src: str, path: list, to: str, fee: int):
    assert len(amounts) == len(path) + 1, "SNAKX: INVALID_LENGTHS"
    for x in range(0, len(path) - 1):
        token0, token1 = pair_tokens(path[x])
        order = src == token0
        src = token1 if order else token0
        PAIRS().routerSwapToPair(path[x], 0 if order else amounts[x + 1], amounts[x + 1] if order else 0, path[x + 1], fee)
    token0, token1 = pair_tokens(path[-1])
    order = src == token0
    PAIRS().routerSwap(path[-1], 0 if order else amounts[-1], amounts[-1] if order else 0, to, fee)


@export
def swapExactTokensForTokens(amountIn: float, amountOutMin: float, path: list, src: str, to: str, deadline: datetime.datetime):
    assert now < deadline, "SNAKX: EXPIRED"
    token_out = assert_plain_path(src, path)
    amountIn = normalize_token_amount(src, amountIn)
    amountOutMin = normalize_token_amount(token_out, amountOutMin)
    fee = getTradeFeeBps()
    amounts = getAmountsOut(amountIn, src, path)
    assert amounts[-1] >= amountOutMin, "SNAKX: INSUFFICIENT_OUTPUT_AMOUNT"
    actual_amount_in = transfer_into_pairs(src, ctx.caller, amountIn)
    if pairsmap[path[0], "token0"] == src:
        PAIRS().sync2(path[0], actual_amount_in, 0)
    else:
        PAIRS().sync2(path[0], 0, actual_amount_in)
    internal_swap(amounts, src, path, to, fee)
    return amounts[-1]


@export
def swapExactTokensForTokensSupportingFeeOnTransferTokens(amountIn: float, amountOutMin: float, path: list, src: str, to: str, deadline: datetime.datetime):
    assert isinstance(path, list) and len(path) >= 1, "SNAKX: INVALID_PATH"
    if len(path) == 1:
        return swapExactTokenForTokenSupportingFeeOnTransferTokens(amountIn, amountOutMin, path[0], src, to, deadline)
    assert now < deadline, "SNAKX: EXPIRED"
    token_out = assert_supported_fee_path(src, path)
    amountIn = normalize_token_amount(src, amountIn)
    amountOutMin = normalize_token_amount(token_out, amountOutMin)
    fee = getTradeFeeBps()
    order = pairsmap[path[0], "token0"] == src
    balance_before = actual_balance(token_out, to)
    actual_amount_in = transfer_into_pairs(src, ctx.caller, amountIn)
    if order:
        PAIRS().sync2(path[0], actual_amount_in, 0)
    else:
        PAIRS().sync2(path[0], 0, actual_amount_in)
    sur0, sur1 = PAIRS().getSurplus(path[0])
    amounts = getAmountsOut(sur0 if order else sur1, src, path)
    assert amounts[-1] >= amountOutMin, "SNAKX: INSUFFICIENT_OUTPUT_AMOUNT"
    internal_swap(amounts, src, path, to, fee)
    received = actual_balance(token_out, to) - balance_before
    assert received >= amountOutMin, "SNAKX: INSUFFICIENT_OUTPUT_AMOUNT"
    return received


@export
def addLiquidity(tokenA: str, tokenB: str, amountADesired: float, amountBDesired: float, amountAMin: float, amountBMin: float, to: str, deadline: datetime.datetime, lpToken: str = None):
    assert now < deadline, "SNAKX: EXPIRED"
    pairs = PAIRS()
    tokenA, tokenB, reversed_order = canonicalize_tokens(tokenA, tokenB)
    if reversed_order:
        amountADesired, amountBDesired = amountBDesired, amountADesired
        amountAMin, amountBMin = amountBMin, amountAMin
    amountADesired = normalize_token_amount(tokenA, amountADesired)
    amountBDesired = normalize_token_amount(tokenB, amountBDesired)
    amountAMin = normalize_token_amount(tokenA, amountAMin)
    amountBMin = normalize_token_amount(tokenB, amountBMin)
    assert amountADesired > 0 and amountBDesired > 0, "SNAKX: INSUFFICIENT_AMOUNT"

    pair = toks_to_pair[tokenA, tokenB]
    if pair is None:
        pair = pairs.createPair(tokenA, tokenB, lpToken)
    elif lpToken is not None:
        assert lpToken == pairs.lpTokenFor(pair), "SNAKX: LP_TOKEN_MISMATCH"

    reserveA, reserveB, ignore = pairs.getReserves(pair)
    if reserveA == 0 and reserveB == 0:
        amountA, amountB = amountADesired, amountBDesired
    else:
        amountBOptimal = normalize_token_amount(tokenB, quote(amountADesired, reserveA, reserveB))
        if amountBOptimal <= amountBDesired:
            assert amountBOptimal >= amountBMin, "SNAKX: INSUFFICIENT_B_AMOUNT"
            amountA, amountB = amountADesired, amountBOptimal
        else:
            amountAOptimal = normalize_token_amount(tokenA, quote(amountBDesired, reserveB, reserveA))
            assert amountAOptimal <= amountADesired
            assert amountAOptimal >= amountAMin, "SNAKX: INSUFFICIENT_A_AMOUNT"
            amountA, amountB = amountAOptimal, amountBDesired

    actual_amountA = transfer_into_pairs(tokenA, ctx.caller, amountA)
    actual_amountB = transfer_into_pairs(tokenB, ctx.caller, amountB)
    pairs.sync2(pair, actual_amountA, actual_amountB)
    assert actual_amountA >= amountAMin, "SNAKX: INSUFFICIENT_A_AMOUNT"
    assert actual_amountB >= amountBMin, "SNAKX: INSUFFICIENT_B_AMOUNT"
    liquidity = pairs.mint(pair, to)
    if reversed_order:
        return actual_amountB, actual_amountA, liquidity
    return actual_amountA, actual_amountB, liquidity


@export
def removeLiquidity(tokenA: str, tokenB: str, liquidity: float, amountAMin: float, amountBMin: float, to: str, deadline: datetime.datetime):
    assert now < deadline, "SNAKX: EXPIRED"
    pairs = PAIRS()
    tokenA, tokenB, reversed_order = canonicalize_tokens(tokenA, tokenB)
    if reversed_order:
        amountAMin, amountBMin = amountBMin, amountAMin
    amountAMin = normalize_token_amount(tokenA, amountAMin)
    amountBMin = normalize_token_amount(tokenB, amountBMin)
    pair = toks_to_pair[tokenA, tokenB]
    assert pair is not None, "SNAKX: NO_PAIR"

    balanceA_before = actual_balance(tokenA, to)
    balanceB_before = actual_balance(tokenB, to)
    importlib.import_module(pairs.lpTokenFor(pair)).transfer_from(liquidity, DEX_PAIRS, ctx.caller)
    pairs.burn(pair, to)
    actual_amountA = actual_balance(tokenA, to) - balanceA_before
    actual_amountB = actual_balance(tokenB, to) - balanceB_before
    assert actual_amountA >= amountAMin, "SNAKX: INSUFFICIENT_A_AMOUNT"
    assert actual_amountB >= amountBMin, "SNAKX: INSUFFICIENT_B_AMOUNT"
    if reversed_order:
        return actual_amountB, actual_amountA
    return actual_amountA, actual_amountB
`;
