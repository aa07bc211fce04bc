import assert from 'node:assert/strict';
import { ChainDecimal } from '../../../../core/chain/decimal.js';
import { sign } from '../../../../core/chain/keys.js';
import { publicKeyFromPrivate } from '../../../../core/chain/keys.js';
import { ChainDatetime } from '../../../../core/chain/values.js';
import { contractInfo, contractMethods, contractVars, listContracts } from '../../../../plugins/devnet/engine/contract-queries.js';
import { compileContract } from '../../../../core/contracting/index.js';
import { CURRENCY_SOURCE } from '../../../../plugins/devnet/engine/contracts/currency.js';
import { LP_TOKEN_SOURCE, lpTokenDeployment } from '../../../../plugins/devnet/engine/contracts/lp-token.js';
import { XSC001_SOURCE, permitMessage, xsc001Deployment } from '../../../../plugins/devnet/engine/contracts/xsc001-token.js';
import { buildGenesis } from '../../../../plugins/devnet/engine/genesis.js';
import { submit } from './dex-fixture.js';
import { ALICE, BOB, CAROL, CHAIN_ID, D, MapState, NOW, TestChain, str } from './support.js';

describe('devnet engine: genesis', () => {
  const genesis = buildGenesis({ chainId: CHAIN_ID, accounts: [ALICE, BOB, CAROL], genesisTime: NOW });
  const state = new MapState();
  state.apply(genesis.writes);

  it('funds every account with 1,000,000 and seeds chi_cost, rewards and the foundation', () => {
    for (const a of [ALICE, BOB, CAROL]) assert.equal(str(state.get(`currency.balances:${a}`)), '1000000');
    assert.equal(state.get('chi_cost.S:value'), 20n);
    assert.deepEqual((state.get('rewards.S:value') as ChainDecimal[]).map(String), ['0.3', '0.01', '0.01', '0.68']);
    assert.equal(state.get('foundation.owner'), ALICE);
    assert.equal(state.get('currency.metadata:token_symbol'), 'CHAIN');
  });

  it('deploys the test tokens and the DEX with liquid currency pairs, by executing the real calls', () => {
    assert.deepEqual(genesis.contracts, [
      'submission', 'currency', 'chi_cost', 'rewards', 'foundation', 'con_pairs', 'con_dex', 'con_dex_helper',
      'con_test_usd', 'con_lp_test_usd', 'con_test_token', 'con_lp_test_token',
    ]);
    assert.deepEqual(genesis.pairs.map((p) => [p.pair, p.token0, p.token1, p.lpToken]), [
      [1n, 'con_test_usd', 'currency', 'con_lp_test_usd'],
      [2n, 'con_test_token', 'currency', 'con_lp_test_token'],
    ]);
    assert.equal(state.get('con_pairs.toks_to_pair:con_test_usd:currency'), 1n);
    assert.equal(str(state.get('con_pairs.pairs:1:reserve0')), '50000');
    assert.equal(str(state.get('con_pairs.pairs:1:reserve1')), '100000');
    const supply = D('50000').times(D('100000')).sqrt();
    assert.equal(str(state.get('con_pairs.pairs:1:totalSupply')), supply.toString());
    assert.equal(str(state.get(`con_lp_test_usd.balances:${ALICE}`)), supply.minus(D('0.00000001')).toString());
    for (const a of [ALICE, BOB, CAROL]) {
      assert.equal(str(state.get(`con_test_usd.balances:${a}`)), '1000000');
      assert.equal(str(state.get(`con_test_token.balances:${a}`)), '1000000');
    }
    assert.equal(state.get('con_pairs.owner'), ALICE);
    assert.equal(state.get('con_dex.owner'), ALICE);
  });

  it('writes contract metadata: source, IR, developer, submitted (no owner)', () => {
    for (const c of genesis.contracts) {
      assert.equal(typeof state.get(`${c}.__source__`), 'string', c);
      assert.equal(JSON.parse(String(state.get(`${c}.__xian_ir_v1__`))).module_name, c);
      assert.equal(state.get(`${c}.__developer__`), 'sys');
      assert.ok((state.get(`${c}.__submitted__`) as ChainDatetime).cmp(NOW) === 0);
      assert.equal(state.get(`${c}.__owner__`), undefined);
    }
  });

  it('is deterministic and needs no nonces', () => {
    const again = buildGenesis({ chainId: CHAIN_ID, accounts: [ALICE, BOB, CAROL], genesisTime: NOW });
    assert.deepEqual(again.writes.map((w) => [w.key, str(w.value)]), genesis.writes.map((w) => [w.key, str(w.value)]));
    assert.ok(!genesis.writes.some((w) => w.key.startsWith('__n.')));
  });

  it('a price exists out of the box: the helper sells currency for TUSD', () => {
    const chain = TestChain.withGenesis();
    chain.call(BOB, 'currency', 'approve', { amount: D('100'), to: 'con_dex_helper' });
    const out = chain.send(BOB, 'con_dex_helper', 'sell', { sell_token: 'currency', buy_token: 'con_test_usd', amount: D('100'), deadline: ChainDatetime.fromParts(2026, 1, 2) });
    assert.equal(out.status, 0, out.error);
    const [, received] = out.result as ChainDecimal[];
    assert.ok(received!.gt(D('49')) && received!.lt(D('50')));
  });
});

