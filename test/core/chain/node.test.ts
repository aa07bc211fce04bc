import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChainNode, normalizeTxHash, txHashOfHex, type TxEvent } from '../../../core/chain/node.js';
import { RpcError, type ChainRpc, type RpcCallOptions, type RpcEvent, type RpcSubscription } from '../../../core/chain/rpc/chain-rpc.js';
import type { NewBlockEventValue } from '../../../core/chain/rpc/cometbft-types.js';
import { HttpChainRpc } from '../../../core/chain/rpc/http-chain-rpc.js';

/** A ChainRpc that records what ChainNode sends; ChainNode may only use call/subscribe. */
class RecordingRpc implements ChainRpc {
  readonly calls: Array<{ method: string; params: Record<string, unknown>; options?: RpcCallOptions }> = [];
  readonly listeners = new Map<string, (event: RpcEvent) => void>();
  answers: Record<string, unknown> = {};
  closed = false;

  async call<T>(method: string, params: Record<string, unknown> = {}, options?: RpcCallOptions): Promise<T> {
    this.calls.push({ method, params, options });
    return (this.answers[method] ?? {}) as T;
  }
  async subscribe(query: string, listener: (event: RpcEvent) => void): Promise<RpcSubscription> {
    this.listeners.set(query, listener);
    return { unsubscribe: async () => void this.listeners.delete(query) };
  }
  async close(): Promise<void> {
    this.closed = true;
  }
  last(): { method: string; params: Record<string, unknown> } {
    const c = this.calls.at(-1)!;
    return { method: c.method, params: c.params };
  }
}

const TX_JSON = '{"metadata":{"signature":"aa"},"payload":{"chain_id":"chain-local-1","chi_supplied":100,"contract":"currency","function":"transfer","kwargs":{"amount":{"__fixed__":"5"},"to":"bob"},"nonce":7,"sender":"alice"}}';
const TX_HEX = Buffer.from(TX_JSON, 'utf8').toString('hex');
const HASH = createHash('sha256').update(TX_HEX, 'latin1').digest('hex').toUpperCase();

