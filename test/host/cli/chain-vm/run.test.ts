import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { outputOf, type CommandOutput } from '../../../support/child-output.js';
import { fileURLToPath } from 'node:url';
import * as ir from '../../../core/contracting/vm/ir-builder.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

function chainVm(stdin: string, ...args: string[]): Promise<CommandOutput> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'host/bin/chain-vm.ts'), 'run', ...args], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(stdin);
  return outputOf(child);
}

const halve = ir.module('con_half', { functions: [ir.fn('half', [ir.param('a')], [ir.ret(ir.bin(ir.name('a'), 'sub', ir.int(1)))])] });
const request = (args: string) =>
  `{"modules":[{"module_name":"con_half","ir":${JSON.stringify(halve)}}],"call":{"module":"con_half","function":"half","args":${args}}}`;

describe('chain-vm run', function () {
  this.timeout(60_000);

  it('prints the result JSON and exits 0, ints and floats kept apart by lexeme', async () => {
    const out = await chainVm(request('[3]'), '--compact');
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /^\{"status":0,"result":2,"state":\{\},"events":\[\],"chi_used":10,"raw_cost":\d+\}\n$/);
    const float = await chainVm(request('[3.0]'), '--compact');
    assert.match(float.stdout, /"result":2\.0,/);
  });

  it('exits 0 for a call that fails, with status 1 and the chain error text', async () => {
    const out = await chainVm(request('["x"]'), '--compact', '-');
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /"status":1,"result":"unsupported sub operands str and int","error":"unsupported sub operands str and int"/);
  });

  it('exits 2 for a malformed request, naming the field', async () => {
    const out = await chainVm('{"modules":[{"module_name":"con_half","ir":{}}],"call":{"module":"con_half","function":"half"}}');
    assert.equal(out.code, 2);
    assert.match(out.stderr, /modules\[0\]\.ir: unsupported ir_version/);
    const bad = await chainVm('{"modules": [');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /request: is not valid JSON/);
  });
});
