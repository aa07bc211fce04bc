/** An XSC001 token source (contracts.md §7.1) for the BDS token-detection tests. */
export const XSC001_SAMPLE_SOURCE = `balances = Hash(default_value=0)
approvals = Hash(default_value=0)
metadata = Hash()
permits = Hash()

operator = Variable()

TransferEvent = LogEvent(
    event="Transfer",
    params={
        "from": {"type": str, "idx": True},
        "to": {"type": str, "idx": True},
        "amount": {"type": (int, float, decimal)},
    },
)
ApproveEvent = LogEvent(
    event="Approve",
    params={
        "from": {"type": str, "idx": True},
        "to": {"type": str, "idx": True},
        "amount": {"type": (int, float, decimal)},
    },
)


@construct
def seed(
    token_name: str = "Test Token",
    token_symbol: str = "TST",
    total_supply: float = 1000000,
    operator_address: str = None,
    token_logo_url: str = "",
    token_website: str = "",
):
    if operator_address is None or operator_address == "":
        operator_address = ctx.caller

    balances[operator_address] = total_supply

    metadata["token_name"] = token_name
    metadata["token_symbol"] = token_symbol
    metadata["token_logo_url"] = token_logo_url
    metadata["token_logo_svg"] = ""
    metadata["token_website"] = token_website
    metadata["total_supply"] = total_supply
    metadata["operator"] = operator_address

    operator.set(operator_address)


@export
def change_metadata(key: str, value: Any):
    assert ctx.caller == operator.get(), "Only operator can set metadata!"
    metadata[key] = value


@export
def balance_of(address: str):
    return balances[address]


@export
def transfer(amount: float, to: str):
    assert amount > 0, "Cannot send negative balances!"
    assert balances[ctx.caller] >= amount, "Not enough coins to send!"

    balances[ctx.caller] -= amount
    balances[to] += amount

    TransferEvent({"from": ctx.caller, "to": to, "amount": amount})


@export
def approve(amount: float, to: str):
    assert amount >= 0, "Cannot approve negative balances!"

    approvals[ctx.caller, to] = amount
    ApproveEvent({"from": ctx.caller, "to": to, "amount": amount})


@export
def transfer_from(amount: float, to: str, main_account: str):
    assert amount > 0, "Cannot send negative balances!"
    assert (
        approvals[main_account, ctx.caller] >= amount
    ), f"Not enough coins approved to send! You have {approvals[main_account, ctx.caller]} and are trying to spend {amount}"
    assert balances[main_account] >= amount, "Not enough coins to send!"

    approvals[main_account, ctx.caller] -= amount
    balances[main_account] -= amount
    balances[to] += amount

    TransferEvent({"from": main_account, "to": to, "amount": amount})


# XSC002 / Permit

@export
def permit(owner: str, spender: str, value: float, deadline: str, signature: str):
    deadline = strptime_ymdhms(deadline)
    permit_msg = construct_permit_msg(owner, spender, value, str(deadline))
    permit_hash = hashlib.sha3(permit_msg)

    assert permits[permit_hash] is None, "Permit can only be used once."
    assert value >= 0, "Cannot approve negative balances!"
    assert now < deadline, "Permit has expired."
    assert crypto.verify(owner, permit_msg, signature), "Invalid signature."

    approvals[owner, spender] = value
    permits[permit_hash] = True

    ApproveEvent({"from": owner, "to": spender, "amount": value})

    return permit_hash


def construct_permit_msg(owner: str, spender: str, value: float, deadline: str):
    return f"{owner}:{spender}:{value}:{deadline}:{ctx.this}:{chain_id}"


def strptime_ymdhms(date_string: str) -> datetime.datetime:
    return datetime.datetime.strptime(date_string, "%Y-%m-%d %H:%M:%S")
`;
