import os from 'node:os';
import { HostAccounts } from '../../../../core/keystore/host-accounts.js';
import { DEFAULT_KEY_ARGUMENTS, SignerArguments } from '../../../../core/tools/signer-arguments.js';
import type { JsonObject } from '../../../../core/chain/canonical-json.js';
import { Wallet } from '../../../../core/chain/keys.js';
import type { ChainNode } from '../../../../core/chain/node.js';
import type { SubmitRequest, TransactionSubmission } from '../../../../core/chain/transaction-submitter.js';
import type { TxReceipt } from '../../../../core/chain/tx-receipts.js';
import { ContributionList } from '../../../../core/contribution-list.js';
import { ApiError } from '../../../../core/errors.js';
import { silentLogger } from '../../../../core/logger.js';
import { ToolInvoker } from '../../../../core/tools/tool-invoker.js';
import type { ToolDefinition } from '../../../../core/tools/tool.js';
import type { DexServices } from '../../../../plugins/dex/dex-services.js';
import { DexReader } from '../../../../plugins/dex/dex-state.js';
import { approveCall, deadlineAfter, fixed, type PlanCall } from '../../../../plugins/dex/plan-calls.js';
import { PlanRegistry } from '../../../../plugins/dex/plan-registry.js';
import { ChainDecimal } from '../../../../core/chain/decimal.js';
import { txFee } from '../../../../core/chain/tx-fee.js';
import { planTools } from '../../../../plugins/dex/tools/plan-tools.js';

/** Plans, a scripted sender and the submit tools over them — no chain needed. */

export const CHAIN_ID = 'chain-local-1';
export const OWNER = Wallet.fromPrivateKey('11'.repeat(32));
export const STRANGER = Wallet.fromPrivateKey('22'.repeat(32));

export class FakeClock {
  constructor(public ms = Date.UTC(2030, 0, 1, 12, 0, 0)) {}
  now = (): number => this.ms;
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

/** A swap plan body as dex_plan_swap builds it: one exact approval, then the router call. */
export function swapPlanBody(nowMs: number, overrides: { chainId?: string; account?: string; deadlineMinutes?: number; operation?: string } = {}): { body: JsonObject; deadlineMs: number } {
  const deadline = deadlineAfter(nowMs, overrides.deadlineMinutes ?? 5);
  const account = overrides.account ?? OWNER.address;
  const amount = ChainDecimal.parse('10');
  const call: PlanCall = {
    contract: 'con_dex',
    function: 'swapExactTokenForToken',
    kwargs: { amountIn: fixed(amount), amountOutMin: fixed(ChainDecimal.parse('4.8')), pair: 1, src: 'currency', to: account, deadline: deadline.absolute },
  };
  const approve = approveCall('currency', amount, 'con_dex');
  return {
    deadlineMs: deadline.ms,
    body: {
      plan_version: 1,
      operation: overrides.operation ?? 'swap_exact_in',
      network: { chain_id: overrides.chainId ?? CHAIN_ID },
      contracts: { pairs: 'con_pairs', router: 'con_dex' },
      account,
      recipient: account,
      deadline: { absolute: deadline.absolute, iso: deadline.iso },
      amounts: { call_input: '10', minimum_output: '4.8' },
      approvals: [approve as unknown as JsonObject],
      call: call as unknown as JsonObject,
      calls: [approve, call] as unknown as JsonObject[],
      warnings: [],
    },
  };
}

function receipt(hash: string, success: boolean, error: string | null = null): TxReceipt {
  return {
    tx_hash: hash, height: 7, index: 0, success, status_code: success ? 0 : 1, chi_used: 100, result: success ? 'None' : error,
    events: [], state: [], execution_hash: null, error, log: '',
  };
}

export type Step = 'ok' | 'fail_in_block' | 'fail_dry_run' | 'pending';

/** Records every submit; answers per call index with the scripted step (default ok). */
export class ScriptedSender {
  readonly requests: SubmitRequest[] = [];
  constructor(private readonly steps: Step[] = []) {}

