import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { deriveAccounts, DEFAULT_MNEMONIC } from '../../../../plugins/devnet/node/devnet.js';
import { abciQuery, openDevnet, valueText } from './devnet-fixture.js';

describe('Devnet facade', function () {
  it('dev accounts are the mnemonic keys of the official wallets (scheme v2), index 0 first', () => {
    const [first, second] = deriveAccounts('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about', 2);
    assert.deepEqual(first, { index: 0, privateKey: 'b3aee0ed179a18a754136d3d134c03e9c1ad97eb2e9912401dc2d9ffc96882e0', address: '7e15e2e068cb41b5c4b51dafef23d944aa7d120d362097d1f7c02100da5c2be5' });
    assert.equal(second!.address, '6cb37dd4f3acf8152c4d083bba33ce7dc2cf410fa3bab94694ef17aa5616f1ad');
    assert.throws(() => deriveAccounts(DEFAULT_MNEMONIC, 0), /accounts must be an integer from 1 to 1000/);
  });

  it('opens a funded chain with a genesis, keys and config under <home>, and closes cleanly', async () => {
    const net = await openDevnet({ accounts: 4 });
    try {
      const accounts = net.devnet.accounts();
      assert.equal(accounts.length, 4);
      assert.deepEqual(accounts.map((a) => a.address), deriveAccounts(DEFAULT_MNEMONIC, 4).map((a) => a.address));
      for (const a of accounts) assert.equal(valueText(await abciQuery(net.devnet, `/get/currency.balances:${a.address}`)), '1E+6');
      for (const f of ['config/chain.toml', 'config/genesis.json', 'config/priv_validator_key.json', 'config/node_key.json', 'data/blocks.log', 'devnet.lock']) {
        assert.ok(existsSync(path.join(net.home, f)), f);
      }
      const genesis = JSON.parse(readFileSync(path.join(net.home, 'config/genesis.json'), 'utf8'));
      assert.equal(genesis.chain_id, 'chain-local-1');
      const status = await net.devnet.rpc.call<any>('status');
      assert.equal(status.sync_info.latest_block_height, '1', 'block 1 is cut at start');
      assert.equal(status.sync_info.earliest_block_time, genesis.genesis_time);
      const block = await net.devnet.mine();
      assert.equal(block.height, 2);
      assert.equal(block.txs.length, 0);
    } finally {
      await net.close();
    }
    assert.equal(existsSync(path.join(net.home, 'devnet.lock')), false);
  });

  it('a home is bound to its chain id', async () => {
    const net = await openDevnet({ accounts: 1 });
    const home = net.home;
    await net.devnet.close();
    try {
      await assert.rejects(openDevnet({ home, chainId: 'other-chain-2', accounts: 1 }), /holds chain chain-local-1, not other-chain-2/);
      const other = await openDevnet({ home, chainId: 'other-chain-2', accounts: 1, reset: true });
      assert.equal((await other.devnet.rpc.call<any>('status')).node_info.network, 'other-chain-2');
      await other.close();
    } finally {
      await net.close().catch(() => undefined);
    }
  });

  it('in-process results equal what an HTTP client parses, and are never shared between calls', async () => {
    const net = await openDevnet({ accounts: 1 });
    try {
      const { rpcUrl } = await net.devnet.listen({ host: '127.0.0.1', port: 0, metricsPort: null });
      const address = net.devnet.accounts()[0]!.address;
      const overHttp = async (method: string, params: Record<string, unknown>) => {
        const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
        return ((await res.json()) as { result: unknown }).result;
      };
      const calls: Array<[string, Record<string, unknown>]> = [
        ['abci_query', { path: `/get/currency.balances:${address}`, data: '', height: '0', prove: false }],
        ['abci_query', { path: '/get/no_such.key', data: '', height: '0', prove: false }],
        ['abci_query', { path: '/nowhere', data: '', height: '0', prove: false }],
        ['block', { height: '1' }],
        ['status', {}],
      ];
      for (const [method, params] of calls) {
        const first = await net.devnet.rpc.call<Record<string, unknown>>(method, params);
        const remote = await overHttp(method, params);
        if (method === 'status') {
          assert.deepEqual(Object.keys(first).sort(), Object.keys(remote as object).sort());
        } else {
          assert.deepEqual(first, remote, `${method} ${JSON.stringify(params)}`);
        }
        (first as { mutated?: boolean }).mutated = true;
        const second = await net.devnet.rpc.call<Record<string, unknown>>(method, params);
        assert.equal((second as { mutated?: boolean }).mutated, undefined, `${method}: a caller's change must not reach the next caller`);
      }
    } finally {
      await net.close();
    }
  });

  it('the in-process ChainRpc refuses calls after close', async () => {
    const net = await openDevnet({ accounts: 1 });
    await net.close();
    await assert.rejects(net.devnet.rpc.call('status'), /closed/);
    await assert.rejects(net.devnet.rpc.abciQueryDecoded({ path: '/health', height: 0, prove: false }), /closed/);
  });
});
