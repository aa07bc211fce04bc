import { withAllocationBudget } from './alloc.js';
import { compileModule } from './compile.js';
import type { CompiledModule } from './compiled.js';
import { VmError } from './errors.js';
import { emptyContext, type VmContext, type VmContractCall, type VmEvent, type VmHost } from './host.js';
import { Runtime, VmInstance } from './instance.js';
import { CROSS_CONTRACT_CALL_BASE, Meter } from './meter.js';
import { GAS_CALL_DISPATCH } from './gas.js';
import { foreignStorageKey } from './storage-keys.js';
import { zkSyscall } from './zk.js';
import { VmContractHandle, VmDict, VmTuple, typeName, type VmValue } from './values.js';

/**
 * An in-memory chain for one call, with the semantics of upstream's parity harness
 * (xian-vm-core tests/parity_fixtures.rs): modules live as instances, seeded state is applied to
 * them directly, foreign reads see the named module's value (default applied) and every
 * module's dirty values are mirrored into the others' foreign views after each call; a module
 * `owner` must be the caller. Metering follows the node: dispatch, transaction bytes, the
 * 10,000 cross-contract surcharge, module declarations re-evaluated when a module is first
 * touched by the call, and the return value's bytes.
 */
export interface SandboxModule {
  name: string;
  compiled: CompiledModule;
  owner: string | null;
  seed: (inst: VmInstance) => void;
}

export class Sandbox implements VmHost {
  readonly modules = new Map<string, { instance: VmInstance; owner: string | null; compiled: CompiledModule }>();
  readonly events: VmEvent[] = [];
  private readonly touched = new Set<string>();
  readonly rt: Runtime;

  constructor(defs: SandboxModule[], meter: Meter) {
    this.rt = new Runtime(new Meter({ enabled: false }), this);
    for (const def of defs) {
      const instance = VmInstance.create(def.compiled, emptyContext(), this.rt);
      def.seed(instance);
      this.modules.set(def.name, { instance, owner: def.owner, compiled: def.compiled });
    }
    this.syncForeignViews();
    this.rt.meter = meter;
  }

  /** Runs the entry call as a transaction: bytes, dispatch, the call, the return value. */
  execute(module: string, fn: string, args: VmValue[], kwargs: [string, VmValue][], context: VmContext): VmValue {
    return withAllocationBudget(() => {
      const meter = this.rt.meter;
      meter.chargeTransactionBytes();
      meter.charge(GAS_CALL_DISPATCH);
      meter.beginContract(module);
      const result = this.invoke(module, fn, args, kwargs, context);
      meter.chargeReturnValue(result);
      return result;
    });
  }

  private invoke(name: string, fn: string, args: VmValue[], kwargs: [string, VmValue][], context: VmContext): VmValue {
    const module = this.modules.get(name);
    if (module?.owner != null && context.caller !== module.owner) throw new VmError('Caller is not the owner!');
    if (!module) throw new VmError(`unknown module '${name}'`);
    this.chargeInstantiation(name, module.compiled, context);
    const previous = module.instance.context;
    module.instance.context = { ...context, this: name, owner: module.owner };
    try {
      return module.instance.callFunction(fn, args, kwargs);
    } finally {
      module.instance.context = previous;
      this.syncForeignViews();
    }
  }

  /** The node instantiates each module a transaction touches, evaluating its declarations with gas. */
  private chargeInstantiation(name: string, compiled: CompiledModule, context: VmContext): void {
    if (this.touched.has(name) || !this.rt.meter.enabled) return;
    this.touched.add(name);
    VmInstance.create(compiled, { ...context, this: name }, this.rt);
  }

  private syncForeignViews(): void {
    const snapshots = [...this.modules.values()].map((m) => m.instance.storageSnapshot());
    for (const m of this.modules.values()) for (const s of snapshots) m.instance.applyForeignSnapshot(s);
  }

  // ---- VmHost ----------------------------------------------------------------------------------

