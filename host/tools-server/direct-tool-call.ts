import type { ServerResponse } from 'node:http';
import { ApiError, toApiError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { DirectHandler } from '../../core/routes.js';
import { asApiError } from '../servers/error-answer.js';
import type { ToolsHttpGate } from './http-guards.js';
import type { HttpToolCall } from './tool-call.js';

const PREFIX = '/tools/';
/** The route pattern metrics count these calls under, as koa's router names it. */
export const TOOL_CALL_ROUTE = '/tools/:name';

/**
 * `POST /tools/{name}` straight on node:http. A tool call is the hot path of the tool server,
 * and for a cheap read koa's per-request context, router match and response machinery cost
 * about as much as the tool itself; this answers with the same guards, body rules, error shape
 * and headers as the koa route. Anything it does not recognise (other methods, a path with
 * more segments, a trailing slash) goes on to koa.
 */
export function directToolCall(gate: ToolsHttpGate, call: HttpToolCall, log: Logger): DirectHandler {
  return (req, res, answered) => {
    const url = req.url;
    if (req.method !== 'POST' || url === undefined || !url.startsWith(PREFIX)) return false;
    const name = toolName(url);
    if (name === null) return false;
    void answer(name);
    return true;

    /** One async function per call, settling nothing anyone awaits: every failure ends in here. */
    async function answer(tool: string): Promise<void> {
      const started = performance.now();
      let status = 200;
      let body: unknown;
      let headers: Record<string, string> | null = null;
      try {
        headers = gate.check(req).headers;
        body = { result: await call(tool, req) };
      } catch (err) {
        const apiError = asApiError(err);
        if (apiError.status >= 500 && !(err instanceof ApiError)) {
          log.error(`POST ${PREFIX}${tool} failed`, { error: err instanceof Error ? err.stack ?? err.message : String(err) });
        }
        status = apiError.status;
        headers = { ...headers, ...apiError.headers };
        body = apiError.toBody();
      }
      try {
        let text: string;
        try {
          text = JSON.stringify(body);
        } catch (err) {
          // Validated output is JSON; if a bug ever breaks that, the client still gets an answer.
          log.error(`POST ${PREFIX}${tool}: the answer is not JSON`, { error: err instanceof Error ? err.message : String(err) });
          status = 500;
          text = JSON.stringify(toApiError(err).toBody());
        }
        send(res, status, text, gate.alwaysHeaders, headers);
        answered(TOOL_CALL_ROUTE, 'POST', status, performance.now() - started);
      } catch (err) {
        // Nothing may escape as an unhandled rejection: it would take the whole server down.
        log.error(`POST ${PREFIX}${tool}: sending or recording the answer failed`, { error: err instanceof Error ? err.message : String(err) });
      }
    }
  };
}

/** The one path segment after `/tools/`, percent-decoded; null when the path has more segments or none. */
function toolName(url: string): string | null {
  const query = url.indexOf('?', PREFIX.length);
  const raw = url.slice(PREFIX.length, query === -1 ? undefined : query);
  if (raw === '' || raw.includes('/')) return null;
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function send(res: ServerResponse, status: number, text: string, always: Readonly<Record<string, string>>, extra: Record<string, string> | null): void {
  if (res.destroyed) return;
  res.statusCode = status;
  for (const key in always) res.setHeader(key, always[key]!);
  if (extra) for (const key in extra) res.setHeader(key, extra[key]!);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
