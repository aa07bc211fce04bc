import { NoopHost, type VmContext, type VmHost } from './host.js';
import { VmError } from './errors.js';
import { CALL_DEPTH_ERROR, MAX_CALL_DEPTH } from './limits.js';
import { Meter } from './meter.js';
import { hashStorageKey, normalizeHashKey, variableStorageKey, foreignStorageKey, splitForeignKey, normalizeHashPrefix, prefixMatches, hashStorageKeyFromNormalized } from './storage-keys.js';
import { VmContractHandle, type VmValue } from './values.js';
import type { CompiledFunction, CompiledModule, Scope } from './compiled.js';
import { bindArguments, checkArguments, checkReturn } from './binding.js';
import { FLOW_BREAK, FLOW_CONTINUE, FLOW_RETURN } from './compiled.js';

/**
 * One module's live state within an execution (upstream `VmInstance`): its globals, the
 * storage it has read or written, and the context it runs in. Code comes pre-compiled
 * (`CompiledModule`); the host and meter are those of the running transaction.
 */
export interface VariableState {
  defaultValue: VmValue;
  value: VmValue | undefined;
  foreignKey: string | null;
  snapshotLocal: boolean;
  dirty: boolean;
}

export interface HashState {
  defaultValue: VmValue;
  entries: Map<string, VmValue>;
  foreignKey: string | null;
  snapshotLocal: boolean;
  dirty: Set<string>;
}

/** The transaction-wide pieces every instance shares: meter, host, call depth. */
export class Runtime {
  depth = 0;
  constructor(public meter: Meter, public host: VmHost) {}
}

const NOOP_METER = new Meter({ enabled: false });
const NOOP_HOST = new NoopHost();

export class VmInstance {
  readonly globals = new Map<string, VmValue>();
  readonly variables = new Map<string, VariableState>();
  readonly hashes = new Map<string, HashState>();
  readonly imports = new Map<string, string>();
  context: VmContext;
  /** Value of the last `return` (read by the call that caught FLOW_RETURN). */
  returnValue: VmValue = null;

  private constructor(readonly module: CompiledModule, context: VmContext, public rt: Runtime) {
    this.context = context;
  }

  get name(): string {
    return this.module.name;
  }

  /** Instantiates: imports become handles, declarations and the module body run (charged). */
  static create(module: CompiledModule, context: VmContext, rt: Runtime): VmInstance {
    const inst = new VmInstance(module, { ...context }, rt);
    if (inst.context.this === null) inst.context.this = module.name;
    for (const [binding, target] of module.imports) {
      inst.imports.set(binding, target);
      inst.globals.set(binding, new VmContractHandle(target, 'static_import'));
    }
    for (const declare of module.declarations) declare(inst);
    if (module.body) {
      const scope: Scope = new Map(inst.globals);
      const flow = module.body(scope, inst);
      if (flow !== 0) throw new VmError('module body cannot return or break execution');
      inst.globals.clear();
      for (const [k, v] of scope) inst.globals.set(k, v);
    }
    return inst;
  }

  hasExport(name: string): boolean {
    return this.module.functions.get(name)?.visibility === 'export';
  }

  /** Entry of a call into this module: sets `entry` when absent (upstream `call_function`). */
  callFunction(name: string, args: VmValue[], kwargs: [string, VmValue][]): VmValue {
    const previous = this.context.entry;
    const inject = previous === null;
    if (inject) this.context.entry = [this.module.name, name];
    try {
      return this.callNamed(name, args, kwargs);
    } finally {
      if (inject) this.context.entry = previous;
    }
  }

  callNamed(name: string, args: VmValue[], kwargs: [string, VmValue][]): VmValue {
    const fn = this.module.functions.get(name);
    if (!fn) throw new VmError(`unknown function '${name}'`);
    return this.invoke(fn, args, kwargs);
  }

  invoke(fn: CompiledFunction, args: VmValue[], kwargs: [string, VmValue][]): VmValue {
    const rt = this.rt;
    rt.meter.charge(fn.entryGas);
    if (rt.depth >= MAX_CALL_DEPTH) throw new VmError(CALL_DEPTH_ERROR);
    rt.depth++;
    try {
      const scope = bindArguments(this, fn, args, kwargs);
      if (fn.typecheck) checkArguments(fn, scope);
      const flow = fn.body(scope, this);
      let result: VmValue = null;
      if (flow === FLOW_RETURN) result = this.returnValue;
      else if (flow === FLOW_BREAK || flow === FLOW_CONTINUE) throw new VmError(`function '${fn.name}' leaked loop control`);
      if (fn.typecheck) checkReturn(fn, result);
      return result;
    } finally {
      rt.depth--;
    }
  }

