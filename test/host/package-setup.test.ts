import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../support/test-host.js';

const run = promisify(execFile);
const json = async (file: string) => JSON.parse(await readFile(path.join(REPO_ROOT, file), 'utf8'));

/**
 * What a fresh clone meets in its first minutes (issue #40): `npm install` ends without npm's
 * warning about dependency install scripts it skipped, and the first `npx <command>` in the
 * checkout does not recompile the whole package (npm links the checkout into its npx cache and
 * runs its `prepare`, the build, each time it does so).
 */
describe('package set-up: npm install and the first npx', function () {
  this.timeout(120_000);

  it('every dependency install script is reviewed in allowScripts (npm 11 lists none as skipped)', async function () {
    const listed = await run('npm', ['install-scripts', 'ls'], { cwd: REPO_ROOT, env: { ...process.env, npm_config_offline: 'true' } }).catch((err: { stdout?: string; stderr?: string }) => err);
    // npm before 11 runs every install script and has no allowScripts (nor this command).
    if (/Unknown command/i.test(`${listed.stdout ?? ''}${listed.stderr ?? ''}`)) this.skip();
    const stdout = listed.stdout ?? '';
    assert.match(stdout, /No packages with unreviewed install scripts/, stdout);
    assert.equal((await json('package.json')).allowScripts?.esbuild, true, 'tsx\'s esbuild checks its platform binary in postinstall');
  });

  it('the build (prepare) is incremental: tsc --build with its build info inside dist, so an up-to-date dist compiles nothing', async () => {
    const pkg = await json('package.json');
    assert.match(pkg.scripts.prepare, /^npm run build$/);
    assert.match(pkg.scripts.build, /^tsc -b tsconfig\.build\.json /);
    const build = await json('tsconfig.build.json');
    assert.equal(build.compilerOptions.incremental, true);
    assert.match(build.compilerOptions.tsBuildInfoFile, /^dist\//, 'deleting dist deletes the build info with it');
  });
});
