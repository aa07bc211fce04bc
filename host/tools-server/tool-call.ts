import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../core/errors.js';
import { readJsonRequest } from '../../core/http/json-body.js';
import type { ToolInvoker } from '../../core/tools/tool-invoker.js';
import type { CallLimit } from './call-limit.js';

/**
 * One HTTP tool call, `POST /tools/{name}` (spec part 4): the JSON object of arguments from the
 * body, a slot under the in-flight cap, then the host's ToolInvoker (policy, validation,
 * timeout, output check). Resolves with the tool's structured result (the body wraps it as
 * `{"result": …}`); every failure is an ApiError. Bad arguments answer 422 as upstream's HTTP
 * API does (mcp.md §7.1); MCP and the dashboard keep the code without the status. Shared by the
 * direct node:http path and the koa route.
 */
export interface HttpToolCall {
  (name: string, req: IncomingMessage): Promise<Record<string, unknown>>;
}

export function httpToolCall(invoker: ToolInvoker, limit: CallLimit, bodyLimitBytes: number): HttpToolCall {
  // No client-disconnect signal on purpose: linking one more AbortSignal costs ~10 µs per call
  // in Node 20, and every call already ends at its timeout.
  return async (name, req) => {
    let entered = false;
    try {
      // The body first: a client still sending one (a slow upload) holds no slot of the cap,
      // so slow clients cannot lock out the others; the server's requestTimeout ends it.
      const args = await readJsonRequest(req, bodyLimitBytes);
      limit.enter();
      entered = true;
      return await invoker.call(name, args, 'http');
    } catch (err) {
      if (err instanceof ApiError && err.code === 'invalid_arguments' && err.status === 400) {
        throw new ApiError(422, err.code, err.message, err.details, err.headers);
      }
      throw err;
    } finally {
      if (entered) limit.leave();
    }
  };
}
