import assert from 'node:assert/strict';
import { compileContract } from '../../../../core/contracting/compiler/index.js';
import { runVm, VmRequestError } from '../../../../core/contracting/vm/run-vm.js';

const SOURCE = `deposits = Hash(default_value=0)
total = Variable()

@export
def put(who: str, tag: str, amount: int):
    deposits[who, tag] += amount
    deposits[who] += amount
    total.set(amount)
`;

function ir(): string {
  const compiled = compileContract('con_box', SOURCE);
  assert.ok(compiled.ok);
  return compiled.artifact.vm_ir_json;
}

const request = (extra: Record<string, unknown> = {}, module: Record<string, unknown> = {}) => ({
  modules: [{ module_name: 'con_box', ir: ir(), ...module }],
  call: { module: 'con_box', function: 'put', kwargs: { who: 'alice', tag: 'rent', amount: 7n } },
  ...extra,
});

const refuses = (input: unknown, field: string, message: RegExp) =>
  assert.throws(() => runVm(input), (err: unknown) => err instanceof VmRequestError && err.field === field && message.test(err.message));

describe('runVm request: members a part does not have are refused by name', () => {
  it('a flat storage key as initial_state is refused, naming it and showing the state shape', () => {
    refuses(request({}, { initial_state: { 'currency.balances:con_escrow': 7 } }), 'modules[0].initial_state.currency.balances:con_escrow',
      /is not a member of modules\[0\]\.initial_state \(expected variables, hashes, foreign_variables, foreign_hashes\); state is seeded per module as initial_state: \{variables: \[\{binding, value\}\]/);
  });

  it('a misplaced member (initial_state at the top, state inside call) is refused by name', () => {
    refuses(request({ initial_state: { hashes: [] } }), 'initial_state', /not a member of the request \(expected modules, call, context, observe, meter\)/);
    refuses({ ...request(), call: { module: 'con_box', function: 'put', kwargs: {}, state: {} } }, 'call.state', /expected module, function, args, kwargs/);
    refuses(request({ meter: { chi: 5 } }), 'meter.chi', /expected chi_budget, transaction_size_bytes/);
    refuses(request({ context: { sender: 'alice' } }), 'context.sender', /expected this, caller, signer/);
    refuses(request({}, { initial_state: { hashes: [{ binding: 'deposits', entries: [{ key: 'bob', val: 1 }] }] } }), 'modules[0].initial_state.hashes[0].entries[0].val', /expected key, value/);
    refuses(request({ observe: { con_box: { hashes: [{ name: 'deposits' }] } } }), 'observe.con_box.hashes[0].name', /expected binding, entries/);
    refuses(request({ observe: { con_box: { balances: [] } } }), 'observe.con_box.balances', /expected variables, hashes/);
  });

  it('the documented members still run', () => {
    const out = runVm(request({
      context: { caller: 'alice', signer: 'alice', now: { __vm_type__: 'datetime', parts: [2026, 1, 1, 0, 0, 0, 0] } },
      meter: { chi_budget: 100_000 },
      observe: { con_box: { variables: [{ binding: 'total' }], hashes: [{ binding: 'deposits', entries: [{ key: ['alice', 'rent'] }] }] } },
    }, { owner: null, initial_state: { hashes: [{ binding: 'deposits', entries: [{ key: ['alice', 'rent'], value: 3n }] }] } }));
    assert.equal(out.status, 0, String(out.error));
    assert.deepEqual(out.state.con_box!.hashes, [{ binding: 'deposits', entries: [{ key: ['alice', 'rent'], value: 10n }] }]);
  });
});

describe('runVm observe: a hash named without keys lists what it holds', () => {
  it('lists the written entries, multi-part keys as their parts', () => {
    const out = runVm(request({ observe: { con_box: { hashes: [{ binding: 'deposits' }] } } }, {
      initial_state: { hashes: [{ binding: 'deposits', entries: [{ key: 'bob', value: 1n }] }] },
    }));
    assert.equal(out.status, 0, String(out.error));
    assert.deepEqual(out.state.con_box!.hashes, [{
      binding: 'deposits',
      entries: [{ key: 'alice', value: 7n }, { key: ['alice', 'rent'], value: 7n }, { key: 'bob', value: 1n }],
    }]);
  });

  it('entries: [] still observes no keys', () => {
    const out = runVm(request({ observe: { con_box: { hashes: [{ binding: 'deposits', entries: [] }] } } }));
    assert.deepEqual(out.state.con_box!.hashes, [{ binding: 'deposits', entries: [] }]);
  });
});
