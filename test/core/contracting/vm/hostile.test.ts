import assert from 'node:assert/strict';
import * as ir from './ir-builder.js';
import { call } from './helpers.js';
import { CALL_DEPTH_ERROR, ALLOCATION_LIMIT_ERROR } from '../../../../core/contracting/vm/index.js';

/** Hostile contracts end at the chi budget or a documented VM limit — never hang or crash. */
function run(body: Record<string, unknown>[], functions: Record<string, unknown>[] = [], chi = 50_000n) {
  const m = ir.module('con_evil', { functions: [ir.fn('attack', [], body), ...functions] });
  return call([m], 'attack', { meter: { chi_budget: chi } });
}

describe('VM against hostile contracts', function () {
  this.timeout(60_000); // catches a hang, not slowness

  it('stops an infinite loop at the budget', () => {
    const out = run([ir.whileStmt(ir.bool(true), [ir.pass()])]);
    assert.equal(out.error, 'Out of chi.');
    assert.equal(out.chi_used, 50_000n);
  });

  it('stops unbounded recursion at the call-depth limit without overflowing the JS stack', () => {
    const recurse = ir.fn('down', [], [ir.ret(ir.call(ir.name('down')))], 'private');
    const out = run([ir.ret(ir.call(ir.name('down')))], [recurse], 10_000_000n);
    assert.equal(out.status, 1);
    assert.equal(out.error, CALL_DEPTH_ERROR);
  });

  it('stops string doubling at the allocation limit', () => {
    const out = run([
      ir.assign(ir.name('s'), ir.str('x')),
      ir.whileStmt(ir.bool(true), [ir.assign(ir.name('s'), ir.bin(ir.name('s'), 'add', ir.name('s')))]),
    ], [], 10_000_000n);
    assert.equal(out.error, ALLOCATION_LIMIT_ERROR);
  });

  it('refuses list repetition and range beyond 131,072 elements', () => {
    assert.equal(run([ir.ret(ir.bin(ir.list(ir.int(0)), 'mul', ir.int(200_000)))]).error, 'sequence repetition exceeds the maximum allowed allocation size');
    assert.equal(run([ir.ret(ir.call(ir.name('range'), [ir.int(200_000)]))]).error, 'range() exceeds the maximum allowed allocation size');
  });

  it('refuses exponent blow-up and huge shifts before computing them', () => {
    assert.equal(run([ir.ret(ir.bin(ir.int(10), 'pow', ir.int(10n ** 12n)))]).error, 'integer exponentiation exceeds the maximum allowed integer size of 1048576 bits');
    assert.equal(run([ir.ret(ir.bin(ir.int(1), 'lshift', ir.int(2_000_000)))]).error, 'left shift exceeds the maximum allowed integer size of 1048576 bits');
  });

  it('stops repeated squaring at the integer cap', () => {
    const out = run([
      ir.assign(ir.name('n'), ir.int(3)),
      ir.whileStmt(ir.bool(true), [ir.assign(ir.name('n'), ir.bin(ir.name('n'), 'mul', ir.name('n')))]),
    ], [], 10_000_000n);
    assert.equal(out.error, 'integer multiplication exceeds the maximum allowed integer size of 1048576 bits');
  });

  it('refuses int() of text longer than 8192 characters', () => {
    assert.equal(
      run([ir.ret(ir.call(ir.name('int'), [ir.str('9'.repeat(9000))]))]).error,
      'int() input exceeds the maximum allowed length of 8192 characters',
    );
  });
});

describe('VM sandbox budget', () => {
  it('always meters: a zero or oversized chi budget is refused, naming the field', async () => {
    const { runVm, VmRequestError, MAX_SANDBOX_CHI_BUDGET } = await import('../../../../core/contracting/vm/index.js');
    const m = ir.module('con_b', { functions: [ir.fn('f', [], [ir.pass()])] });
    for (const chi of [0n, BigInt(MAX_SANDBOX_CHI_BUDGET) + 1n]) {
      assert.throws(
        () => runVm({ modules: [{ module_name: 'con_b', ir: m }], call: { module: 'con_b', function: 'f' }, meter: { chi_budget: chi } }),
        (e: unknown) => e instanceof VmRequestError && e.field === 'meter.chi_budget',
      );
    }
  });
});

describe('VM cross-contract recursion', () => {
  it('stops two contracts calling each other forever at the call-depth limit', () => {
    const ping = ir.module('con_ping', {
      imports: [ir.importNode('con_pong')],
      functions: [ir.fn('go', [], [ir.ret(ir.exportCall(ir.staticTarget('con_pong'), 'go'))])],
    });
    const pong = ir.module('con_pong', {
      imports: [ir.importNode('con_ping')],
      functions: [ir.fn('go', [], [ir.ret(ir.exportCall(ir.staticTarget('con_ping'), 'go'))])],
    });
    const out = call([ping, pong], 'go', { meter: { chi_budget: 50_000_000n } });
    assert.equal(out.error, CALL_DEPTH_ERROR);
    // Every nested call up to the limit was charged: a call node (5,000), the 10,000 surcharge, a return (32).
    assert.ok(out.raw_cost > 250n * 15_032n);
  });
});
