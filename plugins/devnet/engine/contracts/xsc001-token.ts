import { type ChainDatetime, type ChainDecimal, chainRecord, type ChainValue, pythonStr } from 'chainhost/chain';
import type { DeployRequest } from '../genesis.js';

/**
 * The XSC001 fungible-token template (contracts.md §7.1) with XSC002 `permit` (§7.2). One source,
 * many instances: `xsc001Deployment()` builds the deploy request for a named test token
 * (`con_test_token`, `con_test_usd`, …); the constructor mints `total_supply` to the operator.
 * Messages end in `!` as the standard's do. It exports no `get_metadata`, so the DEX does not
 * normalise its amounts (dex.md §4.3) and the §8 vectors hold for it.
 */
export const XSC001_SOURCE = `balances = Hash(default_value=0)
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
    permit_hash = hashlib.sha3_text(permit_msg)

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

/** The XSC002 permit message the token rebuilds and verifies. */
export function permitMessage(ctx: { this: string; chainId: string }, owner: string, spender: string, value: ChainValue, deadline: ChainDatetime): string {
  return `${owner}:${spender}:${pythonStr(value)}:${deadline.toString()}:${ctx.this}:${ctx.chainId}`;
}

export interface Xsc001Options {
  /** Contract name, `con_` + identifier (e.g. `con_test_usd`). */
  name: string;
  tokenName: string;
  tokenSymbol: string;
  totalSupply: ChainDecimal | bigint;
  /** Receives the supply and may change metadata; default: the deployer. */
  operator?: string;
  logoUrl?: string;
  website?: string;
}

/** The deploy request for one XSC001 test token (use with `submission.submit_contract` or genesis). */
export function xsc001Deployment(o: Xsc001Options): DeployRequest {
  const args = chainRecord([
    ['token_name', o.tokenName],
    ['token_symbol', o.tokenSymbol],
    ['total_supply', o.totalSupply],
    ['token_logo_url', o.logoUrl ?? ''],
    ['token_website', o.website ?? ''],
  ]);
  if (o.operator !== undefined) args['operator_address'] = o.operator;
  return { name: o.name, code: XSC001_SOURCE, owner: null, constructorArgs: args };
}
