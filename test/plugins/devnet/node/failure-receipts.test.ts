import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { DevAccount } from '../../../../plugins/devnet/node/devnet.js';
import { abciQuery, decodeData, openDevnet, signedTx, txParam, valueText } from './devnet-fixture.js';

/**
 * (Growth that V8 cannot survive — `replace`/`extend` doubling past the VM's caps — is the VM's
 * allocation caps' to stop, tested in core/contracting; the grammar keeps those builders small.)
 *
 * Every transaction that executes ends as a receipt (issue #35 "every failure is a receipt"):
 * status 0 or 1, the chain's error text (never a JavaScript one), chi_used within what was
 * supplied, the fee charged for what ran, the nonce consumed — and the node keeps producing
 * blocks. Contracts come from a small grammar that mixes ordinary statements with hostile ones.
 */

/** Texts that only a JavaScript engine writes: none may reach a receipt or an answer. */
const JS_TEXT = /RangeError|ReferenceError|TypeError: Cannot|is not a function|undefined|Maximum call stack|Invalid string length|invalid datetime parts|Invalid array length|BigInt|Error processing tx/;

type Opened = Awaited<ReturnType<typeof openDevnet>>;

interface Receipt {
  status: number;
  chi_used: number;
  result: string;
  state: Array<{ key: string; value: unknown }>;
}

class Sender {
  nonce = 0;
  constructor(private readonly net: Opened, readonly account: DevAccount) {}

  async send(contract: string, fn: string, kwargs: Record<string, unknown>, chi: number): Promise<{ code: number; receipt: Receipt; raw: unknown }> {
    const tx = signedTx({ privateKey: this.account.privateKey, sender: this.account.address, nonce: this.nonce, contract, function: fn, kwargs: kwargs as never, chi });
    const r = await this.net.devnet.rpc.call<any>('broadcast_tx_commit', { tx: txParam(tx.hex) });
    assert.equal(r.check_tx.code, 0, `CheckTx refused: ${r.check_tx.log}`);
    this.nonce++;
    return { code: r.tx_result.code, receipt: decodeData(r.tx_result.data) as Receipt, raw: r };
  }

  async balance(): Promise<number> {
    return Number(valueText(await abciQuery(this.net.devnet, `/get/currency.balances:${this.account.address}`)));
  }

  async nextNonce(): Promise<number> {
    return Number(valueText(await abciQuery(this.net.devnet, `/get_next_nonce/${this.account.address}`)));
  }
}

/** Asserts the receipt's shape and that it cost what it reports; returns it. */
async function checkedSend(sender: Sender, contract: string, fn: string, kwargs: Record<string, unknown>, chi: number): Promise<Receipt> {
  const before = await sender.balance();
  const nonce = sender.nonce;
  const { code, receipt, raw } = await sender.send(contract, fn, kwargs, chi);
  const shown = JSON.stringify(raw).slice(0, 600);
  assert.ok(receipt && typeof receipt === 'object', `no execution output: ${shown}`);
  assert.ok(receipt.status === 0 || receipt.status === 1, `no status: ${shown}`);
  assert.equal(code, receipt.status, shown);
  assert.ok(Number.isInteger(receipt.chi_used) && receipt.chi_used >= 0 && receipt.chi_used <= chi, `chi_used ${receipt.chi_used} of ${chi}: ${shown}`);
  assert.equal(typeof receipt.result, 'string', shown);
  assert.doesNotMatch(receipt.result, JS_TEXT, shown);
  assert.equal(await sender.nextNonce(), nonce + 1, `nonce not consumed: ${shown}`);
  // Fee: chi_used / chi_cost (20 chi per token at genesis). On success part of it comes back as
  // rewards (the sender is the devnet's developer and foundation); a failure pays no rewards.
  const after = await sender.balance();
  if (receipt.status === 1) assert.ok(Math.abs(before - after - receipt.chi_used / 20) < 1e-6, `fee ${before - after} for chi_used ${receipt.chi_used}: ${shown}`);
  if (receipt.chi_used > 0) assert.ok(after < before, `no fee: ${shown}`);
  return receipt;
}

// ---- the grammar ---------------------------------------------------------------------------

