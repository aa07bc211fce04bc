import { compileModule } from './compile.js';
import { VmError, vmErrorText } from './errors.js';
import { emptyContext, type VmContext } from './host.js';
import type { VmInstance } from './instance.js';
import { Meter } from './meter.js';
import { Sandbox, type SandboxModule } from './sandbox.js';
import { fromFixtureJson, fromFixtureKey, setField, toFixtureJson, type JsonLike } from './fixture-codec.js';
import { parseJsonText } from './json-text.js';
import { unknownMember, type RunRequestPart } from './run-request-keys.js';
import type { VmValue } from './values.js';

/**
 * `runVm(request)`: one call against modules given as IR, in the in-memory sandbox. The
 * request and result use upstream's parity-fixture value encoding; see README "chain-vm".
 */
export const DEFAULT_SANDBOX_CHI_BUDGET = 1_000_000;
/** The most a sandbox call may use: the chain's own cap on raw gas (50e9 raw). */
export const MAX_SANDBOX_CHI_BUDGET = 50_000_000;

/** A request that cannot be run; `field` names the offending part (`modules[1].ir`). */
export class VmRequestError extends Error {
  constructor(readonly field: string, detail: string) {
    super(`${field}: ${detail}`);
    this.name = 'VmRequestError';
  }
}

export interface VmRunResult {
  status: 0 | 1;
  result: JsonLike;
  error?: string;
  state: { [module: string]: { variables: JsonLike[]; hashes: JsonLike[] } };
  events: JsonLike[];
  chi_used: bigint;
  raw_cost: bigint;
}

type Obj = { [k: string]: JsonLike };

function isObj(v: unknown): v is Obj {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** An object member of the request; with `part`, one that has only that part's members (run-request-keys.ts). */
function objAt(v: JsonLike | undefined, field: string, optional = false, part?: RunRequestPart): Obj | undefined {
  if (v === undefined && optional) return undefined;
  if (!isObj(v)) throw new VmRequestError(field, 'must be an object');
  const unknown = part ? unknownMember(v, part, field) : null;
  if (unknown) throw new VmRequestError(...unknown);
  return v;
}

function arrAt(v: JsonLike | undefined, field: string): JsonLike[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new VmRequestError(field, 'must be an array');
  return v;
}

function strAt(v: JsonLike | undefined, field: string, optional = false): string | undefined {
  if ((v === undefined || v === null) && optional) return undefined;
  if (typeof v !== 'string' || !v) throw new VmRequestError(field, 'must be a non-empty string');
  return v;
}

function value(v: JsonLike | undefined, field: string, key = false): VmValue {
  if (v === undefined) throw new VmRequestError(field, 'is required');
  try {
    return key ? fromFixtureKey(v) : fromFixtureJson(v);
  } catch (err) {
    throw new VmRequestError(field, (err as Error).message);
  }
}

function nonNegative(v: JsonLike | undefined, field: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'bigint' ? v : typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : undefined;
  if (n === undefined || n < 0n || n > BigInt(Number.MAX_SAFE_INTEGER)) throw new VmRequestError(field, 'must be a non-negative integer');
  return Number(n);
}

function chiBudget(v: JsonLike | undefined): number {
  const budget = nonNegative(v, 'meter.chi_budget');
  if (budget === undefined) return DEFAULT_SANDBOX_CHI_BUDGET;
  if (budget < 1 || budget > MAX_SANDBOX_CHI_BUDGET) {
    throw new VmRequestError('meter.chi_budget', `must be between 1 and ${MAX_SANDBOX_CHI_BUDGET} (the sandbox always meters)`);
  }
  return budget;
}

function seedOf(state: Obj | undefined, at: string): (inst: VmInstance) => void {
  const variables = arrAt(state?.variables, `${at}.variables`).map((v, i) => {
    const o = objAt(v, `${at}.variables[${i}]`, false, 'variable')!;
    return [strAt(o.binding, `${at}.variables[${i}].binding`)!, value(o.value, `${at}.variables[${i}].value`)] as const;
  });
  const entriesOf = (list: JsonLike | undefined, where: string): [VmValue, VmValue][] =>
    arrAt(list, where).map((e, j) => {
      const eo = objAt(e, `${where}[${j}]`, false, 'entry')!;
      return [value(eo.key, `${where}[${j}].key`, true), value(eo.value, `${where}[${j}].value`)];
    });
  const hashes = arrAt(state?.hashes, `${at}.hashes`).map((h, i) => {
    const o = objAt(h, `${at}.hashes[${i}]`, false, 'hash')!;
    return [strAt(o.binding, `${at}.hashes[${i}].binding`)!, entriesOf(o.entries, `${at}.hashes[${i}].entries`)] as const;
  });
  const foreignVariables = arrAt(state?.foreign_variables, `${at}.foreign_variables`).map((v, i) => {
    const w = `${at}.foreign_variables[${i}]`;
    const o = objAt(v, w, false, 'foreign_variable')!;
    return [strAt(o.contract, `${w}.contract`)!, strAt(o.name, `${w}.name`)!, value(o.value, `${w}.value`)] as const;
  });
  const foreignHashes = arrAt(state?.foreign_hashes, `${at}.foreign_hashes`).map((h, i) => {
    const w = `${at}.foreign_hashes[${i}]`;
    const o = objAt(h, w, false, 'foreign_hash')!;
    return [strAt(o.contract, `${w}.contract`)!, strAt(o.name, `${w}.name`)!, entriesOf(o.entries, `${w}.entries`)] as const;
  });
  return (inst) => {
    for (const [b, v] of variables) inst.variableSet(b, v);
    for (const [b, entries] of hashes) for (const [k, v] of entries) inst.hashSet(b, k, v);
    for (const [c, n, v] of foreignVariables) inst.setForeignVariable(c, n, v);
    for (const [c, n, entries] of foreignHashes) for (const [k, v] of entries) inst.setForeignHashValue(c, n, k, v);
  };
}

function contextOf(c: Obj | undefined): VmContext {
  const ctx = emptyContext();
  if (!c) return ctx;
  const s = (k: string): string | null => {
    const v = c[k];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string') throw new VmRequestError(`context.${k}`, 'must be a string or null');
    return v;
  };
  ctx.this = s('this');
  ctx.caller = s('caller');
  ctx.signer = s('signer');
  ctx.owner = s('owner');
  ctx.submissionName = s('submission_name');
  const entry = c.entry;
  if (entry !== undefined && entry !== null) {
    if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string' || typeof entry[1] !== 'string') {
      throw new VmRequestError('context.entry', 'must be [contract, function]');
    }
    ctx.entry = [entry[0], entry[1]];
  }
  ctx.now = c.now === undefined ? null : value(c.now, 'context.now');
  ctx.blockNum = c.block_num === undefined ? null : value(c.block_num, 'context.block_num');
  ctx.blockHash = c.block_hash === undefined ? null : value(c.block_hash, 'context.block_hash');
  ctx.chainId = c.chain_id === undefined ? null : value(c.chain_id, 'context.chain_id');
  return ctx;
}

