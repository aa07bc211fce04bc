import { compactJson, encodeValue, sha3Hex } from 'chainhost/chain';
import {
  compileContract, MAX_SOURCE_BYTES, VmContractHandle, VmDict, VmTuple, VmTypeMarker, VmError, VmTransaction, type CompiledModule, type MeterConfig, type VmContext,
  type VmValue, zkSyscall,
} from 'chainhost/contracting';
import type { StateReader } from '../types.js';
import { DevnetChainState, IR_KEY } from './chain-state.js';
import type { ModuleCache } from './module-cache.js';
import { fromVm } from './values.js';

/** Metadata keys the chain stores for every contract (xian-vm-core python host, driver.py). */
export const SOURCE_KEY = '__source__';
export const OWNER_KEY = '__owner__';
export const SUBMITTED_KEY = '__submitted__';
export const DEVELOPER_KEY = '__developer__';
export const DEPLOYER_KEY = '__deployer__';
export const INITIATOR_KEY = '__initiator__';

const DEPLOYMENT_BASE_COST = 5_000;
const DEPLOYMENT_COST_PER_SOURCE_BYTE = 1;
const WRITE_COST_PER_BYTE = 25;
const CONTRACT_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const SUBMISSION = 'submission';

/**
 * One transaction on the VM with the node's host syscalls (xian-vm-core's python host): contract
 * metadata (`contract.info`, `set_owner`, `set_developer`, `code_hash`) and the native deployment
 * path `contract.deploy` — name check, `Contract already exists.`, compile with lint on the node
 * (diagnostics become the failure text, as upstream's `CompilerError`), the constructor in a
 * separate unbudgeted VM execution of the new module, then the metadata keys. Host-side costs
 * (deployment base + source bytes, metadata writes, the constructor run) are kept apart and
 * added to `chi_used` afterwards without an abort check, as the python host does.
 */
export class DevnetTransaction extends VmTransaction {
  /** Raw cost charged by the host outside the VM meter (deployments, metadata writes). */
  hostRawCost = 0;
  /** Per-contract raw costs of constructor runs (developer-reward weights). */
  readonly hostContractCosts = new Map<string, number>();
  private readonly chainState: DevnetChainState;
  private readonly pendingModules: Map<string, CompiledModule>;
  private activeContext: VmContext | null = null;

  /** `parent`: the deploying transaction, when this one runs a constructor (it sees its pending writes and modules). */
  constructor(
    private readonly reader: StateReader,
    private readonly modules: ModuleCache,
    meter: Partial<MeterConfig>,
    parent?: DevnetTransaction,
  ) {
    const state = new DevnetChainState(reader, modules, parent ? (key) => parent.current(key) : undefined);
    const pending = parent ? parent.pendingModules : new Map<string, CompiledModule>();
    super({
      get: (key) => state.get(key),
      scan: (prefix) => state.scan(prefix),
      module: (name) => pending.get(name) ?? state.module(name),
    }, meter);
    this.chainState = state;
    this.pendingModules = pending;
  }

  override execute(contract: string, fn: string, kwargs: [string, VmValue][], context: VmContext) {
    this.activeContext = context;
    return super.execute(contract, fn, kwargs, context);
  }

  /** Reads as the transaction sees it: its own writes first, then committed state. */
  private current(key: string): VmValue | undefined {
    const written = this.readRecordedStorageWrite(key);
    return written !== undefined ? written : this.chainState.get(key);
  }

  private metadata(contract: string, key: string): VmValue {
    return this.current(`${contract}.${key}`) ?? null;
  }

  private exists(name: string): boolean {
    return this.pendingModules.has(name) || this.current(`${name}.${IR_KEY}`) != null || this.current(`${name}.${SOURCE_KEY}`) != null;
  }

