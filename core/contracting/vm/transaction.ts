import { withAllocationBudget } from './alloc.js';
import type { CompiledModule } from './compiled.js';
import { VmError, vmErrorText } from './errors.js';
import { pythonBoundaryError } from './python-boundary.js';
import { ALLOCATION_LIMIT_ERROR, MAX_RESULT_JSON_BYTES } from './limits.js';
import { meteringLength } from './metering-json.js';
import { GAS_CALL_DISPATCH } from './gas.js';
import type { VmContext, VmContractCall, VmEvent, VmHost } from './host.js';
import { Runtime, VmInstance } from './instance.js';
import { CROSS_CONTRACT_CALL_BASE, Meter, type ExecutionStats, type MeterConfig } from './meter.js';
import { hashStorageKey, variableStorageKey } from './storage-keys.js';
import type { VmValue } from './values.js';

/**
 * One transaction against committed state, with the node's semantics (xian-vm-core
 * python_bindings.rs `PythonBundleExecutor`): modules load lazily and are instantiated once per
 * transaction (declarations charged), reads go overlay → instance → state, cross-contract
 * calls check the export and `__owner__` and cost 10,000, and a failure keeps no writes and no
 * events. The devnet supplies `ChainState`; this class is the host bridge over it.
 */
export interface ChainState {
  /** A committed storage value by full key (`con_x.balances:bob`), undefined when absent. */
  get(key: string): VmValue | undefined;
  /** Committed entries whose key starts with `prefix`, as (full key, value). */
  scan(prefix: string): Iterable<[string, VmValue]>;
  /** The compiled module of a deployed contract, or undefined (cache compiled modules across transactions). */
  module(name: string): CompiledModule | undefined;
}

export interface TransactionResult {
  status: 0 | 1;
  /** The return value, or the error text on failure. */
  result: VmValue;
  error?: string;
  /** Every storage key written (overlay and dirty module state), in first-write order; empty on failure. */
  writes: Map<string, VmValue>;
  events: VmEvent[];
  stats: ExecutionStats;
}

export class VmTransaction implements VmHost {
  private readonly instances = new Map<string, VmInstance>();
  private readonly overlay = new Map<string, VmValue>();
  private readonly events: VmEvent[] = [];
  private readonly rt: Runtime;
  readonly meter: Meter;

  constructor(private readonly state: ChainState, meter: Partial<MeterConfig> = { enabled: true }) {
    this.meter = new Meter(meter);
    this.rt = new Runtime(this.meter, this);
  }

  /** Runs `contract.fn(**kwargs)` as the transaction's entry call. */
  execute(contract: string, fn: string, kwargs: [string, VmValue][], context: VmContext): TransactionResult {
    let status: 0 | 1 = 0;
    let result: VmValue;
    let error: string | undefined;
    try {
      result = withAllocationBudget(() => {
        this.meter.chargeTransactionBytes();
        this.meter.charge(GAS_CALL_DISPATCH);
        this.meter.beginContract(contract);
        const value = this.call(contract, fn, [], kwargs, context);
        this.meter.chargeReturnValue(value);
        return value;
      });
      if (meteringLength(result) > MAX_RESULT_JSON_BYTES) throw new VmError(ALLOCATION_LIMIT_ERROR);
      const boundary = this.boundaryError(result);
      if (boundary !== undefined) throw new VmError(boundary);
    } catch (err) {
      error = vmErrorText(err);
      status = 1;
      result = error;
    }
    const stats = this.meter.stats(this.meter.finalizeContracts(contract));
    if (status === 1) return { status, result, error: error!, writes: new Map(), events: [], stats };
    return { status, result, writes: this.collectWrites(), events: this.events, stats };
  }

  /** Python's error for the first result, write or event value Python cannot hold (see python-boundary.ts). */
  private boundaryError(result: VmValue): string | undefined {
    const seen = new Set<object>();
    let error = pythonBoundaryError(result, seen);
    for (const value of this.overlay.values()) error ??= pythonBoundaryError(value, seen);
    for (const event of this.events) {
      for (const [, value] of event.dataIndexed) error ??= pythonBoundaryError(value, seen);
      for (const [, value] of event.data) error ??= pythonBoundaryError(value, seen);
    }
    return error;
  }

  /**
   * The node writes overlay ∪ dirty module state. Every write this VM makes goes through
   * `recordStorageWrite`, so the dirty state never adds a key or value the overlay lacks.
   */
  private collectWrites(): Map<string, VmValue> {
    return this.overlay;
  }

