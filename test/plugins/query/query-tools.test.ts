import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Wallet } from '../../../core/chain/keys.js';
import { devAccount, devnetConfig, expectError, startHost, tempHome, type RunningHost } from '../wallet/chain-tool-kit.js';

const FAKE_BDS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fake-bds-plugin.ts');

describe('query tools', function () {
  this.timeout(60_000);
  const A = devAccount(0);
  let home: Awaited<ReturnType<typeof tempHome>>;
  let running: RunningHost;
  let indexed: RunningHost;

  before(async () => {
    home = await tempHome();
    running = await startHost(devnetConfig(`${home.dir}/plain`, { plugins: { query: {} } }));
    indexed = await startHost(devnetConfig(`${home.dir}/indexed`, { plugins: { [FAKE_BDS]: {}, query: {} } }));
  });
  after(async () => {
    await running?.stop();
    await indexed?.stop();
    await home?.remove();
  });

  describe('argument validation (400 invalid_arguments naming the argument)', () => {
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['get_balance', 'a short address', { address: 'abc' }, 'address'],
      ['get_balance', 'a missing address', {}, 'address'],
      ['get_balance', 'a token contract that is not an identifier', { address: A.address, token_contract: 'currency.balances' }, 'token_contract'],
      ['get_token_balances', 'limit 0', { address: A.address, limit: 0 }, 'limit'],
      ['get_token_balances', 'limit above 1000', { address: A.address, limit: 1001 }, 'limit'],
      ['get_token_balances', 'a negative offset', { address: A.address, offset: -1 }, 'offset'],
      ['get_token_balances', 'a fractional limit', { address: A.address, limit: 1.5 }, 'limit'],
      ['get_transaction', 'a hash that is not 64 hex', { tx_hash: 'abc' }, 'tx_hash'],
      ['get_state', 'a key without a variable', { state_key: 'currency' }, 'state_key'],
      ['get_state', 'a key with a slash', { state_key: 'currency.balances:a/b' }, 'state_key'],
      ['list_state_keys', 'limit above 200', { prefix: 'currency.balances', limit: 201 }, 'limit'],
      ['list_state_keys', 'a prefix with a slash', { prefix: 'currency/x' }, 'prefix'],
      ['list_state_keys', 'a cursor with a slash', { prefix: 'currency.balances', after: 'a/b' }, 'after'],
      ['get_next_nonce', 'an address with 0x and 63 digits', { address: '0x' + A.address.slice(1) }, 'address'],
      ['get_contract_source', 'a contract name starting with _', { contract_name: '_x' }, 'contract_name'],
      ['get_contract_methods', 'a contract name longer than 255', { contract_name: 'c'.repeat(256) }, 'contract_name'],
      ['get_token_contract_by_symbol', 'an empty symbol', { token_symbol: '  ' }, 'token_symbol'],
      ['get_token_data_by_contract', 'a number', { token_contract: 5 }, 'token_contract'],
      ['get_node_status', 'an unknown argument', { verbose: true }, 'verbose'],
    ];
    for (const [tool, what, args, field] of cases) {
      it(`${tool}: ${what}`, async () => {
        expectError(await running.call(tool, args), { code: 'invalid_arguments', status: 422, field });
      });
    }
  });

  describe('not found', () => {
    it('get_transaction of an unknown hash is 404 not_found', async () => {
      expectError(await running.call('get_transaction', { tx_hash: 'ab'.repeat(32) }), { code: 'not_found', status: 404, match: /ABAB.*not found/ });
    });
    it('get_contract_methods of an unknown contract is 404 not_found', async () => {
      expectError(await running.call('get_contract_methods', { contract_name: 'con_missing' }), { code: 'not_found', status: 404, match: /con_missing/ });
    });
  });

  describe('get_balance', () => {
    it('accepts an address with 0x and upper case, and answers it normalised', async () => {
      const r = await running.call('get_balance', { address: '0x' + devAccount(3).address.toUpperCase() });
      assert.equal(r.result.address, devAccount(3).address);
      assert.equal(r.result.balance, '1000000');
    });
    it('reads what a contract holds when given its name (con_…): the DEX pairs hold the seeded pools', async () => {
      const r = await running.call('get_balance', { address: 'con_pairs', token_contract: 'con_test_usd' });
      assert.equal(r.ok, true, r.text);
      assert.equal(r.result.address, 'con_pairs');
      assert.ok(Number(r.result.balance) > 0, r.text);
      expectError(await running.call('get_balance', { address: 'con-pairs' }), { code: 'invalid_arguments', field: 'address', match: /or a contract name \(con_…\)/ });
    });
    it('reads a token holding with many decimals exactly', async () => {
      const r = await running.call('get_balance', { address: A.address, token_contract: 'con_lp_test_token' });
      assert.match(r.result.balance, /^\d+\.\d{20,}$/);
    });
  });

  describe('get_token_balances', () => {
    it('without an index scans current state: available false, history fields null, paged by offset and limit', async () => {
      const all = await running.call('get_token_balances', { address: A.address });
      assert.equal(all.result.available, false);
      assert.equal(all.result.source, 'state');
      assert.match(all.result.warnings.join(' '), /indexed token balances unavailable/);
      const contracts = all.result.items.map((i: { contract: string }) => i.contract);
      assert.ok(contracts.includes('currency') && contracts.includes('con_test_usd') && contracts.includes('con_test_token'));
      assert.ok(all.result.items.every((i: { last_tx_hash: unknown }) => i.last_tx_hash === null));
      const page = await running.call('get_token_balances', { address: A.address, limit: 1, offset: 1 });
      assert.deepEqual(page.result.items.map((i: { contract: string }) => i.contract), [contracts[1]]);
      assert.equal(page.result.total, all.result.total);
      const empty = await running.call('get_token_balances', { address: Wallet.generate().address });
      assert.deepEqual([empty.result.total, empty.result.items], [0, []]);
    });

    it('with a BDS query path in the host uses it: available true, decimals normalised', async () => {
      const r = await indexed.call('get_token_balances', { address: A.address, limit: 10 });
      assert.equal(r.result.available, true);
      assert.equal(r.result.source, 'bds');
      assert.equal(r.result.total, 2);
      assert.deepEqual(r.result.items.map((i: { contract: string; balance: string }) => [i.contract, i.balance]), [['con_indexed', '12.5'], ['currency', '1000']]);
      assert.equal(r.result.items[0].last_block_height, 7);
    });
  });

  describe('get_token_contract_by_symbol', () => {
    it('with a BDS token list reports several matches with a warning message', async () => {
      const r = await indexed.call('get_token_contract_by_symbol', { token_symbol: 'Idx' });
      assert.equal(r.result.source, 'bds');
      assert.deepEqual(r.result.token_contracts, ['con_indexed', 'con_other']);
      assert.match(r.result.message, /Multiple tokens found/);
    });
  });

  describe('list_state_keys', () => {
    it('walks a whole prefix with next_after and ends with next_after null', async () => {
      const seen: string[] = [];
      let after: string | undefined;
      for (let page = 0; page < 20; page++) {
        const r = await running.call('list_state_keys', { prefix: 'currency.balances:', limit: 3, ...(after ? { after } : {}) });
        seen.push(...r.result.items);
        if (!r.result.has_more) {
          assert.equal(r.result.next_after, null);
          break;
        }
        after = r.result.next_after;
      }
      assert.ok(seen.includes(A.address));
      assert.equal(new Set(seen).size, seen.length, 'no key twice');
      assert.deepEqual([...seen].sort(), seen, 'in order');
    });
  });

  describe('get_state', () => {
    it('returns dict values as JSON with decimals as strings', async () => {
      const r = await running.call('get_state', { state_key: 'con_test_usd.metadata:token_name' });
      assert.deepEqual([r.result.state_value, r.result.type], ['Test USD', 'str']);
      const nonce = await running.call('get_state', { state_key: `currency.balances:${A.address}` });
      assert.equal(typeof nonce.result.state_value, 'string');
    });
  });
});
