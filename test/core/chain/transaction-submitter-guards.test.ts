import assert from 'node:assert/strict';
import { ChainNode } from '../../../core/chain/node.js';
import { NodeUnavailableError, type ChainRpc } from '../../../core/chain/rpc/chain-rpc.js';
import type { SendGuard, SendPreview } from '../../../core/chain/send-guard.js';
import type { ChainSimulator } from '../../../core/chain/chain-simulator.js';
import { TransactionSubmitter } from '../../../core/chain/transaction-submitter.js';
import { ApiError } from '../../../core/errors.js';

/**
 * The pre-sign extension point: every send passes each guard's review (outside the sender lane)
 * and admit (inside it) after the dry run and before signing; a refusal signs nothing; an
 * admission is given back only when the node certainly did not take the transaction.
 */
describe('TransactionSubmitter: send guards', () => {
  let broadcast: () => unknown;
  let broadcasts = 0;
  let simulations = 0;

  const rpc: ChainRpc = {
    call: async <T>(method: string): Promise<T> => {
      if (method === 'status') return { node_info: { network: 'chain-local-1' } } as T;
      if (method === 'abci_query') return { response: { code: 0, info: 'int', value: Buffer.from('0').toString('base64'), height: '3' } } as T;
      if (method === 'broadcast_tx_sync') {
        broadcasts++;
        return broadcast() as T;
      }
      throw new Error(`unexpected ${method}`);
    },
    subscribe: () => Promise.reject(new Error('no subscriptions here')),
    close: async () => undefined,
  };
  const simulator = {
    simulate: async () => {
      simulations++;
      return { payload: null, status: 0, success: true, state: [], chi_used: 20n, result: 'None', refusal: null, hex: '', query: { height: '3' } };
    },
  } as unknown as ChainSimulator;
  const submitter = () => new TransactionSubmitter(new ChainNode(rpc), { chainId: 'chain-local-1', simulator });
  const send = (s: TransactionSubmitter, extra: Record<string, unknown> = {}) =>
    s.submit({ key: '11'.repeat(32), contract: 'currency', function: 'transfer', kwargs: { amount: 1 }, coerceBySignature: false, wait: false, ...extra });

  /** A guard that records what it saw and gives back its admission when told. */
  function recorder(options: { refuseIn?: 'review' | 'admit' } = {}) {
    const seen: string[] = [];
    const guard: SendGuard = {
      name: 'recorder',
      review: async (p: SendPreview) => {
        seen.push(`review ${p.contract}.${p.function} chi ${p.chiSupplied} dry-run ${p.simulation?.chi_used} at ${p.simulationHeight} about ${JSON.stringify(p.about)} ask ${await p.confirm({ message: 'ok?', timeoutMs: 1 })}`);
        if (options.refuseIn === 'review') throw new ApiError(403, 'policy_denied', 'no');
      },
      admit: async () => {
        seen.push('admit');
        if (options.refuseIn === 'admit') throw new ApiError(403, 'policy_denied', 'no');
        return { refused: async () => void seen.push('given back') };
      },
    };
    return { guard, seen };
  }

  beforeEach(() => {
    broadcasts = 0;
    simulations = 0;
    broadcast = () => ({ code: 0, log: '', codespace: '', hash: 'AB', data: '' });
  });

  it('reviews and admits after the dry run, then signs; the admission stays with an accepted transaction', async () => {
    const s = submitter();
    const { guard, seen } = recorder();
    s.useGuard(guard);
    const sent = await send(s, { about: { plan_digest: 'sha256:x' }, confirm: async () => 'accepted' });
    assert.equal(sent.accepted, true);
    assert.deepEqual(seen, ['review currency.transfer chi 30 dry-run 20 at 3 about {"plan_digest":"sha256:x"} ask accepted', 'admit']);
    assert.equal(broadcasts, 1);
    await s.close();
  });

  it('without a way to ask, confirm answers unavailable', async () => {
    const s = submitter();
    const { guard, seen } = recorder();
    s.useGuard(guard);
    await send(s);
    assert.match(seen[0]!, /ask unavailable$/);
    await s.close();
  });

  for (const step of ['review', 'admit'] as const) {
    it(`a refusal in ${step} signs and sends nothing`, async () => {
      const s = submitter();
      const { guard } = recorder({ refuseIn: step });
      s.useGuard(guard);
      await assert.rejects(send(s), (err: ApiError) => err.code === 'policy_denied');
      assert.equal(broadcasts, 0);
      await s.close();
    });
  }

  it('gives the admission back when CheckTx refuses, keeps it when the broadcast may have reached the node', async () => {
    const s = submitter();
    const { guard, seen } = recorder();
    s.useGuard(guard);
    broadcast = () => ({ code: 1, log: 'insufficient balance', codespace: '', hash: 'AB', data: '' });
    await assert.rejects(send(s), (err: ApiError) => err.code === 'transaction_rejected');
    assert.deepEqual(seen.slice(1), ['admit', 'given back']);
    seen.length = 0;
    broadcast = () => {
      throw new NodeUnavailableError('http://node', 'socket hang up');
    };
    await assert.rejects(send(s));
    assert.deepEqual(seen.slice(1), ['admit'], 'a transaction that may be on its way keeps its admission');
    await s.close();
  });

  it('with a guard, a send with explicit chi and simulate off is still dry-run for the guard; without one it is not', async () => {
    const s = submitter();
    await send(s, { simulate: false, chiSupplied: 50 });
    assert.equal(simulations, 0);
    const remove = s.useGuard(recorder().guard);
    await send(s, { simulate: false, chiSupplied: 50 });
    assert.equal(simulations, 1);
    remove();
    await send(s, { simulate: false, chiSupplied: 50 });
    assert.equal(simulations, 1);
    await s.close();
  });
});
