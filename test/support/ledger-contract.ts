/**
 * A contract of our own: a Variable, a multi-key
 * Hash, typed @export arguments, a LogEvent with indexed fields, a cross-contract call into
 * currency and a @construct with arguments. Used by the contract-tools and explorer tests.
 */
export const LEDGER_SOURCE = `import currency

ledger_name = Variable()
fee_bps = Variable()
entries = Hash(default_value=0)

Deposited = LogEvent(event="Deposited", params={"account": {"type": str, "idx": True}, "tag": {"type": str, "idx": True}, "amount": {"type": (int, float)}})


@construct
def seed(name: str, bps: int = 0):
    ledger_name.set(name)
    fee_bps.set(bps)


@export
def deposit(tag: str, amount: float):
    assert amount > 0, "Amount must be positive!"
    currency.transfer_from(amount=amount, to=ctx.this, main_account=ctx.caller)
    entries[ctx.caller, tag] += amount
    Deposited({"account": ctx.caller, "tag": tag, "amount": amount})
    return entries[ctx.caller, tag]


@export
def balance(account: str, tag: str):
    return entries[account, tag]


@export
def name():
    return ledger_name.get()
`;
