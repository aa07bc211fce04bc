import { chainRecord, pythonStr } from 'chainhost/chain';
import {
  Hash, NUMBER, Variable, arg, defineContract, logEvent, method, optArg, type DeployRequest,
} from '../contract.js';
import { eq, gt, gte, lt } from '../num.js';
import { adjust } from './storage-ops.js';

/**
 * `con_lp_token`, the XSC001 LP-token template (dex.md §6): one instance per pair, minted and
 * burned only by its minter (`con_pairs`), precision 8 and total supply managed in metadata.
 */
export const LP_TOKEN_SOURCE = `balances = Hash(default_value=0)
approvals = Hash(default_value=0)
metadata = Hash()

operator = Variable()
minter = Variable()

TransferEvent = LogEvent(
    "Transfer",
    {
        "from": {"type": str, "idx": True},
        "to": {"type": str, "idx": True},
        "amount": (int, float, decimal),
    },
)
ApproveEvent = LogEvent(
    "Approve",
    {
        "from": {"type": str, "idx": True},
        "to": {"type": str, "idx": True},
        "amount": (int, float, decimal),
    },
)
MintEvent = LogEvent(
    "Mint",
    {
        "to": {"type": str, "idx": True},
        "amount": (int, float, decimal),
    },
)
BurnEvent = LogEvent(
    "Burn",
    {
        "from": {"type": str, "idx": True},
        "amount": (int, float, decimal),
    },
)


@construct
def seed(
    token_name: str = "SnakX LP Token",
    token_symbol: str = "SNAKX-LP",
    operator_address: str = None,
    minter_address: str = "con_pairs",
    token_logo_url: str = "",
    token_logo_svg: str = "",
    token_website: str = "",
):
    if operator_address is None or operator_address == "":
        operator_address = ctx.caller
    assert isinstance(operator_address, str) and operator_address != "", (
        "operator_address must be a non-empty string."
    )
    assert isinstance(minter_address, str) and minter_address != "", (
        "minter_address must be a non-empty string."
    )

    operator.set(operator_address)
    minter.set(minter_address)

    metadata["token_name"] = token_name
    metadata["token_symbol"] = token_symbol
    metadata["token_logo_url"] = token_logo_url
    metadata["token_logo_svg"] = token_logo_svg
    metadata["token_website"] = token_website
    metadata["precision"] = 8
    metadata["total_supply"] = 0


@export
def change_metadata(key: str, value: Any):
    assert ctx.caller == operator.get(), "Only operator can set metadata."
    assert key not in ("precision", "total_supply"), (
        "Managed metadata cannot be changed."
    )
    metadata[key] = value


@export
def get_metadata():
    return {
        "token_name": metadata["token_name"],
        "token_symbol": metadata["token_symbol"],
        "token_logo_url": metadata["token_logo_url"],
        "token_logo_svg": metadata["token_logo_svg"],
        "token_website": metadata["token_website"],
        "precision": metadata["precision"],
        "total_supply": metadata["total_supply"],
    }


@export
def balance_of(address: str):
    return balances[address]


@export
def allowance(owner: str, spender: str):
    return approvals[owner, spender]


@export
def transfer(amount: float, to: str):
    assert amount > 0, "Cannot send negative balances."
    assert balances[ctx.caller] >= amount, "Not enough coins to send."

    balances[ctx.caller] -= amount
    balances[to] += amount

    TransferEvent({"from": ctx.caller, "to": to, "amount": amount})


@export
def approve(amount: float, to: str):
    assert amount >= 0, "Cannot approve negative balances."

    approvals[ctx.caller, to] = amount
    ApproveEvent({"from": ctx.caller, "to": to, "amount": amount})


@export
def transfer_from(amount: float, to: str, main_account: str):
    assert amount > 0, "Cannot send negative balances."
    assert (
        approvals[main_account, ctx.caller] >= amount
    ), f"Not enough coins approved to send. You have {approvals[main_account, ctx.caller]} and are trying to spend {amount}"
    assert balances[main_account] >= amount, "Not enough coins to send."

    approvals[main_account, ctx.caller] -= amount
    balances[main_account] -= amount
    balances[to] += amount

    TransferEvent({"from": main_account, "to": to, "amount": amount})


@export
def change_minter(new_minter: str):
    assert ctx.caller == minter.get(), "Only minter can change minter."
    assert isinstance(new_minter, str) and new_minter != "", (
        "new_minter must be a non-empty string."
    )
    minter.set(new_minter)


@export
def mint(amount: float, to: str):
    assert ctx.caller == minter.get(), "Only minter can mint tokens."
    assert amount > 0, "Cannot mint negative balances."

    balances[to] += amount
    metadata["total_supply"] += amount

    MintEvent({"to": to, "amount": amount})
    TransferEvent({"from": "", "to": to, "amount": amount})


@export
def burn(amount: float):
    assert ctx.caller == minter.get(), "Only minter can burn tokens."
    assert amount > 0, "Cannot burn negative balances."
    assert balances[ctx.caller] >= amount, "Not enough coins to burn."

    balances[ctx.caller] -= amount
    metadata["total_supply"] -= amount
    assert metadata["total_supply"] >= 0, "Negative supply."

    BurnEvent({"from": ctx.caller, "amount": amount})
    TransferEvent({"from": ctx.caller, "to": "", "amount": amount})
`;

