import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { abciDecimal, decodeRawTx } from '../../../../core/chain/abci-value.js';
import { ChainNode } from '../../../../core/chain/node.js';
import { RpcError } from '../../../../core/chain/rpc/chain-rpc.js';
import { HttpChainRpc } from '../../../../core/chain/rpc/http-chain-rpc.js';
import { txReceiptOf } from '../../../../core/chain/tx-receipts.js';
import { wireForms } from '../../../conformance/wire-forms.js';

/**
 * The node client the tools use against a remote node (`node.url`: HttpChainRpc + ChainNode and
 * the decoders behind them) fed answers in a real CometBFT 0.38 node's form, fields the devnet
 * never emits included (fixtures/real-node-answers.json says where each comes from).
 */
const fixture = JSON.parse(readFileSync(new URL('./fixtures/real-node-answers.json', import.meta.url), 'utf8')) as { answers: Record<string, any> };
const A = fixture.answers;

describe('the node client against real-node answers (cometbft-rpc.md, abci-query.md)', () => {
  let server: http.Server;
  let wss: WebSocketServer;
  let node: ChainNode;
  /** The fixture entry the next JSON-RPC call of each method gets. */
  const next: Record<string, string> = {};

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const request = JSON.parse(body) as { id: unknown; method: string; params: Record<string, unknown> };
        const answer = A[next[request.method] ?? request.method];
        // CometBFT writes pretty-printed envelopes; an error envelope comes with HTTP 500 on URI calls, 200 on JSON-RPC.
        const text = JSON.stringify({ jsonrpc: '2.0', id: request.id, ...answer }, null, '  ');
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(text);
      });
    });
    wss = new WebSocketServer({ server, path: '/websocket' });
    wss.on('connection', (ws) => ws.on('message', (raw) => {
      const request = JSON.parse(raw.toString()) as { id: unknown; method: string };
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: {} }));
      if (request.method === 'subscribe') setTimeout(() => ws.send(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: A['tx_event'] }, null, '  ')), 20);
    }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    node = new ChainNode(new HttpChainRpc(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { retries: 0, reconnectDelayMs: 50 }));
  });
  after(async () => {
    await node.close();
    wss.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('status of a node still catching up, without earliest block: the chain id is node_info.network', async () => {
    const status = await node.status();
    assert.equal(status.sync_info.catching_up, true);
    assert.equal(await node.chainId(), 'xian-network-1');
  });

  it('abci_query: a decimal, an unknown path (AA==) and a handler error (no key, no value, no log)', async () => {
    next['abci_query'] = 'abci_query_decimal';
    const balance = await node.query('/get/currency.balances:x');
    assert.equal(abciDecimal(balance)?.toString(), '94.4');
    next['abci_query'] = 'abci_query_unknown';
    const unknown = await node.query('/nope');
    assert.deepEqual([unknown.code, unknown.value, unknown.log], [1, null, 'Unknown query path: nope']);
    next['abci_query'] = 'abci_query_handler_error';
    const failed = await node.query('/get');
    assert.deepEqual([failed.code, failed.value, failed.key, failed.log], [1, null, '', '']);
  });

  it('broadcast_tx_sync: a CheckTx refusal is a result; a duplicate is CometBFT\'s -32603 error', async () => {
    const hex = Buffer.from('{}').toString('hex');
    next['broadcast_tx_sync'] = 'broadcast_tx_sync_refused';
    const refused = await node.broadcastTxSync(hex);
    assert.deepEqual([refused.code, refused.log], [1, 'TransactionException: Wrong chain_id']);
    next['broadcast_tx_sync'] = 'broadcast_tx_sync_duplicate';
    await assert.rejects(node.broadcastTxSync(hex), (err: unknown) => err instanceof RpcError && err.code === -32603 && err.data === 'tx already exists in cache');
  });

  it('tx with a proof: the receipt, and the xian-py (json.dumps) transaction decoded from its raw bytes', async () => {
    next['tx'] = 'tx';
    const tx = await node.tx(A['tx'].result.hash, { prove: true });
    assert.equal(tx.proof?.proof.total, '4');
    const receipt = txReceiptOf(tx);
    assert.equal(receipt.success, true);
    assert.equal(receipt.chi_used, 12);
    assert.equal(receipt.index, 3);
    assert.deepEqual(receipt.state, [{ key: `currency.balances:${wireForms.sender}`, value: '999998.26' }]);
    assert.equal((receipt.events[0] as any).data_indexed.to, 'bob-ü→😀', 'ASCII-escaped execution output decoded');
    const raw = decodeRawTx(tx.tx);
    assert.equal(raw.hash, tx.hash);
    assert.equal(raw.encoding, 'hex');
    assert.equal((raw.tx as any).payload.kwargs.to, 'bob-ü→😀', '\\u escapes of the Python wire form decoded');
  });

  it('a transaction refused inside the block: code 1 and the {"error": …} data become the receipt\'s error', async () => {
    next['tx'] = 'tx_rejected_in_block';
    const receipt = txReceiptOf(await node.tx(A['tx'].result.hash));
    assert.equal(receipt.success, false);
    assert.equal(receipt.error, 'Invalid transaction in block: Transaction nonce is invalid. Expected 1, got 0');
  });

  it('block_results of an empty block: txs_results null, finalize-block events, consensus param updates', async () => {
    next['block_results'] = 'block_results_empty';
    const results = await node.blockResults(1311801);
    assert.equal(results.txs_results, null);
    assert.equal(results.finalize_block_events?.[0]?.type, 'StatePatch');
  });

  it('a Tx event without index (omitempty for 0) over the WebSocket', async () => {
    const seen = await new Promise<{ hash: string; index: number; height: string }>((resolve) => {
      void node.subscribeTxs((tx) => resolve(tx));
    });
    assert.deepEqual({ ...seen }, { ...seen, hash: A['tx'].result.hash, index: 0, height: '1311800' });
  });
});
