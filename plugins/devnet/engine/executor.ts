import { ChainDecimal, chainRecord, type ChainRecord, type ChainValue, compareCodePoints, decodeValue, isChainRecord } from 'chainhost/chain';
import { COST, Meter } from './chi-model.js';
import type { DeployRequest } from './contract.js';
import { ContractError } from './errors.js';
import { isNum, sub, toDecimal, truthy } from './num.js';
import type { ContractRegistry } from './registry.js';
import { computeRewards } from './rewards.js';
import { TxRuntime, describeFailure } from './tx-runtime.js';
import type { BlockEnv, ContractEvent, ExecuteOptions, ExecutionOutcome, SignedTx, StateReader } from './types.js';
import { WriteBuffer } from './write-buffer.js';

export interface EngineConfig {
  /** `paid_metered` (default): fees and rewards; `free_metered`: chi is metered and reported, nothing is charged. */
  feeMode?: 'paid_metered' | 'free_metered';
  /** Chi per native token when `chi_cost.S:value` is missing or not positive (contracts.md §5.4; genesis always writes it). */
  defaultChiRate?: number;
  /** The native token contract (`currency`). */
  currencyContract?: string;
  /** Cross-contract call depth limit (the VM's recursion limit). */
  maxCallDepth?: number;
}

/** One call run outside a signed transaction (genesis, tooling): no fee, nonce or byte charge. */
export interface CallRequest {
  sender: string;
  contract: string;
  function: string;
  /** Runtime values (already decoded). */
  kwargs?: Record<string, ChainValue>;
  /** Chi budget; 0 = unlimited. */
  chiBudget?: number;
}

export interface CallResult {
  status: 0 | 1;
  result: ChainValue | undefined;
  error?: string;
  errorClass?: string;
  chiUsed: number;
  events: ContractEvent[];
}

const NONCE_PREFIX = '__n.';
const SIMULATION_OUT_OF_CHI = 'chi budget exceeded during readonly execution: Out of chi.';

/**
 * Executes transactions against native contracts: kwargs decoding, call frames, the write
 * buffer, chi metering (chi-model.ts), the fee, the reward split and the nonce. Pure with
 * respect to the node: it reads the StateReader and returns what to write.
 */
export class Executor {
  readonly registry: ContractRegistry;
  private readonly feeMode: 'paid_metered' | 'free_metered';
  private readonly defaultChiRate: ChainDecimal;
  private readonly currency: string;
  private readonly maxDepth: number;

  constructor(registry: ContractRegistry, config: EngineConfig = {}) {
    this.registry = registry;
    this.feeMode = config.feeMode ?? 'paid_metered';
    this.defaultChiRate = ChainDecimal.from(BigInt(config.defaultChiRate ?? 20));
    this.currency = config.currencyContract ?? 'currency';
    this.maxDepth = config.maxCallDepth ?? 64;
  }

  execute(tx: SignedTx, env: BlockEnv, state: StateReader, options: ExecuteOptions = {}): ExecutionOutcome {
    const p = tx.payload;
    const simulate = options.simulate;
    const budget = simulate ? Math.max(1, Math.floor(simulate.maxChi)) : p.chi_supplied;
    const meter = new Meter(budget, simulate ? SIMULATION_OUT_OF_CHI : undefined);
    const buffer = new WriteBuffer(state);
    const runtime = new TxRuntime(this.registry, this.maxDepth, buffer, meter, env, p.sender);

    let status: 0 | 1 = 0;
    let result: ChainValue | undefined;
    let error: string | undefined;
    let errorClass: string | undefined;
    let executed = true;
    try {
      const kwargs = decodeKwargs(p.kwargs);
      if (p.contract === 'submission' && p.function === 'submit_contract' && !truthy(kwargs['deployment_artifacts'])) {
        // Refused by the processor before the VM runs: status 1, chi_used 0, hence no fee.
        executed = false;
        throw new ContractError('ValueError', `xian_vm_v1 requires deployment_artifacts for ${p.contract}.${p.function}`);
      }
      if (!simulate) meter.charge(COST.txByte * transactionSize(tx));
      result = runtime.entry(p.contract, p.function, kwargs);
      meter.chargeReturn(result);
    } catch (err) {
      status = 1;
      ({ message: error, pythonClass: errorClass } = describeFailure(err));
      result = error;
    }
    const chiUsed = executed ? meter.chiUsed() : 0;
    const costs = meter.finish(p.contract);

    // Upstream materialisation: contract writes (success only), the fee write, reward credits.
    const out = new Map<string, ChainValue | null>();
    if (status === 0) for (const { key, value } of buffer.entries()) out.set(key, value);
    const paid = this.feeMode === 'paid_metered';
    if (paid && chiUsed > 0 && (!simulate || simulate.feePreview !== false)) {
      const balanceKey = `${this.currency}.balances:${p.sender}`;
      const current = out.has(balanceKey) ? out.get(balanceKey) : state.get(balanceKey);
      out.set(balanceKey, deductFee(current ?? null, chiUsed, this.chiRate(state)));
    }
    let rewards: ExecutionOutcome['rewards'] = [];
    let rewardBuckets: ExecutionOutcome['rewardBuckets'] = null;
    if (paid && !simulate && status === 0) {
      const split = computeRewards({ state, chiUsed, contract: p.contract, contractCosts: costs, currencyContract: this.currency });
      rewards = split.records;
      rewardBuckets = split.buckets;
      for (const [key, delta] of split.deltas) {
        const base = out.has(key) ? out.get(key) : state.get(key);
        out.set(key, addBalance(base ?? null, delta));
      }
    }
    const stateOut = [...out].map(([key, value]) => ({ key, value })).sort((a, b) => compareCodePoints(a.key, b.key));
    if (!simulate) out.set(`${NONCE_PREFIX}${p.sender}:`, BigInt(p.nonce));

    const outcome: ExecutionOutcome = {
      status,
      chiUsed,
      result,
      writes: [...out].map(([key, value]) => ({ key, value })),
      events: status === 0 ? runtime.events : [],
      rewards,
      state: stateOut,
      rewardBuckets,
      contractCosts: Object.fromEntries(costs),
    };
    if (status === 1) {
      outcome.error = error!;
      outcome.errorClass = errorClass!;
    }
    return outcome;
  }