  /** Runs `fn` with metering and host switched off (upstream evaluates assignment targets with `NoopHost`). */
  unmetered<T>(fn: () => T): T {
    const rt = this.rt;
    const meter = rt.meter;
    const host = rt.host;
    rt.meter = NOOP_METER;
    rt.host = NOOP_HOST;
    try {
      return fn();
    } finally {
      rt.meter = meter;
      rt.host = host;
    }
  }

  // ---- storage ------------------------------------------------------------------------------

  private variableState(binding: string): VariableState {
    const state = this.variables.get(binding);
    if (!state) throw new VmError(`unknown variable binding '${binding}'`);
    return state;
  }

  private hashState(binding: string): HashState {
    const state = this.hashes.get(binding);
    if (!state) throw new VmError(`unknown hash binding '${binding}'`);
    return state;
  }

  variableGet(binding: string): VmValue {
    const { meter, host } = this.rt;
    const state = this.variableState(binding);
    if (state.foreignKey !== null) {
      const [contract, name] = splitForeignKey(state.foreignKey);
      const loaded = host.readVariable(contract, name);
      let foreign = this.variables.get(state.foreignKey);
      if (!foreign) {
        foreign = { defaultValue: null, value: undefined, foreignKey: null, snapshotLocal: false, dirty: false };
        this.variables.set(state.foreignKey, foreign);
      }
      if (loaded !== undefined) foreign.value = loaded;
      const value = foreign.value !== undefined ? foreign.value : foreign.defaultValue;
      meter.chargeRead(variableStorageKey(contract, name), value);
      return value;
    }
    const key = variableStorageKey(this.module.name, binding);
    const recorded = host.readRecordedStorageWrite(key);
    if (recorded !== undefined) {
      state.value = recorded;
      meter.chargeRead(key, recorded);
      return recorded;
    }
    if (state.value === undefined) {
      const loaded = host.readVariable(this.module.name, binding);
      if (state.value === undefined) state.value = loaded;
    }
    const value = state.value !== undefined ? state.value : state.defaultValue;
    meter.chargeRead(key, value);
    return value;
  }

  variableSet(binding: string, value: VmValue): void {
    const state = this.variableState(binding);
    if (state.foreignKey !== null) throw new VmError(`cannot set foreign variable '${binding}'`);
    state.value = value;
    state.dirty = true;
  }

  hashGet(binding: string, key: VmValue): VmValue {
    const { meter, host } = this.rt;
    const normalized = normalizeHashKey(key);
    const state = this.hashState(binding);
    if (state.foreignKey !== null) {
      const [contract, name] = splitForeignKey(state.foreignKey);
      const loaded = host.readHash(contract, name, key);
      let foreign = this.hashes.get(state.foreignKey);
      if (!foreign) {
        foreign = { defaultValue: null, entries: new Map(), foreignKey: null, snapshotLocal: false, dirty: new Set() };
        this.hashes.set(state.foreignKey, foreign);
      }
      if (loaded !== undefined) foreign.entries.set(normalized, loaded);
      const found = foreign.entries.get(normalized);
      const value = found !== undefined ? found : foreign.defaultValue;
      meter.chargeRead(hashStorageKey(contract, name, key), value);
      return value;
    }
    const fullKey = hashStorageKeyFromNormalized(this.module.name, binding, normalized);
    const recorded = host.readRecordedStorageWrite(fullKey);
    if (recorded !== undefined) {
      state.entries.set(normalized, recorded);
      meter.chargeRead(fullKey, recorded);
      return recorded;
    }
    if (!state.entries.has(normalized)) {
      const loaded = host.readHash(this.module.name, binding, key);
      if (loaded !== undefined) state.entries.set(normalized, loaded);
    }
    const found = state.entries.get(normalized);
    const value = found !== undefined ? found : state.defaultValue;
    meter.chargeRead(fullKey, value);
    return value;
  }

  hashSet(binding: string, key: VmValue, value: VmValue): string {
    const normalized = normalizeHashKey(key);
    const state = this.hashState(binding);
    if (state.foreignKey !== null) throw new VmError(`cannot set foreign hash '${binding}'`);
    state.entries.set(normalized, value);
    state.dirty.add(normalized);
    return hashStorageKeyFromNormalized(this.module.name, binding, normalized);
  }