const balances = new Hash('balances', 0n);
const approvals = new Hash('approvals', 0n);
const metadata = new Hash('metadata');
const operator = new Variable('operator');
const minter = new Variable('minter');

const Transfer = logEvent('Transfer', { from: { type: 'str', idx: true }, to: { type: 'str', idx: true }, amount: { type: NUMBER } });
const Approve = logEvent('Approve', { from: { type: 'str', idx: true }, to: { type: 'str', idx: true }, amount: { type: NUMBER } });
const Mint = logEvent('Mint', { to: { type: 'str', idx: true }, amount: { type: NUMBER } });
const Burn = logEvent('Burn', { from: { type: 'str', idx: true }, amount: { type: NUMBER } });

const nonEmpty = (v: unknown): boolean => typeof v === 'string' && v !== '';

export const lpToken = defineContract({
  id: 'con_lp_token',
  source: LP_TOKEN_SOURCE,
  storage: [balances, approvals, metadata, operator, minter],
  events: [Transfer, Approve, Mint, Burn],
  constructorMethod: method('seed', [
    optArg('token_name', 'str', 'SnakX LP Token'),
    optArg('token_symbol', 'str', 'SNAKX-LP'),
    optArg('operator_address', 'str', null),
    optArg('minter_address', 'str', 'con_pairs'),
    optArg('token_logo_url', 'str', ''),
    optArg('token_logo_svg', 'str', ''),
    optArg('token_website', 'str', ''),
  ], (ctx, a) => {
    let op = a.operator_address;
    if (op === null || op === '') op = ctx.caller;
    ctx.assert(nonEmpty(op), 'operator_address must be a non-empty string.');
    ctx.assert(nonEmpty(a.minter_address), 'minter_address must be a non-empty string.');
    operator.set(ctx, op!);
    minter.set(ctx, a.minter_address!);
    metadata.set(ctx, 'token_name', a.token_name!);
    metadata.set(ctx, 'token_symbol', a.token_symbol!);
    metadata.set(ctx, 'token_logo_url', a.token_logo_url!);
    metadata.set(ctx, 'token_logo_svg', a.token_logo_svg!);
    metadata.set(ctx, 'token_website', a.token_website!);
    metadata.set(ctx, 'precision', 8n);
    metadata.set(ctx, 'total_supply', 0n);
  }, 3_000),
  methods: [
    method('change_metadata', [arg('key', 'str'), arg('value', 'Any')], (ctx, a) => {
      ctx.assert(eq(ctx.caller, operator.get(ctx)), 'Only operator can set metadata.');
      ctx.assert(a.key !== 'precision' && a.key !== 'total_supply', 'Managed metadata cannot be changed.');
      metadata.set(ctx, a.key!, a.value!);
    }),
    method('get_metadata', [], (ctx) => chainRecord([
      ['token_name', metadata.get(ctx, 'token_name')],
      ['token_symbol', metadata.get(ctx, 'token_symbol')],
      ['token_logo_url', metadata.get(ctx, 'token_logo_url')],
      ['token_logo_svg', metadata.get(ctx, 'token_logo_svg')],
      ['token_website', metadata.get(ctx, 'token_website')],
      ['precision', metadata.get(ctx, 'precision')],
      ['total_supply', metadata.get(ctx, 'total_supply')],
    ]), 2_500),
    method('balance_of', [arg('address', 'str')], (ctx, a) => balances.get(ctx, a.address!)),
    method('allowance', [arg('owner', 'str'), arg('spender', 'str')], (ctx, a) => approvals.get(ctx, a.owner!, a.spender!)),
    method('transfer', [arg('amount', 'float'), arg('to', 'str')], (ctx, a) => {
      const amount = a.amount!;
      ctx.assert(gt(amount, 0n), 'Cannot send negative balances.');
      ctx.assert(gte(balances.get(ctx, ctx.caller), amount), 'Not enough coins to send.');
      adjust(ctx, balances, [ctx.caller], amount, true);
      adjust(ctx, balances, [a.to!], amount);
      ctx.emit(Transfer, { from: ctx.caller, to: a.to!, amount });
    }),
    method('approve', [arg('amount', 'float'), arg('to', 'str')], (ctx, a) => {
      ctx.assert(gte(a.amount, 0n), 'Cannot approve negative balances.');
      approvals.set(ctx, [ctx.caller, a.to!], a.amount!);
      ctx.emit(Approve, { from: ctx.caller, to: a.to!, amount: a.amount! });
    }),
    method('transfer_from', [arg('amount', 'float'), arg('to', 'str'), arg('main_account', 'str')], (ctx, a) => {
      const amount = a.amount!;
      const main = a.main_account!;
      ctx.assert(gt(amount, 0n), 'Cannot send negative balances.');
      if (lt(approvals.get(ctx, main, ctx.caller), amount)) {
        ctx.assert(false, `Not enough coins approved to send. You have ${pythonStr(approvals.get(ctx, main, ctx.caller))} and are trying to spend ${pythonStr(amount)}`);
      }
      ctx.assert(gte(balances.get(ctx, main), amount), 'Not enough coins to send.');
      adjust(ctx, approvals, [main, ctx.caller], amount, true);
      adjust(ctx, balances, [main], amount, true);
      adjust(ctx, balances, [a.to!], amount);
      ctx.emit(Transfer, { from: main, to: a.to!, amount });
    }),
    method('change_minter', [arg('new_minter', 'str')], (ctx, a) => {
      ctx.assert(eq(ctx.caller, minter.get(ctx)), 'Only minter can change minter.');
      ctx.assert(nonEmpty(a.new_minter), 'new_minter must be a non-empty string.');
      minter.set(ctx, a.new_minter!);
    }),
    method('mint', [arg('amount', 'float'), arg('to', 'str')], (ctx, a) => {
      const amount = a.amount!;
      ctx.assert(eq(ctx.caller, minter.get(ctx)), 'Only minter can mint tokens.');
      ctx.assert(gt(amount, 0n), 'Cannot mint negative balances.');
      adjust(ctx, balances, [a.to!], amount);
      adjust(ctx, metadata, ['total_supply'], amount);
      ctx.emit(Mint, { to: a.to!, amount });
      ctx.emit(Transfer, { from: '', to: a.to!, amount });
    }),
    method('burn', [arg('amount', 'float')], (ctx, a) => {
      const amount = a.amount!;
      ctx.assert(eq(ctx.caller, minter.get(ctx)), 'Only minter can burn tokens.');
      ctx.assert(gt(amount, 0n), 'Cannot burn negative balances.');
      ctx.assert(gte(balances.get(ctx, ctx.caller), amount), 'Not enough coins to burn.');
      adjust(ctx, balances, [ctx.caller], amount, true);
      adjust(ctx, metadata, ['total_supply'], amount, true);
      ctx.assert(gte(metadata.get(ctx, 'total_supply'), 0n), 'Negative supply.');
      ctx.emit(Burn, { from: ctx.caller, amount });
      ctx.emit(Transfer, { from: ctx.caller, to: '', amount });
    }),
  ],
});

/** The deploy request for a pair's LP token (minter `con_pairs`). */
export function lpTokenDeployment(o: { name: string; tokenName?: string; tokenSymbol?: string; operator?: string }): DeployRequest {
  const args = chainRecord([
    ['token_name', o.tokenName ?? 'SnakX LP Token'],
    ['token_symbol', o.tokenSymbol ?? 'SNAKX-LP'],
    ['minter_address', 'con_pairs'],
  ]);
  if (o.operator !== undefined) args['operator_address'] = o.operator;
  return { name: o.name, code: LP_TOKEN_SOURCE, owner: null, constructorArgs: args };
}
