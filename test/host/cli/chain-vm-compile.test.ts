import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileContract, MAX_SOURCE_BYTES } from '../../../core/contracting/index.js';
import { outputOf, type CommandOutput } from '../../support/child-output.js';
import { REPO_ROOT } from '../../support/test-host.js';

const TSX = pathToFileURL(path.join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const COUNTER = 'count = Variable()\n\n@export\ndef bump(by: int):\n    count.set(count.get() + by)\n    return count.get()\n';
const BAD = '@export\ndef f(a):\n    a *= 2\n    return a\n';

/** `chain-vm <args…>` as a user runs it, in `cwd`, with `stdin` piped in. */
function chainVm(cwd: string, args: string[], stdin: string | Buffer = ''): Promise<CommandOutput> {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '' };
  const child = spawn(process.execPath, ['--import', TSX, path.join(REPO_ROOT, 'host/bin/chain-vm.ts'), ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(stdin);
  return outputOf(child);
}

describe('chain-vm compile --module <name> [FILE|-]', function () {
  this.timeout(120_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'chain-vm-'));
    await writeFile(path.join(dir, 'counter.py'), COUNTER);
    await writeFile(path.join(dir, 'bad.py'), BAD);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('prints the artifact JSON for a file, for - and for standard input, exit 0', async () => {
    const expected = compileContract('con_counter', COUNTER);
    assert.ok(expected.ok);
    for (const [args, stdin] of [[['counter.py'], ''], [['-'], COUNTER], [[], COUNTER]] as const) {
      const run = await chainVm(dir, ['compile', '--module', 'con_counter', ...args], stdin);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), expected.artifact);
      assert.equal(run.stderr, '');
    }
  });

  it('prints {"diagnostics": [...]} on stdout and one readable line each on stderr for a refused source, exit 1', async () => {
    const expected = compileContract('con_bad', BAD);
    assert.ok(!expected.ok);
    const run = await chainVm(dir, ['compile', '--module', 'con_bad', 'bad.py']);
    assert.equal(run.code, 1);
    assert.deepEqual(JSON.parse(run.stdout), { diagnostics: expected.diagnostics });
    assert.deepEqual(run.stderr.trim().split('\n'), [
      'bad.py:2:7: error: xian.lint.E017: All @export function arguments must have type annotations',
      'bad.py:3:5: error: xian.lint.E001: Illegal syntax: Augmented multiplication is not allowed; use x = x * y',
    ]);
    // The JSON keeps the chain's 0-based columns; the line for editors counts columns from 1.
    assert.deepEqual(expected.diagnostics.map((d) => d.range?.start_column), [6, 4]);
  });

  it('points a parse error at the bracket left open, 1-based for editors', async () => {
    await writeFile(path.join(dir, 'open.py'), '@export\ndef f(a: int):\n    x = 1\n    y = 2\n    b = g(a,\n    return a\n');
    const run = await chainVm(dir, ['compile', '--module', 'con_open', 'open.py']);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, "open.py:5:10: error: xian.syntax.parse_error: '(' was never closed\n");
    assert.deepEqual(JSON.parse(run.stdout).diagnostics[0].range, { start_line: 5, start_column: 9, end_line: 5, end_column: 10 });
  });

  it('refuses text that is not UTF-8 and input over the size limit as diagnostics, exit 1', async () => {
    const notText = await chainVm(dir, ['compile', '--module', 'con_x', '-'], Buffer.from([0x78, 0x20, 0x3d, 0x20, 0xff, 0x0a]));
    assert.equal(notText.code, 1);
    assert.equal(JSON.parse(notText.stdout).diagnostics[0].code, 'xian.source.invalid');
    await writeFile(path.join(dir, 'huge.py'), `x = 1\n${'#'.repeat(MAX_SOURCE_BYTES + 10)}\n`);
    const huge = await chainVm(dir, ['compile', '--module', 'con_x', 'huge.py']);
    assert.equal(huge.code, 1);
    assert.equal(JSON.parse(huge.stdout).diagnostics[0].code, 'xian.source.too_large');
    assert.match(huge.stderr, /^huge\.py: error: xian\.source\.too_large: /);
  });

  it('exits 2 on usage errors: no --module, an unknown option, an unreadable file; --help exits 0', async () => {
    const noModule = await chainVm(dir, ['compile', 'counter.py']);
    assert.equal(noModule.code, 2);
    assert.match(noModule.stderr, /required option '--module <name>' not specified/);
    assert.equal(noModule.stdout, '');
    const unknown = await chainVm(dir, ['compile', '--module', 'x', '--fast', 'counter.py']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown option '--fast'/);
    const missing = await chainVm(dir, ['compile', '--module', 'x', 'nowhere.py']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /chain-vm compile: error: cannot read nowhere\.py: ENOENT/);
    assert.equal(missing.stdout, '');
    const help = await chainVm(dir, ['compile', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--module <name>/);
  });
});
