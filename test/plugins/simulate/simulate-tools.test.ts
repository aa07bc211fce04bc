import assert from 'node:assert/strict';
import { decodeAbciQuery } from '../../../core/chain/abci-value.js';
import { simulationRequestHex, simulationRequestJson, decodeSimulationResponse } from '../../../plugins/simulate/index.js';
import { devAccount, devnetConfig, expectError, startHost, tempHome, type RunningHost } from '../wallet/chain-tool-kit.js';

describe('simulate_transaction', function () {
  this.timeout(60_000);
  const A = devAccount(0);
  const B = devAccount(1);
  let home: Awaited<ReturnType<typeof tempHome>>;
  let running: RunningHost;
  let throttled: RunningHost;

  before(async () => {
    home = await tempHome();
    running = await startHost(devnetConfig(`${home.dir}/a`, { plugins: { simulate: {} } }));
    throttled = await startHost(devnetConfig(`${home.dir}/b`, { plugins: { simulate: { ratePerSecond: 0.5, burst: 2 } } }));
  });
  after(async () => {
    await running?.stop();
    await throttled?.stop();
    await home?.remove();
  });

  it('previews the transfer writes, including the chi fee debit, with decimals as strings', async () => {
    const r = await running.call('simulate_transaction', { address: A.address, contract: 'currency', function: 'transfer', kwargs: { amount: 100, to: B.address } });
    assert.equal(r.result.status, 0);
    assert.deepEqual(r.result.payload, { contract: 'currency', function: 'transfer', kwargs: { amount: 100, to: B.address }, sender: A.address });
    const writes = Object.fromEntries(r.result.state.map((s: { key: string; value: string }) => [s.key, s.value]));
    assert.equal(writes[`currency.balances:${B.address}`], '1000100');
    assert.match(writes[`currency.balances:${A.address}`], /^\d+(\.\d+)?$/);
    assert.equal(r.result.result, 'None');
  });

  it('turns decimal text for a float argument into an exact decimal (contract_methods)', async () => {
    const r = await running.call('simulate_transaction', { address: A.address, contract: 'currency', function: 'transfer', kwargs: { amount: '0.000000000000000000000000000001', to: B.address } });
    assert.equal(r.result.status, 0);
    const text = await running.call('simulate_transaction', { address: A.address, contract: 'currency', function: 'transfer', kwargs: { amount: '0.' + '0'.repeat(30) + '1', to: B.address } });
    expectError(text, { code: 'invalid_arguments', status: 422, field: 'kwargs.amount' });
  });

  it('a sender without funds fails with status 1 and the contract\'s error as result', async () => {
    const r = await running.call('simulate_transaction', { address: '00'.repeat(32), contract: 'currency', function: 'transfer', kwargs: { amount: 1, to: B.address } });
    assert.equal(r.result.status, 1);
    assert.equal(r.result.refused, null);
    assert.ok(r.result.result.length > 0);
  });

  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['a bad sender', { address: 'x', contract: 'currency', function: 'transfer' }, 'address'],
    ['a bad contract', { address: A.address, contract: '9x', function: 'transfer' }, 'contract'],
    ['a missing function', { address: A.address, contract: 'currency' }, 'function'],
    ['kwargs that are a list', { address: A.address, contract: 'currency', function: 'transfer', kwargs: [1] }, 'kwargs'],
    ['a private key instead of an address field', { private_key: 'ab'.repeat(32), address: A.address, contract: 'currency', function: 'transfer' }, 'private_key'],
  ];
  for (const [what, args, field] of cases) {
    it(`${what} is 400 naming ${field}`, async () => {
      expectError(await running.call('simulate_transaction', args), { code: 'invalid_arguments', status: 422, field });
    });
  }

  it('is rate-capped in front of the node: over the burst it answers 503 busy with Retry-After', async () => {
    const args = { address: A.address, contract: 'currency', function: 'balance_of', kwargs: { address: A.address } };
    const outcomes = await Promise.all([1, 2, 3].map(() => throttled.call('simulate_transaction', args)));
    const busy = outcomes.filter((o) => !o.ok);
    assert.equal(busy.length, 1);
    expectError(busy[0]!, { code: 'busy', status: 503, match: /too many dry runs/ });
  });

  describe('the payload builder the plugin exports', () => {
    it('builds canonical request JSON (keys sorted, compact) and its hex', () => {
      const request = { sender: 'alice', contract: 'currency', function: 'transfer', kwargs: { to: 'bob', amount: { __fixed__: '100' } } };
      const json = simulationRequestJson(request);
      assert.equal(json, '{"contract":"currency","function":"transfer","kwargs":{"amount":{"__fixed__":"100"},"to":"bob"},"sender":"alice"}');
      assert.equal(simulationRequestHex(request), Buffer.from(json, 'utf8').toString('hex'));
    });

    it('decodes the response of spec part 2, legacy stamps_used and structured results', () => {
      const value = (o: unknown) => ({ code: 0, log: '', info: 'dict', index: '0', key: '', value: Buffer.from(JSON.stringify(o)).toString('base64'), proofOps: null, height: '1', codespace: '' });
      const r = decodeSimulationResponse(decodeAbciQuery(value({ chi_used: 342, payload: {}, result: [1, '0.5'], state: [{ key: 'k', value: '1.5' }], status: 0 })));
      assert.deepEqual([r.status, r.chi_used, r.result, r.state], [0, 342n, '[1,"0.5"]', [{ key: 'k', value: '1.5' }]]);
      const legacy = decodeSimulationResponse(decodeAbciQuery(value({ stamps_used: 7, payload: null, result: 'Simulation capacity exceeded on this node; retry later', state: [], status: 1, chi_used: undefined })));
      assert.deepEqual([legacy.chi_used, legacy.refusal], [7n, null]);
      const refused = decodeSimulationResponse(decodeAbciQuery(value({ chi_used: 0, payload: null, result: 'Simulation is disabled on this node', state: [], status: 1 })));
      assert.equal(refused.refusal, 'disabled');
    });
  });
});
