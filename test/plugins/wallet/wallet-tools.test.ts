import assert from 'node:assert/strict';
import { Wallet } from '../../../core/chain/keys.js';
import type { Logger } from '../../../core/logger.js';
import { request } from '../../support/test-host.js';
import { devAccount, devnetConfig, expectError, startHost, tempHome, TOOL_CAPABILITIES, type RunningHost } from './chain-tool-kit.js';

/** Collects every log line (debug and up), to prove no private key is ever logged. */
function recordingLogger(lines: string[]): Logger {
  const make = (scope: string): Logger => ({
    debug: (m, f) => lines.push(`${scope} ${m} ${JSON.stringify(f ?? {})}`),
    info: (m, f) => lines.push(`${scope} ${m} ${JSON.stringify(f ?? {})}`),
    warn: (m, f) => lines.push(`${scope} ${m} ${JSON.stringify(f ?? {})}`),
    error: (m, f) => lines.push(`${scope} ${m} ${JSON.stringify(f ?? {})}`),
    child: (s) => make(`${scope}:${s}`),
  });
  return make('host');
}

describe('wallet tools', function () {
  this.timeout(60_000);
  const A = devAccount(0);
  const B = devAccount(1);
  const logLines: string[] = [];
  let home: Awaited<ReturnType<typeof tempHome>>;
  let running: RunningHost;
  let readOnly: RunningHost;

  before(async () => {
    home = await tempHome();
    running = await startHost(devnetConfig(`${home.dir}/unsafe`), { unsafe: true, log: recordingLogger(logLines) });
    readOnly = await startHost(devnetConfig(`${home.dir}/read`));
  });
  after(async () => {
    await running?.stop();
    await readOnly?.stop();
    await home?.remove();
  });

  describe('the unsafe gate', () => {
    it('without CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS unsafe tools are not listed', async () => {
      const res = await request(readOnly.host.url('/tools'));
      const names = res.json.map((t: { name: string }) => t.name).sort();
      const expected = Object.entries(TOOL_CAPABILITIES).filter(([, c]) => c === 'read').map(([n]) => n).sort();
      assert.deepEqual(names, expected);
    });

    for (const name of Object.keys(TOOL_CAPABILITIES).filter((n) => TOOL_CAPABILITIES[n] === 'unsafe')) {
      it(`${name} is refused with 403 unsafe_disabled naming the flag`, async () => {
        const outcome = await readOnly.call(name, {});
        expectError(outcome, { code: 'unsafe_disabled', status: 403, match: /CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS=1/ });
      });
    }
  });

  describe('argument validation (400 invalid_arguments naming the argument)', () => {
    const badKey = 'zz' + A.privateKey.slice(2);
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['create_wallet_from_private_key', 'a key with a non-hex character', { private_key: badKey }, 'private_key'],
      ['create_wallet_from_private_key', 'a short key', { private_key: A.privateKey.slice(0, 60) }, 'private_key'],
      ['create_wallet_from_private_key', 'a number', { private_key: 12 }, 'private_key'],
      ['create_wallet', 'an unknown argument', { extra: 1 }, 'extra'],
      ['create_hd_wallet', 'a word count other than 12 or 24', { words: 15 }, 'words'],
      ['create_hd_wallet', 'an unknown scheme', { scheme: 'bip44' }, 'scheme'],
      ['create_hd_wallet', 'a path with the xian scheme', { path: "m/44'/0'/0'" }, 'path'],
      ['create_hd_wallet', 'an index with slip10', { scheme: 'slip10', index: 2 }, 'index'],
      ['create_hd_wallet_from_mnemonic', 'a bad checksum', { mnemonic: 'abandon '.repeat(12).trim() }, 'mnemonic'],
      ['create_hd_wallet_from_mnemonic', 'eleven words', { mnemonic: 'abandon '.repeat(11).trim() }, 'mnemonic'],
      ['create_hd_wallet_from_mnemonic', 'a word outside the list', { mnemonic: 'abandon '.repeat(11) + 'xyzzy' }, 'mnemonic'],
      ['create_hd_wallet_from_mnemonic', 'a non-hardened slip10 path', { mnemonic: 'abandon '.repeat(11) + 'about', scheme: 'slip10', path: "m/44'/0'/0" }, 'path'],
      ['create_hd_wallet_from_mnemonic', 'a negative index', { mnemonic: 'abandon '.repeat(11) + 'about', index: -1 }, 'index'],
      ['send_tokens', 'a malformed private key', { private_key: badKey, to_address: B.address, amount: '1' }, 'private_key'],
      ['send_tokens', 'a bad address', { private_key: A.privateKey, to_address: 'bob', amount: '1' }, 'to_address'],
      ['send_tokens', 'a zero amount', { private_key: A.privateKey, to_address: B.address, amount: '0' }, 'amount'],
      ['send_tokens', 'a negative amount', { private_key: A.privateKey, to_address: B.address, amount: -1 }, 'amount'],
      ['send_tokens', '31 decimal places', { private_key: A.privateKey, to_address: B.address, amount: '0.' + '0'.repeat(30) + '1' }, 'amount'],
      ['send_tokens', 'text that is not a number', { private_key: A.privateKey, to_address: B.address, amount: 'ten' }, 'amount'],
      ['send_tokens', 'an amount of 10^61', { private_key: A.privateKey, to_address: B.address, amount: '1e61' }, 'amount'],
      ['send_tokens', 'a contract name with a dash', { private_key: A.privateKey, to_address: B.address, amount: '1', token_contract: 'con-x' }, 'token_contract'],
      ['send_tokens', 'a missing amount', { private_key: A.privateKey, to_address: B.address }, 'amount'],
      ['send_transaction', 'a contract name with a slash', { private_key: A.privateKey, contract: 'con/x', function: 'f' }, 'contract'],
      ['send_transaction', 'a function starting with a digit', { private_key: A.privateKey, contract: 'currency', function: '1f' }, 'function'],
      ['send_transaction', 'a kwargs key that is not an identifier', { private_key: A.privateKey, contract: 'currency', function: 'transfer', kwargs: { 'to-x': 1 } }, 'to-x'],
      ['send_transaction', 'an integer beyond 2^53 as a JSON number', { private_key: A.privateKey, contract: 'currency', function: 'transfer', kwargs: { amount: 2 ** 60 } }, 'amount'],
      ['send_transaction', 'kwargs text that is not JSON', { private_key: A.privateKey, contract: 'currency', function: 'transfer', kwargs: '{amount:' }, 'kwargs'],
      ['send_transaction', 'a bad __time__ wrapper', { private_key: A.privateKey, contract: 'currency', function: 'transfer', kwargs: { when: { __time__: [2024, 13, 1] } } }, 'when'],
      // issue #18 item 2: a float artefact (0.1 + 0.2) is refused with a request for a string, in every tool
      ['send_tokens', 'a JSON number with 17 significant digits (0.1 + 0.2)', { private_key: A.privateKey, to_address: B.address, amount: 0.1 + 0.2 }, 'amount'],
      ['send_transaction', 'a kwargs number with 17 significant digits', { private_key: A.privateKey, contract: 'currency', function: 'transfer', kwargs: { amount: 0.1 + 0.2, to: B.address } }, 'amount'],
      ['simulate_transaction', 'a kwargs number with 17 significant digits', { address: A.address, contract: 'currency', function: 'transfer', kwargs: { amount: 0.1 + 0.2, to: B.address } }, 'amount'],
      ['send_transaction', 'chi_supplied 0', { private_key: A.privateKey, contract: 'currency', function: 'transfer', chi_supplied: 0 }, 'chi_supplied'],
    ];
    for (const [tool, what, args, field] of cases) {
      it(`${tool}: ${what}`, async () => {
        const outcome = await running.call(tool, args);
        const error = expectError(outcome, { code: 'invalid_arguments', status: 422, field });
        if (/significant digits/.test(what)) assert.match(error.message, /0\.30000000000000004 has 17 significant digits.*decimal string/);
        assert.ok(!outcome.text.includes(A.privateKey) && !outcome.text.includes(badKey), 'the key is not echoed');
        assert.ok(!error.message.includes('abandon'), 'mnemonic words are not echoed');
      });
    }
  });

  describe('refusals before anything is signed', () => {
    it('a transfer the dry run says would fail is refused (400 simulation_failed) with the simulated error; the nonce is unchanged', async () => {
      const before = await running.call('get_next_nonce', { address: A.address });
      const outcome = await running.call('send_tokens', { private_key: A.privateKey, to_address: B.address, amount: '999999999999' });
      const error = expectError(outcome, { code: 'simulation_failed', status: 400, match: /dry run failed/ });
      assert.equal(error.details!.status, 1);
      assert.ok(String(error.details!.result).length > 0);
      const after = await running.call('get_next_nonce', { address: A.address });
      assert.equal(after.result.nonce, before.result.nonce);
    });

    it('a call to a function that does not exist is refused with the simulated error', async () => {
      const outcome = await running.call('send_transaction', { private_key: A.privateKey, contract: 'currency', function: 'no_such_function' });
      expectError(outcome, { code: 'simulation_failed', status: 400 });
    });

    it('CheckTx refusals are 400 transaction_rejected with the node\'s log', async () => {
      const outcome = await running.call('send_transaction', {
        private_key: A.privateKey, contract: 'currency', function: 'transfer', kwargs: { amount: 1, to: B.address }, chi_supplied: 9_000_000_000_000,
      });
      const error = expectError(outcome, { code: 'transaction_rejected', status: 400, match: /CheckTx: TransactionException: Transaction sender has too few chi/ });
      assert.match(error.details!.tx_hash, /^[0-9A-F]{64}$/);
      const next = await running.call('send_tokens', { private_key: A.privateKey, to_address: B.address, amount: '1' });
      assert.equal(next.ok, true, 'the nonce lane recovers after a refusal');
    });
  });

  describe('nonces under concurrency', () => {
    it('20 concurrent send_tokens from one key all land, with distinct consecutive nonces', async () => {
      const receiver = Wallet.generate().address;
      const first = (await running.call('get_next_nonce', { address: A.address })).result.nonce as number;
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => running.call('send_tokens', { private_key: A.privateKey, to_address: receiver, amount: `0.${String(i + 1).padStart(2, '0')}` })),
      );
      for (const o of outcomes) assert.equal(o.ok, true, o.error?.message);
      const nonces = outcomes.map((o) => o.result.nonce as number).sort((a, b) => a - b);
      assert.deepEqual(nonces, Array.from({ length: 20 }, (_, i) => first + i));
      assert.ok(outcomes.every((o) => o.result.finalized && o.result.success));
      const balance = await running.call('get_balance', { address: receiver });
      assert.equal(balance.result.balance, '2.1'); // 0.01 + 0.02 + … + 0.20
    });
  });

  describe('secrets', () => {
    it('no private key appears in any log line, including debug and failures', () => {
      assert.ok(logLines.length > 0, 'the host logged something');
      const keys = [A.privateKey, 'zz' + A.privateKey.slice(2)];
      for (const line of logLines) for (const key of keys) assert.ok(!line.toLowerCase().includes(key.toLowerCase()), `leaked in: ${line.slice(0, 120)}`);
    });

    it('sends never echo the private key in their result', async () => {
      const outcome = await running.call('send_tokens', { private_key: A.privateKey, to_address: B.address, amount: '0.5', wait: false });
      assert.equal(outcome.ok, true);
      assert.ok(!outcome.text.includes(A.privateKey));
    });
  });

  describe('chi', () => {
    it('supplies max(ceil(estimate × 1.1), estimate + 10), or exactly chi_supplied when given', async () => {
      const auto = await running.call('send_tokens', { private_key: A.privateKey, to_address: B.address, amount: 1 });
      const est = auto.result.chi_estimated as number;
      assert.equal(auto.result.chi_supplied, Math.max(Math.ceil(est * 1.1), est + 10));
      assert.ok(auto.result.chi_used <= auto.result.chi_supplied);
      const explicit = await running.call('send_transaction', {
        private_key: A.privateKey, contract: 'currency', function: 'transfer', kwargs: { amount: '1', to: B.address }, chi_supplied: 500, verbose: true,
      });
      assert.equal(explicit.result.chi_supplied, 500);
      assert.deepEqual(explicit.result.kwargs.amount, { __fixed__: '1' }, 'decimal text for a float argument becomes an exact decimal');
    });

    it('the signed payload writes decimals plainly, as the official SDK does ("5000000", not "5E+6"; issue #18 item 7)', async () => {
      for (const amount of ['5000000', { __fixed__: '5E+6' }, { __fixed__: 5e6 }]) {
        const r = await running.call('send_transaction', {
          private_key: A.privateKey, contract: 'currency', function: 'approve', kwargs: { amount, to: B.address }, verbose: true,
        });
        assert.equal(r.ok, true, r.error?.message);
        assert.deepEqual(r.result.kwargs.amount, { __fixed__: '5000000' }, JSON.stringify(amount));
      }
    });
  });
});
