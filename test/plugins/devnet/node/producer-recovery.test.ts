import assert from 'node:assert/strict';
import { BlockLog } from '../../../../plugins/devnet/node/block-log.js';
import type { DevAccount } from '../../../../plugins/devnet/node/devnet.js';
import { openDevnet, signedTx, txParam, waitFor } from './devnet-fixture.js';

/**
 * Issue #30: on a full disk the devnet stopped making blocks, `/health` still answered 200 and
 * it never resumed after space was freed. A block-log write failure (injected: ENOSPC from the
 * log's append, as a full disk gives) now makes `/health` fail with the reason, and the producer
 * retries with backoff and resumes by itself once a block commits again.
 */
function enospc(): Error {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
}

describe('devnet block producer: a write failure halts it visibly, and it resumes by itself', function () {
  this.timeout(60_000);

  for (const blockTimeMs of [0, 50]) {
    it(`blockTimeMs ${blockTimeMs}: /health fails with the reason while blocks cannot be written, and the pending tx commits after`, async () => {
      const net = await openDevnet({ blockTimeMs });
      try {
        const { rpcUrl } = await net.devnet.listen({ port: 0, metricsPort: null });
        const node = net.devnet.node;
        node.producer.retry = { initialMs: 20, maxMs: 80 };
        const log = (node.store as unknown as { log: BlockLog }).log;
        const append = log.append.bind(log);
        let refused = 0;
        log.append = () => {
          refused++;
          throw enospc();
        };
        const health = async () => {
          const res = await fetch(`${rpcUrl}/health`);
          return { status: res.status, body: await res.json() as any };
        };

        const [a, b] = net.devnet.accounts() as [DevAccount, DevAccount];
        const tx = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0, kwargs: { amount: 1, to: b.address } });
        const heightBefore = node.height;
        const sync = await net.devnet.rpc.call<any>('broadcast_tx_sync', { tx: txParam(tx.hex) });
        assert.equal(sync.code, 0);

        // Several failed retries: the chain stands still and /health says why, every time.
        await waitFor(() => (node.producer.fault?.attempts ?? 0) >= 3, 20_000, 'three failed retries');
        const down = await health();
        assert.equal(down.status, 500);
        assert.equal(down.body.error.code, -32603);
        assert.match(down.body.error.data, /^block production halted since \S+ at height \d+: ENOSPC: no space left on device, write; retrying in \d+ s \(failed retries: \d+\); it resumes by itself/);
        assert.equal(node.height, heightBefore);
        // /status says the node is not producing (issue #41): catching_up while halted.
        const halted = await (await fetch(`${rpcUrl}/status`)).json() as any;
        assert.equal(halted.result.sync_info.catching_up, true);

        // Space is back: the next retry commits the waiting transaction and /health is {} again.
        log.append = append;
        await waitFor(() => node.producer.fault === undefined, 20_000, 'recovery');
        const up = await health();
        assert.equal(up.status, 200);
        assert.deepEqual(up.body.result, {});
        const producing = await (await fetch(`${rpcUrl}/status`)).json() as any;
        assert.equal(producing.result.sync_info.catching_up, false);
        const found = await waitFor(async () => {
          try {
            return await net.devnet.rpc.call<any>('tx', { hash: Buffer.from(tx.hash, 'hex').toString('base64') });
          } catch {
            return undefined;
          }
        }, 20_000, 'the tx in a block');
        assert.equal(found.tx_result.code, 0);
        assert.ok(refused >= 4);
        // And it keeps going afterwards.
        const next = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 1, kwargs: { amount: 1, to: b.address } });
        const committed = await net.devnet.rpc.call<any>('broadcast_tx_commit', { tx: txParam(next.hex) });
        assert.equal(committed.tx_result.code, 0);
      } finally {
        await net.close();
      }
    });
  }
});
