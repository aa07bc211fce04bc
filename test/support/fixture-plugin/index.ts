import Router from '@koa/router';
import { z } from 'zod';
import { definePlugin } from '../../../core/plugin.js';
import { defineTool } from '../../../core/tools/tool.js';

/**
 * The test plugin every host test loads by path: one trivial read tool, one that outlives its
 * timeout, one unsafe tool, and a route on the tools server.
 */
export const SLOW_TOOL_TIMEOUT_MS = 150;

const echoText = defineTool({
  name: 'echo_text',
  title: 'Echo text',
  description: 'Returns the given text unchanged.',
  capability: 'read',
  input: z.object({ text: z.string().max(10_000).describe('any text') }),
  output: z.object({ text: z.string() }),
  hints: { openWorldHint: false },
  run: async ({ text }) => ({ text }),
});

const slowTool = (timeoutMs: number) => defineTool({
  name: 'slow_tool',
  title: 'Slow tool',
  description: `Sleeps longer than its ${timeoutMs} ms timeout (or for ms when given).`,
  capability: 'read',
  timeoutMs,
  input: z.object({ ms: z.number().int().min(0).max(60_000).optional() }),
  output: z.object({ slept_ms: z.number() }),
  run: async ({ ms }, ctx) => {
    const wait = ms ?? timeoutMs * 20;
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) return resolve();
      const timer = setTimeout(resolve, wait);
      ctx.signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
    });
    return { slept_ms: wait };
  },
});

const unsafeProbe = defineTool({
  name: 'unsafe_probe',
  title: 'Unsafe probe',
  description: 'Stands in for a wallet tool: unsafe, so hidden and refused unless unsafe tools are enabled.',
  capability: 'unsafe',
  input: z.object({}),
  output: z.object({ reached: z.literal(true) }),
  run: async () => ({ reached: true as const }),
});

export default definePlugin({
  name: 'fixture',
  description: 'Test fixture: echo_text, slow_tool, unsafe_probe and GET /fixture/ping on the tools server.',
  config: z.strictObject({
    greeting: z.string().default('pong'),
    /** slow_tool's timeout. */
    slowTimeoutMs: z.number().int().min(1).default(SLOW_TOOL_TIMEOUT_MS),
  }),
  /** What GET /fixture/ping answers with, from the environment (a plugin's own variable). */
  env: [{ variable: 'CHAIN_FIXTURE_GREETING', path: ['greeting'], type: 'string' }],
  init(ctx) {
    ctx.tools.add(echoText);
    ctx.tools.add(slowTool(ctx.options.slowTimeoutMs));
    ctx.tools.add(unsafeProbe);
    const router = new Router();
    router.get('/fixture/ping', (kctx) => {
      kctx.body = { [ctx.options.greeting]: true };
    });
    ctx.routes.add({ server: 'tools', id: 'fixture:ping', capability: 'read', router });
  },
});
