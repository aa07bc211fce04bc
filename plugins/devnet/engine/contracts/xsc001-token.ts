import { ChainDatetime, ChainDecimal, chainRecord, type ChainValue, contractSha3, pythonStr, verify } from 'chainhost/chain';
import {
  Hash, NUMBER, Variable, arg, defineContract, logEvent, method, optArg, type ContractContext, type DeployRequest,
} from '../contract.js';
import { ContractError } from '../errors.js';
import { eq, gt, gte, lt } from '../num.js';
import { adjust } from './storage-ops.js';

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

const balances = new Hash('balances', 0n);
const approvals = new Hash('approvals', 0n);
const metadata = new Hash('metadata');
const permits = new Hash('permits');
const operator = new Variable('operator');

const Transfer = logEvent('Transfer', { from: { type: 'str', idx: true }, to: { type: 'str', idx: true }, amount: { type: NUMBER } });
const Approve = logEvent('Approve', { from: { type: 'str', idx: true }, to: { type: 'str', idx: true }, amount: { type: NUMBER } });

/** `datetime.datetime.strptime(s, '%Y-%m-%d %H:%M:%S')`. */
export function strptimeYmdHms(text: ChainValue): ChainDatetime {
  const m = typeof text === 'string' ? /^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})$/.exec(text) : null;
  if (!m) throw new ContractError('ValueError', `time data ${pythonStr(text)} does not match format '%Y-%m-%d %H:%M:%S'`);
  try {
    return ChainDatetime.fromParts(...(m.slice(1).map(Number) as [number, number, number, number, number, number]));
  } catch {
    throw new ContractError('ValueError', `time data ${pythonStr(text)} does not match format '%Y-%m-%d %H:%M:%S'`);
  }
}

/** The XSC002 permit message the token rebuilds and verifies. */
export function permitMessage(ctx: Pick<ContractContext, 'this' | 'chainId'>, owner: string, spender: string, value: ChainValue, deadline: ChainDatetime): string {
  return `${owner}:${spender}:${pythonStr(value)}:${deadline.toString()}:${ctx.this}:${ctx.chainId}`;
}

export const xsc001Token = defineContract({
  id: 'xsc001',
  source: XSC001_SOURCE,
  storage: [balances, approvals, metadata, permits, operator],
  events: [Transfer, Approve],
  constructorMethod: method('seed', [
    optArg('token_name', 'str', 'Test Token'),
    optArg('token_symbol', 'str', 'TST'),
    optArg('total_supply', 'float', 1_000_000n),
    optArg('operator_address', 'str', null),
    optArg('token_logo_url', 'str', ''),
    optArg('token_website', 'str', ''),
  ], (ctx, a) => {
    let op = a.operator_address;
    if (op === null || op === '') op = ctx.caller;
    balances.set(ctx, op!, a.total_supply!);
    metadata.set(ctx, 'token_name', a.token_name!);
    metadata.set(ctx, 'token_symbol', a.token_symbol!);
    metadata.set(ctx, 'token_logo_url', a.token_logo_url!);
    metadata.set(ctx, 'token_logo_svg', '');
    metadata.set(ctx, 'token_website', a.token_website!);
    metadata.set(ctx, 'total_supply', a.total_supply!);
    metadata.set(ctx, 'operator', op!);
    operator.set(ctx, op!);
  }, 3_000),
  methods: [
    method('change_metadata', [arg('key', 'str'), arg('value', 'Any')], (ctx, a) => {
      ctx.assert(eq(ctx.caller, operator.get(ctx)), 'Only operator can set metadata!');
      metadata.set(ctx, a.key!, a.value!);
    }),
    method('balance_of', [arg('address', 'str')], (ctx, a) => balances.get(ctx, a.address!)),
    method('transfer', [arg('amount', 'float'), arg('to', 'str')], (ctx, a) => {
      const amount = a.amount!;
      ctx.assert(gt(amount, 0n), 'Cannot send negative balances!');
      ctx.assert(gte(balances.get(ctx, ctx.caller), amount), 'Not enough coins to send!');
      adjust(ctx, balances, [ctx.caller], amount, true);
      adjust(ctx, balances, [a.to!], amount);
      ctx.emit(Transfer, { from: ctx.caller, to: a.to!, amount });
    }),
    method('approve', [arg('amount', 'float'), arg('to', 'str')], (ctx, a) => {
      ctx.assert(gte(a.amount, 0n), 'Cannot approve negative balances!');
      approvals.set(ctx, [ctx.caller, a.to!], a.amount!);
      ctx.emit(Approve, { from: ctx.caller, to: a.to!, amount: a.amount! });
    }),
    method('transfer_from', [arg('amount', 'float'), arg('to', 'str'), arg('main_account', 'str')], (ctx, a) => {
      const amount = a.amount!;
      const main = a.main_account!;
      ctx.assert(gt(amount, 0n), 'Cannot send negative balances!');
      if (lt(approvals.get(ctx, main, ctx.caller), amount)) {
        ctx.assert(false, `Not enough coins approved to send! You have ${pythonStr(approvals.get(ctx, main, ctx.caller))} and are trying to spend ${pythonStr(amount)}`);
      }
      ctx.assert(gte(balances.get(ctx, main), amount), 'Not enough coins to send!');
      adjust(ctx, approvals, [main, ctx.caller], amount, true);
      adjust(ctx, balances, [main], amount, true);
      adjust(ctx, balances, [a.to!], amount);
      ctx.emit(Transfer, { from: main, to: a.to!, amount });
    }),
    method('permit', [arg('owner', 'str'), arg('spender', 'str'), arg('value', 'float'), arg('deadline', 'str'), arg('signature', 'str')], (ctx, a) => {
      const deadline = strptimeYmdHms(a.deadline!);
      const message = permitMessage(ctx, String(a.owner), String(a.spender), a.value!, deadline);
      const hash = contractSha3(message);
      ctx.assert(permits.get(ctx, hash) === null, 'Permit can only be used once.');
      ctx.assert(gte(a.value, 0n), 'Cannot approve negative balances!');
      ctx.assert(ctx.now.cmp(deadline) < 0, 'Permit has expired.');
      let valid = false;
      try {
        valid = typeof a.owner === 'string' && typeof a.signature === 'string' && verify(a.owner, message, a.signature);
      } catch {
        valid = false;
      }
      ctx.assert(valid, 'Invalid signature.');
      approvals.set(ctx, [a.owner!, a.spender!], a.value!);
      permits.set(ctx, hash, true);
      ctx.emit(Approve, { from: a.owner!, to: a.spender!, amount: a.value! });
      return hash;
    }, 4_000),
  ],
});

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
