import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Wallet } from '../../../core/chain/keys.js';
import { Keystore } from '../../../core/keystore/keystore.js';
import { recordMcpTraffic } from '../../support/mcp-traffic.js';
import { scanForSecrets } from '../../support/secret-scan.js';
import { REPO_ROOT, writeTempConfig, type TestHost } from '../../support/test-host.js';
import { devAccount, devnetConfig, expectError, mcpCaller, tempHome, type ToolCaller } from './chain-tool-kit.js';

/**
 * Issue 22, "accounts in tools", through the MCP SDK client: keystore accounts sign sends,
 * messages and encryption without a key crossing MCP; `account` and `private_key` are exclusive;
 * `plugins.wallet.privateKeyArguments: false` takes raw keys out of every schema and refuses
 * them; `store_as` answers the address alone; a wrong passphrase stops the start in one line.
 * Every MCP message of these sessions, and every keystore file, goes through the suite's secret
 * scan, and each test also checks the accounts' keys directly.
 */

/** A cheap scrypt: the format and checks are those of the default cost. */
const FAST = { n: 2 ** 10, r: 8, p: 1 };
const PASS = 'correct horse battery staple';
const ALICE = Wallet.fromPrivateKey(devAccount(3).privateKey); // funded by the devnet
const BOB = Wallet.generate();
const PLUGINS = { wallet: {}, query: {}, crypto: {}, dex: {} };

interface Session {
  host: TestHost;
  call: ToolCaller;
  client: Client;
  /** Every JSON-RPC message of the session, both directions. */
  messages: string[];
  close(): Promise<void>;
}