  hashAll(binding: string, prefixArgs: readonly VmValue[]): VmValue[] {
    const { meter, host } = this.rt;
    const prefix = normalizeHashPrefix(prefixArgs);
    const state = this.hashState(binding);
    let contract = this.module.name;
    let name = binding;
    let stateKey = binding;
    if (state.foreignKey !== null) {
      [contract, name] = splitForeignKey(state.foreignKey);
      stateKey = state.foreignKey;
    }
    const scanned = host.scanHashEntries(contract, name, prefix);
    let target = this.hashes.get(stateKey);
    if (!target) {
      target = { defaultValue: null, entries: new Map(), foreignKey: null, snapshotLocal: false, dirty: new Set() };
      this.hashes.set(stateKey, target);
    }
    const ordered: string[] = [];
    const seen = new Set<string>();
    for (const [key, value] of scanned) {
      if (!seen.has(key)) {
        seen.add(key);
        ordered.push(key);
      }
      target.entries.set(key, value);
    }
    const localOnly = [...target.entries.keys()].filter((k) => prefixMatches(k, prefix) && !seen.has(k));
    localOnly.sort((a, b) => (Buffer.compare(Buffer.from(a), Buffer.from(b))));
    ordered.push(...localOnly);
    const values: VmValue[] = [];
    for (const key of ordered) {
      const value = target.entries.get(key);
      if (value === undefined || value === null) continue;
      meter.chargeRead(hashStorageKeyFromNormalized(contract, name, key), value);
      values.push(value);
    }
    return values;
  }

  // ---- the views a host or harness uses ------------------------------------------------------

  getVariable(binding: string): VmValue | undefined {
    const state = this.variables.get(binding);
    if (!state) return undefined;
    return state.value !== undefined ? state.value : state.defaultValue;
  }

  peekVariable(binding: string): VmValue | undefined {
    return this.variables.get(binding)?.value;
  }

  getHashValue(binding: string, key: VmValue): VmValue | undefined {
    const state = this.hashes.get(binding);
    if (!state) return undefined;
    const found = state.entries.get(normalizeHashKey(key));
    return found !== undefined ? found : state.defaultValue;
  }

  peekHashEntry(binding: string, key: VmValue): VmValue | undefined {
    return this.hashes.get(binding)?.entries.get(normalizeHashKey(key));
  }

  setForeignVariable(contract: string, name: string, value: VmValue): void {
    const key = foreignStorageKey(contract, name);
    const state = this.variables.get(key);
    if (state) state.value = value;
    else this.variables.set(key, { defaultValue: null, value, foreignKey: null, snapshotLocal: false, dirty: false });
  }

  setForeignHashValue(contract: string, name: string, key: VmValue, value: VmValue): void {
    const storageKey = foreignStorageKey(contract, name);
    const normalized = normalizeHashKey(key);
    let state = this.hashes.get(storageKey);
    if (!state) {
      state = { defaultValue: null, entries: new Map(), foreignKey: null, snapshotLocal: false, dirty: new Set() };
      this.hashes.set(storageKey, state);
    }
    state.entries.set(normalized, value);
  }

  /** Dirty local Variable/Hash values (upstream `storage_snapshot`), for a host to persist or share. */
  storageSnapshot(): StorageSnapshot {
    const variables: StorageSnapshot['variables'] = [];
    for (const [binding, s] of this.variables) {
      if (s.snapshotLocal && s.dirty) variables.push({ binding, defaultValue: s.defaultValue, value: s.value });
    }
    const hashes: StorageSnapshot['hashes'] = [];
    for (const [binding, s] of this.hashes) {
      if (!s.snapshotLocal) continue;
      const entries = new Map<string, VmValue>();
      for (const k of s.dirty) entries.set(k, s.entries.get(k)!);
      if (entries.size) hashes.push({ binding, defaultValue: s.defaultValue, entries });
    }
    return { contract: this.module.name, variables, hashes };
  }

  applyForeignSnapshot(snapshot: StorageSnapshot): void {
    for (const v of snapshot.variables) {
      this.variables.set(foreignStorageKey(snapshot.contract, v.binding), {
        defaultValue: v.defaultValue, value: v.value, foreignKey: null, snapshotLocal: false, dirty: false,
      });
    }
    for (const h of snapshot.hashes) {
      this.hashes.set(foreignStorageKey(snapshot.contract, h.binding), {
        defaultValue: h.defaultValue, entries: new Map(h.entries), foreignKey: null, snapshotLocal: false, dirty: new Set(),
      });
    }
  }
}

export interface StorageSnapshot {
  contract: string;
  variables: { binding: string; defaultValue: VmValue; value: VmValue | undefined }[];
  hashes: { binding: string; defaultValue: VmValue; entries: Map<string, VmValue> }[];
}

