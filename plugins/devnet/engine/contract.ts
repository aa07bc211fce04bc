import { ChainDatetime, ChainDecimal, type ChainRecord, type ChainValue } from 'chainhost/chain';
import { ContractError } from './errors.js';

/**
 * The native-contract API. A contract is a plain value: its Python-like `source` (what
 * `contract_source` shows and what identifies its code in state), its storage declarations,
 * events, an optional constructor and its exported functions with their exact argument names.
 * Function bodies are TypeScript working on ChainValues through a ContractContext, so they can
 * follow the Python source statement by statement (evaluation order and truncation matter).
 */

/** What contract code sees: the frame (`ctx.*`), the block environment and the host services. */
export interface ContractContext {
  readonly signer: string;
  /** The immediate caller: the sender for the entry call, the calling contract's name otherwise. */
  readonly caller: string;
  /** The executing contract's name. */
  readonly this: string;
  /** `__owner__` of the executing contract, or null. */
  readonly owner: string | null;
  readonly now: ChainDatetime;
  readonly blockNum: bigint;
  readonly blockHash: string;
  readonly chainId: string;
  /** Metered storage read; undefined when missing. */
  read(key: string): ChainValue | undefined;
  /** Metered storage write; null deletes. */
  write(key: string, value: ChainValue | null): void;
  /** Emits a declared event with the LogEvent rules. */
  emit(event: EventSpec, values: Record<string, ChainValue>): void;
  /** Calls an exported function of another contract (new frame: caller = this contract). */
  call(contract: string, fn: string, kwargs?: Record<string, ChainValue>): ChainValue;
  /** Whether `contract` exists and exports `fn` (free, like reading the module's interface). */
  exports(contract: string, fn: string): boolean;
  /** importlib.enforce_interface: every function with exactly these argument names, every storage variable of that kind. */
  hasInterface(contract: string, functions: ReadonlyArray<FunctionShape>, variables?: ReadonlyArray<VariableShape>): boolean;
  /**
   * `assert cond, message` with the contract's exact text. (Not a TS assertion signature, so it
   * works with contextually typed `ctx`; use errors.ts `check()` where narrowing is needed.)
   */
  assert(cond: unknown, message?: string): void;
  /** Extra raw cost (ZK host functions and the like). */
  charge(raw: number): void;
  /** Deploys a contract under `name` from submitted source (used by `submission`). */
  deploy(request: DeployRequest): void;
}

export interface FunctionShape {
  name: string;
  args: readonly string[];
}

export interface VariableShape {
  name: string;
  kind: 'Variable' | 'Hash';
}

export interface DeployRequest {
  name: string;
  code: string;
  owner: string | null;
  constructorArgs: ChainRecord;
}

// ---------------------------------------------------------------------------------------------
// Storage

export type StorageKind = 'Variable' | 'Hash';

export interface StorageDecl {
  readonly name: string;
  readonly kind: StorageKind;
}

/** `str(part)` for a storage key part, with the ORM's rules. */
export function keyPart(part: ChainValue): string {
  let s: string;
  if (typeof part === 'string') s = part;
  else if (typeof part === 'bigint') s = part.toString();
  else if (typeof part === 'boolean') s = part ? 'True' : 'False';
  else if (part instanceof ChainDecimal) s = part.toEngString();
  else if (part instanceof ChainDatetime) s = part.toString();
  else if (part === null) s = 'None';
  else throw new ContractError('TypeError', 'Hash key parts must be strings, numbers or booleans.');
  if (s.includes(':') || s.includes('.')) {
    throw new ContractError('AssertionError', `Illegal character in hash key part ${JSON.stringify(s)}: ':' and '.' are reserved.`);
  }
  return s;
}

export const MAX_HASH_DIMENSIONS = 16;
export const MAX_KEY_LENGTH = 1024;

