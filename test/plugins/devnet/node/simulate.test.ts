import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeNodeConfig } from '../../../../plugins/devnet/node/node-config.js';
import type { DevAccount } from '../../../../plugins/devnet/node/devnet.js';
import type { Devnet } from '../../../../plugins/devnet/node/devnet.js';
import { abciQuery, openDevnet, tempHome, valueText } from './devnet-fixture.js';

function hexOf(request: unknown): string {
  return Buffer.from(typeof request === 'string' ? request : JSON.stringify(request), 'utf8').toString('hex');
}

async function simulate(devnet: Devnet, request: unknown): Promise<any> {
  const r = await abciQuery(devnet, `/simulate_tx/${hexOf(request)}`);
  assert.equal(r.code, 0, 'refusals still answer code 0');
  assert.equal(r.info, 'dict');
  return JSON.parse(valueText(r)!);
}

const transfer = (from: DevAccount, to: DevAccount, amount = '100') => ({
  contract: 'currency', function: 'transfer', kwargs: { amount: { __fixed__: amount }, to: to.address }, sender: from.address,
});

describe('devnet simulate_tx (simulate.md)', function () {
  describe('with the default settings', () => {
    let net: Awaited<ReturnType<typeof openDevnet>>;
    let a: DevAccount;
    let b: DevAccount;
    before(async () => {
      net = await openDevnet();
      [a, b] = net.devnet.accounts() as [DevAccount, DevAccount];
    });
    after(async () => net.close());

    it('writes config/chain.toml with the defaults on first start', () => {
      const toml = readFileSync(path.join(net.home, 'config', 'chain.toml'), 'utf8');
      for (const line of ['simulation_enabled = true', 'simulation_max_concurrency = 2', 'simulation_timeout_ms = 3000', 'simulation_max_chi = 1000000', 'tx_fee_mode = "paid_metered"']) {
        assert.ok(toml.includes(line), line);
      }
    });

    it('runs against committed state, previews the writes with the fee, and discards them', async () => {
      const before = valueText(await abciQuery(net.devnet, `/get/currency.balances:${a.address}`));
      const out = await simulate(net.devnet, transfer(a, b));
      assert.deepEqual(Object.keys(out), ['chi_used', 'payload', 'result', 'state', 'status']);
      assert.equal(out.status, 0);
      assert.equal(out.result, 'None', 'the spec wants a string');
      assert.ok(Number.isInteger(out.chi_used) && out.chi_used > 5);
      assert.deepEqual(out.payload, transfer(a, b));
      const state = Object.fromEntries(out.state.map((s: any) => [s.key, s.value]));
      assert.equal(state[`currency.balances:${b.address}`], '1000100');
      const fee = out.chi_used / 20;
      assert.equal(state[`currency.balances:${a.address}`], String(1_000_000 - 100 - fee));
      assert.equal(valueText(await abciQuery(net.devnet, `/get/currency.balances:${a.address}`)), before, 'nothing persisted');
    });

    it('accepts a whole signed transaction (its payload member) and null kwargs', async () => {
      const out = await simulate(net.devnet, { metadata: { signature: 'x' }, payload: { ...transfer(a, b), nonce: 99, chi_supplied: 1, chain_id: 'whatever' } });
      assert.equal(out.status, 0);
      assert.deepEqual(Object.keys(out.payload), ['contract', 'function', 'kwargs', 'sender']);
      const balanceOf = await simulate(net.devnet, { contract: 'currency', function: 'balance_of', kwargs: { address: a.address }, sender: a.address });
      assert.equal(balanceOf.status, 0);
      assert.match(balanceOf.result, /^[0-9.E+]+$/);
      const noKwargs = await simulate(net.devnet, { contract: 'currency', function: 'transfer', kwargs: null, sender: a.address });
      assert.equal(noKwargs.status, 1, 'missing arguments fail inside the contract');
      assert.match(noKwargs.result, /missing required argument 'amount'/);
    });

    it('a failing call reports status 1 with its error text and still charges the fee', async () => {
      const out = await simulate(net.devnet, transfer(a, b, '99999999'));
      assert.equal(out.status, 1);
      assert.ok(out.chi_used > 0);
      assert.ok(typeof out.result === 'string' && out.result.length > 0);
      assert.deepEqual(out.state.map((s: any) => s.key), [`currency.balances:${a.address}`]);
    });

    it('decode errors: Simulation error with payload null', async () => {
      const bad = await abciQuery(net.devnet, '/simulate_tx/zz');
      const body = JSON.parse(valueText(bad)!);
      assert.deepEqual(body, { chi_used: 0, payload: null, result: 'Simulation error: non-hexadecimal number found in fromhex() arg at position 0', state: [], status: 1 });
      const missing = await simulate(net.devnet, { contract: 'currency', function: 'transfer', kwargs: {} });
      assert.equal(missing.result, 'Simulation error: simulation payload missing sender');
      const kw = await simulate(net.devnet, { ...transfer(a, b), kwargs: [1] });
      assert.equal(kw.result, 'Simulation error: simulation payload kwargs must be a JSON object');
      const notObject = await simulate(net.devnet, '[1]');
      assert.equal(notObject.result, 'Simulation error: simulation payload must be a JSON object');
    });

    it('the key of the response is the hex', async () => {
      const hex = hexOf(transfer(a, b));
      const r = await abciQuery(net.devnet, `/simulate_tx/${hex}`);
      assert.equal(Buffer.from(r.key!, 'base64').toString(), hex);
    });
  });

  describe('refusals from config/chain.toml', () => {
    it('simulation_enabled = false', async () => {
      const home = tempHome();
      writeNodeConfig(home.dir, { simulation_enabled: false });
      const net = await openDevnet({ home: home.dir });
      try {
        const [a, b] = net.devnet.accounts() as [DevAccount, DevAccount];
        const out = await simulate(net.devnet, transfer(a, b));
        assert.deepEqual(out, { chi_used: 0, payload: transfer(a, b), result: 'Simulation is disabled on this node', state: [], status: 1 });
      } finally {
        await net.close();
      }
    });

    it('simulation_max_concurrency: more concurrent dry runs than allowed are refused, not queued', async () => {
      const net = await openDevnet({ config: { simulation_max_concurrency: 1 } });
      try {
        const [a, b] = net.devnet.accounts() as [DevAccount, DevAccount];
        const [first, second] = await Promise.all([simulate(net.devnet, transfer(a, b)), simulate(net.devnet, transfer(a, b))]);
        assert.equal(first.status, 0, first.result);
        assert.equal(second.status, 1);
        assert.equal(second.result, 'Simulation capacity exceeded on this node; retry later');
        assert.equal((await simulate(net.devnet, transfer(a, b))).status, 0, 'capacity frees up afterwards');
      } finally {
        await net.close();
      }
    });

    it('simulation_timeout_ms: the worker is killed and the run refused; the next run gets a fresh worker', async () => {
      const net = await openDevnet({ config: { simulation_timeout_ms: 1 } });
      try {
        const [a, b] = net.devnet.accounts() as [DevAccount, DevAccount];
        const out = await simulate(net.devnet, transfer(a, b));
        assert.equal(out.status, 1);
        assert.equal(out.result, 'Simulation timed out on this node after 1 ms');
        net.devnet.node.config.simulation_timeout_ms = 10_000;
        assert.equal((await simulate(net.devnet, transfer(a, b))).status, 0);
        assert.equal(net.devnet.node.simulator.counters.refused.timeout, 1);
      } finally {
        await net.close();
      }
    });

    it('simulation_timeout_ms bounds the run, not a new worker\'s start-up (a busy machine refused ordinary runs)', async () => {
      // 400 ms is ample for a transfer, but less than a cold worker takes to load the engine from
      // the TypeScript sources (about a second on a quiet machine, several on a busy one).
      const net = await openDevnet({ config: { simulation_timeout_ms: 400 } });
      try {
        const [a, b] = net.devnet.accounts() as [DevAccount, DevAccount];
        const [first, second] = await Promise.all([simulate(net.devnet, transfer(a, b)), simulate(net.devnet, transfer(b, a))]);
        assert.equal(first.status, 0, first.result);
        assert.equal(second.status, 0, second.result);
        assert.equal(net.devnet.node.simulator.counters.refused.timeout, 0);
      } finally {
        await net.close();
      }
    });

    it('simulation_max_chi: the readonly chi cap ends the run with status 1', async () => {
      const net = await openDevnet({ config: { simulation_max_chi: 10 } });
      try {
        const [a, b] = net.devnet.accounts() as [DevAccount, DevAccount];
        const out = await simulate(net.devnet, transfer(a, b));
        assert.equal(out.status, 1);
        assert.equal(out.chi_used, 10, 'capped at the budget');
        assert.match(out.result, /Out of chi\./);
        assert.match(out.result, /chi budget exceeded during readonly execution/);
      } finally {
        await net.close();
      }
    });
  });
});
