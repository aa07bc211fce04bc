import assert from 'node:assert/strict';
import { setMaxListeners } from 'node:events';
import { ChainNode } from '../../../core/chain/node.js';
import type { ChainRpc, RpcCallOptions } from '../../../core/chain/rpc/chain-rpc.js';
import { TransactionSubmitter } from '../../../core/chain/transaction-submitter.js';

/**
 * The dry run before every send runs behind the node's shared caps (2 running, 256 waiting);
 * what those caps refuse is counted as source `submit` of chainhost_simulate_refusals_total.
 * The node here never finishes a dry run, as an overloaded remote node would not.
 */
describe('TransactionSubmitter: refusals of the dry-run caps', () => {
  it('a send beyond the running and waiting dry runs is refused with 503 and counted; a caller abort is not', async () => {
    const rpc: ChainRpc = {
      call: <T>(method: string, _params?: Record<string, unknown>, options?: RpcCallOptions) =>
        method === 'status'
          ? Promise.resolve({ node_info: { network: 'chain-local-1' } } as T)
          : new Promise<T>((_, reject) => options?.signal?.addEventListener('abort', () => reject(options.signal!.reason))),
      subscribe: () => Promise.reject(new Error('no subscriptions here')),
      close: async () => undefined,
    };
    const refused: string[] = [];
    const submitter = new TransactionSubmitter(new ChainNode(rpc), { chainId: 'chain-local-1', countRefusal: (reason) => refused.push(reason) });
    const caller = new AbortController();
    setMaxListeners(1_000, caller.signal); // one caller signal shared by every send
    const sends = Array.from({ length: 2 + 256 + 1 }, () =>
      submitter.submit({ key: '11'.repeat(32), contract: 'currency', function: 'transfer', kwargs: { amount: 1, to: 'ab'.repeat(32) }, coerceBySignature: false, signal: caller.signal })
        .then(() => null, (err: { status?: number; code?: string }) => err));
    for (let i = 0; i < 100 && refused.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(refused, ['capacity']);
    caller.abort(new Error('the caller gave up'));
    const outcomes = await Promise.all(sends);
    assert.equal(outcomes.filter((e) => e?.status === 503).length, 1);
    assert.equal(outcomes.filter((e) => e instanceof Error && /gave up/.test(e.message)).length, 2 + 256);
    assert.deepEqual(refused, ['capacity'], 'aborted dry runs are the caller\'s, not a refusal');
    await submitter.close();
  });
});
