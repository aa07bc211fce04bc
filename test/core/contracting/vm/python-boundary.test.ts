import assert from 'node:assert/strict';
import { compileContract } from '../../../../core/contracting/compiler/index.js';
import {
  ALLOCATION_LIMIT_ERROR, VmTransaction, compileModule, emptyContext, parseVmJson, type ChainState, type CompiledModule, type VmValue,
} from '../../../../core/contracting/vm/index.js';

/**
 * What a transaction hands to the node (result, writes, events) must be a value Python can
 * hold, as upstream's python host converts it: a datetime past year 9999 fails the transaction
 * with Python's own error text — status 1, chi charged, nothing written — never with a
 * JavaScript error. And a result that holds one container many times over is measured, not
 * walked or printed.
 */
function run(source: string, fn = 'f', chi = 100_000) {
  const compiled = compileContract('con_t', source);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.diagnostics));
  const module = compileModule(parseVmJson(compiled.artifact.vm_ir_json));
  const state: ChainState = { get: () => undefined, scan: () => [], module: (n) => (n === 'con_t' ? module : undefined as CompiledModule | undefined) };
  return new VmTransaction(state, { enabled: true, chiBudgetRaw: chi * 1000 }).execute('con_t', fn, [], { ...emptyContext(), caller: 'alice', signer: 'alice' });
}

const exported = (body: string, globals = ''): string => `${globals}\n@export\ndef f():\n${body.split('\n').map((l) => `    ${l}`).join('\n')}\n`;

describe('VM values handed to the node', () => {
  it('fails a datetime past year 9999 as Python does, charged, without writes', () => {
    const returned = run(exported('return datetime.datetime(9999, 12, 31) + datetime.timedelta(days=1)'));
    assert.equal(returned.status, 1);
    assert.equal(returned.error, "ValueError('year 10000 is out of range')");
    assert.ok(returned.stats.chiUsed > 5);

    const stored = run(exported('v.set(datetime.datetime(9999, 12, 31) + datetime.timedelta(days=1))\nreturn 1', 'v = Variable()'));
    assert.equal(stored.status, 1);
    assert.equal(stored.error, "ValueError('year 10000 is out of range')");
    assert.equal(stored.writes.size, 0);
  });

  it('fails a timedelta past 999,999,999 days with Python\'s OverflowError text', () => {
    const out = run(exported('return [datetime.timedelta(days=1000000000)]'));
    assert.equal(out.error, "OverflowError('days=1000000000; must have magnitude <= 999999999')");
  });

  it('keeps datetimes and timedeltas within Python\'s range', () => {
    const out = run(exported('return datetime.datetime(9999, 12, 30) + datetime.timedelta(days=1)'));
    assert.equal(out.status, 0);
    assert.equal(String(out.result as VmValue), '9999-12-31 00:00:00');
  });

  it('measures a result holding itself 2^60 times without walking it, and refuses it', () => {
    const out = run(exported('t = (1, 2)\nfor i in range(60):\n    t = (t, t)\nreturn t'), 'f', 50_000_000);
    assert.equal(out.status, 1);
    assert.equal(out.error, 'Out of chi.');
    const smaller = run(exported('t = (1, 2)\nfor i in range(22):\n    t = (t, t)\nreturn t'), 'f', 50_000_000);
    assert.equal(smaller.error, ALLOCATION_LIMIT_ERROR);
  });
});
