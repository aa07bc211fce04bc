import { ChainDecimal, chainRecord, type ChainRecord, type ChainValue, compareCodePoints, decodeValue, isChainRecord } from 'chainhost/chain';
import type { TransactionResult, VmContext, VmValue } from 'chainhost/contracting';
import { ContractError } from './errors.js';
import { isNum, sub, toDecimal } from './num.js';
import { computeRewards } from './rewards.js';
import type { BlockEnv, ContractEvent, ExecuteOptions, ExecutionOutcome, SignedTx, StateReader } from './types.js';
import { IR_KEY } from './vm/chain-state.js';
import { DevnetTransaction, OWNER_KEY } from './vm/devnet-transaction.js';
import { ModuleCache } from './vm/module-cache.js';
import { fromVm, toVm } from './vm/values.js';
import { parseVmError, unexpectedFailure } from './vm/vm-errors.js';
import type { WriteBuffer } from './write-buffer.js';

export interface EngineConfig {
  /** `paid_metered` (default): fees and rewards; `free_metered`: chi is metered and reported, nothing is charged. */
  feeMode?: 'paid_metered' | 'free_metered';
  /** Chi per native token when `chi_cost.S:value` is missing or not positive (contracts.md §5.4; genesis always writes it). */
  defaultChiRate?: number;
  /** The native token contract (`currency`). */
  currencyContract?: string;
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
const OUT_OF_CHI = 'Out of chi.';
const SUBMISSION = 'submission';

/** What one VM run produced, before the node's fee, rewards and nonce. */
interface VmRun {
  status: 0 | 1;
  result: ChainValue | undefined;
  error?: string;
  errorClass?: string;
  chiUsed: number;
  writes: Array<[string, ChainValue | null]>;
  events: ContractEvent[];
  contractCosts: Map<string, number>;
}

/**
 * Executes transactions on the contract VM (`chainhost/contracting`) over the modules' stored
 * IR: kwargs decoding, the VM run with the node's host bridge (vm/devnet-transaction.ts), then
 * the node's part — the fee, the reward split and the nonce. Pure with respect to the node: it
 * reads the StateReader and returns what to write.
 */
export class Executor {
  private readonly feeMode: 'paid_metered' | 'free_metered';
  private readonly defaultChiRate: ChainDecimal;
  private readonly currency: string;
  /** Compiled modules by contract and IR text, shared by every transaction and dry run. */
  private readonly modules = new ModuleCache();

  constructor(config: EngineConfig = {}) {
    this.feeMode = config.feeMode ?? 'paid_metered';
    this.defaultChiRate = ChainDecimal.from(BigInt(config.defaultChiRate ?? 20));
    this.currency = config.currencyContract ?? 'currency';
  }

  execute(tx: SignedTx, env: BlockEnv, state: StateReader, options: ExecuteOptions = {}): ExecutionOutcome {
    const p = tx.payload;
    const simulate = options.simulate;
    const budget = simulate ? Math.max(1, Math.floor(simulate.maxChi)) : p.chi_supplied;
    let run: VmRun;
    try {
      run = this.runVm(p.sender, p.contract, p.function, decodeKwargs(p.kwargs), env, state, {
        chiBudget: budget, transactionSizeBytes: simulate ? 0 : transactionSize(tx),
      });
    } catch (err) {
      if (err instanceof ContractError) {
        run = { status: 1, result: err.message, error: err.message, errorClass: err.pythonClass, chiUsed: 0, writes: [], events: [], contractCosts: new Map() };
      } else {
        // Before the VM ran (kwargs, module load): refused like a module that cannot load, chi_used 0.
        logUnexpected(p.contract, p.function, err);
        run = unexpectedRun(err, 0, new Map());
      }
    }
    try {
      return this.settle(tx, state, run, simulate);
    } catch (err) {
      // The node's part (fee, rewards) met a value it cannot settle: the run fails, charged what it used.
      logUnexpected(p.contract, p.function, err);
      return this.settle(tx, state, unexpectedRun(err, run.chiUsed, run.contractCosts), simulate);
    }
  }

