import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * chainhost's package folder: the nearest package.json named chainhost above this file. Walked
 * up to, because the distance differs between the sources (host/) and the build (dist/host/).
 */
export function packageRoot(): string {
  if (cached) return cached;
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = path.dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'chainhost') return (cached = dir);
    } catch {
      // no package.json here; keep walking up
    }
    if (path.dirname(dir) === dir) return (cached = path.resolve(here, '..'));
  }
}
