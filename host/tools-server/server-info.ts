import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The name every tool surface reports (MCP `serverInfo.name`, `GET /health`). */
export const SERVER_NAME = 'chainhost';

let cachedVersion: string | undefined;

/**
 * The version in chainhost's own package.json. Found by walking up from this file, because the
 * relative distance differs between the sources (host/tools-server/) and the build
 * (dist/host/tools-server/); importing the JSON would copy it into dist instead.
 */
export function serverVersion(): string {
  if (cachedVersion) return cachedVersion;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === SERVER_NAME && pkg.version) return (cachedVersion = pkg.version);
    } catch {
      // no package.json here; keep walking up
    }
    const parent = path.dirname(dir);
    if (parent === dir) return (cachedVersion = '0.0.0');
    dir = parent;
  }
}
