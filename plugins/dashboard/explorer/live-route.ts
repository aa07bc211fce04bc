import { createHash } from 'node:crypto';
import type Router from '@koa/router';
import { EXPLORER_SCRIPT } from './explorer-script.js';

export const EXPLORER_SCRIPT_PATH = '/explorer/assets/explorer.js';
const ETAG = `"${createHash('sha256').update(EXPLORER_SCRIPT).digest('hex').slice(0, 16)}"`;

/** Serves the explorer's script from its own origin (the CSP allows `script-src 'self'` only). */
export function addExplorerScriptRoute(router: Router): void {
  router.get(EXPLORER_SCRIPT_PATH, (ctx) => {
    ctx.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=300', ETag: ETAG });
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = EXPLORER_SCRIPT;
  });
}
