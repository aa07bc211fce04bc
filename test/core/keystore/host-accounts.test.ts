import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Wallet } from '../../../core/chain/keys.js';
import { ApiError, BootError } from '../../../core/errors.js';
import { HostAccounts } from '../../../core/keystore/host-accounts.js';
import { sealKey } from '../../../core/keystore/keystore-file.js';
import { Keystore } from '../../../core/keystore/keystore.js';
import { passphraseFromEnvironment } from '../../../core/keystore/passphrase-source.js';

const FAST = { n: 2 ** 10, r: 8, p: 1 };
const PASS = 'correct horse battery staple';

describe('host accounts: start-up checks the passphrase once, each account opens on first use', () => {
  let home: string;
  beforeEach(async () => { home = await mkdtemp(path.join(os.tmpdir(), 'chain-accounts-')); });
  afterEach(() => rm(home, { recursive: true, force: true }));

  it('unlock decrypts one account only: one sealed under another passphrase is found on its first use, not at start', async () => {
    const alice = Wallet.generate();
    const bob = Wallet.generate();
    await new Keystore(home, { scrypt: FAST }).add('alice', alice, PASS);
    // Written by hand under another passphrase (chain-keys refuses to mix passphrases).
    await writeFile(path.join(home, 'keys', 'bob.json'), JSON.stringify(await sealKey(bob, 'bob', 'another passphrase entirely', FAST)), { mode: 0o600 });
    const accounts = new HostAccounts(home);
    await accounts.unlock(PASS);
    assert.equal(accounts.size, 2);
    assert.deepEqual(accounts.entries().map((e) => e.alias), ['alice', 'bob']);
    assert.equal((await accounts.signer('ALICE')).wallet.address, alice.address);
    assert.equal((await accounts.signer(`0x${alice.address}`)).entry.alias, 'alice');
    await assert.rejects(accounts.signer('bob'), (err: unknown) => err instanceof ApiError && err.code === 'keystore_account_sealed' && /account "bob" cannot be opened/.test(err.message));
    await assert.rejects(accounts.signer('carol'), (err: unknown) => err instanceof ApiError && /no keystore account "carol".*alice, bob.*list_accounts/.test(err.message));
  });

  it('concurrent first uses of one account share one decryption', async () => {
    const alice = Wallet.generate();
    await new Keystore(home, { scrypt: FAST }).add('alice', alice, PASS);
    await new Keystore(home, { scrypt: FAST }).add('zed', Wallet.generate(), PASS);
    const accounts = new HostAccounts(home);
    await accounts.unlock(PASS);
    const [a, b] = await Promise.all([accounts.signer('zed'), accounts.signer('zed')]);
    assert.equal(a.wallet, b.wallet);
  });

  it('a wrong passphrase is still a one-line BootError at unlock, naming no secret', async () => {
    await new Keystore(home, { scrypt: FAST }).add('alice', Wallet.generate(), PASS);
    await assert.rejects(new HostAccounts(home).unlock('not the passphrase'), (err: unknown) => err instanceof BootError && /cannot unlock the keystore/.test(err.message) && !err.message.includes('not the passphrase'));
  });
});

describe('CHAIN_KEYSTORE_PASSPHRASE_FILE', () => {
  let dir: string;
  beforeEach(async () => { dir = await mkdtemp(path.join(os.tmpdir(), 'chain-passfile-')); });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads a 0600 file, without its one trailing line break', async () => {
    const file = path.join(dir, 'passphrase');
    await writeFile(file, `${PASS}\n`, { mode: 0o600 });
    assert.equal(await passphraseFromEnvironment({ CHAIN_KEYSTORE_PASSPHRASE_FILE: file }), PASS);
    assert.equal(await passphraseFromEnvironment({ CHAIN_KEYSTORE_PASSPHRASE: PASS }), PASS);
    assert.equal(await passphraseFromEnvironment({}), null);
  });

  it('refuses a file its group or others can read, an empty one, a folder, a missing one, and both variables at once', async () => {
    const file = path.join(dir, 'passphrase');
    await writeFile(file, PASS, { mode: 0o600 });
    await chmod(file, 0o640);
    await assert.rejects(passphraseFromEnvironment({ CHAIN_KEYSTORE_PASSPHRASE_FILE: file }), (err: Error) => err instanceof BootError && err.message.includes(`${file} can be read by its group or others (mode 0640); make it private with "chmod 600 ${file}"`));
    await chmod(file, 0o604);
    await assert.rejects(passphraseFromEnvironment({ CHAIN_KEYSTORE_PASSPHRASE_FILE: file }), /mode 0604/);
    const empty = path.join(dir, 'empty');
    await writeFile(empty, '\n', { mode: 0o600 });
    await assert.rejects(passphraseFromEnvironment({ CHAIN_KEYSTORE_PASSPHRASE_FILE: empty }), /is empty/);
    await mkdir(path.join(dir, 'folder'), { mode: 0o700 });
    await assert.rejects(passphraseFromEnvironment({ CHAIN_KEYSTORE_PASSPHRASE_FILE: path.join(dir, 'folder') }), /not a regular file/);
    await assert.rejects(passphraseFromEnvironment({ CHAIN_KEYSTORE_PASSPHRASE_FILE: path.join(dir, 'missing') }), /cannot read .*ENOENT/);
    await chmod(file, 0o600);
    await assert.rejects(passphraseFromEnvironment({ CHAIN_KEYSTORE_PASSPHRASE_FILE: file, CHAIN_KEYSTORE_PASSPHRASE: PASS }), /both CHAIN_KEYSTORE_PASSPHRASE and CHAIN_KEYSTORE_PASSPHRASE_FILE are set/);
  });
});

describe('host accounts: a keystore with no accounts says where it looked and how to point at another', () => {
  let home: string;
  beforeEach(async () => { home = await mkdtemp(path.join(os.tmpdir(), 'chain-accounts-empty-')); });
  afterEach(() => rm(home, { recursive: true, force: true }));

  const pointsElsewhere = (err: unknown) =>
    err instanceof ApiError && err.details?.field === 'account'
    && err.message.includes(path.join(home, 'keys')) && /absolute CHAIN_HOME/.test(err.message) && /"home" in its config/.test(err.message);

  it('unlocked (a passphrase, no account files): names the folder and CHAIN_HOME', async () => {
    const accounts = new HostAccounts(home);
    await accounts.unlock(PASS);
    await assert.rejects(accounts.signer('dev0'), pointsElsewhere);
  });

  it('locked (no passphrase, no account files): the same, and how to give the passphrase', async () => {
    const accounts = new HostAccounts(home);
    await accounts.hasAccounts();
    await assert.rejects(accounts.signer('dev0'), (err: unknown) => pointsElsewhere(err) && /CHAIN_KEYSTORE_PASSPHRASE_FILE/.test((err as Error).message));
  });
});