const smallInt = fc.integer({ min: -1000, max: 1000 }).map(String);
const hostileExpr = fc.constantFrom(
  '1 // 0', '7 % 0', '1 / 0', 'decimal("1") / 0',
  '2 ** 4000', '10 ** 100000', '-(2 ** 1000000)', 'int("9" * 4000)', 'str(10 ** 4000)',
  '9007199254740993', '-9007199254740993 * 3',
  'datetime.datetime(9999, 12, 31) + datetime.timedelta(days=1)',
  'datetime.datetime(1, 1, 1) - datetime.timedelta(days=1)',
  'datetime.timedelta(days=10 ** 12)',
  'datetime.datetime(2020, 13, 40)',
  "'x' * 131073", "'ab' * 60000 + 'cd' * 60000",
  '[1] * 131073', 'list(range(131073))', '[i for i in range(200000)]',
  'decimal("1e1000")', 'decimal("nan")', 'float("inf")',
  'r(0)', "{'a': 1}['b']", '[][3]', 'None + 1', "'a' + 1", 'len(5)',
  "bytes.fromhex('zz')", "'{}{}'.format('a' * 70000, 'b' * 70000)",
);
const plainExpr = fc.oneof(
  smallInt,
  fc.constantFrom("'hello'", 'True', 'None', '[1, 2, 3]', "{'k': 'v'}", 'decimal("1.5")', 'now', 'block_num', 'ctx.caller'),
  fc.tuple(smallInt, fc.constantFrom('+', '-', '*', '//', '%', '**'), fc.integer({ min: 0, max: 9 }).map(String)).map(([a, op, b]) => `${a} ${op} ${b}`),
);
const expr = fc.oneof({ weight: 2, arbitrary: hostileExpr }, { weight: 3, arbitrary: plainExpr });
const storageKey = fc.constantFrom("'k'", 'None', "'a:b'", "('x',) * 20", "'k' * 2000", '1', "''", 'decimal("1.5")', '[1]', "'.'");

const statement = fc.oneof(
  expr.map((e) => `x = ${e}`),
  expr.map((e) => `v.set(${e})`),
  fc.tuple(storageKey, expr).map(([k, e]) => `h[${k}] = ${e}`),
  storageKey.map((k) => `x = h[${k}]`),
  expr.map((e) => `assert ${e}, 'checked'`),
  fc.constantFrom(
    'for i in range(1000000):\n        x = i',
    'for i in range(300):\n        v.set(str(i) * 300)',
    "raise Exception('boom')",
    'x = r(0)',
    "s = 'a' * 1024\n    for i in range(4):\n        s = s.replace('a', 'aa')",
    'l = [1] * 1000\n    for i in range(4):\n        l.extend(l)',
    "e({'who': 'x' * 70000})",
    "e({'who': 5})",
    'h[ctx.caller] = h[ctx.caller]',
  ),
);

const contract = fc.tuple(fc.array(statement, { minLength: 1, maxLength: 4 }), expr).map(([body, ret]) => `v = Variable()
h = Hash(default_value=0)
e = LogEvent('Probe', {'who': {'type': str, 'idx': True}})

def r(n):
    return r(n + 1)

@export
def run():
    x = 0
    ${body.join('\n    ')}
    return ${ret}
`);

describe('every executed transaction ends as a receipt (issue #35)', function () {
  this.timeout(600_000);
  let net: Opened;
  let sender: Sender;

  before(async () => {
    net = await openDevnet();
    sender = new Sender(net, net.devnet.accounts()[0] as DevAccount);
  });
  after(async () => net.close());

  it('a datetime past year 9999 returned or stored after a long loop fails charged, with the chain text, nonce consumed', async () => {
    const code = `v = Variable()
@export
def ret():
    for i in range(20000):
        pass
    return datetime.datetime(9999, 12, 31) + datetime.timedelta(days=1)
@export
def store():
    for i in range(20000):
        pass
    v.set(datetime.datetime(9999, 12, 31) + datetime.timedelta(days=1))
`;
    const deployed = await checkedSend(sender, 'submission', 'submit_contract', { name: 'con_dt_overflow', code }, 100_000);
    assert.equal(deployed.status, 0, deployed.result);
    for (const fn of ['ret', 'store']) {
      const r = await checkedSend(sender, 'con_dt_overflow', fn, {}, 100_000);
      assert.equal(r.status, 1);
      assert.equal(r.result, "ValueError('year 10000 is out of range')");
      assert.ok(r.chi_used > 100, `the loop's chi is charged: ${r.chi_used}`);
    }
    // The dry run reports the same failure.
    const payload = Buffer.from(JSON.stringify({ sender: sender.account.address, contract: 'con_dt_overflow', function: 'ret', kwargs: {} })).toString('hex');
    const sim = await abciQuery(net.devnet, `/simulate_tx/${payload}`);
    const out = JSON.parse(valueText(sim)!);
    assert.equal(out.status, 1);
    assert.doesNotMatch(JSON.stringify(out), JS_TEXT);
  });

  it('generated contracts (ordinary and hostile statements) always leave a well-formed, charged receipt and the node producing blocks', async () => {
    let index = 0;
    await fc.assert(
      fc.asyncProperty(contract, fc.constantFrom(50, 2_000, 200_000), async (source, chi) => {
        const name = `con_fuzz_${index++}`;
        const height = Number((await net.devnet.rpc.call<any>('status', {})).sync_info.latest_block_height);
        const deployed = await checkedSend(sender, 'submission', 'submit_contract', { name, code: source }, 200_000);
        if (deployed.status === 0) await checkedSend(sender, name, 'run', {}, chi);
        const after = Number((await net.devnet.rpc.call<any>('status', {})).sync_info.latest_block_height);
        assert.ok(after > height, 'the node keeps producing blocks');
      }),
      { numRuns: 40, seed: 35, endOnFailure: true },
    );
  });
});
