import Router from '@koa/router';
import type Koa from 'koa';
import { ruruHTML } from 'ruru/server';
import { getStaticFile } from 'ruru/static';

/** Where the IDE's own scripts, styles and workers are served: from the `ruru` package in node_modules, never a CDN. */
export const IDE_STATIC_PATH = '/graphiql/static/';

/**
 * The page may load only what this server serves: its scripts (inline ones included — Ruru's
 * page boots with a few), styles, fonts and Monaco's workers; its queries go to the same origin.
 * A machine offline loads it in full; nothing leaks a visit to a CDN.
 */
const IDE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

/**
 * A GraphQL IDE — Ruru, PostGraphile's GraphiQL distribution (what PostGraphile serves at
 * `/graphiql`) — for `endpoint`: the HTML page at `GET /graphiql` (and, through `sendIdePage`, a
 * browser's `GET` of the endpoint), its assets under `/graphiql/static/`. The routes sit on the
 * GraphQL server, so its Host check, limits and bind rules apply to them as to `POST /graphql`.
 */
export function ideRouter(endpoint: string): Router {
  const router = new Router();
  router.get('/graphiql', (ctx) => sendIdePage(ctx, endpoint));
  router.get(`${IDE_STATIC_PATH}:file`, async (ctx) => {
    const file = await getStaticFile({ staticPath: IDE_STATIC_PATH, urlPath: ctx.path, acceptEncoding: ctx.get('accept-encoding'), disallowDevAssets: true });
    if (!file) {
      ctx.status = 404;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = `no IDE asset ${ctx.params.file}`;
      return;
    }
    ctx.set(file.headers);
    // The bundle is fixed per installed version: a browser may keep it (its etag names its content).
    ctx.set({ 'Cache-Control': 'public, max-age=3600', 'X-Content-Type-Options': 'nosniff' });
    ctx.body = file.content;
  });
  return router;
}

export function sendIdePage(ctx: Koa.Context, endpoint: string): void {
  ctx.set(IDE_HEADERS);
  ctx.type = 'text/html; charset=utf-8';
  // An empty icon: a browser would otherwise ask this server for /favicon.ico, which it has not.
  ctx.body = ruruHTML({ endpoint, staticPath: IDE_STATIC_PATH, htmlParts: { metaTags: (base: string) => `${base}\n<link rel="icon" href="data:,">` } });
}
