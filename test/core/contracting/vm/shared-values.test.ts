import assert from 'node:assert/strict';
import { compileContract } from '../../../../core/contracting/compiler/index.js';
import { runVm } from '../../../../core/contracting/vm/index.js';

/**
 * A value may hold the same container many times over: `t = (t, t)` sixty times is 2^60 leaves
 * for a few thousand chi. Comparing, hashing into a set or testing membership of such values
 * must cost O(distinct containers), not O(leaves) — else one cheap transaction holds the node.
 */
function run(body: string) {
  const source = `@export\ndef f():\n${body.split('\n').map((l) => `    ${l}`).join('\n')}\n`;
  const compiled = compileContract('con_dag', source);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.diagnostics));
  return runVm({
    modules: [{ module_name: 'con_dag', ir: compiled.artifact.vm_ir_json }],
    call: { module: 'con_dag', function: 'f' },
    meter: { chi_budget: 1_000_000 },
  });
}

const TWO_DAGS = 't = (1, 2)\nu = (1, 2)\nfor i in range(60):\n    t = (t, t)\n    u = (u, u)';

describe('VM values holding one container many times over', function () {
  this.timeout(60_000); // a walk over 2^60 leaves never ends: the timeout catches it

  it('compares two such values built apart', () => {
    const out = run(`${TWO_DAGS}\nreturn [t == u, t != u, t in [u], [t] == [u]]`);
    assert.equal(out.error, undefined);
    assert.deepEqual(out.result, [true, false, true, true]);
  });

  it('puts them into a set as one item', () => {
    const out = run(`${TWO_DAGS}\nreturn len(set([t, u, t]))`);
    assert.equal(out.error, undefined);
    assert.equal(out.result, 1n);
  });
});
