import { ChainDatetime, ChainDecimal, chainRecord, type ChainRecord, type ChainValue } from 'chainhost/chain';
import { compileContract } from 'chainhost/contracting';
import { CON_DEX_SOURCE } from './contracts/con-dex.source.js';
import { CON_DEX_HELPER_SOURCE } from './contracts/con-dex-helper.js';
import { CON_PAIRS_SOURCE } from './contracts/con-pairs.source.js';
import { CURRENCY_SOURCE } from './contracts/currency.js';
import { lpTokenDeployment } from './contracts/lp-token.js';
import { CHI_COST_SOURCE, FOUNDATION_SOURCE, REWARDS_SOURCE, SUBMISSION_SOURCE } from './contracts/system.js';
import { xsc001Deployment } from './contracts/xsc001-token.js';
import { Executor, type CallRequest } from './executor.js';
import type { BlockEnv, StateReader } from './types.js';
import { WriteBuffer } from './write-buffer.js';

/**
 * The devnet's application genesis: the state a fresh chain starts from, as an ordered list of
 * state writes (what CometBFT's `app_state` carries and BDS indexes as the genesis row).
 *
 * System contracts, `currency` balances, `chi_cost.S:value`, `rewards.S:value` and
 * `foundation.owner` are seeded by running each contract's constructor (as the real genesis
 * does) plus direct balance writes. The test tokens, LP tokens and the DEX are then deployed and
 * the pools seeded by executing real calls through the executor — transfers, approvals,
 * `registerLpToken`, `addLiquidity` — so reserves, LP supply and balances follow the contracts'
 * formulas exactly. Genesis calls pay no fee and consume no nonce.
 */

export interface GenesisTokenSpec {
  name: string;
  tokenName: string;
  tokenSymbol: string;
  /** Given to every account (default 1,000,000). */
  perAccount?: ChainDecimal | bigint;
  /** Pool against `currency`: [currency amount, token amount] (default 100,000 / 100,000). */
  pool?: [ChainDecimal | bigint, ChainDecimal | bigint];
  /** LP token contract of that pool (default `con_lp_<name without con_>`). */
  lpToken?: string;
}

export interface GenesisOptions {
  chainId: string;
  /** Account addresses funded with `fundEach` native tokens. */
  accounts: string[];
  fundEach?: ChainDecimal | bigint;
  /** Genesis time (contract `now` during genesis, `__submitted__` of every contract). Default 2025-01-01. */
  genesisTime?: ChainDatetime;
  /** Chi per native token (`chi_cost.S:value`), default 20. */
  chiRate?: bigint;
  /** [validator, burn, foundation, developer] ratios as decimal strings, default 0.30/0.01/0.01/0.68. */
  rewardSplit?: [string, string, string, string];
  /** `foundation.owner`; default the first account (or `sys`). */
  foundationOwner?: string;
  /**
   * Holds the genesis liquidity and LP tokens, operates the test tokens and owns the DEX
   * (`con_pairs.owner`, `con_dex.owner`). Default the first account, which ends with the same
   * native and test-token balances as everyone else plus the LP tokens.
   */
  treasury?: string;
  nativeName?: string;
  nativeSymbol?: string;
  /** Test tokens with a `currency` pool each; default `con_test_usd` (TUSD) and `con_test_token` (TST). */
  tokens?: GenesisTokenSpec[];
  /** Deploy the DEX and the pools (default true). */
  dex?: boolean;
}

/** A contract to deploy: its source and constructor arguments (`submission.submit_contract`'s kwargs). */
export interface DeployRequest {
  name: string;
  code: string;
  owner: string | null;
  constructorArgs: ChainRecord;
}

export interface GenesisResult {
  writes: Array<{ key: string; value: ChainValue | null }>;
  contracts: string[];
  pairs: Array<{ pair: bigint; token0: string; token1: string; lpToken: string }>;
}

