import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { outputOf, stderrUntil } from '../../support/child-output.js';
import { REPO_ROOT } from '../../support/test-host.js';

const TSX = path.join(REPO_ROOT, 'node_modules/tsx/dist/esm/index.mjs');

function chainDevnet(args: string[], cwd: string): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', TSX, path.join(REPO_ROOT, 'host/bin/chain-devnet.ts'), ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** `chain-devnet --home X --bds`, as typed: the index lives under X, and an index of another chain there is refused by name. */
describe('chain-devnet --home <dir> --bds', function () {
  this.timeout(400_000);
  let cwd: string;
  before(async () => {
    cwd = await mkdtemp(path.join(os.tmpdir(), 'chain-devnet-home-'));
  });
  after(() => rm(cwd, { recursive: true, force: true }));

  it('keeps the chain and its index under <dir>, never in ./.chain', async () => {
    const child = chainDevnet(['--home', 'X', '--bds', '--port', '0', '--metrics-port', '0'], cwd);
    child.stdout.resume();
    try {
      await stderrUntil(child, /^BDS: index database ready|^chain-devnet: node: /m, 300_000);
      assert.ok(existsSync(path.join(cwd, 'X/devnet')), 'chain data in X/devnet');
      assert.ok(existsSync(path.join(cwd, 'X/bds')), 'the index in X/bds');
      assert.ok(!existsSync(path.join(cwd, '.chain')), 'nothing in ./.chain');
      // Let the index take the genesis blocks before stopping.
      await stderrUntil(child, /^BDS: index database ready/m, 300_000).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 3_000));
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });

  it('refuses, naming the index and both chain ids, when the index there holds another chain', async () => {
    const child = chainDevnet(['--home', 'X', '--bds', '--reset', '--chain-id', 'another-chain-1', '--port', '0', '--metrics-port', '0'], cwd);
    const { code, stderr } = await outputOf(child);
    assert.equal(code, 1, stderr);
    const index = path.join(cwd, 'X/bds');
    assert.ok(stderr.includes(`the BDS index at PGlite at ${index}`), stderr);
    assert.match(stderr, /holds chain "chain-local-1" \(up to block \d+\) but the node is chain "another-chain-1"; remove .* or run chain-bds-reindex --reset/);
  });
});
