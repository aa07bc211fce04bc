import { ChainDecimal, chainRecord, type ChainRecord, type ChainValue, DecimalOverflowError, isChainRecord } from 'chainhost/chain';
import { COST, type Meter, utf8Length } from './chi-model.js';
import { buildContractIr } from './contract-ir.js';
import type {
  ArgSpec, ContractContext, DeployRequest, EventSpec, FunctionShape, NativeContract, NativeMethod, VariableShape,
} from './contract.js';
import { ContractError } from './errors.js';
import { pyTypeName } from './num.js';
import type { ContractRegistry } from './registry.js';
import type { BlockEnv, ContractEvent } from './types.js';
import type { WriteBuffer } from './write-buffer.js';

/**
 * One transaction's execution inside the executor: call frames (`ctx`), Python keyword binding,
 * metered storage access through the write buffer, events, cross-contract calls with the
 * caller/owner rules of contracts.md §2, and deployments.
 */

export function describeFailure(err: unknown): { message: string; pythonClass: string } {
  if (err instanceof ContractError) return { message: err.message, pythonClass: err.pythonClass };
  if (err instanceof DecimalOverflowError) return { message: err.message, pythonClass: 'DecimalOverflowError' };
  if (err instanceof RangeError && /division by zero/.test(err.message)) return { message: 'division by zero', pythonClass: 'ZeroDivisionError' };
  if (err instanceof Error) return { message: err.message, pythonClass: err.name === 'Error' ? 'Exception' : err.name };
  return { message: String(err), pythonClass: 'Exception' };
}

function missingArguments(fn: string, names: string[]): string {
  const quoted = names.map((n) => `'${n}'`);
  const list = quoted.length === 1 ? quoted[0] : quoted.length === 2 ? `${quoted[0]} and ${quoted[1]}`
    : `${quoted.slice(0, -1).join(', ')}, and ${quoted[quoted.length - 1]}`;
  return `${fn}() missing ${names.length} required positional argument${names.length === 1 ? '' : 's'}: ${list}`;
}

/** Python keyword binding: unexpected names and missing required ones are TypeErrors; defaults fill the rest. */
function bindArguments(m: NativeMethod, kwargs: ChainRecord): ChainRecord {
  const args = chainRecord();
  const declared = m.arguments;
  for (const key of Object.keys(kwargs)) {
    if (!declared.some((a: ArgSpec) => a.name === key)) {
      throw new ContractError('TypeError', `${m.name}() got an unexpected keyword argument '${key}'`);
    }
  }
  const missing: string[] = [];
  for (const a of declared) {
    if (Object.prototype.hasOwnProperty.call(kwargs, a.name)) args[a.name] = kwargs[a.name]!;
    else if (a.optional) args[a.name] = cloneDefault(a.defaultValue ?? null);
    else missing.push(a.name);
  }
  if (missing.length > 0) throw new ContractError('TypeError', missingArguments(m.name, missing));
  return args;
}

function cloneDefault(v: ChainValue): ChainValue {
  if (Array.isArray(v)) return v.map(cloneDefault);
  if (isChainRecord(v)) return chainRecord(Object.entries(v).map(([k, x]) => [k, cloneDefault(x)] as const));
  return v;
}

/** Per-transaction execution state shared by all frames. */
export class TxRuntime {
  readonly events: ContractEvent[] = [];
  depth = 0;

  constructor(
    readonly registry: ContractRegistry,
    readonly maxDepth: number,
    readonly buffer: WriteBuffer,
    readonly meter: Meter,
    readonly env: BlockEnv,
    readonly signer: string,
  ) {}

  entry(contract: string, fn: string, kwargs: ChainRecord): ChainValue {
    this.meter.begin(contract);
    this.meter.charge(COST.callDispatch);
    return this.invoke(contract, fn, kwargs, this.signer, true);
  }

  resolve(contract: string): NativeContract {
    const code = this.registry.resolve(contract, this.buffer);
    if (!code) throw new ContractError('ModuleNotFoundError', `No module named '${contract}'`);
    return code;
  }

  owner(contract: string): string | null {
    const o = this.buffer.get(`${contract}.__owner__`);
    return typeof o === 'string' && o !== '' ? o : null;
  }

  invoke(contract: string, fn: string, kwargs: ChainRecord, caller: string, isEntry: boolean): ChainValue {
    const code = this.resolve(contract);
    const m = code.method(fn);
    if (!m) throw new ContractError('AttributeError', `Contract '${contract}' has no exported function '${fn}'`);
    const owner = this.owner(contract);
    if (owner !== null && owner !== caller) {
      throw new ContractError('AssertionError', `Caller is not the owner of contract '${contract}'.`);
    }
    const args = bindArguments(m, kwargs);
    if (this.depth >= this.maxDepth) {
      throw new ContractError('RecursionError', 'maximum contract call depth exceeded');
    }
    const frame = new Frame(this, caller, contract, owner);
    if (!isEntry) this.meter.enter(contract);
    this.depth++;
    try {
      this.meter.charge(m.cost ?? COST.defaultFunctionBody);
      const result = m.run(frame, args);
      return result === undefined ? null : result;
    } finally {
      this.depth--;
      if (!isEntry) this.meter.exit();
    }
  }

  exports(contract: string, fn: string): boolean {
    return this.registry.resolve(contract, this.buffer)?.method(fn) !== undefined;
  }

  hasInterface(contract: string, functions: ReadonlyArray<FunctionShape>, variables: ReadonlyArray<VariableShape> = []): boolean {
    const code = this.registry.resolve(contract, this.buffer);
    if (!code) return false;
    for (const f of functions) {
      const m = code.method(f.name);
      if (!m || m.arguments.length !== f.args.length) return false;
      if (m.arguments.some((a, i) => a.name !== f.args[i])) return false;
    }
    for (const v of variables) {
      if (!code.storage.some((s) => s.name === v.name && s.kind === v.kind)) return false;
    }
    return true;
  }

