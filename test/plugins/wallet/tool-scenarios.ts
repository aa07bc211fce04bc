import assert from 'node:assert/strict';
import { publicKeyFromPrivate, Wallet } from '../../../core/chain/keys.js';
import { assertNoFloats, devAccount, expectError, type ToolCaller } from './chain-tool-kit.js';

/**
 * The happy path of every tool of the wallet, query, crypto and simulate plugins, written once
 * and run over each transport (HTTP on an in-process devnet, MCP stdio, HTTP to a standalone
 * devnet). Call inside a `describe`; `call()` is read when the tests run.
 */
export const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

export interface ScenarioOptions {
  /** The chain id the node reports. */
  chainId?: string;
  /** Whether this transport's host has BDS (token balances indexed). */
  indexed?: boolean;
}

export function everyToolScenarios(call: () => ToolCaller, options: ScenarioOptions = {}): void {
  const A = devAccount(0);
  const B = devAccount(1);
  const C = Wallet.generate();
  const chainId = options.chainId ?? 'chain-local-1';
  const state: { sendHash?: string; asyncHash?: string } = {};

  const ok = async (name: string, args: Record<string, unknown> = {}) => {
    const outcome = await call()(name, args);
    if (!outcome.ok) throw new Error(`${name} failed: ${outcome.error?.code}: ${outcome.error?.message}`);
    assertNoFloats(outcome.result);
    return outcome.result;
  };

  describe('wallet tools', () => {
    it('create_wallet returns a fresh key pair whose public key is the address of the private key', async () => {
      const r = await ok('create_wallet');
      assert.match(r.public_key, /^[0-9a-f]{64}$/);
      assert.match(r.private_key, /^[0-9a-f]{64}$/);
      assert.equal(publicKeyFromPrivate(r.private_key), r.public_key);
      assert.equal(r.address, r.public_key, 'the address, under the name the other tools take it by');
    });

    it('create_wallet_from_private_key normalises 0x and case and derives the address', async () => {
      const r = await ok('create_wallet_from_private_key', { private_key: '0x' + A.privateKey.toUpperCase() });
      assert.deepEqual(r, { address: A.address, public_key: A.address, private_key: A.privateKey });
    });

    it('create_hd_wallet makes 12 words under the official wallets\' scheme by default, 24 on request', async () => {
      const r = await ok('create_hd_wallet');
      assert.equal(r.word_count, 12);
      assert.equal(r.scheme, 'xian');
      assert.equal(r.index, 0);
      const again = await ok('create_hd_wallet_from_mnemonic', { mnemonic: r.mnemonic });
      assert.equal(again.xian_public_key, r.xian_public_key);
      assert.equal(r.address, r.xian_public_key);
      const long = await ok('create_hd_wallet', { words: 24 });
      assert.equal(long.mnemonic.split(' ').length, 24);
    });

    it('create_hd_wallet_from_mnemonic gives the official wallets\' address by default (crypto.md §2.4)', async () => {
      const r = await ok('create_hd_wallet_from_mnemonic', { mnemonic: ABANDON });
      assert.equal(r.xian_private_key, 'b3aee0ed179a18a754136d3d134c03e9c1ad97eb2e9912401dc2d9ffc96882e0');
      assert.equal(r.xian_public_key, '7e15e2e068cb41b5c4b51dafef23d944aa7d120d362097d1f7c02100da5c2be5');
      assert.equal(r.address, r.xian_public_key, 'the address, under the name the other tools take it by');
      const one = await ok('create_hd_wallet_from_mnemonic', { mnemonic: `  ${ABANDON.toUpperCase()} `, index: 1 });
      assert.equal(one.xian_public_key, '6cb37dd4f3acf8152c4d083bba33ce7dc2cf410fa3bab94694ef17aa5616f1ad');
    });

    it('create_hd_wallet_from_mnemonic offers slip10 (upstream MCP path by default) and xian_v1', async () => {
      const slip = await ok('create_hd_wallet_from_mnemonic', { mnemonic: ABANDON, scheme: 'slip10' });
      assert.equal(slip.path, "m/44'/0'/0'/0'/0'");
      assert.equal(slip.xian_public_key, '7c2e79f3a1701fb2a86a2c24a3fdf8634b7aad80886c0c0a526d44d23fe8e19a');
      const js = await ok('create_hd_wallet_from_mnemonic', { mnemonic: ABANDON, scheme: 'slip10', path: "m/44'/789'/1'/0'/0'" });
      assert.equal(js.xian_private_key, 'fac5c03f7f244370e9b70cd1bf4eded856102a1704e41f2cbc9fa1e8c572b2c6');
      const v1 = await ok('create_hd_wallet_from_mnemonic', { mnemonic: ABANDON, scheme: 'xian_v1', index: 1 });
      assert.equal(v1.xian_public_key, 'c2ccbe3636698f0877a00b854ecb846eddba441d4503b2231336d760c8a6cb3e');
    });

    it('send_tokens transfers an exact amount, waits for the block and answers compactly: success, fee in currency, new balances', async () => {
      const r = await ok('send_tokens', { private_key: A.privateKey, to_address: C.address, amount: '1.25' });
      assert.equal(r.finalized, true);
      assert.equal(r.success, true);
      assert.ok(r.chi_supplied >= r.chi_estimated + 10, 'chi margin applied');
      assert.equal(r.fee.refunded, (await import('../../../core/chain/decimal.js')).ChainDecimal.from(BigInt(r.chi_supplied - r.chi_used)).div(r.fee.chi_rate).toString());
      assert.equal(r.fee.fee, (await import('../../../core/chain/decimal.js')).ChainDecimal.from(BigInt(r.chi_used)).div(r.fee.chi_rate).toString());
      assert.ok(Number(r.fee.refunded_share) > 0 && Number(r.fee.refunded_share) < 1, 'the chi margin is supplied but not charged');
      assert.deepEqual(r.balances.find((b: any) => b.address === C.address), { token: 'currency', address: C.address, balance: '1.25' });
      assert.ok(r.balances.some((b: any) => b.address === A.address), "the sender's new balance");
      for (const heavy of ['kwargs', 'receipt', 'simulation', 'response']) assert.equal(r[heavy], undefined, `${heavy} only with verbose`);
      state.sendHash = r.tx_hash;
      const balance = await ok('get_balance', { address: C.address });
      assert.equal(balance.balance, '1.25');
    });

    it('send_transaction calls a contract function with kwargs (JSON numbers become exact decimals)', async () => {
      const r = await ok('send_transaction', { private_key: A.privateKey, contract: 'currency', function: 'approve', kwargs: { amount: 2.5, to: B.address }, verbose: true });
      assert.equal(r.receipt.success, true, 'verbose: the whole receipt');
      assert.equal(r.sender, A.address);
      assert.ok(Array.isArray(r.receipt.events) && Array.isArray(r.receipt.state));
      assert.deepEqual(r.kwargs, { amount: { __fixed__: '2.5' }, to: B.address });
      const approval = await ok('get_state', { state_key: `currency.approvals:${A.address}:${B.address}` });
      assert.equal(approval.state_value, '2.5');
    });

    it('send_tokens with wait: false returns at CheckTx; the transaction is then found by hash', async () => {
      const r = await ok('send_tokens', { private_key: A.privateKey, to_address: C.address, amount: 2, token_contract: 'con_test_usd', wait: false });
      assert.equal(r.finalized, false);
      assert.equal(r.success, null);
      assert.equal(r.fee, null);
      state.asyncHash = r.tx_hash;
      let found;
      for (let i = 0; i < 100 && !found?.ok; i++) {
        found = await call()('get_transaction', { tx_hash: r.tx_hash });
        if (!found.ok) await new Promise((res) => setTimeout(res, 50));
      }
      assert.equal(found?.result.success, true);
    });
  });

  describe('query tools', () => {
    it('get_balance reads currency by default and any token contract, as exact decimal strings', async () => {
      const r = await ok('get_balance', { address: B.address });
      assert.equal(r.token_contract, 'currency');
      assert.match(r.balance, /^\d+(\.\d+)?$/);
      const usd = await ok('get_balance', { address: C.address, token_contract: 'con_test_usd' });
      assert.equal(usd.balance, '2');
      const none = await ok('get_balance', { address: Wallet.generate().address });
      assert.equal(none.balance, '0');
      assert.equal(none.found, true, 'an empty balance of an existing token');
      assert.equal(r.found, true);
    });

    it('get_balance of a token contract that does not exist says found: false with a warning, not just "0" (issue #18 item 5)', async () => {
      const r = await ok('get_balance', { address: B.address, token_contract: 'con_no_such_token' });
      assert.equal(r.found, false);
      assert.match(r.warnings.join(' '), /no contract named con_no_such_token/);
    });

    it('get_token_balances lists the holdings of an address', async () => {
      const r = await ok('get_token_balances', { address: C.address });
      assert.equal(r.available, options.indexed === true);
      const byContract = Object.fromEntries(r.items.map((i: { contract: string; balance: string }) => [i.contract, i.balance]));
      assert.equal(byContract.currency, '1.25');
      assert.equal(byContract.con_test_usd, '2');
      assert.equal(r.total, 2);
      const usd = r.items.find((i: { contract: string }) => i.contract === 'con_test_usd');
      assert.equal(usd.symbol, 'TUSD');
    });

    it('get_transaction answers compactly: the call, success, fee in currency with the unused chi, balances written', async () => {
      const r = await ok('get_transaction', { tx_hash: state.sendHash!.toLowerCase() });
      assert.equal(r.tx_hash, state.sendHash);
      assert.equal(r.success, true);
      assert.deepEqual([r.sender, r.contract, r.function], [A.address, 'currency', 'transfer']);
      assert.deepEqual(r.kwargs, { amount: { __fixed__: '1.25' }, to: C.address });
      assert.equal(typeof r.chi_used, 'number');
      assert.equal(r.fee.refunded_share, (await import('../../../core/chain/decimal.js')).ChainDecimal.from(BigInt(r.chi_supplied - r.chi_used)).div(BigInt(r.chi_supplied)).toString());
      assert.deepEqual(r.balances.find((b: any) => b.address === C.address), { token: 'currency', address: C.address, balance: '1.25' });
      for (const heavy of ['events', 'state', 'transaction', 'execution']) assert.equal(r[heavy], undefined, `${heavy} only with verbose`);
    });

    it('get_transaction with verbose returns the events, state writes, signed transaction and execution output', async () => {
      const r = await ok('get_transaction', { tx_hash: state.sendHash!, verbose: true });
      assert.equal(r.transaction.payload.sender, A.address);
      assert.equal(r.execution.status, 0);
      assert.equal(r.events[0].event, 'Transfer');
      assert.equal(r.events[0].data.amount, '1.25');
    });

    it('get_state reads a decimal, an int and a missing key', async () => {
      const bal = await ok('get_state', { state_key: `currency.balances:${C.address}` });
      assert.deepEqual([bal.state_value, bal.found, bal.type], ['1.25', true, 'decimal']);
      const missing = await ok('get_state', { state_key: 'currency.balances:nobody' });
      assert.deepEqual([missing.state_value, missing.found], [null, false]);
    });

    it('list_state_keys pages with next_after', async () => {
      const first = await ok('list_state_keys', { prefix: 'currency.balances', limit: 2 });
      assert.equal(first.items.length, 2);
      assert.equal(first.has_more, true);
      const second = await ok('list_state_keys', { prefix: 'currency.balances', limit: 2, after: first.next_after });
      assert.equal(second.after, first.next_after);
      assert.ok(second.items[0] > first.items[1], 'the second page starts after the first');
    });

    it('get_next_nonce counts the sends of this suite', async () => {
      const r = await ok('get_next_nonce', { address: A.address });
      assert.equal(typeof r.nonce, 'number');
      assert.ok(r.nonce >= 3);
      const fresh = await ok('get_next_nonce', { address: Wallet.generate().address });
      assert.equal(fresh.nonce, 0);
    });

    it('get_contract_source and get_contract_methods describe a contract', async () => {
      const src = await ok('get_contract_source', { contract_name: 'currency' });
      assert.equal(src.found, true);
      assert.match(src.source, /def transfer/);
      const methods = await ok('get_contract_methods', { contract_name: 'currency' });
      const transfer = methods.methods.find((m: { name: string }) => m.name === 'transfer');
      assert.deepEqual(transfer.arguments.map((a: { name: string }) => a.name).sort(), ['amount', 'to']);
      const none = await ok('get_contract_source', { contract_name: 'con_does_not_exist' });
      assert.deepEqual([none.source, none.found], [null, false]);
    });

    it('get_token_contract_by_symbol finds tokens case-insensitively', async () => {
      const r = await ok('get_token_contract_by_symbol', { token_symbol: 'tusd' });
      assert.deepEqual(r.token_contracts, ['con_test_usd']);
      assert.equal(r.count, 1);
      const none = await ok('get_token_contract_by_symbol', { token_symbol: 'NOPE' });
      assert.equal(none.count, 0);
      assert.match(none.message, /No token found/);
    });

    it('get_token_data_by_contract returns the token metadata', async () => {
      const r = await ok('get_token_data_by_contract', { token_contract: 'con_test_usd' });
      assert.equal(r.found, true);
      assert.equal(r.name, 'Test USD');
      assert.equal(r.symbol, 'TUSD');
      assert.match(r.total_supply ?? '', /^\d+(\.\d+)?$/);
      assert.ok(r.tokenStates.nodes.some((n: { key: string }) => n.key === 'con_test_usd.metadata:token_symbol'));
    });

    it('get_node_status reports the chain id, the height and whether CHAIN_ID matches', async () => {
      const r = await ok('get_node_status');
      assert.equal(r.chain_id, chainId);
      assert.equal(r.chain_id_matches, true);
      assert.equal(r.catching_up, false);
      assert.ok(r.latest_block_height >= 3);
      assert.equal(r.warnings, undefined);
    });
  });

  describe('simulate tools', () => {
    it('simulate_transaction previews writes and chi without sending', async () => {
      const before = await ok('get_next_nonce', { address: A.address });
      const r = await ok('simulate_transaction', { address: A.address, contract: 'currency', function: 'transfer', kwargs: { amount: '1.5', to: B.address } });
      assert.equal(r.status, 0);
      assert.equal(r.success, true);
      assert.ok(r.chi_used > 0);
      assert.ok(r.state.some((s: { key: string; value: string }) => s.key === `currency.balances:${B.address}` && typeof s.value === 'string'));
      assert.equal(r.refused, null);
      assert.deepEqual((await ok('get_next_nonce', { address: A.address })).nonce, before.nonce);
    });

    it('simulate_transaction reports a failing call as status 1 with the error, not as a tool error', async () => {
      const r = await ok('simulate_transaction', { address: C.address, contract: 'currency', function: 'transfer', kwargs: { amount: '1000000000', to: B.address } });
      assert.equal(r.status, 1);
      assert.equal(r.success, false);
      assert.ok(r.result.length > 0);
    });
  });

  describe('crypto tools', () => {
    it('sign_message and verify_signature work on the exact text (raw Ed25519)', async () => {
      const message = '  hello ☃\nsecond line  ';
      const signed = await ok('sign_message', { private_key: A.privateKey, message });
      assert.equal(signed.scheme, 'raw');
      assert.equal(signed.public_key, A.address);
      assert.equal((await ok('verify_signature', { address: A.address, message, signature: signed.signature })).valid, true);
      const trimmed = await ok('verify_signature', { address: A.address, message: message.trim(), signature: signed.signature });
      assert.equal(trimmed.valid, false);
    });

    it('sign_message matches the raw vector and the envelope vector (crypto.md §3, §4)', async () => {
      const seed01 = '01'.repeat(32);
      const raw = await ok('sign_message', { private_key: seed01, message: 'hello' });
      assert.equal(raw.signature, 'e1430c6ebd0d53573b5c803452174f8991ef5955e0906a09e8fdc7310459e9c82a402526748c3431fe7f0e5faafbf7e703234789734063ee42be17af16438d08');
      const env = await ok('sign_message', { private_key: seed01, message: 'hello ☃', envelope: true, chain_id: 'xian-1' });
      assert.equal(env.signature, '8cd162c15c003cacc0bcfb06a6bfd04a74f4390b3ca74918892ccf6d25e96c0e1e468e8b475fbfbf4ad0ed5547fbd7ea65ec8beb13c8c109ff4dbfc0b9724a0f');
      assert.equal(Buffer.from(env.signed_text, 'utf8').toString('hex').slice(0, 40), '195869616e205369676e6564204d657373616765');
      const address = publicKeyFromPrivate(seed01);
      const verified = await ok('verify_signature', { address, message: 'hello ☃', signature: env.signature, envelope: true, chain_id: 'xian-1' });
      assert.equal(verified.valid, true);
      const asRaw = await ok('verify_signature', { address, message: 'hello ☃', signature: env.signature });
      assert.equal(asRaw.valid, false);
      const defaultChain = await ok('sign_message', { private_key: seed01, message: 'x', envelope: true });
      assert.equal(defaultChain.chain_id, chainId);
    });

    it('encrypt_message and decrypt_message round-trip between two accounts', async () => {
      const enc = await ok('encrypt_message', { sender_private_key: A.privateKey, receiver_public_key: B.address, message: 'xian-secret ☃' });
      assert.match(enc.encrypted_message, /^[0-9a-f]+$/);
      const dec = await ok('decrypt_message', { receiver_private_key: B.privateKey, sender_public_key: A.address, encrypted_message: enc.encrypted_message });
      assert.equal(dec.decrypted_message, 'xian-secret ☃');
    });

    it('decrypt_message reads the Python SDK vector (crypto.md §5)', async () => {
      const cipher = '03030303030303030303030303030303030303030303030319ef89c8b41efdd82368ca3e5ab3aefe6c11f2cb540636811ec058';
      const dec = await ok('decrypt_message', { receiver_private_key: '02'.repeat(32), sender_public_key: publicKeyFromPrivate('01'.repeat(32)), encrypted_message: cipher });
      assert.equal(dec.decrypted_message, 'xian-secret');
      const wrong = await call()('decrypt_message', { receiver_private_key: '03'.repeat(32), sender_public_key: publicKeyFromPrivate('01'.repeat(32)), encrypted_message: cipher });
      expectError(wrong, { code: 'invalid_arguments', status: 422, match: /decryption failed/ });
    });
  });
}