  private owner(contract: string): string | null {
    const v = this.state.get(`${contract}.__owner__`);
    return typeof v === 'string' ? v : null;
  }

  private call(contract: string, fn: string, args: VmValue[], kwargs: [string, VmValue][], context: VmContext): VmValue {
    let inst = this.instances.get(contract);
    if (!inst) {
      const module = this.state.module(contract);
      if (!module) throw new VmError(`native VM could not load module '${contract}'`);
      inst = VmInstance.create(module, { ...context, this: contract, owner: context.owner ?? this.owner(contract) }, this.rt);
      this.instances.set(contract, inst);
    }
    const previous = inst.context;
    inst.context = { ...context, this: contract, owner: context.owner ?? this.owner(contract) };
    try {
      return inst.callFunction(fn, args, kwargs);
    } finally {
      inst.context = previous;
    }
  }

  // ---- VmHost ----------------------------------------------------------------------------------

  readVariable(contract: string, binding: string): VmValue | undefined {
    const key = variableStorageKey(contract, binding);
    const written = this.overlay.get(key);
    if (written !== undefined) return written;
    const peeked = this.instances.get(contract)?.peekVariable(binding);
    if (peeked !== undefined) return peeked;
    return this.state.get(key);
  }

  readHash(contract: string, binding: string, key: VmValue): VmValue | undefined {
    const full = hashStorageKey(contract, binding, key);
    const written = this.overlay.get(full);
    if (written !== undefined) return written;
    const peeked = this.instances.get(contract)?.peekHashEntry(binding, key);
    if (peeked !== undefined) return peeked;
    return this.state.get(full);
  }

  scanHashEntries(contract: string, binding: string, prefix: string): [string, VmValue][] {
    const base = variableStorageKey(contract, binding);
    const full = prefix ? `${base}:${prefix}:` : `${base}:`;
    const offset = base.length + 1;
    const entries: [string, VmValue][] = [];
    const seen = new Set<string>();
    for (const [key, value] of this.overlay) {
      if (!key.startsWith(full)) continue;
      const suffix = key.slice(offset);
      seen.add(suffix);
      if (value !== null) entries.push([suffix, value]);
    }
    for (const [key, value] of this.state.scan(full)) {
      const suffix = key.slice(offset);
      if (!seen.has(suffix)) {
        seen.add(suffix);
        entries.push([suffix, value]);
      }
    }
    return entries;
  }

  recordStorageWrite(key: string, value: VmValue): void {
    this.overlay.set(key, value);
  }

  readRecordedStorageWrite(key: string): VmValue | undefined {
    return this.overlay.get(key);
  }

  emitEvent(event: VmEvent): void {
    this.events.push(event);
  }

  callContract(call: VmContractCall): VmValue {
    const target = call.target.module;
    const module = this.state.module(target);
    if (!module) throw new VmError(`native VM could not load module '${target}'`);
    const fn = module.functions.get(call.function);
    if (!fn || fn.visibility !== 'export') {
      throw new VmError(`AssertionError("Exported function '${call.function}' does not exist on contract '${target}'!")`);
    }
    const owner = this.owner(target);
    const caller = call.callerContract ?? call.signer;
    if (owner !== null && caller !== owner) throw new VmError('Exception("Caller is not the owner!")');
    this.meter.charge(CROSS_CONTRACT_CALL_BASE);
    this.meter.enterContract(target);
    try {
      return this.call(target, call.function, call.args, call.kwargs, {
        this: target, caller, signer: call.signer, owner, entry: call.entry, submissionName: call.submissionName,
        now: call.now, blockNum: call.blockNum, blockHash: call.blockHash, chainId: call.chainId,
      });
    } finally {
      this.meter.exitContract();
    }
  }

  handleSyscall(id: string, args: VmValue[]): VmValue {
    switch (id) {
      case 'contract.exists':
        return typeof args[0] === 'string' && this.state.module(args[0]) !== undefined;
      case 'contract.has_export': {
        const fn = typeof args[0] === 'string' && typeof args[1] === 'string' ? this.state.module(args[0])?.functions.get(args[1]) : undefined;
        return fn?.visibility === 'export';
      }
      case 'contract.owner_of':
        return typeof args[0] === 'string' ? this.owner(args[0]) : null;
    }
    throw new VmError(`unsupported host syscall '${id}'`);
  }
}
