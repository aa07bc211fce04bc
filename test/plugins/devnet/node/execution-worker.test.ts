import assert from 'node:assert/strict';
import type { DevAccount } from '../../../../plugins/devnet/node/devnet.js';
import { decodeData, openDevnet, signedTx, txParam, waitFor } from './devnet-fixture.js';

/**
 * Block execution runs in a worker thread (issue #35): the node's RPC keeps answering while a
 * heavy transaction executes, and a worker that dies mid-block is reported, restarted, and the
 * block's transactions still get their receipts. Measured as work (answers counted while the
 * transaction is in flight), never as milliseconds.
 */
const HEAVY = `@export
def spin(n: int):
    total = 0
    for i in range(n):
        for j in range(1000):
            total = total + j * 3 % 7
    return total
`;

describe('block execution in a worker thread (issue #35)', function () {
  this.timeout(300_000);
  let net: Awaited<ReturnType<typeof openDevnet>>;
  let a: DevAccount;
  let nonce = 0;
  let rpcUrl: string;
  let metricsUrl: string;

  before(async () => {
    net = await openDevnet();
    a = net.devnet.accounts()[0] as DevAccount;
    const urls = await net.devnet.listen({ port: 0, metricsPort: 0 });
    rpcUrl = urls.rpcUrl;
    metricsUrl = urls.metricsUrl!;
    const deploy = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: nonce++, contract: 'submission', function: 'submit_contract', kwargs: { name: 'con_spin', code: HEAVY }, chi: 100_000 });
    const r = await net.devnet.rpc.call<any>('broadcast_tx_commit', { tx: txParam(deploy.hex) });
    assert.equal(r.tx_result.code, 0, JSON.stringify(decodeData(r.tx_result.data)));
    // Until the worker has loaded, blocks execute in-thread (start-up only).
    await waitFor(() => net.devnet.node.blockExecutor.status.running, 120_000, 'the block-execution worker loaded');
  });
  after(async () => net.close());

  /** Sends a heavy call; resolves with its receipt when committed. */
  function heavy(n: number): { hash: string; committed: Promise<any> } {
    const tx = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: nonce++, contract: 'con_spin', function: 'spin', kwargs: { n }, chi: 1_000_000 });
    const committed = net.devnet.rpc.call<any>('broadcast_tx_commit', { tx: txParam(tx.hex) });
    committed.catch(() => undefined); // the crash test reads the receipt with /tx instead
    return { hash: tx.hash, committed };
  }

  it('/status answers many times over HTTP while a heavy transaction executes', async () => {
    const height = net.devnet.node.height;
    const sent = heavy(400);
    let done = false;
    const receipt = sent.committed.finally(() => { done = true; });
    // Count /status answers from the moment the heavy block is being made until it commits.
    await waitFor(() => net.devnet.node.mempool.size > 0 || net.devnet.node.height > height, 30_000, 'the tx pooled');
    let answers = 0;
    while (!done) {
      const res = await fetch(`${rpcUrl}/status`);
      const body = await res.json() as any;
      assert.equal(res.status, 200);
      if (!done && Number(body.result.sync_info.latest_block_height) === height) answers++;
    }
    const r = await receipt;
    const out = decodeData(r.tx_result.data);
    assert.equal(out.status, 0, out.result);
    assert.ok(out.chi_used > 10_000, `a heavy transaction: ${out.chi_used} chi`);
    // With execution on the event loop the node answers nothing while the block runs (0-1).
    assert.ok(answers >= 20, `/status answered ${answers} times while the heavy block executed`);
  });

  it('a worker that dies mid-block is reported on /health and in metrics, restarted, and the block still commits every receipt', async () => {
    const executor = net.devnet.node.blockExecutor;
    const crashesBefore = executor.status.crashes;
    const sent = heavy(400);
    // The worker is executing the heavy block: kill it as a crash would.
    await waitFor(() => (executor as unknown as { current?: { job?: unknown } }).current?.job !== undefined, 30_000, 'the block in the worker');
    const worker = (executor as unknown as { current: { worker: { terminate(): Promise<number> } } }).current.worker;
    await worker.terminate();
    assert.equal(executor.status.crashes, crashesBefore + 1);
    const health = await fetch(`${rpcUrl}/health`);
    const body = await health.json() as any;
    if (!executor.status.running) {
      assert.equal(health.status, 500);
      assert.match(body.error.data, /block-execution worker died/);
    }
    // A bound on a hang: the restarted worker loads the engine, then runs the block again.
    const r = await waitFor(async () => net.devnet.rpc.call<any>('tx', { hash: Buffer.from(sent.hash, 'hex').toString('base64') }).catch(() => undefined), 120_000, 'the receipt');
    const out = decodeData(r.tx_result.data);
    assert.ok(out.status === 0 || out.status === 1, JSON.stringify(out));
    assert.equal(out.status, 0, 'not the cause: re-run alone in the restarted worker, it succeeds');
    await waitFor(() => executor.status.running, 60_000, 'the restarted worker');
    assert.equal((await fetch(`${rpcUrl}/health`)).status, 200);
    const metrics = await (await fetch(metricsUrl)).text();
    assert.match(metrics, new RegExp(`^chain_devnet_execution_worker_crashes ${crashesBefore + 1}$`, 'm'));
    assert.match(metrics, /^chain_devnet_execution_worker_up 1$/m);
  });
});
