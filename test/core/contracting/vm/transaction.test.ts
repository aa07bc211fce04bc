import assert from 'node:assert/strict';
import {
  VmDecimal, VmTransaction, compileModule, emptyContext, type ChainState, type CompiledModule, type VmValue,
} from '../../../../core/contracting/vm/index.js';
import * as ir from './ir-builder.js';

/** The node-semantics host: committed state, overlay, export and owner checks, failure rollback. */
function chain(values: [string, VmValue][], modules: Record<string, unknown>[]): ChainState {
  const state = new Map(values);
  const compiled = new Map<string, CompiledModule>(modules.map((m) => [m.module_name as string, compileModule(m)]));
  return {
    get: (k) => state.get(k),
    *scan(prefix) {
      for (const e of state) if (e[0].startsWith(prefix)) yield e;
    },
    module: (n) => compiled.get(n),
  };
}

const ctx = { ...emptyContext(), caller: 'alice', signer: 'alice' };
const bank = ir.module('con_bank', {
  globals: [ir.hash('balances', ir.int(0))],
  functions: [
    ir.fn('deposit', [ir.param('amount')], [ir.hashMutate('balances', ir.name('caller', 'context.caller'), 'add', ir.name('amount')), ir.ret(ir.hashAll('balances'))]),
    ir.fn('fail', [], [ir.hashSet('balances', ir.str('x'), ir.int(1)), ir.assertStmt(ir.bool(false), ir.str('no'))]),
    ir.fn('hidden', [], [ir.ret(ir.int(1))], 'private'),
  ],
});
const proxy = ir.module('con_proxy', {
  imports: [ir.importNode('con_bank')],
  functions: [
    ir.fn('poke', [], [ir.ret(ir.exportCall(ir.staticTarget('con_bank'), 'hidden'))]),
    ir.fn('deposit', [], [ir.ret(ir.exportCall(ir.staticTarget('con_bank'), 'deposit', [ir.int(5)]))]),
  ],
});

describe('VmTransaction (node semantics over committed state)', () => {
  it('reads committed state, returns the writes and scans hashes through the overlay', () => {
    const state = chain([['con_bank.balances:alice', 10n], ['con_bank.balances:bob', 3n]], [bank]);
    const out = new VmTransaction(state).execute('con_bank', 'deposit', [['amount', 5n]], ctx);
    assert.equal(out.status, 0, out.error);
    assert.deepEqual([...out.writes], [['con_bank.balances:alice', 15n]]);
    assert.deepEqual(out.result, [15n, 3n]);
  });

  it('keeps no writes or events of a failed call and reports its error text', () => {
    const out = new VmTransaction(chain([], [bank])).execute('con_bank', 'fail', [], ctx);
    assert.equal(out.status, 1);
    assert.equal(out.result, "AssertionError('no')");
    assert.equal(out.writes.size, 0);
  });

  it('refuses a cross-contract call of a private function and enforces __owner__', () => {
    const state = chain([], [proxy, bank]);
    assert.equal(
      new VmTransaction(state).execute('con_proxy', 'poke', [], ctx).error,
      'AssertionError("Exported function \'hidden\' does not exist on contract \'con_bank\'!")',
    );
    const owned = chain([['con_bank.__owner__', 'someone']], [proxy, bank]);
    assert.equal(new VmTransaction(owned).execute('con_proxy', 'deposit', [], ctx).error, 'Exception("Caller is not the owner!")');
    const ok = new VmTransaction(state).execute('con_proxy', 'deposit', [], ctx);
    assert.deepEqual([...ok.writes], [['con_bank.balances:con_proxy', 5n]]);
  });

  it('meters a decimal deposit exactly, reading the overlay before state in Hash.all', () => {
    const state = chain([['con_bank.balances:alice', VmDecimal.parse('1.5')]], [bank]);
    const out = new VmTransaction(state).execute('con_bank', 'deposit', [['amount', VmDecimal.parse('0.25')]], ctx);
    assert.equal(out.status, 0, out.error);
    // dispatch 5,000; declaration default 32; storage_mutate 5,120 + ctx.caller 64 + read 2 × (23 + 19)
    // + amount 64 + write 25 × (23 + 20); return 32 + call 5,000 + Hash.all 4,096 + read 2 × (23 + 20)
    // (state's alice entry is shadowed by the overlay); result [1.75] → 22 bytes.
    const expected = 5_000 + 32 + 5_120 + 64 + 84 + 64 + 1_075 + 32 + 5_000 + 4_096 + 86 + 22;
    assert.equal(out.stats.rawCost, expected);
    assert.equal(out.stats.chiUsed, Math.floor(expected / 1000) + 5);
  });
});