  override handleSyscall(id: string, args: VmValue[], kwargs: [string, VmValue][] = []): VmValue {
    const arg = (name: string, position: number): VmValue | undefined => kwargs.find(([k]) => k === name)?.[1] ?? args[position];
    switch (id) {
      case 'contract.exists':
        return typeof args[0] === 'string' && this.exists(args[0]);
      case 'contract.info': {
        const name = args[0];
        if (typeof name !== 'string') throw new VmError('contract name must be a string');
        return new VmDict([
          ['name', name], ['owner', this.metadata(name, OWNER_KEY)], ['developer', this.metadata(name, DEVELOPER_KEY)],
          ['deployer', this.metadata(name, DEPLOYER_KEY)], ['initiator', this.metadata(name, INITIATOR_KEY)],
          ['submitted', this.metadata(name, SUBMITTED_KEY)],
        ]);
      }
      case 'contract.set_owner':
      case 'contract.set_developer': {
        if (this.activeContract() !== SUBMISSION) throw new VmError("AssertionError('Contract metadata changes are restricted to submission.')");
        const name = args[0];
        if (typeof name !== 'string') throw new VmError('contract name must be a string');
        this.hostWrite(`${name}.${id === "contract.set_owner" ? OWNER_KEY : DEVELOPER_KEY}`, args[1] ?? null);
        return null;
      }
      case 'contract.interface.func': {
        const name = arg('name', 0);
        if (typeof name !== 'string') throw new VmError("TypeError('importlib.Func name must be a string')");
        return new VmDict([['kind', 'func'], ['name', name], ['args', arg('args', 1) ?? new VmTuple([])], ['private', arg('private', 2) ?? false]]);
      }
      case 'contract.interface.var': {
        const name = arg('name', 0);
        if (typeof name !== 'string') throw new VmError("TypeError('importlib.Var name must be a string')");
        return new VmDict([['kind', 'var'], ['name', name], ['type', arg('t', 1) ?? null]]);
      }
      case 'contract.enforce_interface':
        return this.enforceInterface(arg('contract', 0) ?? null, arg('interface', 1) ?? null);
      case 'contract.code_hash': {
        const name = args[0];
        if (typeof name !== 'string') throw new VmError('contract name must be a string');
        const kind = arg('kind', 1) ?? 'runtime';
        const text = this.current(`${name}.${kind === 'source' ? SOURCE_KEY : IR_KEY}`);
        return typeof text === 'string' ? sha3Hex(text) : null;
      }
      case 'contract.deploy':
        this.deploy({
          name: arg('name', 0) ?? null, code: arg('code', 1) ?? null, owner: arg('owner', 2) ?? null, constructorArgs: arg('constructor_args', 3) ?? null,
          developer: arg('developer', 4) ?? null, deployer: arg('deployer', 5) ?? null, initiator: arg('initiator', 6) ?? null,
        });
        return null;
    }
    const zk = zkSyscall(id, args, kwargs);
    if (zk !== undefined) return zk;
    return super.handleSyscall(id, args);
  }

  /**
   * Whether `contract` exports every `func` descriptor with exactly its argument names and
   * declares every `var` descriptor's storage with that type (what upstream's host intends:
   * its production check reads a `params` key the IR spells `parameters`).
   */
  private enforceInterface(contract: VmValue, iface: VmValue): boolean {
    const name = typeof contract === 'string' ? contract : contract instanceof VmContractHandle ? contract.module : null;
    if (name === null) throw new VmError("TypeError('enforce_interface needs a contract name or handle')");
    const entries = Array.isArray(iface) ? iface : iface instanceof VmTuple ? iface.items : null;
    if (!entries) throw new VmError("TypeError('enforce_interface needs a list of descriptors')");
    const ir = this.current(`${name}.${IR_KEY}`);
    const module = this.pendingModules.get(name) ?? (typeof ir === 'string' ? this.modules.get(name, ir) : undefined);
    if (!module) return false;
    const storages = typeof ir === 'string' ? this.modules.storages(name, ir) : new Map<string, string>();
    for (const e of entries) {
      const field = (key: string): VmValue | undefined => (e instanceof VmDict ? e.entries.find(([k]) => k === key)?.[1] : undefined);
      const kind = field('kind');
      if (kind === 'func') {
        const fn = module.functions.get(String(field('name')));
        if (!fn) return false;
        const isPrivate = field('private') === true;
        if ((fn.visibility === 'export') === isPrivate) return false;
        const declared = field('args');
        const expected = Array.isArray(declared) ? declared : declared instanceof VmTuple ? declared.items : [];
        const actual = fn.params.map((p) => p.name);
        if (expected.length !== actual.length || expected.some((a, i) => a !== actual[i])) return false;
      } else if (kind === 'var') {
        const t = field('type');
        const typeName = t instanceof VmTypeMarker ? t.name : typeof t === 'string' ? t : null;
        if (storages.get(String(field('name'))) !== typeName) return false;
      } else throw new VmError(`unsupported interface descriptor kind '${String(kind)}'`);
    }
    return true;
  }

  private activeContract(): string | null {
    return this.activeContext?.this ?? null;
  }

  /** A metadata write by the host: staged in the overlay, charged 25/byte, outside the write cap. */
  private hostWrite(key: string, value: VmValue): void {
    this.recordStorageWrite(key, value);
    if (value !== null) this.hostRawCost += WRITE_COST_PER_BYTE * (Buffer.byteLength(key) + pythonJsonLength(value));
  }

