import { execFile } from 'node:child_process';
import { mkdir, readlink, symlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './test-host.js';

/** The example plugin package: its own package.json and tsconfig, depending on the host by `file:../..`. */
export const THIRD_PARTY = path.join(REPO_ROOT, 'examples/third-party-plugin');

const run = promisify(execFile);
const TSC = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');

let built: Promise<void> | undefined;
let apiBuilt: Promise<void> | undefined;

/**
 * The host's public entry points with their declarations, once per process: tsconfig.api.json
 * compiles only what `chainhost/plugin` and `chainhost/chain` reach, into dist/, as `npm run
 * build` would — what a package depending on chainhost compiles against and loads.
 */
export function buildPublicApi(): Promise<void> {
  apiBuilt ??= tsc(['-p', path.join(REPO_ROOT, 'tsconfig.api.json')]);
  return apiBuilt;
}

/**
 * Builds what a third party compiles against and loads, once per process: the public entry
 * points (buildPublicApi), the `file:` link npm makes for the example's dependency
 * (node_modules/chainhost → ../../..), then the example with its own tsconfig. A type error in
 * the example fails here with the compiler's output.
 */
export function buildThirdPartyPackage(): Promise<void> {
  built ??= (async () => {
    await buildPublicApi();
    await linkHost(THIRD_PARTY);
    await tsc(['-p', path.join(THIRD_PARTY, 'tsconfig.json')]);
  })();
  return built;
}

export async function tsc(args: string[]): Promise<void> {
  try {
    await run(process.execPath, [TSC, ...args], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`tsc ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? ''}` || e.message);
  }
}

/** What npm does for a `"chainhost": "file:…"` dependency: `<dir>/node_modules/chainhost` → the host's folder. */
export async function linkHost(dir: string): Promise<void> {
  const link = path.join(dir, 'node_modules/chainhost');
  const existing = await readlink(link).catch(() => null);
  if (existing !== null && path.resolve(path.dirname(link), existing) === REPO_ROOT) return;
  await mkdir(path.dirname(link), { recursive: true });
  await symlink(path.relative(path.dirname(link), REPO_ROOT), link, 'dir');
}
