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

/**
 * Builds what a third party compiles against and loads, once per process: the host's public
 * entry points with their declarations (tsconfig.api.json — only what `chainhost/plugin` and
 * `chainhost/chain` reach, into dist/, as `npm run build` would), the `file:` link npm makes for
 * the example's dependency (node_modules/chainhost → ../../..), then the example with its own
 * tsconfig. A type error in the example fails here with the compiler's output.
 */
export function buildThirdPartyPackage(): Promise<void> {
  built ??= (async () => {
    await tsc(['-p', path.join(REPO_ROOT, 'tsconfig.api.json')]);
    await linkHost();
    await tsc(['-p', path.join(THIRD_PARTY, 'tsconfig.json')]);
  })();
  return built;
}

async function tsc(args: string[]): Promise<void> {
  try {
    await run(process.execPath, [TSC, ...args], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`tsc ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? ''}` || e.message);
  }
}

async function linkHost(): Promise<void> {
  const link = path.join(THIRD_PARTY, 'node_modules/chainhost');
  const existing = await readlink(link).catch(() => null);
  if (existing !== null && path.resolve(path.dirname(link), existing) === REPO_ROOT) return;
  await mkdir(path.dirname(link), { recursive: true });
  await symlink(path.relative(path.dirname(link), REPO_ROOT), link, 'dir');
}
