import assert from 'node:assert/strict';
import { Meter, meteringJson, VmDecimal, VmDateTime, VmTimeDelta, VmDict, VmTuple } from '../../../../core/contracting/vm/index.js';
import * as ir from './ir-builder.js';
import { call } from './helpers.js';

/** Gas figures below are worked out by hand from the xvm-gas-1 schedule, node by node. */

// counter = Variable(); increment(): counter.set(counter.get() + 1); return counter.get()
const counter = ir.module('con_counter', {
  globals: [ir.variable('counter')],
  functions: [
    ir.fn('increment', [], [
      ir.expr(ir.varSet('counter', ir.bin(ir.varGet('counter'), 'add', ir.int(1)))),
      ir.ret(ir.varGet('counter')),
    ]),
  ],
});
const seeded = { variables: [{ binding: 'counter', value: 0n }] };

describe('VM metering (xvm-gas-1)', () => {
  it('charges con_counter.increment node by node: 28,453 raw + transaction bytes', () => {
    // 5,000 dispatch; expr 32 + set call 5,000 + bin_op 96 + get call 5,000 + get 1,280
    // + read 2×(19+1) + constant 32 + set 5,120 + write 25×(19+1); return 32 + call 5,000
    // + get 1,280 + read 40; return value "1" = 1 byte.
    const out = call([counter], 'increment', { initial: seeded, meter: { transaction_size_bytes: 100n } });
    assert.equal(out.status, 0, out.error);
    assert.equal(out.result, 2n - 1n);
    assert.equal(out.raw_cost, 28_453n + 100n);
    assert.equal(out.chi_used, 28n + 5n);
  });

  it('stops at the budget with `Out of chi.` and reports the whole budget as used', () => {
    const out = call([counter], 'increment', { initial: seeded, meter: { chi_budget: 28n } });
    assert.equal(out.status, 1);
    assert.equal(out.error, 'Out of chi.');
    assert.equal(out.chi_used, 28n);
  });

  it('charges function-entry complexity above 40 nodes at 150 each', () => {
    // return 1 + 1 + … (20 bin_ops, 21 constants) = 42 nodes → (42 − 40) × 150 = 300.
    let sum: Record<string, unknown> = ir.int(1);
    for (let i = 0; i < 20; i++) sum = ir.bin(sum, 'add', ir.int(1));
    const m = ir.module('con_sum', { functions: [ir.fn('total', [], [ir.ret(sum)])] });
    const out = call([m], 'total');
    assert.equal(out.result, 21n);
    // 5,000 + 300 + return 32 + 20 × 96 + 21 × 32 + result "21" (2 bytes)
    assert.equal(out.raw_cost, BigInt(5_000 + 300 + 32 + 1_920 + 672 + 2));
  });

  it('charges 96 per loop iteration, the call node 5,000 even for a builtin, and the null result', () => {
    const m = ir.module('con_loop', {
      functions: [ir.fn('spin', [], [ir.forStmt(ir.name('i'), ir.call(ir.name('range'), [ir.int(3)]), [ir.pass()])])],
    });
    const out = call([m], 'spin');
    // 5,000 + for 96 + call 5,000 + name 64 + constant 32 + 3 × (96 + pass 32) + "null" 4
    assert.equal(out.raw_cost, BigInt(5_000 + 96 + 5_000 + 64 + 32 + 3 * 128 + 4));
  });

  it('charges Hash writes 25/byte of key + value JSON and reads 2/byte, defaults included', () => {
    const m = ir.module('con_h', {
      globals: [ir.hash('balances', ir.int(0))],
      functions: [ir.fn('put', [], [ir.hashSet('balances', ir.str('bob'), ir.float('1.5')), ir.ret(ir.hashGet('balances', ir.str('amy')))])],
    });
    const out = call([m], 'put');
    assert.equal(out.status, 0, out.error);
    // instantiation: default constant 32. storage_set 5,120 + key 32 + value 32 + write 25 × (len('con_h.balances:bob') = 18 + len('{"__fixed__":"1.5"}') = 19)
    // return 32 + storage_get 1,280 + key 32 + read 2 × (18 + 1) (default 0); result "0" 1 byte.
    const expected = 5_000 + 32 + 5_120 + 32 + 32 + 25 * (18 + 19) + 32 + 1_280 + 32 + 2 * 19 + 1;
    assert.equal(out.raw_cost, BigInt(expected));
  });

  it('charges an event 8,000 plus a write per field, and a cross-contract call 10,000', () => {
    const callee = ir.module('con_callee', {
      globals: [ir.event('Ping', 'Ping', ir.dict([ir.str('who'), ir.name('str')]))],
      functions: [ir.fn('ping', [], [ir.expr(ir.emit('Ping', ir.dict([ir.str('who'), ir.str('me')]))), ir.ret(ir.none())])],
    });
    const caller = ir.module('con_caller', {
      imports: [ir.importNode('con_callee')],
      functions: [ir.fn('go', [], [ir.ret(ir.exportCall(ir.staticTarget('con_callee'), 'ping'))])],
    });
    const out = call([caller, callee], 'go');
    assert.equal(out.status, 0, out.error);
    // caller: 5,000 + return 32 + call 5,000 + cross-contract 10,000
    // callee instantiation: dict 608 + constant 32 + name 64
    // callee: expr 32 + call 5,000 + dict 608 + 2 constants 64 + emit 8,000 + write 25 × (3 + 4) + return 32 + constant 32
    // result null 4 bytes
    const expected = 5_000 + 32 + 5_000 + 10_000 + 608 + 32 + 64 + 32 + 5_000 + 608 + 64 + 8_000 + 25 * 7 + 32 + 32 + 4;
    assert.equal(out.raw_cost, BigInt(expected));
    assert.equal(out.events.length, 1);
  });

  it('refuses a transaction writing 128 KiB or more', () => {
    const m = ir.module('con_big', {
      globals: [ir.variable('blob')],
      functions: [ir.fn('fill', [], [ir.expr(ir.varSet('blob', ir.bin(ir.str('x'), 'mul', ir.int(131_072))))])],
    });
    const out = call([m], 'fill', { meter: { chi_budget: 50_000_000n } });
    assert.equal(out.error, 'You have exceeded the maximum write capacity per transaction!');
  });

  it('computes chi_used = raw // 1000 + 5, capped at the budget', () => {
    const meter = new Meter({ enabled: true, chiBudgetRaw: 10_000 });
    meter.charge(7_999);
    assert.equal(meter.stats().chiUsed, 10);
    meter.charge(1);
    assert.equal(meter.stats().chiUsed, 10); // 8 + 5 = 13 > budget 10
    const unlimited = new Meter({ enabled: true });
    unlimited.charge(7_999);
    assert.equal(unlimited.stats().chiUsed, 12);
  });

  it('measures values by their serde metering JSON', () => {
    assert.equal(meteringJson(VmDecimal.parse('1000.50')), '{"__fixed__":"1000.5"}');
    assert.equal(meteringJson(2n ** 63n), '{"__big_int__":"9223372036854775808"}');
    assert.equal(meteringJson(1e20), '1e20');
    assert.equal(meteringJson(0.25), '0.25');
    assert.equal(meteringJson(VmDateTime.of(2024n, 1n, 2n, 3n)), '{"__time__":[2024,1,2,3,0,0,0]}');
    assert.equal(meteringJson(VmTimeDelta.fromSeconds(-1n)), '{"__delta__":[-1,86399]}');
    assert.equal(meteringJson(new VmDict([['b', 1n], ['a', new VmTuple(['é'])]])), '{"a":["é"],"b":1}');
  });
});
