import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits, type TransferListItem } from 'node:worker_threads';

/**
 * Starts one of the node's worker threads (dry runs, block execution) from its module beside
 * this file, also when the node itself runs from TypeScript sources (tests, `tsx`): the worker's
 * main script registers tsx before importing the entry.
 */
export function startNodeWorker(
  entry: 'simulate-worker' | 'block-worker',
  workerData: object,
  transferList: TransferListItem[],
  resourceLimits?: ResourceLimits,
): Worker {
  const options = { eval: true, workerData: { ...workerData, entry: workerEntry(entry), tsx: tsxApi() }, transferList, ...(resourceLimits ? { resourceLimits } : {}) };
  return new Worker(workerBootstrap, options);
}

/** Evaluated as the worker's main script: registers tsx when running from TypeScript sources. */
const workerBootstrap = `
const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.entry.endsWith('.ts') && workerData.tsx) (await import(workerData.tsx)).register();
  await import(workerData.entry);
})();
`;

function workerEntry(name: string): string {
  const ts = import.meta.url.endsWith('.ts');
  return new URL(ts ? `./${name}.ts` : `./${name}.js`, import.meta.url).href;
}

/** tsx's register() for the worker, when the node itself runs from TypeScript (tests, `tsx`). */
function tsxApi(): string | undefined {
  if (!import.meta.url.endsWith('.ts')) return undefined;
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