describe('devnet engine: contract metadata queries (abci-query.md §4)', () => {
  const chain = TestChain.withGenesis();

  it('contract_methods lists exported functions with annotation types', () => {
    const methods = contractMethods(chain.state, 'currency')!.methods;
    assert.deepEqual(methods.find((m) => m.name === 'transfer'), { name: 'transfer', arguments: [{ name: 'amount', type: 'float' }, { name: 'to', type: 'str' }] });
    assert.ok(!methods.some((m) => m.name === 'seed'));
    assert.deepEqual(contractMethods(chain.state, 'con_dex_helper')!.methods.map((m) => m.name), ['buy', 'sell']);
    assert.equal(contractMethods(chain.state, 'con_nope'), null);
  });

  it('contract_vars splits Variables and Hashes', () => {
    assert.deepEqual(contractVars(chain.state, 'currency'), { variables: [], hashes: ['balances', 'approvals', 'metadata'] });
    assert.deepEqual(contractVars(chain.state, 'con_lp_test_usd'), { variables: ['operator', 'minter'], hashes: ['balances', 'approvals', 'metadata'] });
  });

  it('contract_info and contracts', () => {
    assert.deepEqual(contractInfo(chain.state, 'con_dex'), {
      name: 'con_dex', owner: null, developer: 'sys', deployer: ALICE, initiator: ALICE, submitted_at: '2026-01-01T00:00:00Z', has_source: true,
    });
    const list = listContracts(chain.state, { sort: 'name', order: 'asc', limit: 3 });
    assert.equal(list.total, 12);
    assert.deepEqual(list.items.map((i) => i.name), ['chi_cost', 'con_dex', 'con_dex_helper']);
  });
});

describe('devnet engine: canonical token sources', () => {
  it('XSC001 templates pass the BDS source check (bds.md §5.1) in their compiled IR', () => {
    for (const [name, source] of [['currency', CURRENCY_SOURCE], ['con_token', XSC001_SOURCE], ['con_lp', LP_TOKEN_SOURCE]] as const) {
      const compiled = compileContract(name, source);
      assert.ok(compiled.ok);
      const ir = JSON.parse(compiled.artifact.vm_ir_json) as { functions: Array<{ name: string; visibility: string; parameters: Array<{ name: string }> }>; global_declarations: Array<{ node: string; name: string; storage_type: string }> };
      assert.ok(ir.global_declarations.some((d) => d.node === 'storage_decl' && d.name === 'balances' && d.storage_type === 'Hash'));
      const sig = (fn: string) => ir.functions.find((f) => f.visibility === 'export' && f.name === fn)?.parameters.map((p) => p.name).join(',');
      assert.equal(sig('change_metadata'), 'key,value');
      assert.equal(sig('transfer'), 'amount,to');
      assert.equal(sig('approve'), 'amount,to');
      assert.equal(sig('transfer_from'), 'amount,to,main_account');
      assert.equal(sig('balance_of'), 'address');
    }
  });
});

