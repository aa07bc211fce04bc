import type { RouteContribution } from '../../core/routes.js';

/**
 * Where a contributed router answers on its server: its paths when it has a few, else the
 * longest common path prefix of them all (`/api/…`), so `--check` and the start banner say
 * where a plugin's route is mounted without listing a whole REST surface.
 */
export function routeMount(route: RouteContribution): string {
  const layers = (route.router as unknown as { stack?: Array<{ path?: unknown; methods?: unknown }> }).stack ?? [];
  const paths = [...new Set(layers.map((l) => (typeof l.path === 'string' ? l.path : '')).filter((p) => p.length > 0))];
  if (paths.length === 0) return '/';
  if (paths.length <= 4) return paths.join('  ');
  const segments = paths.map((p) => p.split('/'));
  const common: string[] = [];
  for (let i = 0; ; i++) {
    const part = segments[0]![i];
    // A parameter (`:name`) is not a fixed prefix.
    if (part === undefined || part.startsWith(':') || !segments.every((s) => s[i] === part && s.length > i + 1)) break;
    common.push(part);
  }
  const prefix = common.join('/');
  return `${prefix}/… (${paths.length} paths)`;
}