describe('ChainNode', () => {
  let rpc: RecordingRpc;
  let node: ChainNode;
  beforeEach(() => {
    rpc = new RecordingRpc();
    node = new ChainNode(rpc);
  });

  describe('JSON-RPC param encodings', () => {
    it('status, health, net_info, consensus_state, num_unconfirmed_txs, genesis send no params', async () => {
      await node.status();
      await node.health();
      await node.netInfo();
      await node.consensusState();
      await node.numUnconfirmedTxs();
      await node.genesis();
      assert.deepEqual(rpc.calls.map((c) => [c.method, c.params]), [
        ['status', {}], ['health', {}], ['net_info', {}], ['consensus_state', {}], ['num_unconfirmed_txs', {}], ['genesis', {}],
      ]);
    });

    it('abci_query: path as a string, data as hex ("" by default), height as an int64 string, prove false', async () => {
      await node.abciQuery('/get/currency.balances:alice');
      assert.deepEqual(rpc.last(), { method: 'abci_query', params: { path: '/get/currency.balances:alice', data: '', height: '0', prove: false } });
      await node.abciQuery('/health', { height: 42n, prove: true, data: 'ABCD' });
      assert.deepEqual(rpc.last().params, { path: '/health', data: 'ABCD', height: '42', prove: true });
      await assert.rejects(node.abciQuery('/x', { data: 'xyz' }), TypeError);
    });

    it('block and block_results: height as an int64 string, omitted for the latest', async () => {
      await node.block();
      assert.deepEqual(rpc.last(), { method: 'block', params: {} });
      await node.block(42);
      assert.deepEqual(rpc.last(), { method: 'block', params: { height: '42' } });
      await node.blockResults('9007199254740993');
      assert.deepEqual(rpc.last(), { method: 'block_results', params: { height: '9007199254740993' } });
      await assert.rejects(node.block(0), RangeError);
      await assert.rejects(node.block(-1), RangeError);
      await assert.rejects(node.block(1.5), TypeError);
    });

    it('blockchain: camelCase minHeight/maxHeight as int64 strings', async () => {
      await node.blockchain(1, 20);
      assert.deepEqual(rpc.last(), { method: 'blockchain', params: { minHeight: '1', maxHeight: '20' } });
      await node.blockchain();
      assert.deepEqual(rpc.last().params, {});
    });

    it('tx: the 32 hash bytes as base64, from a hash with or without 0x in any case', async () => {
      const expected = Buffer.from(HASH, 'hex').toString('base64');
      for (const form of [HASH, HASH.toLowerCase(), `0x${HASH}`, `0X${HASH.toLowerCase()}`]) {
        await node.tx(form);
        assert.deepEqual(rpc.last(), { method: 'tx', params: { hash: expected, prove: false } });
      }
      await assert.rejects(node.tx('abc'), /64 hex digits/);
    });

    it('broadcast_tx_*: base64 of the hex text (the raw tx bytes are the hex characters)', async () => {
      const expected = Buffer.from(TX_HEX, 'ascii').toString('base64');
      await node.broadcastTxSync(TX_HEX);
      await node.broadcastTxAsync(TX_HEX);
      await node.broadcastTxCommit(TX_HEX);
      assert.deepEqual(rpc.calls.map((c) => [c.method, c.params]), [
        ['broadcast_tx_sync', { tx: expected }], ['broadcast_tx_async', { tx: expected }], ['broadcast_tx_commit', { tx: expected }],
      ]);
      assert.equal(Buffer.from(expected, 'base64').toString('ascii'), TX_HEX);
      await assert.rejects(node.broadcastTxSync(`0x${TX_HEX}`), /hex of its canonical JSON/);
      await assert.rejects(node.broadcastTxSync('abc'), TypeError);
      assert.equal(rpc.calls.length, 3);
    });

    it('validators and unconfirmed_txs: int params as strings, per_page snake_case', async () => {
      await node.validators(5, { page: 1, perPage: 100 });
      assert.deepEqual(rpc.last(), { method: 'validators', params: { height: '5', page: '1', per_page: '100' } });
      await node.validators();
      assert.deepEqual(rpc.last().params, {});
      await node.unconfirmedTxs(10);
      assert.deepEqual(rpc.last(), { method: 'unconfirmed_txs', params: { limit: '10' } });
      await node.unconfirmedTxs();
      assert.deepEqual(rpc.last().params, {});
    });

    it('passes the signal and timeout through', async () => {
      const signal = new AbortController().signal;
      await node.status({ signal, timeoutMs: 5 });
      await node.abciQuery('/health', { signal, timeoutMs: 7 });
      assert.equal(rpc.calls[0]!.options!.signal, signal);
      assert.equal(rpc.calls[1]!.options!.timeoutMs, 7);
      assert.deepEqual(Object.keys(rpc.calls[1]!.params).sort(), ['data', 'height', 'path', 'prove']);
    });
  });

  describe('chain id and decoded queries', () => {
    it('reads the chain id from status().node_info.network once', async () => {
      rpc.answers.status = { node_info: { network: 'chain-local-1' } };
      assert.equal(await node.chainId(), 'chain-local-1');
      assert.equal(await node.chainId(), 'chain-local-1');
      assert.equal(rpc.calls.length, 1);
    });

    it('query() decodes the abci_query response', async () => {
      rpc.answers.abci_query = {
        response: { code: 0, log: '', info: 'decimal', index: '0', key: Buffer.from('currency.balances:alice').toString('base64'), value: Buffer.from('1.01E+3').toString('base64'), proofOps: null, height: '42', codespace: '' },
      };
      const q = await node.query('/get/currency.balances:alice');
      assert.equal(q.key, 'currency.balances:alice');
      assert.equal(q.value?.text, '1.01E+3');
      assert.equal(q.height, '42');
    });
  });

  describe('subscriptions', () => {
    it('subscribeNewBlocks listens to tm.event=\'NewBlock\' and hands over data.value', async () => {
      const got: NewBlockEventValue[] = [];
      const sub = await node.subscribeNewBlocks((b) => got.push(b));
      const listener = rpc.listeners.get("tm.event='NewBlock'")!;
      listener({ query: "tm.event='NewBlock'", data: { type: 'tendermint/event/NewBlock', value: { block: { header: { height: '43' } }, block_id: {}, result_finalize_block: {} } } });
      assert.equal(got[0]!.block.header.height, '43');
      await sub.unsubscribe();
      assert.equal(rpc.listeners.size, 0);
    });

    it('subscribeTxs flattens TxResult, fills the omitted index 0 and takes the hash from tx.hash', async () => {
      const got: TxEvent[] = [];
      await node.subscribeTxs((t) => got.push(t));
      const listener = rpc.listeners.get("tm.event='Tx'")!;
      const tx = Buffer.from(TX_HEX, 'ascii').toString('base64');
      const result = { code: 0, data: '', log: '', info: '', gas_wanted: '0', gas_used: '0', events: [], codespace: '' };
      listener({ query: "tm.event='Tx'", data: { type: 'tendermint/event/Tx', value: { TxResult: { height: '42', tx, result } } }, events: { 'tx.hash': ['FROMEVENT'] } });
      listener({ query: "tm.event='Tx'", data: { type: 'tendermint/event/Tx', value: { TxResult: { height: '42', index: 1, tx, result } } } });
      assert.deepEqual(got.map((t) => [t.hash, t.height, t.index]), [['FROMEVENT', '42', 0], [HASH, '42', 1]]);
    });
  });

  describe('helpers', () => {
    it('normalizeTxHash and txHashOfHex', () => {
      assert.equal(normalizeTxHash(`0x${HASH.toLowerCase()}`), HASH);
      assert.equal(txHashOfHex(TX_HEX), HASH);
    });

    it('close() closes the transport', async () => {
      await node.close();
      assert.ok(rpc.closed);
    });
  });

  describe('end to end over HttpChainRpc against a strict CometBFT-style param decoder', () => {
    let server: http.Server;
    let url: string;
    const seen: Array<[string, Record<string, unknown>]> = [];

    // Mimics cmtjson: Go int64 params must be JSON strings, []byte params base64, HexBytes hex.
    function decodeParams(method: string, params: Record<string, unknown>): string | null {
      const int64 = ['height', 'minHeight', 'maxHeight', 'page', 'per_page', 'limit'];
      for (const k of int64) if (k in params && (typeof params[k] !== 'string' || !/^-?\d+$/.test(params[k] as string))) return `invalid 64-bit integer encoding "${String(params[k])}", expected string`;
      if (method === 'tx' && Buffer.from(String(params.hash), 'base64').length !== 32) return 'illegal base64 data';
      if (method.startsWith('broadcast_tx') && !/^[A-Za-z0-9+/]+={0,2}$/.test(String(params.tx))) return 'illegal base64 data';
      if (method === 'abci_query' && !/^([0-9a-fA-F]{2})*$/.test(String(params.data))) return 'invalid hex string';
      return null;
    }

    before(async () => {
      server = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          const msg = JSON.parse(body);
          seen.push([msg.method, msg.params]);
          const problem = decodeParams(msg.method, msg.params ?? {});
          let answer: object;
          if (problem) answer = { error: { code: -32602, message: 'Invalid params', data: `error converting json params to arguments: ${problem}` } };
          else if (msg.method === 'tx') {
            const hash = Buffer.from(msg.params.hash, 'base64').toString('hex').toUpperCase();
            answer = hash === HASH
              ? { result: { hash, height: '42', index: 0, tx: Buffer.from(TX_HEX).toString('base64'), tx_result: { code: 0, data: '', log: '', info: '', gas_wanted: '0', gas_used: '0', events: [], codespace: '' } } }
              : { error: { code: -32603, message: 'Internal error', data: `tx (${hash}) not found` } };
          } else if (msg.method === 'broadcast_tx_sync') {
            const raw = Buffer.from(msg.params.tx, 'base64');
            answer = { result: { code: 0, data: '', log: '', codespace: '', hash: createHash('sha256').update(raw).digest('hex').toUpperCase() } };
          } else answer = { result: { echo: msg.params } };
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, ...answer }));
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    });

    it('every method\'s params pass the decoder; tx and broadcast round-trip the CometBFT hash', async () => {
      const live = new ChainNode(new HttpChainRpc(url));
      try {
        const b = await live.broadcastTxSync(TX_HEX);
        assert.equal(b.hash, HASH);
        const t = await live.tx(`0x${b.hash.toLowerCase()}`);
        assert.equal(t.hash, HASH);
        await live.abciQuery('/get/x', { height: 0 });
        await live.block(3);
        await live.blockResults(3);
        await live.blockchain(1, 3);
        await live.validators(3, { page: 1, perPage: 30 });
        await live.unconfirmedTxs(5);
        const err = await live.tx('00'.repeat(32)).catch((e: unknown) => e);
        assert.ok(err instanceof RpcError);
        assert.match(err.message, /tx \(0{64}\) not found/);
        assert.equal(seen.length, 9);
      } finally {
        await live.close();
      }
    });
  });
});
