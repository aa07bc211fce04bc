import assert from 'node:assert/strict';
import { z } from 'zod';
import { ContributionList } from '../../../core/contribution-list.js';
import { silentLogger } from '../../../core/logger.js';
import { ToolInvoker } from '../../../core/tools/tool-invoker.js';
import type { ToolDefinition } from '../../../core/tools/tool.js';

/**
 * The invoker hands a finished call's unaborted, unlistened signal on to later calls (an
 * AbortSignal is costly to build in Node 20). These tests pin down when it must not.
 */
describe('ToolInvoker: the signal a tool sees', () => {
  const seen: AbortSignal[] = [];
  const lingering: Array<() => void> = [];
  let invoker: ToolInvoker;

  function tool(name: string, run: ToolDefinition['run'], timeoutMs?: number): ToolDefinition {
    return { name, title: name, description: name, capability: 'read', input: z.object({}), output: z.object({}).passthrough(), run, ...(timeoutMs ? { timeoutMs } : {}) } as ToolDefinition;
  }

  before(() => {
    const tools = new ContributionList<ToolDefinition>('tool', (t) => t.name);
    tools.add('test', tool('reads_signal', async (_args, ctx) => {
      seen.push(ctx.signal);
      return {};
    }));
    tools.add('test', tool('leaves_a_listener', async (_args, ctx) => {
      const signal = ctx.signal;
      seen.push(signal);
      const listener = () => undefined;
      signal.addEventListener('abort', listener);
      lingering.push(() => signal.removeEventListener('abort', listener));
      return {};
    }));
    tools.add('test', tool('times_out', async (_args, ctx) => {
      seen.push(ctx.signal);
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
      return {};
    }, 30));
    tools.freeze();
    invoker = new ToolInvoker(tools, silentLogger, { defaultTimeoutMs: 5_000 });
  });

  beforeEach(() => {
    seen.length = 0;
  });

  it('every call gets an unaborted signal, even right after a call that timed out', async () => {
    await assert.rejects(invoker.call('times_out', {}, 'in-process'), (err: { status?: number }) => err.status === 504);
    const timedOut = seen[0]!;
    assert.equal(timedOut.aborted, true);
    await invoker.call('reads_signal', {}, 'in-process');
    assert.notEqual(seen[1], timedOut, 'an aborted signal is never handed on');
    assert.equal(seen[1]!.aborted, false);
  });

  it('a signal that some work still listens to is not handed to another call', async () => {
    await invoker.call('leaves_a_listener', {}, 'in-process');
    const held = seen[0]!;
    for (let i = 0; i < 20; i++) await invoker.call('reads_signal', {}, 'in-process');
    assert.ok(!seen.slice(1).includes(held), 'the held signal stays with the work that listens to it');
    for (const release of lingering) release();
  });

  it('concurrent calls never share a signal', async () => {
    await Promise.all(Array.from({ length: 50 }, () => invoker.call('reads_signal', {}, 'in-process')));
    assert.equal(new Set(seen).size, 50);
  });

  it('a caller that aborts later reaches the signal it was given, and no later call', async () => {
    const caller = new AbortController();
    await invoker.call('reads_signal', {}, 'in-process', caller.signal);
    const given = seen[0]!;
    caller.abort(new Error('late'));
    assert.equal(given.aborted, false, 'the call was over: its outer listener was removed');
    await invoker.call('reads_signal', {}, 'in-process');
    assert.equal(seen[1]!.aborted, false);
  });
});
