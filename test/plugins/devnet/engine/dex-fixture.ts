import type { ChainValue } from '../../../../core/chain/values.js';
import { chainRecord } from '../../../../core/chain/values.js';
import type { DeployRequest } from '../../../../plugins/devnet/engine/genesis.js';
import { lpTokenDeployment } from '../../../../plugins/devnet/engine/contracts/lp-token.js';
import { xsc001Deployment } from '../../../../plugins/devnet/engine/contracts/xsc001-token.js';
import type { ExecutionOutcome } from '../../../../plugins/devnet/engine/types.js';
import { ALICE, BOB, CAROL, D, DEADLINE, TestChain } from './support.js';

/** Deploys through `submission.submit_contract` as a user would. */
export function submit(chain: TestChain, sender: string, request: DeployRequest): ExecutionOutcome {
  const out = chain.send(sender, 'submission', 'submit_contract', {
    name: request.name,
    code: request.code,
    constructor_args: request.constructorArgs,
  });
  if (out.status !== 0) throw new Error(`deploying ${request.name}: ${out.error}`);
  return out;
}

/**
 * A chain with the DEX (owned by ALICE), three XSC001 tokens `con_aaa` < `con_bbb` < `con_ccc`
 * (1,000,000 each to ALICE, BOB and CAROL) and registered LP tokens for aaa/bbb and bbb/ccc.
 * No liquidity yet.
 */
export function dexChain(): TestChain {
  const chain = TestChain.withGenesis({ tokens: [] });
  for (const [name, symbol] of [['con_aaa', 'AAA'], ['con_bbb', 'BBB'], ['con_ccc', 'CCC']] as const) {
    submit(chain, ALICE, xsc001Deployment({ name, tokenName: symbol, tokenSymbol: symbol, totalSupply: 3_000_000n }));
    for (const who of [BOB, CAROL]) chain.call(ALICE, name, 'transfer', { amount: 1_000_000n, to: who });
  }
  submit(chain, ALICE, lpTokenDeployment({ name: 'con_lp_ab' }));
  submit(chain, ALICE, lpTokenDeployment({ name: 'con_lp_bc' }));
  chain.call(ALICE, 'con_pairs', 'registerLpToken', { tokenA: 'con_aaa', tokenB: 'con_bbb', lpToken: 'con_lp_ab' });
  chain.call(ALICE, 'con_pairs', 'registerLpToken', { tokenA: 'con_ccc', tokenB: 'con_bbb', lpToken: 'con_lp_bc' });
  return chain;
}

export function approve(chain: TestChain, who: string, token: string, amount: ChainValue, spender = 'con_dex'): void {
  chain.call(who, token, 'approve', { amount, to: spender });
}

/** ALICE adds `a` of tokenA and `b` of tokenB (approving con_dex first) with a real transaction. */
export function addLiquidity(chain: TestChain, who: string, tokenA: string, tokenB: string, a: string, b: string): ExecutionOutcome {
  approve(chain, who, tokenA, D(a));
  approve(chain, who, tokenB, D(b));
  return chain.send(who, 'con_dex', 'addLiquidity', {
    tokenA, tokenB, amountADesired: D(a), amountBDesired: D(b), amountAMin: D('0'), amountBMin: D('0'), to: who, deadline: DEADLINE,
  });
}