  private deploy(d: {
    name: VmValue; code: VmValue; owner: VmValue; constructorArgs: VmValue; developer: VmValue; deployer: VmValue; initiator: VmValue;
  }): void {
    const name = d.name;
    if (typeof name !== 'string' || !CONTRACT_NAME.test(name)) throw new VmError(`AssertionError('Invalid contract name!')`);
    if (this.exists(name)) throw new VmError('Contract already exists.');
    if (typeof d.code !== 'string' || d.code === '') throw new VmError('native contract deployment requires non-empty source code');
    if (Buffer.byteLength(d.code) > MAX_SOURCE_BYTES) throw new VmError('Contract source exceeds the maximum allowed size.');
    const compiled = compileContract(name, d.code);
    if (!compiled.ok) {
      const first = compiled.diagnostics[0]!;
      throw new VmError(`CompilerError: ${first.code}: ${first.message}\n${JSON.stringify(compiled.diagnostics)}`);
    }
    const { source, vm_ir_json: irText } = compiled.artifact;
    const module = this.modules.get(name, irText);
    if (!module) throw new VmError(`CompilerError: the compiled IR of '${name}' was refused by the VM`);
    const ctx = this.activeContext;
    if (!ctx || ctx.now === null) throw new VmError('native contract deployment requires deterministic now context');
    const owner = typeof d.owner === 'string' ? d.owner : null;
    const developer = d.developer ?? ctx.caller;
    const deployer = d.deployer ?? ctx.caller;
    const initiator = d.initiator ?? ctx.signer;

    this.pendingModules.set(name, module);
    try {
      if (module.functions.get('construct') || [...module.functions.values()].some((f) => f.visibility === 'construct')) {
        this.construct(name, module, d.constructorArgs, {
          ...ctx, signer: typeof initiator === 'string' ? initiator : null, caller: typeof deployer === 'string' ? deployer : null,
          this: name, owner, submissionName: name,
        });
      }
    } catch (err) {
      this.pendingModules.delete(name);
      throw err;
    }
    this.hostWrite(`${name}.${SOURCE_KEY}`, source);
    this.hostWrite(`${name}.${IR_KEY}`, irText);
    this.hostWrite(`${name}.${OWNER_KEY}`, owner);
    this.hostWrite(`${name}.${SUBMITTED_KEY}`, ctx.now);
    this.hostWrite(`${name}.${DEVELOPER_KEY}`, developer);
    this.hostWrite(`${name}.${DEPLOYER_KEY}`, deployer);
    this.hostWrite(`${name}.${INITIATOR_KEY}`, initiator);
    this.hostRawCost += DEPLOYMENT_BASE_COST + DEPLOYMENT_COST_PER_SOURCE_BYTE * Buffer.byteLength(source);
  }

  /** The constructor as its own VM execution of the new module over this transaction's pending state. */
  private construct(name: string, module: CompiledModule, constructorArgs: VmValue, context: VmContext): void {
    const fn = [...module.functions.values()].find((f) => f.visibility === 'construct');
    const fnName = fn ? fn.name : 'construct';
    const kwargs: [string, VmValue][] = [];
    if (constructorArgs instanceof VmDict) {
      for (const [k, v] of constructorArgs.entries) {
        if (typeof k !== 'string') throw new VmError('constructor_args keys must be strings');
        kwargs.push([k, v]);
      }
    } else if (constructorArgs !== null) throw new VmError('constructor_args must be a dict');
    const inner = new DevnetTransaction(this.reader, this.modules, { enabled: this.meter.enabled, chiBudgetRaw: 0 }, this);
    const r = inner.execute(name, fnName, kwargs, context);
    if (r.status !== 0) throw new VmError(`contract constructor failed: ${String(r.result)}`);
    for (const [key, value] of r.writes) this.recordStorageWrite(key, value);
    for (const e of r.events) this.emitEvent(e);
    this.hostRawCost += r.stats.rawCost + inner.hostRawCost;
    for (const [c, cost] of r.stats.contractCosts) this.hostContractCosts.set(c, (this.hostContractCosts.get(c) ?? 0) + cost);
  }
}

/** Byte length of the python host's encoding of a stored value (compact JSON, ASCII-escaped). */
function pythonJsonLength(value: VmValue): number {
  return compactJson(encodeValue(fromVm(value)), { asciiOnly: true, sortKeys: true }).length;
}
