/** The canonical source text of `con_pairs` as the devnet stores it (dex.md §3). */
export const CON_PAIRS_SOURCE = `MINIMUM_LIQUIDITY = 0.00000001
MAXIMUM_BALANCE = 1e14
DEX_ROUTER = "con_dex"

PairCreated = LogEvent(event="PairCreated", params={
    "token0": {"type": str, "idx": True},
    "token1": {"type": str, "idx": True},
    "pair": {"type": int},
})
LpTokenRegistered = LogEvent(event="LpTokenRegistered", params={
    "token0": {"type": str, "idx": True},
    "token1": {"type": str, "idx": True},
    "lpToken": {"type": str},
})
Mint = LogEvent(event="Mint", params={
    "pair": {"type": int, "idx": True},
    "amount0": {"type": (int, float, decimal)},
    "amount1": {"type": (int, float, decimal)},
    "to": {"type": str, "idx": True},
})
Burn = LogEvent(event="Burn", params={
    "pair": {"type": int, "idx": True},
    "amount0": {"type": (int, float, decimal)},
    "amount1": {"type": (int, float, decimal)},
    "to": {"type": str, "idx": True},
})
Swap = LogEvent(event="Swap", params={
    "pair": {"type": int, "idx": True},
    "amount0In": {"type": (int, float, decimal)},
    "amount1In": {"type": (int, float, decimal)},
    "amount0Out": {"type": (int, float, decimal)},
    "amount1Out": {"type": (int, float, decimal)},
    "to": {"type": (str, int), "idx": True},
})
Sync = LogEvent(event="Sync", params={
    "pair": {"type": int, "idx": True},
    "reserve0": {"type": (int, float, decimal)},
    "reserve1": {"type": (int, float, decimal)},
})

toks_to_pair = Hash(default_value=None)
pairs = Hash(default_value=0)
pairs_num = Variable()
feeTo = Variable()
owner = Variable()
fee_epoch = Variable()
balances = Hash(default_value=0.0)
registered_lp_tokens = Hash(default_value=None)
registered_lp_token_pairs = Hash(default_value=False)
LOCK = Variable()

token_interface = [
    importlib.Func("transfer_from", args=("amount", "to", "main_account")),
    importlib.Func("transfer", args=("amount", "to")),
    importlib.Func("balance_of", args=("address",)),
]
lp_token_interface = [
    importlib.Var("balances", Hash),
    importlib.Var("approvals", Hash),
    importlib.Var("metadata", Hash),
    importlib.Func("change_metadata", args=("key", "value")),
    importlib.Func("transfer", args=("amount", "to")),
    importlib.Func("approve", args=("amount", "to")),
    importlib.Func("transfer_from", args=("amount", "to", "main_account")),
    importlib.Func("balance_of", args=("address",)),
    importlib.Func("mint", args=("amount", "to")),
    importlib.Func("burn", args=("amount",)),
    importlib.Func("get_metadata", args=()),
]


@construct
def constructor():
    pairs_num.set(0)
    owner.set(ctx.caller)
    feeTo.set(False)
    fee_epoch.set(0)
    LOCK.set(False)


def require_owner():
    assert ctx.caller == owner.get(), "SNAKX: FORBIDDEN"


def require_router():
    assert ctx.caller == DEX_ROUTER, "SNAKX: FORBIDDEN"


def lock():
    assert not LOCK.get(), "SNAKX: LOCKED"
    LOCK.set(True)


def unlock():
    LOCK.set(False)


def valid_token(token: str):
    return importlib.enforce_interface(importlib.import_module(token), token_interface)


def sort_tokens(tokenA: str, tokenB: str):
    if tokenB < tokenA:
        return tokenB, tokenA
    return tokenA, tokenB


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


def actual_balance(token: str):
    balance = importlib.import_module(token).balance_of(ctx.this)
    return 0 if balance is None else balance


@export
def enableFee(en: bool):
    require_owner()
    assert isinstance(en, bool), "SNAKX: INVALID_FEE_STATE"
    fee_on = feeTo.get() != False
    if fee_on == en:
        return
    feeTo.set(owner.get() if en else False)
    fee_epoch.set(fee_epoch.get() + 1)


@export
def registerLpToken(tokenA: str, tokenB: str, lpToken: str):
    require_owner()
    assert tokenA != tokenB, "SNAKX: IDENTICAL_ADDRESSES"
    token0, token1 = sort_tokens(tokenA, tokenB)
    assert valid_token(token0) and valid_token(token1), "SNAKX: INVALID_TOKEN"
    assert toks_to_pair[token0, token1] is None, "SNAKX: PAIR_EXISTS"
    assert registered_lp_tokens[token0, token1] is None, "SNAKX: LP_TOKEN_ALREADY_REGISTERED"
    assert not registered_lp_token_pairs[lpToken], "SNAKX: LP_TOKEN_ALREADY_REGISTERED"
    assert lpToken not in (token0, token1), "SNAKX: INVALID_LP_TOKEN"
    lp = importlib.import_module(lpToken)
    assert importlib.enforce_interface(lp, lp_token_interface), "SNAKX: INVALID_LP_TOKEN"
    registered_lp_tokens[token0, token1] = lpToken
    registered_lp_token_pairs[lpToken] = True
    LpTokenRegistered({"token0": token0, "token1": token1, "lpToken": lpToken})
    return lpToken


@export
def registeredLpTokenFor(tokenA: str, tokenB: str):
    token0, token1 = sort_tokens(tokenA, tokenB)
    return registered_lp_tokens[token0, token1]


@export
def createPair(tokenA: str, tokenB: str, lpToken: str = None):
    assert tokenA != tokenB, "SNAKX: IDENTICAL_ADDRESSES"
    assert tokenA < tokenB, "SNAKX: BAD_ORDER"
    assert valid_token(tokenA) and valid_token(tokenB), "SNAKX: INVALID_TOKEN"
    assert toks_to_pair[tokenA, tokenB] is None, "SNAKX: PAIR_EXISTS"
    registered = registered_lp_tokens[tokenA, tokenB]
    assert registered is not None, "SNAKX: LP_TOKEN_NOT_REGISTERED"
    if lpToken is not None:
        assert lpToken == registered, "SNAKX: LP_TOKEN_MISMATCH"

    p_num = pairs_num.get() + 1
    pairs_num.set(p_num)
    pairs[p_num, "token0"] = tokenA
    pairs[p_num, "token1"] = tokenB
    pairs[p_num, "reserve0"] = 0.0
    pairs[p_num, "reserve1"] = 0.0
    pairs[p_num, "balance0"] = 0.0
    pairs[p_num, "balance1"] = 0.0
    pairs[p_num, "blockTimestampLast"] = now
    pairs[p_num, "totalSupply"] = 0.0
    pairs[p_num, "kLast"] = 0.0
    pairs[p_num, "creationTime"] = now
    pairs[p_num, "lpToken"] = registered
    pairs[p_num, "feeEpoch"] = fee_epoch.get()
    toks_to_pair[tokenA, tokenB] = p_num

    PairCreated({"token0": tokenA, "token1": tokenB, "pair": p_num})
    return p_num


@export
def pairFor(tokenA: str, tokenB: str):
    token0, token1 = sort_tokens(tokenA, tokenB)
    return toks_to_pair[token0, token1]


@export
def lpTokenFor(pair: int):
    assert pairs[pair, "token0"], "SNAKX: INVALID_PAIR"
    lp = pairs[pair, "lpToken"]
    assert lp, "SNAKX: NO_LP_TOKEN"
    return lp


@export
def sync2(pair: int, amount0: float = 0.0, amount1: float = 0.0):
    require_router()
    lock()
    token0 = pairs[pair, "token0"]
    token1 = pairs[pair, "token1"]
    bal0 = actual_balance(token0)
    bal1 = actual_balance(token1)
    assert bal0 >= balances[token0] + amount0, "SNAKX: token0_missing"
    assert bal1 >= balances[token1] + amount1, "SNAKX: token1_missing"
    pairs[pair, "balance0"] += amount0
    pairs[pair, "balance1"] += amount1
    assert pairs[pair, "balance0"] <= MAXIMUM_BALANCE, "SNAKX: TokenA OVERFLOW"
    assert pairs[pair, "balance1"] <= MAXIMUM_BALANCE, "SNAKX: TokenB OVERFLOW"
    balances[token0] += amount0
    balances[token1] += amount1
    unlock()


@export
def getReserves(pair: int):
    return pairs[pair, "reserve0"], pairs[pair, "reserve1"], pairs[pair, "blockTimestampLast"]


@export
def getSurplus(pair: int):
    return pairs[pair, "balance0"] - pairs[pair, "reserve0"], pairs[pair, "balance1"] - pairs[pair, "reserve1"]


def safeTransferFromPair(pair: int, token: str, to: str, value: float):
    assert value >= 0 and value <= MAXIMUM_BALANCE, "p2a Invalid value!"
    t = importlib.import_module(token)
    prev_balance = actual_balance(token)
    if token == pairs[pair, "token0"]:
        assert pairs[pair, "balance0"] >= value, "p2a Not enough coins to send!"
        t.transfer(value, to)
        new_balance = actual_balance(token)
        assert new_balance >= 0, "p2a Negative balance!"
        pairs[pair, "balance0"] += new_balance - prev_balance
        assert pairs[pair, "balance0"] >= 0, "p2a Negative pair balance0!"
        return True
    elif token == pairs[pair, "token1"]:
        assert pairs[pair, "balance1"] >= value, "p2a Not enough coins to send!"
        t.transfer(value, to)
        new_balance = actual_balance(token)
        assert new_balance >= 0, "p2a Negative balance!"
        pairs[pair, "balance1"] += new_balance - prev_balance
        assert pairs[pair, "balance1"] >= 0, "p2a Negative pair balance1!"
        return True
    assert False, "p2a Wrong token!"


def safeTransferFromPairToPair(pair: int, token: str, to: int, value: float):
    assert value >= 0 and value <= MAXIMUM_BALANCE, "p2p Invalid value!"
    if token == pairs[pair, "token0"]:
        side = "balance0"
    elif token == pairs[pair, "token1"]:
        side = "balance1"
    else:
        assert False, "p2p Wrong token!"
    assert pairs[pair, side] >= value, "p2p Not enough coins to send!"
    pairs[pair, side] -= value
    if pairs[to, "token0"] == token:
        pairs[to, "balance0"] += value
    elif pairs[to, "token1"] == token:
        pairs[to, "balance1"] += value
    else:
        assert False, "p2p No token in TO"
    assert pairs[pair, side] >= 0, "p2p Negative balance!"
    return True


def record_balances(pair: int):
    token0 = pairs[pair, "token0"]
    token1 = pairs[pair, "token1"]
    balances[token0] = actual_balance(token0)
    balances[token1] = actual_balance(token1)


def internal_update(pair: int, balance0: float, balance1: float):
    assert balance0 <= MAXIMUM_BALANCE and balance1 <= MAXIMUM_BALANCE, "SNAKX: BALANCE OVERFLOW"
    pairs[pair, "reserve0"] = balance0
    pairs[pair, "reserve1"] = balance1
    pairs[pair, "blockTimestampLast"] = now
    Sync({"pair": pair, "reserve0": balance0, "reserve1": balance1})


def internal_mint(pair: int, to: str, value: float):
    pairs[pair, "totalSupply"] += value
    importlib.import_module(pairs[pair, "lpToken"]).mint(value, to)


def internal_mintFee(pair: int, reserve0: float, reserve1: float):
    feeOn = feeTo.get() != False
    if pairs[pair, "feeEpoch"] != fee_epoch.get():
        pairs[pair, "feeEpoch"] = fee_epoch.get()
        pairs[pair, "kLast"] = reserve0 * reserve1 if feeOn else 0.0
        return feeOn
    kLast = pairs[pair, "kLast"]
    if feeOn:
        if kLast != 0:
            rootK = (reserve0 * reserve1) ** 0.5
            rootKLast = kLast ** 0.5
            if rootK > rootKLast:
                numerator = pairs[pair, "totalSupply"] * (rootK - rootKLast)
                denominator = rootK * 5 + rootKLast
                liquidity = numerator / denominator
                if liquidity > 0:
                    internal_mint(pair, feeTo.get(), liquidity)
    elif kLast != 0:
        pairs[pair, "kLast"] = 0.0
    return feeOn


@export
def mint(pair: int, to: str):
    lock()
    reserve0, reserve1, ignore = getReserves(pair)
    balance0 = pairs[pair, "balance0"]
    balance1 = pairs[pair, "balance1"]
    amount0 = balance0 - reserve0
    amount1 = balance1 - reserve1

    feeOn = internal_mintFee(pair, reserve0, reserve1)
    totalSupply = pairs[pair, "totalSupply"]
    if totalSupply == 0:
        liquidity = ((amount0 * amount1) ** 0.5) - MINIMUM_LIQUIDITY
        internal_mint(pair, "DEAD", MINIMUM_LIQUIDITY)
    else:
        liquidity = min((amount0 * totalSupply) / reserve0, (amount1 * totalSupply) / reserve1)
    assert liquidity > 0, "SNAKX: INSUFFICIENT_LIQUIDITY_MINTED"
    internal_mint(pair, to, liquidity)

    internal_update(pair, balance0, balance1)
    record_balances(pair)
    if feeOn:
        pairs[pair, "kLast"] = balance0 * balance1
    Mint({"pair": pair, "amount0": amount0, "amount1": amount1, "to": to})
    unlock()
    return liquidity


@export
def burn(pair: int, to: str):
    lock()
    reserve0, reserve1, ignore = getReserves(pair)
    token0 = pairs[pair, "token0"]
    token1 = pairs[pair, "token1"]
    balance0 = pairs[pair, "balance0"]
    balance1 = pairs[pair, "balance1"]
    lp = importlib.import_module(pairs[pair, "lpToken"])
    liquidity = actual_balance(pairs[pair, "lpToken"])

    feeOn = internal_mintFee(pair, reserve0, reserve1)
    totalSupply = pairs[pair, "totalSupply"]
    amount0 = normalize_token_amount(token0, (liquidity * balance0) / totalSupply)
    amount1 = normalize_token_amount(token1, (liquidity * balance1) / totalSupply)
    assert amount0 > 0 and amount1 > 0, "SNAKX: INSUFFICIENT_LIQUIDITY_BURNED"
    pairs[pair, "totalSupply"] -= liquidity
    assert pairs[pair, "totalSupply"] >= 0, "Negative supply!"
    lp.burn(liquidity)
    safeTransferFromPair(pair, token0, to, amount0)
    safeTransferFromPair(pair, token1, to, amount1)

    balance0 = pairs[pair, "balance0"]
    balance1 = pairs[pair, "balance1"]
    internal_update(pair, balance0, balance1)
    record_balances(pair)
    if feeOn:
        pairs[pair, "kLast"] = balance0 * balance1
    Burn({"pair": pair, "amount0": amount0, "amount1": amount1, "to": to})
    unlock()
    return amount0, amount1


def swap_core(pair: int, amount0Out: float, amount1Out: float, to, fee_bps: int, to_pair: bool):
    assert fee_bps in (0, 30), "SNAKX: INVALID_FEE_BPS"
    lock()
    assert amount0Out > 0 or amount1Out > 0, "SNAKX: INSUFFICIENT_OUTPUT_AMOUNT"
    reserve0, reserve1, ignore = getReserves(pair)
    assert amount0Out < reserve0 and amount1Out < reserve1, "SNAKX: INSUFFICIENT_LIQUIDITY"
    token0 = pairs[pair, "token0"]
    token1 = pairs[pair, "token1"]
    if not to_pair:
        assert to != token0 and to != token1, "SNAKX: INVALID_TO"

    amount0Out = normalize_token_amount(token0, amount0Out)
    amount1Out = normalize_token_amount(token1, amount1Out)
    assert amount0Out > 0 or amount1Out > 0, "SNAKX: INSUFFICIENT_OUTPUT_AMOUNT"
    assert amount0Out < reserve0 and amount1Out < reserve1, "SNAKX: INSUFFICIENT_LIQUIDITY"

    if amount0Out > 0:
        if to_pair:
            safeTransferFromPairToPair(pair, token0, to, amount0Out)
        else:
            safeTransferFromPair(pair, token0, to, amount0Out)
    if amount1Out > 0:
        if to_pair:
            safeTransferFromPairToPair(pair, token1, to, amount1Out)
        else:
            safeTransferFromPair(pair, token1, to, amount1Out)

    balance0 = pairs[pair, "balance0"]
    balance1 = pairs[pair, "balance1"]
    amount0In = balance0 - (reserve0 - amount0Out) if balance0 > reserve0 - amount0Out else 0
    amount1In = balance1 - (reserve1 - amount1Out) if balance1 > reserve1 - amount1Out else 0
    assert amount0In > 0 or amount1In > 0, "SNAKX: INSUFFICIENT_INPUT_AMOUNT"
    fee_rate = fee_bps / 10000
    balance0Adjusted = balance0 - (amount0In * fee_rate)
    balance1Adjusted = balance1 - (amount1In * fee_rate)
    assert (balance0Adjusted * balance1Adjusted) >= (reserve0 * reserve1), "SNAKX: K"

    internal_update(pair, balance0, balance1)
    if not to_pair:
        record_balances(pair)
    Swap({
        "pair": pair,
        "amount0In": amount0In,
        "amount1In": amount1In,
        "amount0Out": amount0Out,
        "amount1Out": amount1Out,
        "to": to,
    })
    unlock()


@export
def swap(pair: int, amount0Out: float, amount1Out: float, to: str):
    swap_core(pair, amount0Out, amount1Out, to, 30, False)


@export
def swapToPair(pair: int, amount0Out: float, amount1Out: float, to: int):
    swap_core(pair, amount0Out, amount1Out, to, 30, True)


@export
def routerSwap(pair: int, amount0Out: float, amount1Out: float, to: str, fee_bps: int):
    require_router()
    swap_core(pair, amount0Out, amount1Out, to, fee_bps, False)


@export
def routerSwapToPair(pair: int, amount0Out: float, amount1Out: float, to: int, fee_bps: int):
    require_router()
    swap_core(pair, amount0Out, amount1Out, to, fee_bps, True)
`;