function hashKey(contract: string, name: string, parts: readonly ChainValue[]): string {
  if (parts.length === 0 || parts.length > MAX_HASH_DIMENSIONS) {
    throw new ContractError('AssertionError', `Hash keys take 1 to ${MAX_HASH_DIMENSIONS} dimensions.`);
  }
  let key = `${contract}.${name}:${keyPart(parts[0]!)}`;
  for (let i = 1; i < parts.length; i++) key += `:${keyPart(parts[i]!)}`;
  if (key.length > MAX_KEY_LENGTH) throw new ContractError('AssertionError', `Key is too long (${key.length}); max is ${MAX_KEY_LENGTH}.`);
  return key;
}

/** `name = Variable()` at `<contract>.<name>`. */
export class Variable implements StorageDecl {
  readonly kind = 'Variable' as const;
  constructor(readonly name: string, readonly defaultValue: ChainValue = null) {}

  key(ctx: { this: string }): string {
    return `${ctx.this}.${this.name}`;
  }
  get(ctx: ContractContext): ChainValue {
    const v = ctx.read(this.key(ctx));
    return v === undefined || v === null ? this.defaultValue : v;
  }
  set(ctx: ContractContext, value: ChainValue): void {
    ctx.write(this.key(ctx), value);
  }
}

/** `name = Hash(default_value=X)` at `<contract>.<name>:<k1>:<k2>…`; missing entries read as X. */
export class Hash implements StorageDecl {
  readonly kind = 'Hash' as const;
  constructor(readonly name: string, readonly defaultValue: ChainValue = null) {}

  key(ctx: { this: string }, ...parts: ChainValue[]): string {
    return hashKey(ctx.this, this.name, parts);
  }
  get(ctx: ContractContext, ...parts: ChainValue[]): ChainValue {
    const v = ctx.read(hashKey(ctx.this, this.name, parts));
    return v === undefined || v === null ? this.defaultValue : v;
  }
  set(ctx: ContractContext, parts: ChainValue | ChainValue[], value: ChainValue): void {
    ctx.write(hashKey(ctx.this, this.name, Array.isArray(parts) ? parts : [parts]), value);
  }
}

/** `ForeignHash(foreign_contract=…, foreign_name=…)`: a read-only view of another contract's Hash. */
export class ForeignHash {
  constructor(readonly contract: string, readonly name: string, readonly defaultValue: ChainValue = null) {}
  get(ctx: ContractContext, ...parts: ChainValue[]): ChainValue {
    const v = ctx.read(hashKey(this.contract, this.name, parts));
    return v === undefined || v === null ? this.defaultValue : v;
  }
}

// ---------------------------------------------------------------------------------------------
// Events

export type EventFieldType = 'str' | 'int' | 'float' | 'decimal' | 'bool';

export interface EventField {
  readonly name: string;
  readonly types: readonly EventFieldType[];
  readonly indexed: boolean;
}

export interface EventSpec {
  readonly name: string;
  readonly fields: readonly EventField[];
}

export const MAX_INDEXED_EVENT_FIELDS = 3;

/** `LogEvent(event=name, params={field: {'type': …, 'idx': True}})`. */
export function logEvent(
  name: string,
  params: Record<string, { type: EventFieldType | readonly EventFieldType[]; idx?: boolean }>,
): EventSpec {
  const fields = Object.entries(params).map(([field, p]) => ({
    name: field,
    types: typeof p.type === 'string' ? [p.type] : [...p.type],
    indexed: p.idx === true,
  }));
  if (fields.filter((f) => f.indexed).length > MAX_INDEXED_EVENT_FIELDS) {
    throw new Error(`event ${name} declares more than ${MAX_INDEXED_EVENT_FIELDS} indexed fields`);
  }
  return { name, fields };
}

/** The three numeric event types `(int, float, decimal)`. */
export const NUMBER: readonly EventFieldType[] = ['int', 'float', 'decimal'];

// ---------------------------------------------------------------------------------------------
// Functions

