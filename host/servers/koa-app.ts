import Koa from 'koa';
import { ApiError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { hostHeaderRefusal, loopbackHostHeaderAllowed } from '../../core/net/host-header.js';
import type { RouteContribution, ServerDeclaration } from '../../core/routes.js';
import { asApiError } from './error-answer.js';

/**
 * One koa app per declared server: the host's outer middleware (metrics, which must see the
 * final status), the shared error shape for every failure, the Host check of a query service
 * bound to loopback, the server's own middleware (limits, auth), then every contributed router.
 * (The tool server checks Host in its own guards, with its publish host and CORS.)
 */
export function createKoaApp(declaration: ServerDeclaration, routes: readonly RouteContribution[], log: Logger, outer: readonly Koa.Middleware[] = []): Koa {
  const app = new Koa();
  app.proxy = false;
  app.silent = true;
  for (const mw of outer) app.use(mw);
  app.use(errorShape(log.child(declaration.name)));
  const hostAllowed = declaration.kind === 'query' ? loopbackHostHeaderAllowed(declaration.host) : null;
  if (hostAllowed) app.use(queryHostCheck(hostAllowed));
  for (const mw of declaration.middleware ?? []) app.use(mw);
  for (const route of routes) {
    app.use(route.router.routes());
    app.use(route.router.allowedMethods({ throw: true, notImplemented: () => new ApiError(501, 'not_implemented', 'this HTTP method is not implemented by the server'), methodNotAllowed: () => new ApiError(405, 'method_not_allowed', 'method not allowed on this path') }));
  }
  // No catch-all that throws here: a throw would unwind through every router's
  // allowedMethods() before it can answer 405/OPTIONS. errorShape renders the 404 instead.
  return app;
}

function errorShape(log: Logger): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      // Nothing answered (koa's default 404 with no body), unless a handler took over the raw response.
      if (ctx.status === 404 && ctx.body == null && ctx.respond !== false) {
        throw ApiError.notFound(`no route for ${ctx.method} ${ctx.path}`, { path: ctx.path });
      }
    } catch (err) {
      const apiError = asApiError(err);
      if (apiError.status >= 500 && !(err instanceof ApiError)) {
        log.error(`${ctx.method} ${ctx.path} failed`, { error: err instanceof Error ? err.stack ?? err.message : String(err) });
      }
      ctx.status = apiError.status;
      for (const [k, v] of Object.entries(apiError.headers)) ctx.set(k, v);
      ctx.body = apiError.toBody();
    }
  };
}

/** Refuses a request whose Host does not name this loopback server (DNS rebinding) with 403. */
function queryHostCheck(allowed: NonNullable<ReturnType<typeof loopbackHostHeaderAllowed>>): Koa.Middleware {
  return (ctx, next) => {
    const header = ctx.req.headers.host;
    if (!allowed(header, ctx.req.socket)) throw new ApiError(403, 'forbidden', hostHeaderRefusal(header), { host: (header ?? '').slice(0, 200) });
    return next();
  };
}
