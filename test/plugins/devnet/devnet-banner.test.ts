import assert from 'node:assert/strict';
import { forPeople, printDevnetBanner } from '../../../plugins/devnet/devnet-banner.js';
import { ChainDecimal } from '../../../core/chain/decimal.js';
import { DEFAULT_MNEMONIC } from '../../../plugins/devnet/node/devnet.js';
import { openDevnet, signedTx, txParam } from './node/devnet-fixture.js';

const CUSTOM_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

function bannerOf(...args: Parameters<typeof printDevnetBanner>): string {
  let text = '';
  printDevnetBanner(args[0], args[1], (t) => (text += t));
  return text;
}

describe('devnet start banner', function () {
  this.timeout(30_000);

  it('lists every dev account with its balance and the public test mnemonic, never a private key', async () => {
    const net = await openDevnet({ accounts: 3 });
    try {
      const accounts = net.devnet.accounts();
      const [a, b] = accounts;
      const tx = signedTx({ privateKey: a!.privateKey, sender: a!.address, nonce: 0, kwargs: { amount: 25, to: b!.address } });
      assert.equal((await net.devnet.rpc.call<any>('broadcast_tx_commit', { tx: txParam(tx.hex) })).tx_result.code, 0);

      const text = bannerOf(net.devnet, { rpcUrl: 'http://127.0.0.1:1234', websocketUrl: 'ws://127.0.0.1:1234/websocket', metricsUrl: null });
      assert.match(text, /node RPC {3}http:\/\/127\.0\.0\.1:1234/);
      for (const account of accounts) {
        assert.match(text, new RegExp(`#${account.index}  ${account.address}  \\d`), `account #${account.index} listed`);
        assert.ok(!text.includes(account.privateKey), `no private key of account #${account.index}`);
      }
      // Balances are read at print time: b received 25, a paid 25 and the fee.
      assert.match(text, new RegExp(`#1  ${b!.address}  1,000,025 currency`));
      // Rounded for people (the fee leaves a long exact decimal): grouped, at most 3 places.
      assert.match(text, new RegExp(`#0  ${a!.address}  999,97\\d(\\.\\d{1,3})? currency`));
      assert.match(text, /#2  \S+  1,000,000 currency/);
      assert.match(text, /rounded to 0\.001 — the tools answer it exactly/);
      assert.ok(text.includes(`mnemonic: ${DEFAULT_MNEMONIC}`));
      assert.match(text, /account #n is derivation index n/);
      assert.doesNotMatch(text, /private key/i);
    } finally {
      await net.close();
    }
  });

  it('with a custom mnemonic says it is the one given and never prints it', async () => {
    const net = await openDevnet({ accounts: 2, mnemonic: CUSTOM_MNEMONIC });
    try {
      const text = bannerOf(net.devnet, undefined);
      assert.match(text, /node RPC {3}in-process only/);
      for (const account of net.devnet.accounts()) {
        assert.ok(text.includes(account.address));
        assert.ok(!text.includes(account.privateKey));
      }
      assert.match(text, /mnemonic: the one given with --mnemonic \(not printed\)/);
      assert.ok(!text.includes('abandon'), 'the custom mnemonic is not printed');
      assert.ok(!text.includes(DEFAULT_MNEMONIC));
    } finally {
      await net.close();
    }
  });

  it('rounds a balance for people: half up to 3 places, thousands grouped', () => {
    assert.equal(forPeople(ChainDecimal.parse('998835.015999999999999999999999999992')), '998,835.016');
    assert.equal(forPeople(ChainDecimal.parse('1000000')), '1,000,000');
    assert.equal(forPeople(ChainDecimal.parse('0.0004')), '0');
    assert.equal(forPeople(ChainDecimal.parse('12.5')), '12.5');
    assert.equal(forPeople(ChainDecimal.parse('-1234.5678')), '-1,234.568');
  });
});
