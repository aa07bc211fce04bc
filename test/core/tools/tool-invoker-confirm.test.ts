import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { ContributionList } from '../../../core/contribution-list.js';
import { silentLogger } from '../../../core/logger.js';
import { ToolInvoker } from '../../../core/tools/tool-invoker.js';
import type { AskUser, ToolDefinition } from '../../../core/tools/tool.js';

/**
 * ctx.confirm: a tool asks the person at the client through whatever the transport offers; the
 * call's deadline stands still while the person decides, and runs on for the tool's own work.
 */
describe('ToolInvoker: asking the user (ctx.confirm)', () => {
  let invoker: ToolInvoker;

  before(() => {
    const tools = new ContributionList<ToolDefinition>('tool', (t) => t.name);
    const def = (name: string, run: ToolDefinition['run']) =>
      ({ name, title: name, description: name, capability: 'read', input: z.object({ before: z.number().default(0), after: z.number().default(0) }), output: z.object({ outcome: z.string() }), timeoutMs: 300, run }) as ToolDefinition;
    tools.add('test', def('asks', async (args, ctx) => {
      await sleep(args['before'] as number);
      const outcome = await ctx.confirm({ message: 'send 5 currency?', timeoutMs: 10_000 });
      await sleep(args['after'] as number);
      return { outcome };
    }));
    tools.freeze();
    invoker = new ToolInvoker(tools, silentLogger, { defaultTimeoutMs: 5_000 });
  });

  it('answers unavailable when the transport cannot ask anyone', async () => {
    assert.deepEqual(await invoker.call('asks', {}, 'http'), { outcome: 'unavailable' });
  });

  it('passes the question on and the answer back', async () => {
    const asked: string[] = [];
    const askUser: AskUser = async (request) => {
      asked.push(`${request.message} (${request.timeoutMs} ms)`);
      return 'declined';
    };
    assert.deepEqual(await invoker.call('asks', {}, 'in-process', undefined, undefined, askUser), { outcome: 'declined' });
    assert.deepEqual(asked, ['send 5 currency? (10000 ms)']);
  });

  it('does not count the time the person takes against the tool deadline', async () => {
    const slowPerson: AskUser = async () => {
      await sleep(600);
      return 'accepted';
    };
    assert.deepEqual(await invoker.call('asks', { before: 100, after: 100 }, 'in-process', undefined, undefined, slowPerson), { outcome: 'accepted' });
  });

  it('still counts the tool own work before and after the question', async () => {
    const quick: AskUser = async () => 'accepted';
    await assert.rejects(invoker.call('asks', { before: 200, after: 200 }, 'in-process', undefined, undefined, quick), (err: { status?: number }) => err.status === 504);
  });
});