interface Prepared {
  defs: SandboxModule[];
  call: { module: string; fn: string; args: VmValue[]; kwargs: [string, VmValue][] };
  context: VmContext;
  observe: Obj;
  budget: number;
  txBytes: number;
}

function prepare(input: unknown): Prepared {
  let request: JsonLike;
  if (typeof input === 'string') {
    try {
      request = parseJsonText(input);
    } catch (err) {
      throw new VmRequestError('request', `is not valid JSON (${(err as Error).message})`);
    }
  } else request = input as JsonLike;
  const r = objAt(request, 'request', false, 'request')!;
  const modules = arrAt(r.modules, 'modules');
  if (!modules.length) throw new VmRequestError('modules', 'must list at least one module');
  const defs: SandboxModule[] = modules.map((m, i) => {
    const at = `modules[${i}]`;
    const mo = objAt(m, at, false, 'module')!;
    const name = strAt(mo.module_name, `${at}.module_name`)!;
    let ir: JsonLike | undefined = mo.ir;
    if (typeof ir === 'string') {
      try {
        ir = parseJsonText(ir);
      } catch (err) {
        throw new VmRequestError(`${at}.ir`, `is not valid JSON (${(err as Error).message})`);
      }
    }
    let compiled;
    try {
      compiled = compileModule(objAt(ir, `${at}.ir`));
    } catch (err) {
      if (err instanceof VmRequestError) throw err;
      throw new VmRequestError(`${at}.ir`, (err as Error).message);
    }
    return {
      name,
      compiled,
      owner: strAt(mo.owner, `${at}.owner`, true) ?? null,
      seed: seedOf(objAt(mo.initial_state, `${at}.initial_state`, true, 'initial_state'), `${at}.initial_state`),
    };
  });
  const names = new Set<string>();
  for (const d of defs) {
    if (names.has(d.name)) throw new VmRequestError('modules', `module '${d.name}' is listed twice`);
    names.add(d.name);
  }
  const call = objAt(r.call, 'call', false, 'call')!;
  const module = strAt(call.module, 'call.module')!;
  if (!names.has(module)) throw new VmRequestError('call.module', `names no module of the request ('${module}')`);
  const fn = strAt(call.function, 'call.function')!;
  const args = arrAt(call.args, 'call.args').map((a, i) => value(a, `call.args[${i}]`));
  const kwargsObj = objAt(call.kwargs ?? {}, 'call.kwargs')!;
  const kwargs = Object.keys(kwargsObj)
    .sort()
    .map((k) => [k, value(kwargsObj[k], `call.kwargs.${k}`)] as [string, VmValue]);
  const meter = objAt(r.meter, 'meter', true, 'meter');
  const observe = objAt(r.observe ?? {}, 'observe')!;
  for (const m of Object.keys(observe)) {
    if (!names.has(m)) throw new VmRequestError(`observe.${m}`, `names no module of the request (observe is {<module>: {variables: [{binding}], hashes: [{binding, entries?: [{key}]}]}})`);
    const so = objAt(observe[m], `observe.${m}`, false, 'observe_module')!;
    arrAt(so.variables, `observe.${m}.variables`).forEach((v, i) => objAt(v, `observe.${m}.variables[${i}]`, false, 'observe_variable'));
    arrAt(so.hashes, `observe.${m}.hashes`).forEach((h, i) => {
      const ho = objAt(h, `observe.${m}.hashes[${i}]`, false, 'observe_hash')!;
      arrAt(ho.entries, `observe.${m}.hashes[${i}].entries`).forEach((e, j) => objAt(e, `observe.${m}.hashes[${i}].entries[${j}]`, false, 'observe_entry'));
    });
  }
  return {
    defs,
    call: { module, fn, args, kwargs },
    context: contextOf(objAt(r.context, 'context', true, 'context')),
    observe,
    budget: chiBudget(meter?.chi_budget),
    txBytes: nonNegative(meter?.transaction_size_bytes, 'meter.transaction_size_bytes') ?? 0,
  };
}

