import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { deriveFromMnemonic } from '../../../core/chain/hd-wallet.js';
import { Wallet } from '../../../core/chain/keys.js';
import { Keystore } from '../../../core/keystore/keystore.js';
import { REPO_ROOT } from '../../support/test-host.js';

const PASS = 'a keystore passphrase';
/** tsx by path: the child runs in the fresh home, where `--import tsx` would not resolve. */
const TSX = pathToFileURL(path.join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const MNEMONIC = 'test test test test test test test test test test test junk';

interface Run { code: number | null; stdout: string; stderr: string }

/**
 * `chain-keys …` as a user types it, in a child with no controlling terminal (detached), so a
 * missing passphrase is an error here rather than a prompt on the developer's terminal.
 */
function chainKeys(home: string, args: string[], options: { stdin?: string; passphrase?: string | null } = {}): Promise<Run> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', CHAIN_HOME: home };
  if (options.passphrase !== null) env.CHAIN_KEYSTORE_PASSPHRASE = options.passphrase ?? PASS;
  const child = spawn(process.execPath, ['--import', TSX, path.join(REPO_ROOT, 'host/bin/chain-keys.ts'), ...args], { cwd: home, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(options.stdin ?? '');
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('chain-keys create | import | list | remove', function () {
  this.timeout(120_000);
  let home: string;
  beforeEach(async () => { home = await mkdtemp(path.join(os.tmpdir(), 'chain-keys-')); });
  afterEach(() => rm(home, { recursive: true, force: true }));

  it('creates an account and prints only its alias and address', async () => {
    const created = await chainKeys(home, ['create', '--name', 'alice']);
    assert.equal(created.code, 0, created.stderr);
    const [, alias, address] = /^created (\S+) ([0-9a-f]{64})\n$/.exec(created.stdout) ?? [];
    assert.equal(alias, 'alice');
    const unlocked = await new Keystore(home).unlock(PASS);
    const wallet = unlocked.find('alice')!.wallet;
    assert.equal(wallet.address, address);
    assert.ok(!(created.stdout + created.stderr).includes(wallet.exportPrivateKey()));
    const listed = await chainKeys(home, ['list'], { passphrase: null });
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`^alice\\t${address}\\t\\d{4}-\\d\\d-\\d\\dT`));
  });

  it('imports a private key or a mnemonic + index from standard input', async () => {
    const key = Wallet.generate();
    const fromKey = await chainKeys(home, ['import', '--name', 'k'], { stdin: `0x${key.exportPrivateKey()}\n` });
    assert.equal(fromKey.code, 0, fromKey.stderr);
    assert.equal(fromKey.stdout, `imported k ${key.address}\n`);
    const fromWords = await chainKeys(home, ['import', '--name', 'dev3', '--index', '3'], { stdin: `${MNEMONIC}\n` });
    assert.equal(fromWords.code, 0, fromWords.stderr);
    assert.equal(fromWords.stdout, `imported dev3 ${deriveFromMnemonic(MNEMONIC, { index: 3 }).publicKey}\n`);
    for (const out of [fromKey, fromWords]) assert.ok(!(out.stdout + out.stderr).includes(key.exportPrivateKey()) && !(out.stdout + out.stderr).includes('junk'));
    assert.deepEqual((await readdir(path.join(home, 'keys'))).sort(), ['dev3.json', 'k.json']);
  });

  it('fails with one line, echoing no secret, on bad input, a wrong passphrase or no passphrase at all', async () => {
    const key = Wallet.generate().exportPrivateKey();
    const cases: [string[], { stdin?: string; passphrase?: string | null }, RegExp][] = [
      [['import', '--name', 'x'], { stdin: `${key.slice(0, 60)}\n` }, /neither a 64-hex private key nor a valid mnemonic/],
      [['import', '--name', 'x', '--index', '1'], { stdin: key }, /--index applies to a mnemonic/],
      [['create', '--name', '../x'], {}, /account name "\.\.\/x" is not allowed/],
      [['create', '--name', 'x'], { passphrase: 'short' }, /at least 8 characters/],
      [['create', '--name', 'x'], { passphrase: null }, /no keystore passphrase: set CHAIN_KEYSTORE_PASSPHRASE_FILE \(a file only you can read\) or CHAIN_KEYSTORE_PASSPHRASE, or run on a terminal/],
      [['remove', '--name', 'nobody'], {}, /no keystore account named "nobody"/],
    ];
    for (const [args, options, expected] of cases) {
      const r = await chainKeys(home, args, options);
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`^chain-keys: error: [^\\n]*${expected.source}[^\\n]*\\n$`));
      assert.ok(!r.stderr.includes(key.slice(0, 60)) && !r.stderr.includes('short'), r.stderr);
    }
    assert.equal((await chainKeys(home, ['create', '--name', 'alice'])).code, 0);
    const wrong = await chainKeys(home, ['create', '--name', 'bob'], { passphrase: 'not the passphrase' });
    assert.equal(wrong.code, 1);
    assert.equal(wrong.stderr, 'chain-keys: error: wrong passphrase for keystore account "alice" (or its file was altered)\n');
  });

  it('removes an account', async () => {
    await chainKeys(home, ['create', '--name', 'alice']);
    const removed = await chainKeys(home, ['remove', '--name', 'alice'], { passphrase: null });
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /^removed alice [0-9a-f]{64}\n$/);
    assert.equal((await chainKeys(home, ['list'])).stdout, '');
    assert.deepEqual(await readdir(path.join(home, 'keys')), []);
  });
});
