import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running one of the host's own modules: the `.ts` source when the caller runs
 * from source (tests, `tsx`: the worker registers tsx before it imports the entry), the compiled
 * `.js` beside the caller in dist/ otherwise. `entry` is the module's path relative to the caller,
 * without its extension (`./simulate-worker`); `callerUrl` is the caller's `import.meta.url`.
 * The entry reads its own `workerData` as usual (the two fields named below are added to it).
 */
export function startModuleWorker(callerUrl: string, entry: string, options: WorkerOptions = {}): Worker {
  const fromSource = callerUrl.endsWith('.ts');
  const entryUrl = new URL(`${entry}${fromSource ? '.ts' : '.js'}`, callerUrl).href;
  const data = (options.workerData ?? {}) as Record<string, unknown>;
  return new Worker(BOOTSTRAP, {
    ...options,
    eval: true,
    workerData: { ...data, moduleWorkerEntry: entryUrl, moduleWorkerTsx: fromSource ? tsxApi() : undefined },
  });
}

/** Evaluated as the worker's main script: registers tsx when running from TypeScript sources. */
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.moduleWorkerEntry.endsWith('.ts') && workerData.moduleWorkerTsx) (await import(workerData.moduleWorkerTsx)).register();
  await import(workerData.moduleWorkerEntry);
})();
`;

/** tsx's register() for the worker, when the host itself runs from TypeScript (tests, `tsx`). */
function tsxApi(): string | undefined {
  try {
    // The ESM entry of `tsx/esm/api` (require.resolve would pick the CommonJS one).
    const pkgFile = createRequire(import.meta.url).resolve('tsx/package.json');
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { exports: Record<string, { import?: { default?: string } }> };
    const entry = pkg.exports['./esm/api']?.import?.default;
    return entry ? pathToFileURL(join(dirname(pkgFile), entry)).href : undefined;
  } catch {
    return undefined;
  }
}