export const DEFAULT_GENESIS_TIME = ChainDatetime.fromParts(2025, 1, 1);
const ONE_MILLION = ChainDecimal.from(1_000_000n);

export function defaultGenesisTokens(): GenesisTokenSpec[] {
  return [
    { name: 'con_test_usd', tokenName: 'Test USD', tokenSymbol: 'TUSD', pool: [ChainDecimal.from(100_000n), ChainDecimal.from(50_000n)] },
    { name: 'con_test_token', tokenName: 'Test Token', tokenSymbol: 'TST', pool: [ChainDecimal.from(100_000n), ChainDecimal.from(1_000_000n)] },
  ];
}

class EmptyState implements StateReader {
  get(): undefined { return undefined; }
  keys(): string[] { return []; }
}

export function buildGenesis(options: GenesisOptions): GenesisResult {
  const executor = new Executor();
  const now = options.genesisTime ?? DEFAULT_GENESIS_TIME;
  const env: BlockEnv = {
    chainId: options.chainId,
    height: 0n,
    hash: '0'.repeat(64),
    nanos: now.epochMicros * 1000n,
    now,
  };
  const state = new WriteBuffer(new EmptyState());
  const accounts = [...new Set(options.accounts)];
  const fundEach = ChainDecimal.from(options.fundEach ?? ONE_MILLION);
  const foundationOwner = options.foundationOwner ?? accounts[0] ?? 'sys';
  const treasury = options.treasury ?? accounts[0] ?? 'devnet_treasury';
  const withDex = options.dex ?? true;
  const tokens = withDex ? (options.tokens ?? defaultGenesisTokens()) : [];
  const contracts: string[] = [];

  // Every contract is deployed from its source through submission (compile on the node, constructor,
  // metadata keys), as a transaction would; genesis contracts keep `sys` as their developer.
  const deploy = (request: DeployRequest, sender: string): void => {
    const kwargs = chainRecord([['name', request.name], ['code', request.code], ['owner', request.owner], ['constructor_args', request.constructorArgs]]);
    const r = executor.run({ sender, contract: 'submission', function: 'submit_contract', kwargs }, env, state);
    if (r.status !== 0) throw new Error(`genesis: deploying ${request.name} failed: ${r.error}`);
    state.set(`${request.name}.__developer__`, 'sys');
    contracts.push(request.name);
  };
  const call = (sender: string, contract: string, fn: string, kwargs: Record<string, ChainValue>): ChainValue => {
    const request: CallRequest = { sender, contract, function: fn, kwargs: chainRecord(Object.entries(kwargs)) };
    const r = executor.run(request, env, state);
    if (r.status !== 0) throw new Error(`genesis: ${contract}.${fn} failed: ${r.error}`);
    return r.result ?? null;
  };
  const system = (name: string, code: string, args: Array<[string, ChainValue]> = []): void =>
    deploy({ name, code, owner: null, constructorArgs: chainRecord(args) }, 'sys');

  // submission cannot deploy itself: its compiled artifact is stored directly, as the chain's genesis does.
  const submission = compileContract('submission', SUBMISSION_SOURCE);
  if (!submission.ok) throw new Error(`genesis: submission does not compile: ${JSON.stringify(submission.diagnostics)}`);
  for (const [key, value] of [
    ['__source__', submission.artifact.source], ['__xian_ir_v1__', submission.artifact.vm_ir_json], ['__owner__', null],
    ['__submitted__', now], ['__developer__', 'sys'], ['__deployer__', 'sys'], ['__initiator__', 'sys'],
  ] as const) state.set(`submission.${key}`, value);
  contracts.push('submission');

  // System contracts, seeded by their constructors.
  system('currency', CURRENCY_SOURCE, [
    ['token_name', options.nativeName ?? 'Chain'],
    ['token_symbol', options.nativeSymbol ?? 'CHAIN'],
    ['operator_address', foundationOwner],
  ]);
  system('chi_cost', CHI_COST_SOURCE, [['initial_rate', options.chiRate ?? 20n]]);
  system('rewards', REWARDS_SOURCE, [['initial_split', (options.rewardSplit ?? ['0.30', '0.01', '0.01', '0.68']).map((r) => ChainDecimal.parse(r))]]);
  system('foundation', FOUNDATION_SOURCE, [['vk', foundationOwner]]);

  // Native balances: every account gets fundEach; the treasury also gets the currency side of the pools.
  const poolCurrency = tokens.reduce((sum, t) => sum.plus(ChainDecimal.from(t.pool?.[0] ?? 100_000n)), ChainDecimal.ZERO);
  for (const a of accounts) state.set(`currency.balances:${a}`, fundEach);
  if (!poolCurrency.isZero()) {
    const base = accounts.includes(treasury) ? fundEach : ChainDecimal.ZERO;
    state.set(`currency.balances:${treasury}`, base.plus(poolCurrency));
  }
  if (!withDex) return { writes: state.entries(), contracts, pairs: [] };

  // The DEX, owned by the treasury.
  deploy({ name: 'con_pairs', code: CON_PAIRS_SOURCE, owner: null, constructorArgs: chainRecord() }, treasury);
  deploy({ name: 'con_dex', code: CON_DEX_SOURCE, owner: null, constructorArgs: chainRecord() }, treasury);
  deploy({ name: 'con_dex_helper', code: CON_DEX_HELPER_SOURCE, owner: null, constructorArgs: chainRecord() }, treasury);

  const deadline = ChainDatetime.fromParts(9999, 12, 31);
  const pairs: GenesisResult['pairs'] = [];
  for (const t of tokens) {
    const perAccount = ChainDecimal.from(t.perAccount ?? ONE_MILLION);
    const [poolNative, poolToken] = (t.pool ?? [100_000n, 100_000n]).map((x) => ChainDecimal.from(x)) as [ChainDecimal, ChainDecimal];
    const others = accounts.filter((a) => a !== treasury);
    const treasuryShare = accounts.includes(treasury) ? perAccount : ChainDecimal.ZERO;
    const supply = perAccount.times(BigInt(others.length)).plus(treasuryShare).plus(poolToken);
    deploy(xsc001Deployment({ name: t.name, tokenName: t.tokenName, tokenSymbol: t.tokenSymbol, totalSupply: supply, operator: treasury }), treasury);
    for (const a of others) call(treasury, t.name, 'transfer', { amount: perAccount, to: a });

    const lpName = t.lpToken ?? `con_lp_${t.name.replace(/^con_/, '')}`;
    deploy(lpTokenDeployment({ name: lpName, tokenName: `${t.tokenSymbol}/${options.nativeSymbol ?? 'CHAIN'} LP`, tokenSymbol: `${t.tokenSymbol}-LP`, operator: treasury }), treasury);
    call(treasury, 'con_pairs', 'registerLpToken', { tokenA: 'currency', tokenB: t.name, lpToken: lpName });
    call(treasury, 'currency', 'approve', { amount: poolNative, to: 'con_dex' });
    call(treasury, t.name, 'approve', { amount: poolToken, to: 'con_dex' });
    call(treasury, 'con_dex', 'addLiquidity', {
      tokenA: 'currency', tokenB: t.name, amountADesired: poolNative, amountBDesired: poolToken,
      amountAMin: poolNative, amountBMin: poolToken, to: treasury, deadline, lpToken: lpName,
    });
    const pair = call(treasury, 'con_pairs', 'pairFor', { tokenA: 'currency', tokenB: t.name });
    const [token0, token1] = t.name < 'currency' ? [t.name, 'currency'] : ['currency', t.name];
    pairs.push({ pair: pair as bigint, token0, token1, lpToken: lpName });
  }
  return { writes: state.entries(), contracts, pairs };
}