  readVariable(contract: string, binding: string): VmValue | undefined {
    const direct = this.modules.get(contract)?.instance.getVariable(binding);
    if (direct !== undefined) return direct;
    const foreign = foreignStorageKey(contract, binding);
    for (const m of this.modules.values()) {
      const v = m.instance.getVariable(foreign);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  readHash(contract: string, binding: string, key: VmValue): VmValue | undefined {
    const direct = this.modules.get(contract)?.instance.getHashValue(binding, key);
    if (direct !== undefined) return direct;
    const foreign = foreignStorageKey(contract, binding);
    for (const m of this.modules.values()) {
      const v = m.instance.getHashValue(foreign, key);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  scanHashEntries(): [string, VmValue][] {
    return [];
  }

  recordStorageWrite(): void {}

  readRecordedStorageWrite(): undefined {
    return undefined;
  }

  emitEvent(event: VmEvent): void {
    this.events.push(event);
  }

  callContract(call: VmContractCall): VmValue {
    const target = call.target.module;
    const meter = this.rt.meter;
    meter.charge(CROSS_CONTRACT_CALL_BASE);
    meter.enterContract(target);
    try {
      return this.invoke(target, call.function, call.args, call.kwargs, {
        this: target, caller: call.callerContract, signer: call.signer, owner: null, entry: call.entry,
        submissionName: call.submissionName, now: call.now, blockNum: call.blockNum, blockHash: call.blockHash, chainId: call.chainId,
      });
    } finally {
      meter.exitContract();
    }
  }

  handleSyscall(id: string, args: VmValue[], kwargs: [string, VmValue][]): VmValue {
    const arg = (name: string, position: number): VmValue | undefined => args[position] ?? kwargs.find(([k]) => k === name)?.[1];
    const required = (name: string, position: number): VmValue => {
      const v = arg(name, position);
      if (v === undefined) throw new VmError(`missing required argument '${name}'`);
      return v;
    };
    const text = (name: string, position: number): string => {
      const v = required(name, position);
      if (typeof v !== 'string') throw new VmError(`argument '${name}' must be a string, got ${harnessTypeName(v)}`);
      return v;
    };
    switch (id) {
      case 'contract.exists':
        return this.modules.has(text('module', 0));
      case 'contract.has_export':
        return this.hasExport(text('module', 0), text('export_name', 1));
      case 'contract.interface.func': {
        const name = text('name', 0);
        const priv = arg('private', 2);
        if (priv !== undefined && typeof priv !== 'boolean') throw new VmError(`argument 'private' must be a bool, got ${harnessTypeName(priv)}`);
        return new VmDict([['kind', 'func'], ['name', name], ['args', arg('args', 1) ?? new VmTuple([])], ['private', priv ?? false]]);
      }
      case 'contract.interface.var':
        return new VmDict([['kind', 'var'], ['name', text('name', 0)], ['type', required('t', 1)]]);
      case 'contract.enforce_interface': {
        const c = required('contract', 0);
        let module: string;
        if (typeof c === 'string') module = c;
        else if (c instanceof VmContractHandle) module = c.module;
        else throw new VmError(`argument 'contract' must be a contract name or handle, got ${harnessTypeName(c)}`);
        const iface = required('interface', 1);
        const entries = Array.isArray(iface) ? iface : iface instanceof VmTuple ? iface.items : null;
        if (!entries) throw new VmError(`argument 'interface' must be a list, got ${harnessTypeName(iface)}`);
        if (!this.modules.has(module)) return false;
        return entries.every((e) => {
          const kind = dictString(e, 'kind');
          if (kind === 'func') {
            const name = dictString(e, 'name');
            return name !== undefined && this.hasExport(module, name);
          }
          return kind === 'var';
        });
      }
    }
    const zk = zkSyscall(id, args, kwargs);
    if (zk !== undefined) return zk;
    throw new VmError(`unsupported host syscall '${id}'`);
  }

  private hasExport(module: string, fn: string): boolean {
    return this.modules.get(module)?.instance.hasExport(fn) ?? false;
  }
}

function dictString(v: VmValue, key: string): string | undefined {
  if (!(v instanceof VmDict)) return undefined;
  for (const [k, x] of v.entries) if (k === key && typeof x === 'string') return x;
  return undefined;
}

function harnessTypeName(v: VmValue): string {
  return v === null ? 'NoneType' : typeName(v);
}

export function compileIr(ir: unknown): CompiledModule {
  return compileModule(ir);
}