  /** `submission.submit_contract` semantics: metadata keys, then the constructor in the new contract's frame. */
  deployContract(request: DeployRequest, caller: string, developer: string): void {
    const { name, code } = request;
    if (this.buffer.get(`${name}.__source__`) !== undefined) {
      throw new ContractError('AssertionError', 'Contract already exists.');
    }
    const template = this.registry.forSource(code);
    if (!template) {
      throw new ContractError(
        'ValueError',
        'The devnet runs contracts natively and has no implementation for this source; deploy one of its templates (XSC001 token, LP token, shielded note token) verbatim.',
      );
    }
    this.meter.charge(COST.deploymentBase + COST.deploymentSourceByte * utf8Length(code));
    const write = (key: string, value: ChainValue): void => {
      this.meter.chargeWrite(key, value);
      this.buffer.set(key, value);
    };
    write(`${name}.__source__`, code);
    write(`${name}.__xian_ir_v1__`, buildContractIr(name, code));
    if (request.owner !== null) write(`${name}.__owner__`, request.owner);
    write(`${name}.__developer__`, developer);
    write(`${name}.__deployer__`, caller);
    write(`${name}.__initiator__`, this.signer);
    write(`${name}.__submitted__`, this.env.now);
    const ctor = template.constructorMethod;
    if (!ctor) {
      if (Object.keys(request.constructorArgs).length > 0) {
        throw new ContractError('TypeError', `${name} has no constructor but constructor_args were given`);
      }
      return;
    }
    const args = bindArguments(ctor, request.constructorArgs);
    const frame = new Frame(this, caller, name, request.owner);
    this.meter.enter(name);
    this.depth++;
    try {
      this.meter.charge(ctor.cost ?? COST.defaultFunctionBody);
      ctor.run(frame, args);
    } finally {
      this.depth--;
      this.meter.exit();
    }
  }
}

/** One call frame: what `ctx` is inside a contract function. */
class Frame implements ContractContext {
  readonly this: string;

  constructor(
    private readonly rt: TxRuntime,
    readonly caller: string,
    contract: string,
    readonly owner: string | null,
  ) {
    this.this = contract;
  }

  get signer(): string { return this.rt.signer; }
  get now() { return this.rt.env.now; }
  get blockNum(): bigint { return this.rt.env.height; }
  get blockHash(): string { return this.rt.env.hash; }
  get chainId(): string { return this.rt.env.chainId; }

  read(key: string): ChainValue | undefined {
    const v = this.rt.buffer.get(key);
    this.rt.meter.chargeRead(key, v);
    return v;
  }

  write(key: string, value: ChainValue | null): void {
    this.rt.meter.chargeWrite(key, value);
    this.rt.buffer.set(key, value);
  }

  emit(spec: EventSpec, values: Record<string, ChainValue>): void {
    this.rt.meter.charge(COST.eventEmit);
    const given = Object.keys(values);
    if (given.length !== spec.fields.length || spec.fields.some((f) => !Object.prototype.hasOwnProperty.call(values, f.name))) {
      throw new ContractError('AssertionError', `Event ${spec.name} takes exactly the fields ${spec.fields.map((f) => f.name).join(', ')}; got ${given.join(', ')}.`);
    }
    const dataIndexed = chainRecord();
    const data = chainRecord();
    for (const f of spec.fields) {
      const v = values[f.name]!;
      if (!f.types.some((t) => matchesEventType(v, t))) {
        throw new ContractError('AssertionError', `Event ${spec.name} field ${f.name} must be ${f.types.join(' or ')}, not ${pyTypeName(v)}.`);
      }
      if (typeof v === 'string' && utf8Length(v) > 1024) {
        throw new ContractError('AssertionError', `Event ${spec.name} field ${f.name} is longer than 1024 bytes.`);
      }
      (f.indexed ? dataIndexed : data)[f.name] = v;
    }
    this.rt.events.push({
      contract: this.this,
      event: spec.name,
      signer: this.rt.signer,
      caller: this.caller,
      data_indexed: dataIndexed,
      data,
    });
  }

  call(contract: string, fn: string, kwargs: Record<string, ChainValue> = {}): ChainValue {
    this.rt.meter.charge(COST.crossContractCall);
    const record = Object.getPrototypeOf(kwargs) === null ? (kwargs as ChainRecord) : chainRecord(Object.entries(kwargs));
    return this.rt.invoke(contract, fn, record, this.this, false);
  }

  exports(contract: string, fn: string): boolean {
    return this.rt.exports(contract, fn);
  }

  hasInterface(contract: string, functions: ReadonlyArray<FunctionShape>, variables?: ReadonlyArray<VariableShape>): boolean {
    return this.rt.hasInterface(contract, functions, variables);
  }

  assert(cond: unknown, message = ''): void {
    if (!cond) throw new ContractError('AssertionError', message);
  }

  charge(raw: number): void {
    this.rt.meter.charge(raw);
  }

  deploy(request: DeployRequest): void {
    // The submitting account is the developer and the constructor's caller (ctx.caller of submission).
    this.rt.deployContract(request, this.caller, this.caller);
  }
}

function matchesEventType(v: ChainValue, t: string): boolean {
  switch (t) {
    case 'str': return typeof v === 'string';
    case 'int': return typeof v === 'bigint';
    case 'bool': return typeof v === 'boolean';
    case 'float':
    case 'decimal': return v instanceof ChainDecimal;
    default: return false;
  }
}