describe('devnet engine: deployment and XSC002', () => {
  it('submission deploys a known template with constructor args; unknown code and taken names are refused', () => {
    const chain = TestChain.withGenesis({ dex: false });
    const out = submit(chain, BOB, xsc001Deployment({ name: 'con_mine', tokenName: 'Mine', tokenSymbol: 'MINE', totalSupply: 42n }));
    assert.equal(chain.get(`con_mine.balances:${BOB}`), 42n);
    assert.equal(chain.get('con_mine.__developer__'), BOB);
    assert.ok(out.chiUsed > 5);
    const again = chain.send(BOB, 'submission', 'submit_contract', { name: 'con_mine', code: 'x' });
    assert.equal(again.error, 'Contract already exists.');
    const artifacts = chain.send(BOB, 'submission', 'submit_contract', { name: 'con_other', code: XSC001_SOURCE, deployment_artifacts: { a: 1n } as never });
    assert.deepEqual([artifacts.errorClass, artifacts.error], ['TypeError', "unexpected keyword argument 'deployment_artifacts'"]);
    assert.throws(() => submit(chain, BOB, lpTokenDeployment({ name: 'bad_name' })), /^Error: deploying bad_name: Contract must start with con_!$/);
    assert.throws(() => submit(chain, BOB, lpTokenDeployment({ name: 'con_Bad' })), /Contract name must contain only lowercase ASCII letters, digits, and underscores!/);
    assert.throws(() => submit(chain, BOB, lpTokenDeployment({ name: `con_${'x'.repeat(61)}` })), /Contract name length exceeds 64 characters!/);
  });

  it('__owner__: only the owner may call a contract that has one', () => {
    const chain = TestChain.withGenesis({ dex: false });
    const request = xsc001Deployment({ name: 'con_owned', tokenName: 'O', tokenSymbol: 'O', totalSupply: 10n });
    const out = chain.send(BOB, 'submission', 'submit_contract', {
      name: request.name, code: request.code, owner: CAROL, constructor_args: request.constructorArgs,
    });
    assert.equal(out.status, 0, out.error);
    assert.equal(chain.get('con_owned.__owner__'), CAROL);
    assert.equal(chain.send(BOB, 'con_owned', 'balance_of', { address: BOB }).error, 'Caller is not the owner!');
    assert.equal(chain.send(CAROL, 'con_owned', 'balance_of', { address: BOB }).result, 10n);
    assert.equal(contractInfo(chain.state, 'con_owned').owner, CAROL);
  });

  it('permit sets the allowance from an Ed25519 signature over owner:spender:value:deadline:contract:chain_id', () => {
    const chain = TestChain.withGenesis({ dex: false });
    const secret = '01'.repeat(32);
    const owner = publicKeyFromPrivate(secret);
    submit(chain, BOB, xsc001Deployment({ name: 'con_permit', tokenName: 'P', tokenSymbol: 'P', totalSupply: 1000n, operator: owner }));
    const deadline = ChainDatetime.fromParts(2026, 6, 1);
    const message = permitMessage({ this: 'con_permit', chainId: CHAIN_ID }, owner, CAROL, D('1000'), deadline);
    assert.equal(message, `${owner}:${CAROL}:1E+3:2026-06-01 00:00:00:con_permit:${CHAIN_ID}`);
    const args = { owner, spender: CAROL, value: D('1000'), deadline: '2026-06-01 00:00:00', signature: sign(secret, message) };
    const out = chain.send(BOB, 'con_permit', 'permit', args);
    assert.equal(out.status, 0, out.error);
    assert.match(String(out.result), /^[0-9a-f]{64}$/);
    assert.equal(str(chain.get(`con_permit.approvals:${owner}:${CAROL}`)), '1000');
    assert.equal(chain.send(BOB, 'con_permit', 'permit', args).error, 'Permit can only be used once.');
    assert.equal(chain.send(BOB, 'con_permit', 'permit', { ...args, value: D('5') }).error, 'Invalid signature.');
  });
});