  /**
   * A transaction whose execution output cannot be encoded after the engine settled it (a value
   * the node's encoder refuses): the same run as a failure, charged `chiUsed`, nonce consumed.
   */
  failed(tx: SignedTx, state: StateReader, chiUsed: number, err: unknown, options: ExecuteOptions = {}): ExecutionOutcome {
    logUnexpected(tx.payload.contract, tx.payload.function, err);
    return this.settle(tx, state, unexpectedRun(err, chiUsed, new Map()), options.simulate);
  }

  /** Upstream materialisation of a VM run: contract writes (success only), the fee write, reward credits, the nonce. */
  private settle(tx: SignedTx, state: StateReader, run: VmRun, simulate: ExecuteOptions['simulate']): ExecutionOutcome {
    const p = tx.payload;
    if (simulate && run.status === 1 && run.error === OUT_OF_CHI) {
      run.error = SIMULATION_OUT_OF_CHI;
      run.result = SIMULATION_OUT_OF_CHI;
      run.errorClass = 'ChiExceededError';
    }
    const { status, chiUsed } = run;
    const out = new Map<string, ChainValue | null>();
    if (status === 0) for (const [key, value] of run.writes) out.set(key, value);
    const paid = this.feeMode === 'paid_metered';
    if (paid && chiUsed > 0 && (!simulate || simulate.feePreview !== false)) {
      const balanceKey = `${this.currency}.balances:${p.sender}`;
      const current = out.has(balanceKey) ? out.get(balanceKey) : state.get(balanceKey);
      out.set(balanceKey, deductFee(current ?? null, chiUsed, this.chiRate(state)));
    }
    let rewards: ExecutionOutcome['rewards'] = [];
    let rewardBuckets: ExecutionOutcome['rewardBuckets'] = null;
    if (paid && !simulate && status === 0) {
      const split = computeRewards({ state, chiUsed, contract: p.contract, contractCosts: run.contractCosts, currencyContract: this.currency });
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
      result: run.result,
      writes: [...out].map(([key, value]) => ({ key, value })),
      events: status === 0 ? run.events : [],
      rewards,
      state: stateOut,
      rewardBuckets,
      contractCosts: Object.fromEntries(run.contractCosts),
    };
    if (status === 1) {
      outcome.error = run.error!;
      if (run.errorClass !== undefined) outcome.errorClass = run.errorClass;
    }
    return outcome;
  }

  /**
   * Runs one call on `buffer` (writes stay in it on success; on failure nothing is written).
   * Used by genesis and tools; the entry frame is `signer = caller = sender`, no fee or nonce.
   */
  run(request: CallRequest, env: BlockEnv, buffer: WriteBuffer): CallResult {
    let r: VmRun;
    try {
      r = this.runVm(request.sender, request.contract, request.function, request.kwargs ?? chainRecord(), env, buffer, {
        chiBudget: request.chiBudget ?? 0, transactionSizeBytes: 0,
      });
    } catch (err) {
      if (!(err instanceof ContractError)) throw err;
      return { status: 1, result: err.message, error: err.message, errorClass: err.pythonClass, chiUsed: 0, events: [] };
    }
    if (r.status !== 0) {
      const failed: CallResult = { status: 1, result: r.result, error: r.error!, chiUsed: r.chiUsed, events: [] };
      if (r.errorClass !== undefined) failed.errorClass = r.errorClass;
      return failed;
    }
    for (const [key, value] of r.writes) buffer.set(key, value);
    return { status: 0, result: r.result, chiUsed: r.chiUsed, events: r.events };
  }

