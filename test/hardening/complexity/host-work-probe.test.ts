import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../../support/test-host.js';

/**
 * The fuzzer's measure itself: a process that blocks its event loop for 300 ms of CPU time must
 * read as a burst of at least that, and the same process idle must not — on a quiet machine and
 * on one where other processes take every core (the block is counted in CPU time, so waiting for
 * a core neither hides it nor inflates the idle reading).
 */
const CHILD = `
process.stdin.on('data', (d) => {
  if (String(d).trim() !== 'block') return;
  const start = process.cpuUsage();
  const spent = () => { const u = process.cpuUsage(start); return (u.user + u.system) / 1000; };
  while (spent() < 300);
  process.stdout.write('blocked\\n');
});
setInterval(() => undefined, 1000);
`;

/** An idle event loop beside four worker threads that burn CPU until the process ends. */
const BUSY_WORKERS = `
const { Worker } = require('node:worker_threads');
let online = 0;
for (let i = 0; i < 4; i++) {
  new Worker('for (;;);', { eval: true }).once('online', () => { if (++online === 4) process.stdout.write('online\\n'); });
}
setInterval(() => undefined, 1000);
`;

describe('complexity fuzzer: the host-work probe', function () {
  this.timeout(120_000);

  it('reads a 300 ms CPU block of the event loop as a burst of at least 300 ms, and an idle loop as far less', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', path.join(REPO_ROOT, 'test/support/host-work-probe.ts'), '-e', CHILD], { stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      const url = await probeUrl(child);
      const read = async (reset = false) => (await (await fetch(`${url}/${reset ? '?reset=1' : ''}`)).json()) as { cpuMs: number; maxBurstMs: number };
      await read(true);
      await new Promise((r) => setTimeout(r, 500));
      const idle = await read(true);
      assert.ok(idle.maxBurstMs < 50, `idle burst ${idle.maxBurstMs} ms`);
      const blocked = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      child.stdin.write('block\n');
      await blocked;
      const busy = await read();
      assert.ok(busy.maxBurstMs >= 290, `a 300 ms CPU block read as a ${busy.maxBurstMs} ms burst`);
      assert.ok(busy.cpuMs >= busy.maxBurstMs);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('does not count worker threads\' CPU as a burst of an idle loop (it read 30–50 ms "bursts" on a busy machine)', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', path.join(REPO_ROOT, 'test/support/host-work-probe.ts'), '-e', BUSY_WORKERS], { stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      const url = await probeUrl(child);
      const read = async (reset = false) => (await (await fetch(`${url}/${reset ? '?reset=1' : ''}`)).json()) as { cpuMs: number; maxBurstMs: number };
      // Starting the workers is the loop's own work; the watch begins once they run.
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      await read(true);
      await new Promise((r) => setTimeout(r, 1_500));
      const reading = await read();
      // The workers used seconds of CPU; the loop itself only turned its timers.
      assert.ok(reading.cpuMs >= 1_000, `the workers' CPU shows in the process's: ${reading.cpuMs} ms`);
      assert.ok(reading.maxBurstMs < 5, `an idle loop beside busy workers read as a ${reading.maxBurstMs} ms burst`);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

/** The probe's URL, from the line it prints to the child's stderr. */
function probeUrl(child: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const found = /host-work-probe: (http:\/\/\S+)/.exec(err)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`child exited ${code}: ${err}`)));
  });
}
