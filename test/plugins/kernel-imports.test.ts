import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../support/test-host.js';
import { buildPublicApi } from '../support/third-party-package.js';

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && /\.ts$/.test(e.name)).map((e) => path.join(e.parentPath, e.name));
}

/**
 * Our plugins are written as a third party's would be (DESIGN "Public entry points"): they reach
 * the kernel and the chain SDK only through `chainhost/plugin` and `chainhost/chain`, never a
 * file under core/ or host/.
 */
describe('plugins and the kernel', function () {
  this.timeout(300_000);

  it('every plugin imports the kernel only through chainhost/plugin and chainhost/chain', async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles(path.join(REPO_ROOT, 'plugins'))) {
      const text = await readFile(file, 'utf8');
      for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)) {
        const specifier = m[1]!;
        if (!specifier.startsWith('.')) continue;
        const target = path.relative(REPO_ROOT, path.resolve(path.dirname(file), specifier));
        if (/^(core|host)\//.test(target)) offenders.push(`${path.relative(REPO_ROOT, file)} imports ${specifier}`);
      }
    }
    assert.deepEqual(offenders, []);
  });

  it('a source host whose plugins load the built kernel stops at once, saying how to run from source', async () => {
    await buildPublicApi();
    const script = `await import(${JSON.stringify(path.join(REPO_ROOT, 'host/host.ts'))}); await import(${JSON.stringify(path.join(REPO_ROOT, 'plugins/crypto/index.ts'))});`;
    // No --conditions=chainhost-source (and no NODE_OPTIONS carrying it): `chainhost/plugin` is dist/.
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } });
    await assert.rejects(run, (err: { stderr?: string }) => {
      assert.match(err.stderr ?? '', /chainhost's kernel is loaded twice, from \S+\/core\/single-kernel\.ts and \S+\/dist\/core\/single-kernel\.js: run from source with node --conditions=chainhost-source/);
      return true;
    });
  });
});