export type ArgType =
  | 'str' | 'int' | 'float' | 'bool' | 'dict' | 'list' | 'Any' | 'datetime.datetime' | 'datetime.timedelta';

export interface ArgSpec {
  readonly name: string;
  /** The annotation text as written in the source; omitted when unannotated. */
  readonly type?: ArgType;
  /** True when the source gives a default (then `defaultValue` is used when the kwarg is absent). */
  readonly optional: boolean;
  readonly defaultValue?: ChainValue;
}

export function arg(name: string, type?: ArgType): ArgSpec {
  return type === undefined ? { name, optional: false } : { name, type, optional: false };
}

export function optArg(name: string, type: ArgType | undefined, defaultValue: ChainValue): ArgSpec {
  return type === undefined ? { name, optional: true, defaultValue } : { name, type, optional: true, defaultValue };
}

export type Args = Readonly<Record<string, ChainValue>>;
export type NativeFunction = (ctx: ContractContext, args: Args) => ChainValue | void;

export interface NativeMethod {
  readonly name: string;
  readonly arguments: readonly ArgSpec[];
  /** Raw cost of the function body (chi-model.ts); default COST.defaultFunctionBody. */
  readonly cost?: number;
  readonly run: NativeFunction;
}

export function method(name: string, args: readonly ArgSpec[], run: NativeFunction, cost?: number): NativeMethod {
  return cost === undefined ? { name, arguments: args, run } : { name, arguments: args, run, cost };
}

export interface NativeContract {
  /** Template id, unique in a registry (e.g. `currency`, `xsc001`, `con_pairs`). */
  readonly id: string;
  /** The canonical source text stored at `<name>.__source__`; it identifies this code in state. */
  readonly source: string;
  readonly imports: readonly string[];
  readonly storage: readonly StorageDecl[];
  readonly events: readonly EventSpec[];
  /** The `@construct` function (run once at deployment). */
  readonly constructorMethod?: NativeMethod;
  /** Exported functions in source order. */
  readonly methods: readonly NativeMethod[];
  method(name: string): NativeMethod | undefined;
}

export interface ContractDefinition {
  id: string;
  source: string;
  imports?: readonly string[];
  storage?: readonly StorageDecl[];
  events?: readonly EventSpec[];
  constructorMethod?: NativeMethod;
  methods: readonly NativeMethod[];
}

export function defineContract(def: ContractDefinition): NativeContract {
  const byName = new Map(def.methods.map((m) => [m.name, m]));
  if (byName.size !== def.methods.length) throw new Error(`contract ${def.id} exports a function twice`);
  return {
    id: def.id,
    source: def.source,
    imports: def.imports ?? [],
    storage: def.storage ?? [],
    events: def.events ?? [],
    ...(def.constructorMethod ? { constructorMethod: def.constructorMethod } : {}),
    methods: def.methods,
    method: (name) => byName.get(name),
  };
}

/** The `contract_methods` shape: `[{name, arguments:[{name, type}]}]` (type omitted when unannotated). */
export function describeMethods(contract: NativeContract): Array<{ name: string; arguments: Array<{ name: string; type?: string }> }> {
  return contract.methods.map((m) => ({
    name: m.name,
    arguments: m.arguments.map((a) => (a.type === undefined ? { name: a.name } : { name: a.name, type: a.type })),
  }));
}

// ---------------------------------------------------------------------------------------------
// Tuples

/**
 * Python tuples have no ChainValue of their own; a returned tuple is an array carrying this
 * marker so the node's repr can print `(1, 0.5)` instead of `[1, 0.5]`. Core code can test it
 * without importing the devnet: `Symbol.for('chain.tuple') in value`.
 */
export const TUPLE = Symbol.for('chain.tuple');

export function tuple(...items: ChainValue[]): ChainValue[] {
  Object.defineProperty(items, TUPLE, { value: true, enumerable: false });
  return items;
}

export function isTuple(v: unknown): boolean {
  return Array.isArray(v) && TUPLE in v;
}
