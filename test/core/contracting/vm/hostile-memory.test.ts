import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ALLOCATION_LIMIT_ERROR } from '../../../../core/contracting/vm/index.js';

/**
 * Contracts that try to make the VM allocate past its caps. Each runs in a child process with a
 * 1.5 GiB heap: on a VM that builds before it checks, V8 aborts the child with a fatal
 * "invalid size" or runs out of heap, and the probe never reports. The VM must instead stop each
 * one with its documented allocation error (status 1, chi charged) and keep the child's memory
 * bounded.
 */
const CHILD = fileURLToPath(new URL('./hostile-child.ts', import.meta.url));
const HEAP_MB = 1536;
const CHILD_TIMEOUT_MS = 200_000;

const fn = (body: string): string => `@export\ndef attack():\n${body.trim().split('\n').map((l) => `    ${l}`).join('\n')}\n`;

/** `s` doubled to 512 KiB (under the 1 MiB string cap) and to 8 MiB by `+`. */
const HALF_MIB = `s = 'a' * 131072\nfor i in range(2):\n    s = s + s`;
const EIGHT_MIB = `s = 'a' * 131072\nfor i in range(6):\n    s = s + s`;

const PROBES: { name: string; source: string; chi: number }[] = [
  { name: 'replace with a long replacement', source: fn(`s = 'a' * 131072\ns = s.replace('a', 'a' * 1100)\nreturn len(s)`), chi: 100_000 },
  { name: 'replace doubling 18 times', source: fn(`s = 'a' * 1024\nfor i in range(18):\n    s = s.replace('a', 'aa')\nreturn len(s)`), chi: 100_000 },
  { name: 'list.extend(itself)', source: fn(`l = [0] * 131072\nwhile True:\n    l.extend(l)`), chi: 1_000_000 },
  { name: 'bytearray.extend(itself)', source: fn(`b = bytearray(131072)\nwhile True:\n    b.extend(b)`), chi: 1_000_000 },
  { name: 'str.format doubling', source: fn(`s = 'a' * 131072\nwhile True:\n    s = '{}{}'.format(s, s)`), chi: 1_000_000 },
  { name: 'f-string doubling', source: fn(`s = 'a' * 131072\nwhile True:\n    s = f'{s}{s}'`), chi: 1_000_000 },
  { name: 'join doubling', source: fn(`s = 'a' * 131072\nwhile True:\n    s = ''.join([s, s])`), chi: 1_000_000 },
  { name: 'an 8 MiB string', source: fn(`${EIGHT_MIB}\nreturn len(s)`), chi: 1_000_000 },
  { name: 'str() of a list holding a 512 KiB string many times', source: fn(`${HALF_MIB}\nl = [s] * 100000\nreturn len(str(l))`), chi: 1_000_000 },
  { name: 'many distinct 512 KiB strings kept (the per-transaction budget)', source: fn(`${HALF_MIB}\nkeep = [(s + str(i)).upper() for i in range(4000)]\nreturn len(keep)`), chi: 10_000_000 },
];

interface Line { started?: string; name?: string; status?: number; error?: string | null; chi_used?: number; heapUsedMb?: number; done?: boolean; maxRssMb?: number }

function runChild(): Promise<{ lines: Line[]; code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=chainhost-source', `--max-old-space-size=${HEAP_MB}`, CHILD], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let stderr = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code, signal) => {
      resolve({ lines: out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line), code, signal, stderr });
    });
    // A VM that hangs on a probe fails it too; the child never outlives the test.
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.on('exit', () => clearTimeout(timer));
    child.stdin.end(JSON.stringify(PROBES));
  });
}

describe('VM memory caps against hostile contracts (in a child process)', function () {
  this.timeout(240_000); // a hang fails the test; the probes run one after another on a shared machine
  let run: Awaited<ReturnType<typeof runChild>>;

  before(async () => {
    run = await runChild();
  });

  for (const probe of PROBES) {
    it(`stops ${probe.name} with the allocation error, charged`, () => {
      const line = run.lines.find((l) => l.name === probe.name);
      const last = run.lines.filter((l) => l.started).pop()?.started;
      assert.ok(line, `the child died (code ${run.code}, signal ${run.signal}) while running "${last}": ${run.stderr.slice(-300)}`);
      assert.equal(line.status, 1);
      assert.equal(line.error, ALLOCATION_LIMIT_ERROR);
      assert.ok(line.chi_used! > 5, 'the work done before the refusal is charged');
      assert.ok(line.chi_used! < probe.chi, 'it stopped at the cap, not at the chi budget');
    });
  }

  it('keeps the child alive with bounded memory', () => {
    const done = run.lines.find((l) => l.done);
    assert.ok(done, `the child died (code ${run.code}, signal ${run.signal})`);
    assert.equal(run.code, 0);
    assert.ok(done.maxRssMb! < 1400, `peak RSS ${done.maxRssMb} MiB`);
  });
});
