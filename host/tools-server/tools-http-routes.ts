import Router from '@koa/router';
import { readJsonBody } from '../../core/http/json-body.js';
import type { Host } from '../host.js';
import type { CallLimit } from './call-limit.js';
import { SERVER_NAME, serverVersion } from './server-info.js';
import { toolListing } from './tool-listing.js';

/**
 * The HTTP tool API (spec part 4): `GET /tools` lists the tools the policy allows,
 * `POST /tools/{name}` calls one with a JSON object of its arguments and answers with the
 * tool's structured result as the body (the same object MCP returns as structuredContent).
 * Every call goes through the host's ToolInvoker, so policy, validation, timeout and output
 * checks are those of every other transport; failures are ApiErrors in the one error shape.
 */
export function addToolsHttpRoutes(router: Router, host: Host, options: { bodyLimitBytes: number; limit: CallLimit }): void {
  router.get('/health', (ctx) => {
    ctx.body = {
      status: 'ok',
      name: SERVER_NAME,
      version: serverVersion(),
      tools: host.invoker.visible().length,
      unsafe_tools_enabled: host.policy.unsafeEnabled,
    };
  });
  router.get('/tools', (ctx) => {
    ctx.body = { tools: host.invoker.visible().map(toolListing) };
  });
  // No client-disconnect signal here on purpose: linking one more AbortSignal costs ~10 µs per
  // call in Node 20, and every call already ends at its timeout.
  router.post('/tools/:name', async (ctx) => {
    options.limit.enter();
    try {
      const args = await readJsonBody(ctx, options.bodyLimitBytes);
      ctx.body = await host.invoker.call(ctx.params.name!, args, 'http');
    } finally {
      options.limit.leave();
    }
  });
}