  async submit(request: SubmitRequest): Promise<TransactionSubmission> {
    const index = this.requests.length;
    this.requests.push(request);
    await new Promise((r) => setImmediate(r));
    const step = this.steps[index] ?? 'ok';
    if (step === 'fail_dry_run') {
      throw new ApiError(400, 'simulation_failed', `${request.contract}.${request.function} was not sent: the dry run failed, so nothing was sent: AssertionError('SNAKX: INSUFFICIENT_OUTPUT_AMOUNT')`, {
        status: 1, result: "AssertionError('SNAKX: INSUFFICIENT_OUTPUT_AMOUNT')", chi_used: 50, refusal: null,
      });
    }
    const hash = (index + 1).toString(16).padStart(64, '0').toUpperCase();
    const r = step === 'pending' ? null : receipt(hash, step === 'ok', step === 'ok' ? null : "AssertionError('SNAKX: K')");
    return {
      submitted: true, accepted: true, finalized: r !== null, tx_hash: hash, mode: 'checktx', wait_for_tx: true, chain_id: CHAIN_ID,
      sender: Wallet.from(request.key).address, contract: request.contract, function: request.function, kwargs: request.kwargs ?? {},
      nonce: index, chi_supplied: 110, chi_estimated: 100, message: 'test', response: { code: 0, log: '', codespace: '', hash },
      simulation: request.simulate === false ? null : { status: 0, result: 'None', chi_used: 100, state: [] }, receipt: r,
      fee: r ? txFee(100n, 110n, ChainDecimal.parse('20')) : null,
    };
  }
}

export interface PlanHarness {
  registry: PlanRegistry;
  clock: FakeClock;
  sender: ScriptedSender;
  services: DexServices;
  tools: Map<string, ToolDefinition>;
  invoker: ToolInvoker;
  /** Calls a tool through the real pipeline (policy → strict input → run → output check). */
  call(name: string, args: Record<string, unknown>): Promise<{ ok: true; result: any } | { ok: false; error: ApiError }>;
  issue(overrides?: Parameters<typeof swapPlanBody>[1]): string;
}

export function planHarness(options: { ttlSeconds?: number; maxEntries?: number; steps?: Step[]; chainId?: string; blockTimeMs?: number; safetyBlocks?: number; includeRaw?: boolean } = {}): PlanHarness {
  const clock = new FakeClock();
  const registry = new PlanRegistry({ ttlSeconds: options.ttlSeconds ?? 300, maxEntries: options.maxEntries ?? 256, now: clock.now });
  const sender = new ScriptedSender(options.steps);
  const node = {} as ChainNode;
  const services: DexServices = {
    node,
    reader: new DexReader(node),
    registry,
    chainId: options.chainId ?? CHAIN_ID,
    market: { maxScanPairs: 500 },
    now: clock.now,
    sender: () => sender,
    guard: null,
    waitTimeoutMs: 1000,
    includeRaw: options.includeRaw ?? false,
    blockTime: options.blockTimeMs === undefined ? null : { blockTimeMs: async () => options.blockTimeMs! },
    safetyBlocks: options.safetyBlocks ?? 2,
    queryPaths: () => null,
    // Raw keys only: no keystore account is unlocked in these unit tests.
    signers: new SignerArguments(DEFAULT_KEY_ARGUMENTS, () => new HostAccounts(os.tmpdir())),
  };
  const list = new ContributionList<ToolDefinition>('tool', (t) => t.name);
  const defs = planTools(services);
  for (const t of defs) list.add('dex', t);
  const invoker = new ToolInvoker(list, silentLogger, { defaultTimeoutMs: 10_000 });
  return {
    registry, clock, sender, services, invoker,
    tools: new Map(defs.map((t) => [t.name, t])),
    async call(name, args) {
      try {
        return { ok: true, result: await invoker.call(name, args, 'in-process') };
      } catch (err) {
        if (err instanceof ApiError) return { ok: false, error: err };
        throw err;
      }
    },
    issue(overrides) {
      const { body, deadlineMs } = swapPlanBody(clock.ms, overrides);
      return registry.issue(body, deadlineMs).planId;
    },
  };
}

export function expectCode(outcome: { ok: boolean; error?: ApiError }, code: string, status: number): ApiError {
  if (outcome.ok) throw new Error(`expected ${code}, got success`);
  const e = outcome.error!;
  if (e.code !== code || e.status !== status) throw new Error(`expected ${code}/${status}, got ${e.code}/${e.status}: ${e.message}`);
  return e;
}
