import assert from 'node:assert/strict';
import { compileContract } from '../../../core/contracting/index.js';
import { LEDGER_SOURCE } from '../../support/ledger-contract.js';
import { devAccount, devnetConfig, expectError, startHost, tempHome, type RunningHost } from './chain-tool-kit.js';

/** `__x` names are refused by the linter (xian.lint.E002), as are sources without an export (E013). */
const REFUSED_SOURCE = `__hidden = Variable()

def helper():
    return 1
`;

/** A constructor with typed arguments: a str where float is declared fails the assert's comparison. */
const TYPED_CONSTRUCTOR = `fee = Variable()
slots = Variable()

@construct
def seed(fee_rate: float, max_slots: int):
    assert fee_rate > 0, 'fee_rate must be positive'
    fee.set(fee_rate)
    slots.set(max_slots + 1)

@export
def get_fee():
    return fee.get()
`;

/**
 * check_contract reports a contract of our own (test/support/ledger-contract.ts); deploy_contract
 * ships it; its calls, events and state are right; a source the linter refuses is refused with its codes.
 */
describe('contract tools: check_contract and deploy_contract on the devnet (HTTP tool API)', function () {
  this.timeout(120_000);
  const A = devAccount(0);
  let home: Awaited<ReturnType<typeof tempHome>>;
  let running: RunningHost;

  before(async () => {
    home = await tempHome();
    running = await startHost(devnetConfig(`${home.dir}/unsafe`), { unsafe: true });
  });
  after(async () => {
    await running?.stop();
    await home?.remove();
  });

  const ok = (outcome: Awaited<ReturnType<RunningHost['call']>>) => {
    assert.equal(outcome.ok, true, outcome.text);
    return outcome.result;
  };
  const nonce = async () => Number(ok(await running.call('get_next_nonce', { address: A.address })).nonce);

  it('check_contract: a refused source answers its diagnostics with codes and ranges', async () => {
    const out = ok(await running.call('check_contract', { name: 'con_refused', code: REFUSED_SOURCE }));
    assert.equal(out.compiles, false);
    const codes = out.diagnostics.map((d: { code: string }) => d.code);
    assert.ok(codes.includes('xian.lint.E002'), codes.join(','));
    assert.ok(codes.includes('xian.lint.E013'), codes.join(','));
    assert.ok(out.diagnostics.some((d: { range?: { start_line: number } }) => d.range?.start_line === 1));
    assert.equal(out.chi_estimate, null);
  });

  it('check_contract: a good source answers methods with argument types, storage and the deployment chi', async () => {
    const out = ok(await running.call('check_contract', { name: 'con_ledger', code: LEDGER_SOURCE, constructor_args: { name: 'Ledger' } }));
    assert.equal(out.compiles, true);
    assert.deepEqual(out.methods, [
      { name: 'deposit', arguments: [{ name: 'tag', type: 'str' }, { name: 'amount', type: 'float' }] },
      { name: 'balance', arguments: [{ name: 'account', type: 'str' }, { name: 'tag', type: 'str' }] },
      { name: 'name', arguments: [] },
    ]);
    assert.deepEqual([out.variables, out.hashes], [['ledger_name', 'fee_bps'], ['entries']]);
    assert.equal(out.deployable, true, out.deploy_error);
    // Deployment = 5,000 + source bytes + 25 per metadata byte (the IR alone is tens of KB) + the constructor.
    assert.ok(Number(out.chi_estimate) > 25 * 10_000 / 1000, String(out.chi_estimate));
  });

  it('deploy_contract refuses a source the compiler refuses before anything is signed', async () => {
    const before = await nonce();
    const outcome = await running.call('deploy_contract', { private_key: A.privateKey, name: 'con_refused', code: REFUSED_SOURCE });
    expectError(outcome, { code: 'contract_refused', status: 422, match: /xian\.lint\.E002/ });
    assert.equal(await nonce(), before);
  });

  it('check_contract and deploy_contract refuse a source over the chain\'s 131,072 bytes, naming code, before signing', async () => {
    // The probe: a valid contract padded to 262,183 bytes (it used to deploy).
    const head = '@export\ndef f():\n    return 1\n#';
    const big = head + 'x'.repeat(262_183 - head.length - 1) + '\n';
    const before = await nonce();
    expectError(await running.call('check_contract', { name: 'con_big', code: big }), { code: 'invalid_arguments', field: 'code', match: /131072 bytes/ });
    expectError(await running.call('deploy_contract', { private_key: A.privateKey, name: 'con_big', code: big }), { code: 'invalid_arguments', field: 'code', match: /131072 bytes/ });
    assert.equal(await nonce(), before);
  });

  it('deploy_contract ships the contract; calls, events, state and the stored IR are right', async () => {
    const deployed = ok(await running.call('deploy_contract', {
      private_key: A.privateKey, name: 'con_ledger', code: LEDGER_SOURCE, constructor_args: { name: 'Ledger', bps: 25 }, verbose: true,
    }));
    assert.equal(deployed.success, true, deployed.error);
    assert.deepEqual(deployed.deployed.methods.map((m: { name: string }) => m.name), ['deposit', 'balance', 'name']);
    const deployedEvent = deployed.receipt.events.find((e: { event: string }) => e.event === 'ContractDeployed');
    assert.deepEqual(deployedEvent.data_indexed, { name: 'con_ledger', developer: A.address });

    const state = async (key: string) => ok(await running.call('get_state', { state_key: key })).state_value;
    assert.equal(await state('con_ledger.ledger_name'), 'Ledger');
    assert.equal(Number(await state('con_ledger.fee_bps')), 25);
    assert.equal(await state('con_ledger.__developer__'), A.address);
    const compiled = compileContract('con_ledger', LEDGER_SOURCE);
    assert.ok(compiled.ok);
    assert.equal(await state('con_ledger.__xian_ir_v1__'), compiled.artifact.vm_ir_json, 'the stored IR is the compiler\'s text byte for byte');
    assert.equal(await state('con_ledger.__source__'), compiled.artifact.source);

    const again = await running.call('deploy_contract', { private_key: A.privateKey, name: 'con_ledger', code: LEDGER_SOURCE, constructor_args: { name: 'x' } });
    assert.equal(again.ok, false);
    assert.match(again.text, /Contract already exists\./);

    ok(await running.call('send_transaction', { private_key: A.privateKey, contract: 'currency', function: 'approve', kwargs: { amount: '100', to: 'con_ledger' } }));
    const deposit = ok(await running.call('send_transaction', {
      private_key: A.privateKey, contract: 'con_ledger', function: 'deposit', kwargs: { tag: 'rent', amount: '12.5' }, verbose: true,
    }));
    assert.equal(deposit.success, true, deposit.error);
    assert.equal(deposit.result, "12.5");
    const events = deposit.receipt.events.map((e: { contract: string; event: string; data_indexed: unknown }) => [e.contract, e.event, e.data_indexed]);
    assert.deepEqual(events, [
      ['currency', 'Transfer', { from: A.address, to: 'con_ledger' }],
      ['con_ledger', 'Deposited', { account: A.address, tag: 'rent' }],
    ]);
    assert.equal(String(await state(`con_ledger.entries:${A.address}:rent`)), '12.5');
    assert.equal(String(await state('currency.balances:con_ledger')), '12.5');
    const balance = ok(await running.call('simulate_transaction', { address: A.address, contract: 'con_ledger', function: 'balance', kwargs: { account: A.address, tag: 'rent' } }));
    assert.equal(balance.result, '12.5');
  });

  it('constructor_args are coerced by the constructor\'s signature as sends coerce kwargs, and a mismatch is refused naming the argument', async () => {
    const checked = ok(await running.call('check_contract', { name: 'con_typed', code: TYPED_CONSTRUCTOR, constructor_args: { fee_rate: '2.5', max_slots: '3' } }));
    assert.equal(checked.deployable, true, checked.deploy_error);
    const before = await nonce();
    for (const [tool, signer] of [['check_contract', {}], ['deploy_contract', { private_key: A.privateKey }]] as const) {
      const refused = await running.call(tool, { ...signer, name: 'con_typed', code: TYPED_CONSTRUCTOR, constructor_args: { fee_rate: '2.5', max_slots: '2.5' } });
      expectError(refused, { code: 'invalid_arguments', field: 'constructor_args.max_slots', match: /declares max_slots: int/ });
    }
    assert.equal(await nonce(), before, 'nothing was signed');
    const deployed = ok(await running.call('deploy_contract', { private_key: A.privateKey, name: 'con_typed', code: TYPED_CONSTRUCTOR, constructor_args: { fee_rate: '2.5', max_slots: '3' } }));
    assert.equal(deployed.success, true, deployed.error);
    const state = async (key: string) => ok(await running.call('get_state', { state_key: key })).state_value;
    assert.equal(String(await state('con_typed.fee')), '2.5');
    assert.equal(Number(await state('con_typed.slots')), 4);
  });
});
