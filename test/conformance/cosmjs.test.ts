import assert from 'node:assert/strict';
import { Comet38Client, HttpClient, WebsocketClient, type comet38 } from '@cosmjs/tendermint-rpc';
import type { DevAccount } from '../../plugins/devnet/node/devnet.js';
import { openDevnet, signedTx } from '../plugins/devnet/node/devnet-fixture.js';
import { wireForms } from './wire-forms.js';

/**
 * `@cosmjs/tendermint-rpc`, the standard TypeScript CometBFT client, against the devnet: every
 * method of Comet38Client over HTTP and over the WebSocket decodes without an error, NewBlock,
 * NewBlockHeader and Tx subscriptions deliver, and transactions in the three wire forms a real
 * SDK produces (fixtures/wire-forms.json) are broadcast, executed and found again.
 */
const ascii = (hex: string) => new TextEncoder().encode(hex);
const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex').toUpperCase();

describe('conformance: @cosmjs/tendermint-rpc Comet38Client against the devnet', function () {
  this.timeout(60_000);
  let net: Awaited<ReturnType<typeof openDevnet>>;
  let rpcUrl: string;
  let websocketUrl: string;
  let a: DevAccount;
  let b: DevAccount;

  before(async () => {
    net = await openDevnet();
    [a, b] = net.devnet.accounts() as [DevAccount, DevAccount];
    ({ rpcUrl, websocketUrl } = await net.devnet.listen({ port: 0, metricsPort: null }));
  });
  after(async () => net.close());

  /** Every Comet38Client method, each answer decoded by cosmjs and checked against the devnet's state. */
  async function everyMethod(client: Comet38Client): Promise<void> {
    const next = await client.abciQuery({ path: `/get_next_nonce/${a.address}`, data: new Uint8Array() });
    const nonce = Number(Buffer.from(next.value).toString('utf8'));
    assert.equal(await client.health(), null);
    const status = await client.status();
    assert.equal(status.nodeInfo.network, 'chain-local-1');
    assert.equal(hexOf(status.validatorInfo.address), net.devnet.node.identity.validator.address);

    const tx = signedTx({ privateKey: a.privateKey, sender: a.address, nonce, kwargs: { amount: 1, to: b.address } });
    const committed = await client.broadcastTxCommit({ tx: ascii(tx.hex) });
    assert.equal(committed.checkTx.code, 0, committed.checkTx.log);
    assert.equal(committed.txResult?.code, 0);
    assert.equal(hexOf(committed.hash), tx.hash);
    const sync = await client.broadcastTxSync({ tx: ascii(signedTx({ privateKey: a.privateKey, sender: a.address, nonce: nonce + 1, kwargs: { amount: 1, to: b.address } }).hex) });
    assert.equal(sync.code, 0, sync.log);
    const async = await client.broadcastTxAsync({ tx: ascii(signedTx({ privateKey: a.privateKey, sender: a.address, nonce: nonce + 2, kwargs: { amount: 1, to: b.address } }).hex) });
    assert.equal(async.hash.length, 32);
    const pending = await client.numUnconfirmedTxs();
    assert.ok(pending.total >= 0);
    await net.devnet.mine();
    const height = committed.height;

    const found = await client.tx({ hash: committed.hash });
    assert.equal(found.height, height);
    assert.equal(Buffer.from(found.tx).toString('utf8'), tx.hex);
    const search = await client.txSearch({ query: `tx.height=${height}` });
    assert.equal(search.totalCount, 1);
    assert.ok((await client.txSearchAll({ query: `tx.height=${height}` })).txs.length === 1);

    const block = await client.block(height);
    assert.equal(block.block.header.height, height);
    assert.equal(block.block.txs.length, 1);
    assert.equal((await client.block()).block.header.height, net.devnet.node.height);
    const results = await client.blockResults(height);
    assert.equal(results.results[0]!.code, 0);
    const chain = await client.blockchain(1, height);
    assert.equal(chain.blockMetas[0]!.header.height, height);
    const commit = await client.commit(height);
    assert.equal(commit.header.height, height);
    assert.equal(commit.commit.signatures.length, 1);
    const blocks = await client.blockSearch({ query: `block.height = ${height}` });
    assert.equal(blocks.totalCount, 1);
    assert.equal(blocks.blocks[0]!.block.header.height, height);
    assert.equal((await client.blockSearchAll({ query: 'block.height >= 1' })).totalCount, net.devnet.node.height);

    const genesis = await client.genesis();
    assert.equal(genesis.chainId, 'chain-local-1');
    const validators = await client.validators({});
    assert.equal(validators.total, 1);
    assert.equal((await client.validatorsAll()).validators.length, 1);
    const info = await client.abciInfo();
    assert.ok((info.lastBlockHeight ?? 0) >= height);
    const query = await client.abciQuery({ path: `/get/currency.balances:${b.address}`, data: new Uint8Array() });
    assert.equal(query.code, 0);
    assert.ok(Number(Buffer.from(query.value).toString('utf8')) > 1_000_000);
  }

  it('over HTTP (HttpClient): every method', async () => {
    const client = Comet38Client.create(new HttpClient(rpcUrl));
    try {
      await everyMethod(client);
    } finally {
      client.disconnect();
    }
  });

  it('over the WebSocket (WebsocketClient): every method, NewBlock, NewBlockHeader and Tx subscriptions', async () => {
    // cosmjs appends /websocket to the base URL itself.
    const client = Comet38Client.create(new WebsocketClient(websocketUrl.replace(/\/websocket$/, ''), (err) => assert.fail(`websocket error: ${err}`)));
    const blocks: comet38.NewBlockEvent[] = [];
    const headers: comet38.NewBlockHeaderEvent[] = [];
    const txs: comet38.TxEvent[] = [];
    const listen = <T>(into: T[]) => ({ next: (e: T) => into.push(e), error: (err: unknown) => assert.fail(String(err)), complete: () => {} });
    const subs = [
      client.subscribeNewBlock().subscribe(listen(blocks)),
      client.subscribeNewBlockHeader().subscribe(listen(headers)),
      client.subscribeTx(`tm.event='Tx' AND Transfer.to='${b.address}'`).subscribe(listen(txs)),
    ];
    try {
      await everyMethod(client);
      const deadline = Date.now() + 5000;
      while ((blocks.length === 0 || txs.length < 3 || headers.length === 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.ok(blocks.length > 0 && headers.length > 0, 'NewBlock and NewBlockHeader events decoded');
      assert.equal(txs.length, 3, 'one Tx event per transfer');
      assert.equal(txs[0]!.result.code, 0);
      assert.ok(blocks.some((e) => e.header.height === txs[0]!.height));
    } finally {
      for (const s of subs) s.unsubscribe();
      client.disconnect();
    }
  });

  it('broadcasts the wire forms real SDKs produce (canonical, Python json.dumps, reordered keys) and reads them back', async () => {
    const fresh = await openDevnet();
    const { rpcUrl: url } = await fresh.devnet.listen({ port: 0, metricsPort: null });
    const client = Comet38Client.create(new HttpClient(url));
    try {
      for (const form of wireForms.forms) {
        const sent = await client.broadcastTxSync({ tx: ascii(form.raw_hex) });
        assert.equal(sent.code, form.expect.code, `${form.name}: ${sent.log}`);
        if (form.expect.log !== undefined) assert.equal(sent.log, form.expect.log, form.name);
        assert.equal(hexOf(sent.hash), form.hash, form.name);
        if (form.expect.code !== 0) continue;
        await fresh.devnet.mine();
        const found = await client.tx({ hash: sent.hash });
        assert.equal(found.result.code, 0, form.name);
        assert.equal(Buffer.from(found.tx).toString('utf8'), form.raw_hex, `${form.name}: the chain keeps the bytes as sent`);
      }
    } finally {
      client.disconnect();
      await fresh.close();
    }
  });
});
