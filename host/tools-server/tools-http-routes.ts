import Router from '@koa/router';
import type { Host } from '../host.js';
import type { HttpToolCall } from './tool-call.js';
import { SERVER_NAME, serverVersion } from './server-info.js';
import { toolListing } from './tool-listing.js';

/**
 * The HTTP tool API (spec part 4) in upstream's shapes (mcp.md §7.1): `GET /tools` is an array of
 * the tools the policy allows, each with `name`, `description` and `parameters` (plus our title,
 * capability, annotations and schemas); `POST /tools/{name}` calls one with a JSON object of its
 * arguments and answers `{"result": …}`, the tool's structured result (what MCP returns as
 * structuredContent).
 * Every call goes through the host's ToolInvoker, so policy, validation, timeout and output
 * checks are those of every other transport; failures are ApiErrors in the one error shape.
 */
export function addToolsHttpRoutes(router: Router, host: Host, options: { call: HttpToolCall }): void {
  // Upstream's shape ({status, tools}) plus ours; "ok" only when the node answers too: a tool
  // server whose node is down cannot answer its chain tools, so a health check must see it (503).
  router.get('/health', async (ctx) => {
    const node = await host.nodeHealth();
    const ok = node === null || node.ok;
    ctx.status = ok ? 200 : 503;
    ctx.body = {
      status: ok ? 'ok' : 'degraded',
      name: SERVER_NAME,
      version: serverVersion(),
      tools: host.invoker.visible().length,
      unsafe_tools_enabled: host.policy.unsafeEnabled,
      ...(node === null ? {} : { node: node.ok ? { ok: true } : { ok: false, error: `the node does not answer: ${node.error}` } }),
    };
  });
  router.get('/tools', (ctx) => {
    ctx.body = host.invoker.visible().map(toolListing);
  });
  // Normally answered by the direct handler (direct-tool-call.ts) before koa; this route serves
  // the same call for the paths that handler leaves to koa and gives GET /tools/{name} its 405.
  router.post('/tools/:name', async (ctx) => {
    ctx.body = { result: await options.call(ctx.params.name!, ctx.req) };
  });
}
