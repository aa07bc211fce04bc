import type Koa from 'koa';
import { ApiError, type Logger } from 'chainhost/plugin';
import { html } from './html.js';
import { renderPage, type PageView } from './layout.js';
import { normalizeRpcUrl } from '../reads/node-targets.js';
import { href } from './format.js';

/**
 * No inline script and no script from elsewhere (only the explorer's own `/explorer/assets/`
 * script, and its `/ws` connection), styles inline, nothing framed or cached (dashboard.md §3:
 * no-store pages).
 */
const HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store, max-age=0',
  Pragma: 'no-cache',
  Expires: '0',
};

export function sendPage(ctx: Koa.Context, view: PageView, rpc: string | null, status = 200): void {
  ctx.status = status;
  ctx.set(HEADERS);
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = renderPage(view, rpc);
}

/**
 * Explorer failures as pages, not JSON: a missing block is a 404 page, a bad parameter a 400
 * page, a rate limit a 429 page with Retry-After — same status codes and messages as the API.
 */
export function explorerErrorPages(log: Logger): Koa.Middleware {
  return async (ctx, next) => {
    if (!(ctx.path === '/explorer' || ctx.path.startsWith('/explorer/'))) return next();
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null) throw ApiError.notFound(`no explorer page at ${ctx.path}`, { path: ctx.path });
    } catch (err) {
      let error: ApiError;
      if (err instanceof ApiError) error = err;
      else {
        log.error(`GET ${ctx.path} failed`, { error: err instanceof Error ? err.stack ?? err.message : String(err) });
        error = new ApiError(500, 'internal_error', 'internal error; see the server log');
      }
      for (const [k, v] of Object.entries(error.headers)) ctx.set(k, v);
      // Links keep an inspected peer only when it was a usable one.
      const rpc = typeof ctx.query.rpc === 'string' && error.code !== 'unsupported_rpc_target' ? normalizeRpcUrl(ctx.query.rpc) : null;
      const body = html`<h1>${titleOf(error.status)}</h1>
<div class="card error"><p>${error.message}</p><p class="muted">HTTP ${error.status} · ${error.code}</p></div>
<p><a href="${href('/explorer', rpc)}">Back to the blocks</a></p>`;
      sendPage(ctx, { title: titleOf(error.status), section: null, body }, rpc, error.status);
    }
  };
}

function titleOf(status: number): string {
  if (status === 404) return 'Not found';
  if (status === 400) return 'Bad request';
  if (status === 429) return 'Too many requests';
  if (status === 503) return 'Busy or unavailable';
  if (status === 502 || status === 504) return 'Node unavailable';
  return 'Error';
}
