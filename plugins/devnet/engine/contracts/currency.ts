import { pythonStr } from 'chainhost/chain';
import { Hash, NUMBER, arg, defineContract, logEvent, method, optArg } from '../contract.js';
import { eq, gt, gte, lt } from '../num.js';
import { adjust } from './storage-ops.js';

/**
 * `currency`, the native token (contracts.md §6, new generation): balances, approvals at
 * `currency.approvals:<owner>:<spender>`, metadata with an operator. Messages end in `.` as in
 * the genesis contract (XSC001 test tokens use `!`). Genesis writes the balances directly.
 */
export const CURRENCY_SOURCE = `balances = Hash(default_value=0)
approvals = Hash(default_value=0)
metadata = Hash()

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
def seed(token_name: str = "Chain", token_symbol: str = "CHAIN", operator_address: str = "sys"):
    metadata["token_name"] = token_name
    metadata["token_symbol"] = token_symbol
    metadata["token_logo_url"] = ""
    metadata["token_website"] = ""
    metadata["operator"] = operator_address


@export
def change_metadata(key: str, value: Any):
    assert ctx.caller == metadata["operator"], "Only operator can set metadata."
    metadata[key] = value


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
def approve_from_authorizer(owner: str, spender: str, amount: float):
    assert ctx.caller == metadata["permit_authorizer"], "Only the permit authorizer can approve."
    assert amount >= 0, "Cannot approve negative balances."
    approvals[owner, spender] = amount
    ApproveEvent({"from": owner, "to": spender, "amount": amount})


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
def balance_of(address: str):
    return balances[address]
`;

const balances = new Hash('balances', 0n);
const approvals = new Hash('approvals', 0n);
const metadata = new Hash('metadata');

const Transfer = logEvent('Transfer', { from: { type: 'str', idx: true }, to: { type: 'str', idx: true }, amount: { type: NUMBER } });
const Approve = logEvent('Approve', { from: { type: 'str', idx: true }, to: { type: 'str', idx: true }, amount: { type: NUMBER } });

export const currencyContract = defineContract({
  id: 'currency',
  source: CURRENCY_SOURCE,
  storage: [balances, approvals, metadata],
  events: [Transfer, Approve],
  constructorMethod: method('seed', [
    optArg('token_name', 'str', 'Chain'), optArg('token_symbol', 'str', 'CHAIN'), optArg('operator_address', 'str', 'sys'),
  ], (ctx, a) => {
    metadata.set(ctx, 'token_name', a.token_name!);
    metadata.set(ctx, 'token_symbol', a.token_symbol!);
    metadata.set(ctx, 'token_logo_url', '');
    metadata.set(ctx, 'token_website', '');
    metadata.set(ctx, 'operator', a.operator_address!);
  }),
  methods: [
    method('change_metadata', [arg('key', 'str'), arg('value', 'Any')], (ctx, a) => {
      ctx.assert(eq(ctx.caller, metadata.get(ctx, 'operator')), 'Only operator can set metadata.');
      metadata.set(ctx, a.key!, a.value!);
    }),
    method('transfer', [arg('amount', 'float'), arg('to', 'str')], (ctx, a) => {
      const amount = a.amount!;
      ctx.assert(gt(amount, 0n), 'Cannot send negative balances.');
      ctx.assert(gte(balances.get(ctx, ctx.caller), amount), 'Not enough coins to send.');
      adjust(ctx, balances, [ctx.caller], amount, true);
      adjust(ctx, balances, [a.to!], amount, false);
      ctx.emit(Transfer, { from: ctx.caller, to: a.to!, amount });
    }),
    method('approve', [arg('amount', 'float'), arg('to', 'str')], (ctx, a) => {
      ctx.assert(gte(a.amount, 0n), 'Cannot approve negative balances.');
      approvals.set(ctx, [ctx.caller, a.to!], a.amount!);
      ctx.emit(Approve, { from: ctx.caller, to: a.to!, amount: a.amount! });
    }),
    method('approve_from_authorizer', [arg('owner', 'str'), arg('spender', 'str'), arg('amount', 'float')], (ctx, a) => {
      ctx.assert(eq(ctx.caller, metadata.get(ctx, 'permit_authorizer')), 'Only the permit authorizer can approve.');
      ctx.assert(gte(a.amount, 0n), 'Cannot approve negative balances.');
      approvals.set(ctx, [a.owner!, a.spender!], a.amount!);
      ctx.emit(Approve, { from: a.owner!, to: a.spender!, amount: a.amount! });
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
      adjust(ctx, balances, [a.to!], amount, false);
      ctx.emit(Transfer, { from: main, to: a.to!, amount });
    }),
    method('balance_of', [arg('address', 'str')], (ctx, a) => balances.get(ctx, a.address!)),
  ],
});
