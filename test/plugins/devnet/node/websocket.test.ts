import assert from 'node:assert/strict';
import WebSocket from 'ws';
import type { RpcEvent } from '../../../../core/chain/rpc/chain-rpc.js';
import type { DevAccount } from '../../../../plugins/devnet/node/devnet.js';
import { openDevnet, signedTx, txParam, waitFor } from './devnet-fixture.js';

type Opened = Awaited<ReturnType<typeof openDevnet>>;

class Client {
  readonly messages: any[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (d) => this.messages.push(JSON.parse(d.toString())));
  }

  static async connect(url: string): Promise<Client> {
    const ws = new WebSocket(url);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return new Client(ws);
  }

  async request(id: number | string, method: string, params: unknown): Promise<any> {
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return waitFor(() => this.messages.find((m) => m.id === id && ('error' in m || (m.result && !('query' in m.result)))), 5000, `reply to ${method}`);
  }

  events(id: number | string): any[] {
    return this.messages.filter((m) => m.id === id && m.result && 'query' in m.result).map((m) => m.result);
  }

  close(): void {
    this.ws.close();
  }
}

describe('devnet WebSocket subscriptions (cometbft-rpc.md §5)', function () {
  let net: Opened;
  let wsUrl: string;
  let a: DevAccount;
  let b: DevAccount;

  before(async () => {
    net = await openDevnet();
    [a, b] = net.devnet.accounts() as [DevAccount, DevAccount];
    wsUrl = (await net.devnet.listen({ port: 0, metricsPort: null })).websocketUrl;
  });
  after(async () => net.close());

  it('NewBlock and Tx events with CometBFT shapes, under the subscribe id', async () => {
    const c = await Client.connect(wsUrl);
    try {
      assert.deepEqual(await c.request(0, 'subscribe', { query: "tm.event='NewBlock'" }), { jsonrpc: '2.0', id: 0, result: {} });
      assert.deepEqual((await c.request(1, 'subscribe', { query: "tm.event='Tx'" })).result, {});
      const tx = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0, kwargs: { amount: 7, to: b.address } });
      const committed = await net.devnet.rpc.call<any>('broadcast_tx_commit', { tx: txParam(tx.hex) });

      const newBlock = await waitFor(() => c.events(0).find((e) => e.data.value.block.header.height === committed.height), 5000, 'NewBlock');
      assert.equal(newBlock.query, "tm.event='NewBlock'");
      assert.equal(newBlock.data.type, 'tendermint/event/NewBlock');
      assert.deepEqual(newBlock.events['tm.event'], ['NewBlock']);
      assert.equal(newBlock.data.value.block.data.txs[0], Buffer.from(tx.hex).toString('base64'));
      assert.match(newBlock.data.value.block_id.hash, /^[0-9A-F]{64}$/);
      assert.equal(newBlock.data.value.result_finalize_block.tx_results[0].code, 0);
      assert.equal(typeof newBlock.data.value.result_finalize_block.app_hash, 'string');

      const txEvent = await waitFor(() => c.events(1)[0], 5000, 'Tx');
      assert.equal(txEvent.data.type, 'tendermint/event/Tx');
      const value = txEvent.data.value.TxResult;
      assert.equal(value.height, committed.height);
      assert.equal('index' in value, false, 'index 0 is omitted');
      assert.equal(value.tx, Buffer.from(tx.hex).toString('base64'));
      assert.deepEqual(value.result, committed.tx_result);
      assert.deepEqual(txEvent.events['tm.event'], ['Tx']);
      assert.deepEqual(txEvent.events['tx.hash'], [tx.hash]);
      assert.deepEqual(txEvent.events['tx.height'], [committed.height]);
      assert.deepEqual(txEvent.events['Transfer.to'], [b.address]);
      assert.equal(txEvent.events['Transfer.amount'], undefined, 'only indexed attributes');
    } finally {
      c.close();
    }
  });

  it('attribute queries, duplicate and unknown subscriptions, unsubscribe', async () => {
    const c = await Client.connect(wsUrl);
    try {
      const q = `tm.event='Tx' AND Transfer.to='${a.address}'`;
      assert.deepEqual((await c.request('s', 'subscribe', { query: q })).result, {});
      const dup = await c.request('d', 'subscribe', { query: q });
      assert.deepEqual(dup.error, { code: -32603, message: 'Internal error', data: 'already subscribed' });
      const bad = await c.request('bad', 'subscribe', { query: 'tm.event=' });
      assert.equal(bad.error.code, -32603);

      const nonce = Number(Buffer.from((await net.devnet.rpc.call<any>('abci_query', { path: `/get_next_nonce/${b.address}` })).response.value, 'base64').toString());
      await net.devnet.rpc.call('broadcast_tx_commit', { tx: txParam(signedTx({ privateKey: b.privateKey, sender: b.address, nonce, kwargs: { amount: 1, to: a.address } }).hex) });
      const other = Number(Buffer.from((await net.devnet.rpc.call<any>('abci_query', { path: `/get_next_nonce/${a.address}` })).response.value, 'base64').toString());
      await net.devnet.rpc.call('broadcast_tx_commit', { tx: txParam(signedTx({ privateKey: a.privateKey, sender: a.address, nonce: other, kwargs: { amount: 1, to: b.address } }).hex) });
      await waitFor(() => c.events('s').length === 1, 5000, 'filtered Tx event');
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(c.events('s').length, 1, 'the transfer to b did not match');

      assert.deepEqual((await c.request('u', 'unsubscribe', { query: q })).result, {});
      assert.equal((await c.request('u2', 'unsubscribe', { query: q })).error.data, 'subscription not found');
      const status = await c.request('st', 'status', {});
      assert.equal(status.result.node_info.network, 'chain-local-1', 'other methods work on the socket');
    } finally {
      c.close();
    }
  });

  it('in-process ChainRpc subscriptions are delivered by the block producer', async () => {
    const seen: RpcEvent[] = [];
    const sub = await net.devnet.rpc.subscribe("tm.event='NewBlock'", (e) => seen.push(e));
    try {
      const block = await net.devnet.mine();
      const event = await waitFor(() => seen.find((e) => e.data.value.block.header.height === String(block.height)), 5000, 'in-process NewBlock');
      assert.equal(event.query, "tm.event='NewBlock'");
    } finally {
      await sub.unsubscribe();
    }
    const count = seen.length;
    await net.devnet.mine();
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(seen.length, count, 'nothing after unsubscribe');
  });
});
