import assert from 'node:assert/strict';
import { HttpChainRpc } from '../../../../core/chain/rpc/http-chain-rpc.js';
import { ChainNode } from '../../../../core/chain/node.js';
import type { DevAccount } from '../../../../plugins/devnet/node/devnet.js';
import { openDevnet, signedTx } from './devnet-fixture.js';

type Opened = Awaited<ReturnType<typeof openDevnet>>;

async function get(url: string): Promise<{ status: number; body: any; text: string }> {
  const res = await fetch(url);
  const text = await res.text();
  let body: any;
  try { body = JSON.parse(text); } catch { body = undefined; }
  return { status: res.status, body, text };
}

async function post(url: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

describe('devnet RPC over HTTP like CometBFT 0.38 (cometbft-rpc.md §1-4)', function () {
  let net: Opened;
  let url: string;
  let a: DevAccount;
  let b: DevAccount;

  before(async () => {
    net = await openDevnet();
    [a, b] = net.devnet.accounts() as [DevAccount, DevAccount];
    url = (await net.devnet.listen({ port: 0, metricsPort: 0 })).rpcUrl;
  });
  after(async () => net.close());

  it('GET /status: envelope id -1, int64 as strings, network = chain id', async () => {
    const { status, body, text } = await get(`${url}/status`);
    assert.equal(status, 200);
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(body.id, -1);
    assert.equal(body.result.node_info.network, 'chain-local-1');
    assert.match(body.result.sync_info.latest_block_height, /^[1-9][0-9]*$/);
    assert.match(body.result.sync_info.latest_block_hash, /^[0-9A-F]{64}$/);
    assert.equal(body.result.sync_info.catching_up, false);
    assert.equal(body.result.validator_info.pub_key.type, 'tendermint/PubKeyEd25519');
    assert.ok(text.includes('\n  '), 'pretty-printed like CometBFT');
  });

  it('GET /abci_query?path="/get/currency.balances:<addr>" like a real node', async () => {
    const { body } = await get(`${url}/abci_query?path=${encodeURIComponent(`"/get/currency.balances:${a.address}"`)}`);
    const r = body.result.response;
    assert.deepEqual(Object.keys(r).sort(), ['code', 'codespace', 'height', 'index', 'info', 'key', 'log', 'proofOps', 'value'].sort());
    assert.equal(r.code, 0);
    assert.equal(r.info, 'decimal');
    assert.equal(Buffer.from(r.value, 'base64').toString(), '1E+6', 'str(ContractingDecimal): engineering notation');
    assert.equal(Buffer.from(r.key, 'base64').toString(), `currency.balances:${a.address}`);
    assert.equal(r.index, '0');
    assert.equal(r.proofOps, null);
    assert.match(r.height, /^[1-9][0-9]*$/);
  });

  it('an unquoted string param is a -32602 parameter error (HTTP 500)', async () => {
    const { status, body } = await get(`${url}/abci_query?path=/health`);
    assert.equal(status, 500);
    assert.equal(body.error.code, -32602);
    assert.equal(body.error.message, 'Invalid params');
    assert.match(body.error.data, /^error converting http params to arguments: /);
  });

  it('0x hex string params are decoded', async () => {
    const hex = Buffer.from('/health').toString('hex');
    const { body } = await get(`${url}/abci_query?path=0x${hex}`);
    assert.equal(Buffer.from(body.result.response.value, 'base64').toString(), 'OK');
  });

  it('broadcast_tx_sync?tx="<hex>" takes the quoted hex text literally; tx?hash=0x<HASH> finds it', async () => {
    const tx = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0, kwargs: { amount: 2, to: b.address } });
    const sent = await get(`${url}/broadcast_tx_sync?tx="${tx.hex}"`);
    assert.deepEqual(sent.body.result, { code: 0, data: '', log: '', codespace: '', hash: tx.hash });
    let found: any;
    for (let i = 0; i < 100 && !found?.result; i++) {
      found = (await get(`${url}/tx?hash=0x${tx.hash}`)).body;
      if (!found.result) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(found.result.hash, tx.hash);
    assert.equal(found.result.tx_result.code, 0);
    const missing = await get(`${url}/tx?hash=0x${'AB'.repeat(32)}`);
    assert.equal(missing.status, 500);
    assert.deepEqual(missing.body.error, { code: -32603, message: 'Internal error', data: `tx (${'AB'.repeat(32)}) not found` });
  });

  it('form-encoded POST bodies work as the Python SDK sends them', async () => {
    const tx = signedTx({ privateKey: b.privateKey, sender: b.address, nonce: 0, kwargs: { amount: 1, to: a.address } });
    const res = await fetch(`${url}/broadcast_tx_sync`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `tx=${encodeURIComponent(`"${tx.hex}"`)}` });
    const body = await res.json() as any;
    assert.equal(body.result.code, 0);
    assert.equal(body.result.hash, tx.hash);
  });

  it('JSON-RPC POST /: named params, int64 as strings, errors with the request id', async () => {
    const ok = await post(url, { jsonrpc: '2.0', id: 7, method: 'block', params: { height: '1' } });
    assert.equal(ok.body.id, 7);
    const block = ok.body.result;
    assert.equal(block.block.header.height, '1');
    assert.equal(block.block.header.chain_id, 'chain-local-1');
    assert.equal(block.block.header.version.block, '11');
    assert.equal(block.block.header.data_hash, 'E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855');
    assert.deepEqual(block.block.data, { txs: [] });
    assert.deepEqual(block.block.evidence, { evidence: [] });
    assert.match(block.block_id.hash, /^[0-9A-F]{64}$/);
    assert.equal(block.block_id.parts.total, 1);

    const tooHigh = await post(url, { jsonrpc: '2.0', id: 'x', method: 'block', params: { height: '999999' } });
    assert.equal(tooHigh.body.id, 'x');
    assert.equal(tooHigh.body.error.code, -32603);
    assert.match(tooHigh.body.error.data, /^height 999999 must be less than or equal to the current blockchain height \d+$/);

    const bare = await post(url, { jsonrpc: '2.0', id: 1, method: 'block', params: { height: 1 } });
    assert.equal(bare.body.error.code, -32602, 'cmtjson wants int64 as strings');

    const unknown = await post(url, { jsonrpc: '2.0', id: 2, method: 'no_such_method', params: {} });
    assert.equal(unknown.body.error.code, -32601);
    const parse = await fetch(url, { method: 'POST', body: '{nope' });
    assert.equal(((await parse.json()) as any).error.code, -32700);

    const batch = await post(url, [{ jsonrpc: '2.0', id: 1, method: 'health', params: {} }, { jsonrpc: '2.0', id: 2, method: 'abci_query', params: { path: '/health', height: '99999' } }]);
    assert.equal(batch.body.length, 2);
    assert.deepEqual(batch.body[0], { jsonrpc: '2.0', id: 1, result: {} });
    assert.equal(batch.body[1].result.response.code, 1, 'a refused height is an ABCI code, not an RPC error');
  });

  it('block_results, blockchain, validators, genesis, net_info, consensus_state, abci_info', async () => {
    const height = (await get(`${url}/status`)).body.result.sync_info.latest_block_height;
    const results = (await get(`${url}/block_results?height=${height}`)).body.result;
    assert.equal(results.height, height);
    assert.deepEqual(results.finalize_block_events, []);
    assert.equal(typeof results.app_hash, 'string');
    const empty = (await get(`${url}/block_results?height=1`)).body.result;
    assert.equal(empty.txs_results, null);

    const chain = (await get(`${url}/blockchain?minHeight=1&maxHeight=${height}`)).body.result;
    assert.equal(chain.last_height, height);
    assert.equal(chain.block_metas[0].header.height, height, 'highest first');
    assert.ok(chain.block_metas.length <= 20);
    assert.match(chain.block_metas[0].num_txs, /^\d+$/);

    const vals = (await get(`${url}/validators`)).body.result;
    assert.equal(vals.count, '1');
    assert.equal(vals.validators[0].voting_power, '10');

    const genesis = (await get(`${url}/genesis`)).body.result.genesis;
    assert.equal(genesis.chain_id, 'chain-local-1');
    assert.equal(genesis.initial_height, '1');
    assert.ok(genesis.app_state.abci_genesis.genesis.some((e: any) => e.key === `currency.balances:${a.address}`));

    assert.equal((await get(`${url}/net_info`)).body.result.n_peers, '0');
    assert.match((await get(`${url}/consensus_state`)).body.result.round_state['height/round/step'], /^\d+\/0\/1$/);
    assert.equal((await get(`${url}/abci_info`)).body.result.response.last_block_height, height);
    assert.deepEqual((await get(`${url}/health`)).body.result, {});
  });

  it('the block hash commits to the header, and each commit carries a verifiable signature', async () => {
    const b1 = (await get(`${url}/block?height=1`)).body.result;
    const b2 = (await get(`${url}/block?height=2`)).body.result;
    assert.deepEqual(b2.block.header.last_block_id, b1.block_id);
    assert.equal(b2.block.last_commit.height, '1');
    assert.equal(b2.block.last_commit.signatures[0].block_id_flag, 2);
    assert.equal(b2.block.header.time, b2.block.last_commit.signatures[0].timestamp, 'BFT time of one validator');
    const byHash = (await get(`${url}/block_by_hash?hash=0x${b1.block_id.hash}`)).body.result;
    assert.deepEqual(byHash, b1);
  });

  it('WebSocket-only methods over HTTP are 404; unknown paths too', async () => {
    assert.equal((await get(`${url}/subscribe?query="tm.event='NewBlock'"`)).status, 404);
    assert.equal((await get(`${url}/nope`)).status, 404);
  });

  it('the core HTTP client and ChainNode work unchanged against the devnet', async () => {
    const node = new ChainNode(new HttpChainRpc(url));
    try {
      assert.equal(await node.chainId(), 'chain-local-1');
      const next = await node.query(`/get_next_nonce/${b.address}`);
      assert.equal(next.info, 'int');
      const tx = signedTx({ privateKey: b.privateKey, sender: b.address, nonce: Number(next.value?.text), kwargs: { amount: 1, to: a.address } });
      const committed = await node.broadcastTxCommit(tx.hex);
      assert.equal(committed.tx_result.code, 0);
      assert.equal((await node.tx(tx.hash)).hash, tx.hash);
    } finally {
      await node.close();
    }
  });

  it('GET /metrics on the metrics port in Prometheus text format', async () => {
    const metricsUrl = net.devnet.listening?.metricsUrl;
    assert.ok(metricsUrl);
    const res = await fetch(metricsUrl);
    const text = await res.text();
    assert.equal(res.status, 200);
    assert.match(text, /^chain_current_block_height \d+$/m);
    assert.match(text, /^chain_node_info\{chain_id="chain-local-1",/m);
    assert.match(text, /^chain_devnet_txs_total\{result="ok"\} \d+$/m);
    assert.match(text, /^chain_devnet_mempool_txs 0$/m);
    // No BDS in this process: the node says so.
    assert.match(text, /^chain_node_info\{[^}]*block_service_mode="false"/m);
    assert.match(text, /^chain_bds_info\{enabled="false",db_status="disabled"\} 1$/m);
    assert.match(text, /^chain_bds_metric\{field="enabled"\} 0$/m);
  });
});