  /** One metered VM execution of `contract.fn(**kwargs)` as a transaction's entry call. */
  private runVm(
    sender: string, contract: string, fn: string, kwargs: ChainRecord, env: BlockEnv, state: StateReader,
    meter: { chiBudget: number; transactionSizeBytes: number },
  ): VmRun {
    const ir = state.get(`${contract}.${IR_KEY}`);
    if (typeof ir !== 'string' || this.modules.get(contract, ir) === undefined) {
      // Refused before the VM runs: status 1, chi_used 0, hence no fee (xian-abci execute_native_contract).
      const message = state.get(`${contract}.__source__`) === undefined
        ? `native VM could not load module '${contract}'`
        : `xian_vm_v1 requires persisted __xian_ir_v1__ for contract '${contract}'; stored source is inspection-only`;
      throw new ContractError('Exception', message);
    }
    // A transaction enters only through an exported function (private helpers and the constructor stay internal).
    const entry = this.modules.get(contract, ir)!.functions.get(fn);
    if (entry !== undefined && entry.visibility !== 'export') {
      throw new ContractError('AssertionError', `Exported function '${fn}' does not exist on contract '${contract}'!`);
    }
    const owner = state.get(`${contract}.${OWNER_KEY}`);
    if (typeof owner === 'string' && owner !== '' && owner !== sender) throw new ContractError('Exception', 'Caller is not the owner!');
    const tx = new DevnetTransaction(state, this.modules, {
      enabled: true, chiBudgetRaw: meter.chiBudget * 1000, transactionSizeBytes: meter.transactionSizeBytes,
    });
    const vmKwargs: [string, VmValue][] = Object.entries(kwargs).map(([k, v]) => [k, toVm(v)]);
    const name = kwargs['name'];
    const context: VmContext = {
      this: contract, caller: sender, signer: sender, owner: typeof owner === 'string' ? owner : null, entry: [contract, fn],
      submissionName: contract === SUBMISSION && typeof name === 'string' ? name : null,
      now: vmNow(env), blockNum: env.height, blockHash: env.hash, chainId: env.chainId,
    };
    try {
      return this.settleVm(tx, tx.execute(contract, fn, vmKwargs, context), meter.chiBudget);
    } catch (err) {
      // Escaped the VM's own handling (or its result cannot cross to chain values): still a VM
      // failure, charged what the meter counted so far — execution is never free.
      logUnexpected(contract, fn, err);
      return unexpectedRun(err, tx.meter.stats().chiUsed, new Map([[contract, tx.meter.rawCost]]));
    }
  }

  /** chi_used with the host's costs, and the VM's values as chain values. */
  private settleVm(tx: DevnetTransaction, r: TransactionResult, chiBudget: number): VmRun {
    // chi_used = max(min((raw + host raw) // 1000 + 5, budget), VM chi_used): host costs are added without an abort check.
    let chiUsed = r.stats.chiUsed;
    if (r.status === 0 && tx.hostRawCost > 0) {
      const withHost = Math.floor((r.stats.rawCost + tx.hostRawCost) / 1000) + 5;
      chiUsed = Math.max(chiBudget > 0 ? Math.min(withHost, chiBudget) : withHost, chiUsed);
    }
    const contractCosts = new Map(r.stats.contractCosts);
    for (const [c, cost] of tx.hostContractCosts) contractCosts.set(c, (contractCosts.get(c) ?? 0) + cost);
    if (r.status !== 0) {
      const { message, errorClass } = parseVmError(r.error!);
      const failed: VmRun = { status: 1, result: message, error: message, chiUsed, writes: [], events: [], contractCosts };
      if (errorClass !== undefined) failed.errorClass = errorClass;
      return failed;
    }
    return {
      status: 0,
      result: fromVm(r.result),
      chiUsed,
      writes: [...r.writes].map(([k, v]) => [k, fromVm(v)] as [string, ChainValue | null]),
      events: r.events.map((e) => ({
        contract: e.contract, event: e.event, signer: String(e.signer), caller: String(e.caller),
        data_indexed: chainRecord(e.dataIndexed.map(([k, v]) => [k, fromVm(v)] as const)),
        data: chainRecord(e.data.map(([k, v]) => [k, fromVm(v)] as const)),
      })),
      contractCosts,
    };
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

/** A failed run for an exception that escaped the VM: the chain-style text, charged `chiUsed`, nothing kept. */
function unexpectedRun(err: unknown, chiUsed: number, contractCosts: Map<string, number>): VmRun {
  const { message, errorClass } = unexpectedFailure(err);
  const run: VmRun = { status: 1, result: message, error: message, chiUsed, writes: [], events: [], contractCosts };
  if (errorClass !== undefined) run.errorClass = errorClass;
  return run;
}

/** The JS text stays in the log (stderr), for whoever fixes the engine; the receipt gets the chain's text. */
function logUnexpected(contract: string, fn: string, err: unknown): void {
  if (err instanceof RangeError || (err instanceof Error && err.name === 'VmError')) return;
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  process.stderr.write(`devnet: ${contract}.${fn}: unexpected execution error (failed, charged): ${text.slice(0, 300)}\n`);
}

function vmNow(env: BlockEnv): VmValue {
  return toVm(env.now);
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

