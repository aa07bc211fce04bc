import type { IncomingMessage } from 'node:http';
import { readJsonRequest } from '../../core/http/json-body.js';
import type { ToolInvoker } from '../../core/tools/tool-invoker.js';
import type { CallLimit } from './call-limit.js';

/**
 * One HTTP tool call, `POST /tools/{name}` (spec part 4): a slot under the in-flight cap, the
 * JSON object of arguments from the body, then the host's ToolInvoker (policy, validation,
 * timeout, output check). Resolves with the tool's structured result, the response body; every
 * failure is an ApiError. Shared by the direct node:http path and the koa route.
 */
export interface HttpToolCall {
  (name: string, req: IncomingMessage): Promise<Record<string, unknown>>;
}

export function httpToolCall(invoker: ToolInvoker, limit: CallLimit, bodyLimitBytes: number): HttpToolCall {
  // No client-disconnect signal on purpose: linking one more AbortSignal costs ~10 µs per call
  // in Node 20, and every call already ends at its timeout.
  return async (name, req) => {
    limit.enter();
    try {
      const args = await readJsonRequest(req, bodyLimitBytes);
      return await invoker.call(name, args, 'http');
    } finally {
      limit.leave();
    }
  };
}
