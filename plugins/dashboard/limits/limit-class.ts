/**
 * Which bucket a request draws from (dashboard.md §5.2). `api`: the two cheap routes;
 * `expensive`: every other `/api/*` route — one shared bucket per client — and the explorer
 * pages, which upstream served as static files but chainhost renders from node reads;
 * `websocket`: upgrades on `/ws`. Null: not limited (the `/` redirect).
 */
export type LimitClass = 'api' | 'expensive' | 'websocket';

const CHEAP = new Set(['/api/config', '/api/status']);

export function limitClassOf(path: string): LimitClass | null {
  if (CHEAP.has(path)) return 'api';
  if (path.startsWith('/api/') || path === '/api') return 'expensive';
  if (path === '/explorer' || path.startsWith('/explorer/')) return 'expensive';
  if (path === '/ws') return 'websocket';
  return null;
}
