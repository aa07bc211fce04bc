import assert from 'node:assert/strict';
import { bootTestHost, FIXTURE_PLUGIN, type TestHost } from '../support/test-host.js';

/** slow_tool sleeps until its ctx.signal aborts; how long a call takes shows whether it did. */
describe('tool call cancellation (the pipeline every transport uses)', () => {
  // Two deadlines far apart, so "ended at the abort or deadline" and "slept the whole time" stay
  // apart by seconds even when a busy machine delays every timer (issue #30).
  let t: TestHost;
  let patient: TestHost;
  before(async () => {
    t = await bootTestHost({ plugins: { [FIXTURE_PLUGIN]: { slowTimeoutMs: 300 } } });
    patient = await bootTestHost({ plugins: { [FIXTURE_PLUGIN]: { slowTimeoutMs: 60_000 } } });
  });
  after(async () => {
    await t.stop();
    await patient.stop();
  });

  async function timed<T>(work: Promise<T>): Promise<{ ms: number; result?: T; error?: unknown }> {
    const started = performance.now();
    try {
      const result = await work;
      return { ms: performance.now() - started, result };
    } catch (error) {
      return { ms: performance.now() - started, error };
    }
  }

  it('a call past its deadline is rejected with 504 at the deadline', async () => {
    const { ms, error } = await timed(t.host.invoker.call('slow_tool', { ms: 40_000 }, 'in-process'));
    assert.equal((error as { status?: number }).status, 504);
    assert.ok(ms < 20_000, `took ${ms} ms: the 300 ms deadline, not the 40 s sleep, ended it`);
  });

  it('the caller\'s signal aborts the tool\'s signal', async () => {
    const caller = new AbortController();
    setTimeout(() => caller.abort(new Error('client went away')), 50);
    const { ms, result } = await timed(patient.host.invoker.call('slow_tool', { ms: 40_000 }, 'in-process', caller.signal));
    assert.deepEqual(result, { slept_ms: 40_000 });
    assert.ok(ms < 20_000, `the tool stopped early (${ms} ms of a 40 s sleep)`);
  });

  it('an already aborted caller signal reaches the tool at once', async () => {
    const caller = new AbortController();
    caller.abort();
    const { ms, result } = await timed(patient.host.invoker.call('slow_tool', { ms: 40_000 }, 'in-process', caller.signal));
    assert.deepEqual(result, { slept_ms: 40_000 });
    assert.ok(ms < 20_000, `took ${ms} ms of a 40 s sleep`);
  });

  it('a tool that never reads its signal still completes normally', async () => {
    assert.deepEqual(await t.host.invoker.call('echo_text', { text: 'x' }, 'in-process', new AbortController().signal), { text: 'x' });
  });
});
