import { createHash } from 'node:crypto';
import type Router from '@koa/router';
import { LIVE_SCRIPT } from './live-script.js';

export const LIVE_SCRIPT_PATH = '/explorer/assets/live.js';
const ETAG = `"${createHash('sha256').update(LIVE_SCRIPT).digest('hex').slice(0, 16)}"`;

/** Serves the live-update script from the explorer's own origin (the CSP allows `script-src 'self'` only). */
export function addLiveScriptRoute(router: Router): void {
  router.get(LIVE_SCRIPT_PATH, (ctx) => {
    ctx.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=300', ETag: ETAG });
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = LIVE_SCRIPT;
  });
}
