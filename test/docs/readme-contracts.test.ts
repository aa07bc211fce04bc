import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { compileContract } from '../../core/contracting/index.js';
import { REPO_ROOT } from '../support/test-host.js';
import { linkHost } from '../support/third-party-package.js';
import { commandShims, shellEnv } from '../support/doc-blocks.js';

const run = promisify(execFile);
const TSX = pathToFileURL(path.join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/** The README block marked `<!-- tested: <name> -->`. */
async function example(name: string): Promise<string> {
  const readme = await readFile(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const m = new RegExp(`^<!-- tested: ${name} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\`$`, 'm').exec(readme);
  assert.ok(m, `README.md has no <!-- tested: ${name} --> example`);
  return m[1]!;
}

/** The README's "Contracts" examples, run as written: the shell block with `chain-vm` on PATH, the TypeScript one against `chainhost/contracting`. */
describe('README: Contracts', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(async () => { dir = await mkdtemp(path.join(os.tmpdir(), 'readme-contracts-')); });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('compile-contract: chain-vm compile writes the artifact of the source', async () => {
    const bin = path.join(dir, 'bin');
    await mkdir(bin);
    const shim = path.join(bin, 'chain-vm');
    await writeFile(shim, `#!/bin/sh\nexec "${process.execPath}" --import "${TSX}" "${path.join(REPO_ROOT, 'host/bin/chain-vm.ts')}" "$@"\n`);
    await chmod(shim, 0o755);
    await run('bash', ['-e', '-c', await example('compile-contract')], {
      cwd: dir,
      env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '' },
    });
    const source = await readFile(path.join(dir, 'counter.py'), 'utf8');
    const expected = compileContract('con_counter', source);
    assert.ok(expected.ok);
    const artifact = JSON.parse(await readFile(path.join(dir, 'con_counter.artifact.json'), 'utf8'));
    assert.deepEqual(artifact, expected.artifact);
    assert.equal(artifact.format, 'xian_contract_artifact_v1');
    assert.deepEqual(JSON.parse(artifact.vm_ir_json).functions.map((f: { name: string }) => f.name), ['bump']);
  });

  it('compile-contract-ts: compileContract from chainhost/contracting prints the IR hash', async () => {
    await linkHost(dir);
    await writeFile(path.join(dir, 'main.ts'), await example('compile-contract-ts'));
    const { stdout } = await run(process.execPath, ['--import', TSX, '--conditions=chainhost-source', 'main.ts'], { cwd: dir });
    const expected = compileContract('con_counter', 'count = Variable()\n\n@export\ndef get():\n    return count.get()\n');
    assert.ok(expected.ok);
    assert.equal(stdout.trim(), expected.artifact.hashes.vm_ir_sha256);
  });

  it('vm-run: the request built from compile\'s output runs, seeding and observing a variable and a multi-part hash', async () => {
    const bin = await commandShims(dir);
    await run('bash', ['-e', '-c', await example('vm-run')], { cwd: dir, env: shellEnv(bin) });
    const result = JSON.parse(await readFile(path.join(dir, 'result.json'), 'utf8'));
    assert.equal(result.status, 0, JSON.stringify(result));
    assert.equal(result.result, 42);
    assert.deepEqual(result.state, {
      con_tally: {
        variables: [{ binding: 'total', value: 42 }],
        hashes: [{ binding: 'votes', entries: [{ key: ['yes', 'alice'], value: 1 }, { key: ['yes', 'bob'], value: 1 }] }],
      },
    });
    assert.deepEqual(result.events, []);
    assert.ok(result.chi_used > 5 && result.raw_cost > 0, JSON.stringify(result));
  });
});