  /**
   * Runs one call on `buffer` (writes stay in it on success; on failure the caller should drop
   * the buffer). Used by genesis and tools; the entry frame is `signer = caller = sender`.
   */
  run(request: CallRequest, env: BlockEnv, buffer: WriteBuffer): CallResult {
    const meter = new Meter(request.chiBudget ?? 0);
    const runtime = new TxRuntime(this.registry, this.maxDepth, buffer, meter, env, request.sender);
    try {
      const result = runtime.entry(request.contract, request.function, request.kwargs ?? chainRecord());
      meter.chargeReturn(result);
      return { status: 0, result, chiUsed: meter.chiUsed(), events: runtime.events };
    } catch (err) {
      const f = describeFailure(err);
      return { status: 1, result: f.message, error: f.message, errorClass: f.pythonClass, chiUsed: meter.chiUsed(), events: [] };
    }
  }

  /** Deploys a registered template under `name` outside a transaction (genesis). */
  deploy(request: DeployRequest & { sender: string; developer?: string }, env: BlockEnv, buffer: WriteBuffer): CallResult {
    const meter = new Meter(0);
    const runtime = new TxRuntime(this.registry, this.maxDepth, buffer, meter, env, request.sender);
    try {
      runtime.deployContract(request, request.sender, request.developer ?? request.sender);
      return { status: 0, result: null, chiUsed: meter.chiUsed(), events: runtime.events };
    } catch (err) {
      const f = describeFailure(err);
      return { status: 1, result: f.message, error: f.message, errorClass: f.pythonClass, chiUsed: meter.chiUsed(), events: [] };
    }
  }

  /** `chi_cost.S:value`, or the configured fallback when missing or not positive. */
  chiRate(state: StateReader): ChainDecimal {
    const v = state.get('chi_cost.S:value');
    if (isNum(v)) {
      const d = toDecimal(v);
      if (d.gt(0n)) return d;
    }
    return this.defaultChiRate;
  }

}

/** `max(balance − chi_used / chi_rate, 0)` as the processor computes it (an int 0 when it clamps). */
function deductFee(balance: ChainValue | null, chiUsed: number, chiRate: ChainDecimal): ChainValue {
  const current = coerceBalance(balance);
  const fee = ChainDecimal.from(BigInt(chiUsed)).div(chiRate);
  const after = sub(current, fee);
  return toDecimal(after).isNegative() ? 0n : after;
}

function addBalance(balance: ChainValue | null, delta: ChainDecimal): ChainValue {
  return toDecimal(coerceBalance(balance)).plus(delta);
}

function coerceBalance(v: ChainValue | null): bigint | ChainDecimal {
  if (v === null) return 0n;
  if (typeof v === 'bigint' || v instanceof ChainDecimal) return v;
  if (typeof v === 'string' && ChainDecimal.isDecimalText(v)) return ChainDecimal.parse(v);
  if (isChainRecord(v) && typeof v['__fixed__'] === 'string') return ChainDecimal.parse(v['__fixed__']);
  return 0n;
}

function decodeKwargs(wire: Record<string, unknown>): ChainRecord {
  if (wire === null || typeof wire !== 'object' || Array.isArray(wire)) {
    throw new ContractError('TypeError', 'kwargs must be a JSON object');
  }
  const decoded = decodeValue(wire);
  if (!isChainRecord(decoded)) throw new ContractError('TypeError', 'kwargs must be a JSON object');
  return decoded;
}

/**
 * Byte length of the runtime encoding of `{metadata, payload}` (what the VM charges per byte):
 * the canonical wire text with non-ASCII characters `\uXXXX`-escaped. From the raw hex: each
 * UTF-8 lead byte of a 2/3/4-byte sequence becomes a 6/6/12-byte escape.
 */
export function transactionSize(tx: SignedTx): number {
  const hex = tx.rawHex;
  let n = hex.length >> 1;
  for (let i = 0; i < hex.length; i += 2) {
    const hi = hex.charCodeAt(i);
    if (hi < 0x38) continue; // first nibble 0-7: ASCII
    const byte = parseInt(hex.slice(i, i + 2), 16);
    if (byte >= 0xf0) n += 12 - 4;
    else if (byte >= 0xe0) n += 6 - 3;
    else if (byte >= 0xc0) n += 6 - 2;
  }
  return n;
}

