import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The compiled build (`dist/`, what `npm start` runs) for benchmarks that serve HTTP. Under tsx
 * every closure is wrapped in a naming helper each time it is created, which makes code with
 * more closures look slower than it runs in production and tilts a ratio users never see.
 * `ensureBuild()` compiles the current sources once per process, so a figure never comes
 * from a stale build.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let built = false;

export function ensureBuild(): void {
  if (built) return;
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
  built = true;
}

/** Imports a module of the build by its source path, e.g. `host/host` → `dist/host/host.js`. */
export function importBuilt<T>(sourcePath: string): Promise<T> {
  return import(pathToFileURL(path.join(ROOT, 'dist', `${sourcePath}.js`)).href) as Promise<T>;
}
