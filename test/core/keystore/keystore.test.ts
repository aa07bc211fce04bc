import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { Wallet } from '../../../core/chain/keys.js';
import { Keystore } from '../../../core/keystore/keystore.js';
import { KeystoreError, openKey, parseKeystoreFile, sealKey } from '../../../core/keystore/keystore-file.js';

/** A cheap scrypt for tests; the format and checks are the same as with the default cost. */
const FAST = { n: 2 ** 10, r: 8, p: 1 };
const PASS = 'correct horse battery staple';

function code(expected: KeystoreError['code']) {
  return (err: unknown) => err instanceof KeystoreError && err.code === expected;
}

describe('keystore file format v1 (docs/keystore.md)', () => {
  it('round-trips a key under its passphrase, with the default scrypt cost (2^17)', async function () {
    this.timeout(20_000);
    const wallet = Wallet.generate();
    const file = await sealKey(wallet, 'alice', PASS);
    assert.equal(file.kdf.n, 2 ** 17);
    assert.equal((await openKey(file, PASS)).address, wallet.address);
  });

  it('holds no key in the clear: the file text has neither the seed nor its hex', async () => {
    const wallet = Wallet.generate();
    const text = JSON.stringify(await sealKey(wallet, 'alice', PASS, FAST));
    assert.ok(!text.includes(wallet.exportPrivateKey()));
    assert.ok(!text.includes(Buffer.from(wallet.exportSeed()).toString('base64')));
  });

  it('refuses a wrong passphrase, and a file whose alias or address was edited', async () => {
    const file = await sealKey(Wallet.generate(), 'alice', PASS, FAST);
    await assert.rejects(openKey(file, 'not the passphrase'), code('wrong_passphrase'));
    await assert.rejects(openKey({ ...file, alias: 'bob' }, PASS), code('wrong_passphrase'));
    await assert.rejects(openKey({ ...file, address: Wallet.generate().address }, PASS), code('wrong_passphrase'));
  });

  it('refuses short passphrases, bad aliases, and planted files asking for absurd scrypt costs', async () => {
    await assert.rejects(sealKey(Wallet.generate(), 'alice', 'short', FAST), code('weak_passphrase'));
    await assert.rejects(sealKey(Wallet.generate(), '../etc', PASS, FAST), code('invalid_alias'));
    const file = await sealKey(Wallet.generate(), 'alice', PASS, FAST);
    assert.throws(() => parseKeystoreFile({ ...file, kdf: { ...file.kdf, n: 2 ** 30 } }, 'f'), code('invalid_file'));
    assert.throws(() => parseKeystoreFile({ ...file, version: 2 }, 'f'), /version 2/);
    assert.deepEqual(parseKeystoreFile(JSON.parse(JSON.stringify(file)), 'f'), file);
  });
});

describe('Keystore under <home>/keys', () => {
  let home: string;
  beforeEach(async () => { home = await mkdtemp(path.join(os.tmpdir(), 'chain-keystore-')); });
  afterEach(() => rm(home, { recursive: true, force: true }));

  it('adds, lists without a passphrase, unlocks by alias or address, removes', async () => {
    const store = new Keystore(home, { scrypt: FAST });
    const a = Wallet.generate();
    const b = Wallet.generate();
    await store.add('alice', a, PASS);
    await store.add('bob', b, PASS);
    assert.deepEqual((await store.list()).map((e) => [e.alias, e.address]), [['alice', a.address], ['bob', b.address]]);
    const unlocked = await store.unlock(PASS);
    assert.equal(unlocked.find('ALICE')?.wallet.address, a.address);
    assert.equal(unlocked.find(b.address)?.entry.alias, 'bob');
    assert.equal(unlocked.find('carol'), null);
    // What a log or an answer could show of the unlocked accounts: aliases and addresses only.
    for (const shown of [JSON.stringify(unlocked), inspect(unlocked, { depth: 9 }), JSON.stringify(unlocked.find('alice'))]) {
      assert.ok(!shown.includes(a.exportPrivateKey()) && !shown.includes(b.exportPrivateKey()), shown);
    }
    await store.remove('bob');
    assert.deepEqual((await store.list()).map((e) => e.alias), ['alice']);
    await assert.rejects(store.remove('bob'), code('not_found'));
  });

  it('writes the folder 0700 and each file 0600, leaving no temp file', async () => {
    const store = new Keystore(home, { scrypt: FAST });
    await store.add('alice', Wallet.generate(), PASS);
    assert.equal((await stat(store.dir)).mode & 0o777, 0o700);
    assert.equal((await stat(path.join(store.dir, 'alice.json'))).mode & 0o777, 0o600);
    assert.deepEqual(await readdir(store.dir), ['alice.json']);
  });

  it('keeps one passphrase per keystore, unique aliases and unique addresses', async () => {
    const store = new Keystore(home, { scrypt: FAST });
    const a = Wallet.generate();
    await store.add('alice', a, PASS);
    await assert.rejects(store.add('bob', Wallet.generate(), 'another passphrase'), code('wrong_passphrase'));
    await assert.rejects(store.add('Alice', Wallet.generate(), PASS), code('duplicate'));
    await assert.rejects(store.add('alice2', a, PASS), /already stored as "alice"/);
    await assert.rejects(store.unlock('another passphrase'), code('wrong_passphrase'));
  });

  it('names a damaged or renamed file instead of skipping it', async () => {
    const store = new Keystore(home, { scrypt: FAST });
    await store.add('alice', Wallet.generate(), PASS);
    const text = await readFile(path.join(store.dir, 'alice.json'), 'utf8');
    await writeFile(path.join(store.dir, 'mallory.json'), text);
    await assert.rejects(store.list(), /mallory\.json: records the account "alice"/);
    await writeFile(path.join(store.dir, 'mallory.json'), '{');
    await assert.rejects(store.list(), /mallory\.json: not valid JSON/);
  });
});
