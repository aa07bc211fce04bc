import assert from 'node:assert/strict';
import type { ChainSimulator } from '../../../core/chain/chain-simulator.js';
import { ChainNode } from '../../../core/chain/node.js';
import type { ChainRpc } from '../../../core/chain/rpc/chain-rpc.js';
import type { SimulationResponse } from '../../../core/chain/simulation.js';
import { TransactionSubmitter } from '../../../core/chain/transaction-submitter.js';
import { ApiError } from '../../../core/errors.js';

/**
 * An explicit chi_supplied below what the dry run used is refused before anything is signed:
 * sent, it would fail in the block with 'Out of chi.' and pay for all of it.
 */
describe('TransactionSubmitter: an explicit chi_supplied below the dry run\'s chi', () => {
  const dryRun: SimulationResponse = { payload: null, status: 0, success: true, state: [], chi_used: 80n, result: 'None', refusal: null };
  const simulator = { simulate: async () => dryRun } as unknown as ChainSimulator;
  const methods: string[] = [];
  const rpc: ChainRpc = {
    call: async <T>(method: string) => {
      methods.push(method);
      if (method === 'status') return { node_info: { network: 'chain-local-1' } } as T;
      if (method === 'abci_query') return { response: { code: 0, log: '', info: 'int', key: '', value: Buffer.from('0').toString('base64'), height: '1', codespace: '' } } as T;
      throw new Error(`not expected here: ${method}`);
    },
    subscribe: () => Promise.reject(new Error('no subscriptions here')),
    close: async () => undefined,
  };
  const submitter = new TransactionSubmitter(new ChainNode(rpc), { chainId: 'chain-local-1', simulator });
  const send = (chiSupplied: number) =>
    submitter.submit({ key: '11'.repeat(32), contract: 'currency', function: 'transfer', kwargs: { amount: 1, to: 'ab'.repeat(32) }, coerceBySignature: false, chiSupplied, wait: false });

  after(() => submitter.close());

  it('is refused (422 chi_too_low naming chi_supplied, with the estimate and a sufficient figure), and nothing is broadcast', async () => {
    await assert.rejects(send(50), (err: unknown) =>
      err instanceof ApiError && err.status === 422 && err.code === 'chi_too_low' && err.details?.field === 'chi_supplied'
      && err.details?.chi_estimated === 80 && Number(err.details?.chi_suggested) >= 88 && /below the 80 chi the dry run/.test(err.message));
    assert.ok(!methods.some((m) => m.startsWith('broadcast')), methods.join(' '));
  });
});