/** An in-process host (in-process devnet) with the SDK client over the in-memory transport, recording every message. */
async function session(home: string, options: { passphrase?: string | null; wallet?: Record<string, unknown> } = {}): Promise<Session> {
  // The host and its plugins in one ESM graph (see chain-tool-kit's startHost).
  const { bootTestHost } = await import('../../support/test-host.js');
  const { createMcpServer } = await import('../../../host/tools-server/mcp-server.js');
  const passphrase = options.passphrase === undefined ? PASS : options.passphrase;
  const config = { ...devnetConfig(home, { plugins: { ...PLUGINS, wallet: options.wallet ?? {} } }), tools: { unsafe: true } };
  const host = await bootTestHost(config, { keystore: { passphrase: async () => passphrase, scrypt: FAST } });
  const server = createMcpServer(host.host, 'in-process');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const messages = recordMcpTraffic(clientSide, serverSide);
  await server.connect(serverSide);
  const client = new Client({ name: 'keystore-accounts-test', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    host, client, messages, call: mcpCaller(client),
    close: async () => {
      await client.close();
      await server.close();
      await host.stop();
    },
  };
}

/** The keystore files' text and the MCP messages: to the suite's scan, and checked here for each key. */
async function assertNoKeyLeft(home: string, messages: readonly string[], keys: readonly Wallet[]): Promise<void> {
  const dir = path.join(home, 'keys');
  const files = await readdir(dir).catch(() => [] as string[]);
  const texts = await Promise.all(files.map(async (f) => ({ where: `keystore file ${f}`, text: await readFile(path.join(dir, f), 'utf8') })));
  const all = [...messages.map((text, i) => ({ where: `MCP message ${i}`, text })), ...texts];
  for (const { where, text } of all) scanForSecrets(text, where);
  for (const wallet of keys) {
    const key = wallet.exportPrivateKey();
    for (const { where, text } of all) assert.ok(!text.toLowerCase().includes(key), `the private key of ${wallet.address} is in ${where}`);
  }
}

/** Every property name of every tool's input schema (nested ones included). */
function propertyNames(schema: unknown, into: Set<string> = new Set()): Set<string> {
  if (schema && typeof schema === 'object') {
    const props = (schema as { properties?: Record<string, unknown> }).properties;
    if (props) for (const name of Object.keys(props)) into.add(name);
    for (const value of Object.values(schema)) propertyNames(value, into);
  }
  return into;
}

describe('keystore accounts in tools (issue 22)', function () {
  this.timeout(60_000);
  let home: { dir: string; remove(): Promise<void> };
  let s: Session | undefined;

  beforeEach(async () => {
    home = await tempHome();
    const store = new Keystore(home.dir, { scrypt: FAST });
    await store.add('alice', ALICE, PASS);
    await store.add('bob', BOB, PASS);
  });
  afterEach(async () => {
    await s?.close();
    s = undefined;
    await home.remove();
  });

  it('a send from a keystore account (by alias) succeeds on the devnet; the answer holds no key', async () => {
    s = await session(home.dir);
    const r = await s.call('send_tokens', { account: 'alice', to_address: BOB.address, amount: '1.5' });
    assert.ok(r.ok, r.text);
    assert.equal(r.result.success, true);
    const balance = await s.call('get_balance', { address: BOB.address });
    assert.ok(balance.ok, balance.text);
    assert.equal(String(balance.result.balance), '1.5');
    // By address too, for a contract call.
    const call = await s.call('send_transaction', { account: ALICE.address, contract: 'currency', function: 'transfer', kwargs: { amount: 1, to: BOB.address } });
    assert.ok(call.ok, call.text);
    assert.equal(call.result.success, true);
    await assertNoKeyLeft(home.dir, s.messages, [ALICE, BOB]);
  });

  it('sign_message, encrypt_message and decrypt_message take keystore accounts', async () => {
    s = await session(home.dir);
    const signed = await s.call('sign_message', { account: 'alice', message: 'hello' });
    assert.ok(signed.ok, signed.text);
    assert.equal(signed.result.public_key, ALICE.address);
    const verified = await s.call('verify_signature', { address: ALICE.address, message: 'hello', signature: signed.result.signature });
    assert.equal(verified.result.valid, true);
    const sealed = await s.call('encrypt_message', { sender_account: 'alice', receiver_public_key: BOB.address, message: 'for bob' });
    assert.ok(sealed.ok, sealed.text);
    const opened = await s.call('decrypt_message', { receiver_account: 'bob', sender_public_key: ALICE.address, encrypted_message: sealed.result.encrypted_message });
    assert.equal(opened.result?.decrypted_message, 'for bob', opened.text);
    await assertNoKeyLeft(home.dir, s.messages, [ALICE, BOB]);
  });

  it('refuses account and private_key together, neither, and an unknown account — naming the arguments, sending nothing', async () => {
    s = await session(home.dir);
    const both = await s.call('send_tokens', { account: 'alice', private_key: devAccount(4).privateKey, to_address: BOB.address, amount: '1' });
    expectError(both, { code: 'invalid_arguments', match: /exactly one of account and private_key/ });
    const neither = await s.call('send_tokens', { to_address: BOB.address, amount: '1' });
    expectError(neither, { code: 'invalid_arguments', match: /account .*private_key/ });
    const unknown = await s.call('send_tokens', { account: 'carol', to_address: BOB.address, amount: '1' });
    expectError(unknown, { code: 'invalid_arguments', field: 'account', match: /no keystore account "carol".*alice, bob/ });
    const encrypt = await s.call('encrypt_message', { sender_account: 'alice', sender_private_key: devAccount(4).privateKey, receiver_public_key: BOB.address, message: 'x' });
    expectError(encrypt, { code: 'invalid_arguments', match: /exactly one of sender_account and sender_private_key/ });
    // A submit claims its plan before any wallet check (spec §3): an unknown plan is the first refusal.
    const submit = await s.call('dex_submit_swap', { account: 'nobody', plan_id: 'a'.repeat(43) });
    expectError(submit, { code: 'plan_not_found' });
    const balance = await s.call('get_balance', { address: BOB.address });
    assert.equal(String(balance.result.balance), '0');
    // The refused key was a dev account's: the scan must not find it in the answers (the requests carried it).
    await assertNoKeyLeft(home.dir, s.messages.filter((m) => !m.includes('"tools/call"')), [ALICE, BOB, Wallet.fromPrivateKey(devAccount(4).privateKey)]);
  });

  it('store_as keeps a new key in the keystore and answers the address alone (create_wallet, create_hd_wallet*)', async () => {
    s = await session(home.dir);
    const created = await s.call('create_wallet', { store_as: 'carol' });
    assert.ok(created.ok, created.text);
    assert.deepEqual(Object.keys(created.result).sort(), ['address', 'public_key', 'stored_as']);
    assert.equal(created.result.stored_as, 'carol');
    const hd = await s.call('create_hd_wallet', { store_as: 'dave' });
    assert.ok(hd.ok, hd.text);
    assert.equal(hd.result.mnemonic, undefined);
    assert.equal(hd.result.xian_private_key, undefined);
    assert.equal(hd.result.stored_as, 'dave');
    const imported = await s.call('create_hd_wallet_from_mnemonic', { mnemonic: 'test test test test test test test test test test test junk', index: 5, store_as: 'erin' });
    assert.ok(imported.ok, imported.text);
    assert.equal(imported.result.xian_public_key, devAccount(5).address);
    assert.equal(imported.result.xian_private_key, undefined);
    // Usable at once, without a restart; and on disk under the same passphrase.
    const signed = await s.call('sign_message', { account: 'carol', message: 'mine' });
    assert.equal(signed.result?.public_key, created.result.public_key, signed.text);
    const erinSends = await s.call('send_tokens', { account: 'erin', to_address: BOB.address, amount: '2' });
    assert.equal(erinSends.result?.success, true, erinSends.text);
    const duplicate = await s.call('create_wallet', { store_as: 'alice' });
    expectError(duplicate, { code: 'conflict', field: 'store_as' });
    const unlocked = await new Keystore(home.dir).unlock(PASS);
    assert.deepEqual(unlocked.entries().map((e) => e.alias), ['alice', 'bob', 'carol', 'dave', 'erin']);
    const stored = ['carol', 'dave', 'erin'].map((alias) => unlocked.find(alias)!.wallet);
    await assertNoKeyLeft(home.dir, s.messages, [ALICE, BOB, ...stored]);
  });

  it('no passphrase and no terminal: the host starts locked, and account answers how to unlock', async () => {
    s = await session(home.dir, { passphrase: null });
    const r = await s.call('send_tokens', { account: 'alice', to_address: BOB.address, amount: '1' });
    const e = expectError(r, { code: 'keystore_locked', field: 'account', match: /locked.*CHAIN_KEYSTORE_PASSPHRASE/ });
    assert.ok(!e.message.includes(PASS));
    const stored = await s.call('create_wallet', { store_as: 'carol' });
    expectError(stored, { code: 'keystore_locked', field: 'store_as' });
    await assertNoKeyLeft(home.dir, s.messages, [ALICE, BOB]);
  });

  it('the keystore is opened only when a visible tool takes an account: with unsafe tools off, a wrong passphrase is not asked for', async () => {
    const { bootTestHost } = await import('../../support/test-host.js');
    let asked = 0;
    const host = await bootTestHost({ ...devnetConfig(home.dir, { plugins: { wallet: {}, query: {} } }), tools: { unsafe: false } }, {
      keystore: { passphrase: async () => { asked++; return 'not the passphrase at all'; }, scrypt: FAST },
    });
    await host.stop();
    assert.equal(asked, 0);
    // With them on, the same passphrase stops the start (a BootError, one line).
    await assert.rejects(
      bootTestHost({ ...devnetConfig(home.dir, { plugins: { wallet: {} } }), tools: { unsafe: true } }, { keystore: { passphrase: async () => 'not the passphrase at all', scrypt: FAST } }),
      (err: Error) => err.name === 'BootError' && /^cannot unlock the keystore at .*wrong passphrase/.test(err.message) && !err.message.includes('\n'),
    );
  });

  describe('plugins.wallet.privateKeyArguments: false', () => {
    it('takes private_key and *_private_key out of every tool schema, withholds the key-import tools, and refuses them when sent', async () => {
      s = await session(home.dir, { wallet: { privateKeyArguments: false } });
      const { tools } = await s.client.listTools();
      assert.ok(tools.length > 10);
      for (const tool of tools) {
        const keyArguments = [...propertyNames(tool.inputSchema)].filter((p) => /private_key$/.test(p));
        assert.deepEqual(keyArguments, [], `${tool.name} still takes ${keyArguments.join(', ')}`);
      }
      const names = tools.map((t) => t.name);
      for (const signing of ['send_tokens', 'send_transaction', 'sign_message', 'encrypt_message', 'decrypt_message', 'dex_submit_swap', 'buy_on_dex', 'sell_on_dex']) {
        const tool = tools.find((t) => t.name === signing);
        assert.ok(tool, `${signing} listed`);
        assert.ok(propertyNames(tool.inputSchema).has(signing.includes('crypt') ? (signing === 'encrypt_message' ? 'sender_account' : 'receiver_account') : 'account'), signing);
      }
      // The account is then the only way to sign: required by the schema itself.
      assert.ok((tools.find((t) => t.name === 'send_tokens')!.inputSchema.required ?? []).includes('account'));
      assert.ok((tools.find((t) => t.name === 'encrypt_message')!.inputSchema.required ?? []).includes('sender_account'));
      assert.ok(!names.includes('create_wallet_from_private_key'));
      assert.ok(!names.includes('create_hd_wallet_from_mnemonic'));

      const refusals: Array<[string, Record<string, unknown>, string]> = [
        ['send_tokens', { private_key: devAccount(4).privateKey, to_address: BOB.address, amount: '1' }, 'private_key'],
        ['send_transaction', { private_key: devAccount(4).privateKey, contract: 'currency', function: 'transfer', kwargs: {} }, 'private_key'],
        ['sign_message', { private_key: devAccount(4).privateKey, message: 'x' }, 'private_key'],
        ['encrypt_message', { sender_private_key: devAccount(4).privateKey, receiver_public_key: BOB.address, message: 'x' }, 'sender_private_key'],
        ['decrypt_message', { receiver_private_key: devAccount(4).privateKey, sender_public_key: BOB.address, encrypted_message: 'ab'.repeat(40) }, 'receiver_private_key'],
        ['dex_submit_swap', { private_key: devAccount(4).privateKey, plan_id: 'a'.repeat(43) }, 'private_key'],
        ['buy_on_dex', { private_key: devAccount(4).privateKey, buy_token: 'con_x', amount: '1' }, 'private_key'],
      ];
      for (const [tool, args, argument] of refusals) {
        const e = expectError(await s.call(tool, args), { code: 'invalid_arguments', field: argument });
        assert.match(e.message, /plugins\.wallet\.privateKeyArguments is false/, tool);
        assert.match(e.message, new RegExp(`send ${argument.replace('private_key', 'account')}`), tool);
      }
      expectError(await s.call('create_wallet', {}), { code: 'invalid_arguments', field: 'store_as' });
      // Accounts still sign.
      const sent = await s.call('send_tokens', { account: 'alice', to_address: BOB.address, amount: '1' });
      assert.equal(sent.result?.success, true, sent.text);
      const created = await s.call('create_wallet', { store_as: 'carol' });
      assert.deepEqual(Object.keys(created.result ?? {}).sort(), ['address', 'public_key', 'stored_as']);
      await assertNoKeyLeft(home.dir, s.messages.filter((m) => !m.includes('"tools/call"')), [ALICE, BOB, Wallet.fromPrivateKey(devAccount(4).privateKey)]);
    });
  });

  it('a wrong passphrase stops chain-mcp at start with one line on stderr (no stack, no secret), exit 1', async function () {
    this.timeout(120_000);
    const config = await writeTempConfig({ ...devnetConfig(home.dir, { plugins: { wallet: {} } }) });
    try {
      const wrong = 'not the passphrase at all';
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'host/bin/chain-mcp.ts'), '--config', config.file], {
        cwd: REPO_ROOT,
        env: { ...process.env, CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS: '1', CHAIN_KEYSTORE_PASSPHRASE: wrong },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      // No client: a host that started anyway sees stdin end and stops (exit 0) instead of waiting.
      child.stdin.end();
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      assert.equal(code, 1, stderr);
      // The error is one line; the only others are the plugins' info logs from before the start (the in-process devnet's).
      const lines = stderr.trim().split('\n').filter((line) => !/^\S+Z info /.test(line));
      assert.equal(lines.length, 1, stderr);
      assert.ok(!/\n\s+at /.test(stderr), stderr);
      assert.match(lines[0]!, /^chain-mcp: error: cannot unlock the keystore at .*keys: wrong passphrase for keystore account "(alice|bob)".*CHAIN_KEYSTORE_PASSPHRASE$/);
      assert.ok(!stderr.includes(wrong));
      assert.equal(stdout, '');
    } finally {
      await config.remove();
    }
  });
});