function observeState(sandbox: Sandbox, observe: Obj): VmRunResult['state'] {
  const state: VmRunResult['state'] = {};
  for (const [module, spec] of Object.entries(observe)) {
    const at = `observe.${module}`;
    const so = objAt(spec, at)!;
    const inst = sandbox.modules.get(module)!.instance;
    const variables = arrAt(so.variables, `${at}.variables`).map((v, i) => {
      const binding = strAt(objAt(v, `${at}.variables[${i}]`)!.binding, `${at}.variables[${i}].binding`)!;
      const found = inst.getVariable(binding);
      return { binding, value: found === undefined ? null : toFixtureJson(found) };
    });
    const hashes = arrAt(so.hashes, `${at}.hashes`).map((h, i) => {
      const ho = objAt(h, `${at}.hashes[${i}]`)!;
      const binding = strAt(ho.binding, `${at}.hashes[${i}].binding`)!;
      if (ho.entries === undefined) return { binding, entries: heldEntries(inst, binding) };
      const entries = arrAt(ho.entries, `${at}.hashes[${i}].entries`).map((e, j) => {
        const key = objAt(e, `${at}.hashes[${i}].entries[${j}]`)!.key;
        const found = inst.getHashValue(binding, value(key, `${at}.hashes[${i}].entries[${j}].key`, true));
        return { key: key!, value: found === undefined ? null : toFixtureJson(found) };
      });
      return { binding, entries };
    });
    setField(state as never, module, { variables, hashes });
  }
  return state;
}

/**
 * Every entry a hash holds after the call (seeded or written), when `observe` names no keys:
 * keys in storage order, a multi-part key as the list of its parts (the `key` form the request takes).
 */
function heldEntries(inst: VmInstance, binding: string): { key: JsonLike; value: JsonLike }[] {
  const held = inst.hashes.get(binding);
  if (!held) return [];
  return [...held.entries.keys()]
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
    .flatMap((k) => {
      const value = held.entries.get(k);
      if (value === undefined || value === null) return [];
      const parts = k.split(':');
      return [{ key: parts.length > 1 ? parts : k, value: toFixtureJson(value) }];
    });
}

function eventJson(e: Sandbox['events'][number]): JsonLike {
  const fields = (pairs: [string, VmValue][]): Obj => {
    const o: Obj = {};
    for (const [k, v] of pairs) setField(o, k, toFixtureJson(v));
    return o;
  };
  return {
    contract: e.contract, event: e.event, signer: toFixtureJson(e.signer), caller: toFixtureJson(e.caller),
    data_indexed: fields(e.dataIndexed), data: fields(e.data),
  };
}

/** Throws `VmRequestError` for a malformed request; a call that fails returns status 1. */
export function runVm(request: unknown): VmRunResult {
  const p = prepare(request);
  const meter = new Meter({ enabled: true, chiBudgetRaw: p.budget * 1000, transactionSizeBytes: p.txBytes });
  let sandbox: Sandbox;
  try {
    sandbox = new Sandbox(p.defs, meter);
  } catch (err) {
    if (err instanceof VmError || err instanceof RangeError) throw new VmRequestError('modules', `could not be loaded: ${err.message}`);
    throw err;
  }
  let status: 0 | 1 = 0;
  let result: JsonLike;
  let error: string | undefined;
  try {
    result = toFixtureJson(sandbox.execute(p.call.module, p.call.fn, p.call.args, p.call.kwargs, p.context));
  } catch (err) {
    status = 1;
    const text = vmErrorText(err);
    error = text;
    result = text;
  }
  const stats = meter.stats(meter.finalizeContracts(p.call.module));
  // A failed call keeps none of its writes or events: observe the state as it was before.
  const observed = status === 0 ? sandbox : new Sandbox(p.defs, new Meter({ enabled: false }));
  return {
    status,
    result,
    ...(error !== undefined ? { error } : {}),
    state: observeState(observed, p.observe),
    events: status === 0 ? sandbox.events.map(eventJson) : [],
    chi_used: BigInt(stats.chiUsed),
    raw_cost: BigInt(stats.rawCost),
  };
}

