import { ENTRY_BYTES, NEW_ELEMENT_BYTES, TextBuilder, reserveItems } from './alloc.js';
import { builtinNameValue, callBuiltin, coerceTypeMarker } from './builtins.js';
import { asBigInt, asContractHandle, asString, toDecimal } from './coerce.js';
import {
  FLOW_BREAK, FLOW_CONTINUE, FLOW_NEXT, FLOW_RETURN,
  type Assign, type CompiledFunction, type CompiledModule, type CompiledParam, type Expr, type Scope, type Stmt,
} from './compiled.js';
import { VmError } from './errors.js';
import { EXPRESSION_GAS, GAS_EVENT_EMIT, GAS_HASH_SCAN, GAS_LOOP_ITERATION, GAS_VARIABLE_GET, GAS_VARIABLE_SET, STATEMENT_GAS, functionEntryGas, irNodeComplexity } from './gas.js';
import type { ContractTargetKind, VmContractCall } from './host.js';
import type { VmInstance } from './instance.js';
import type { Meter } from './meter.js';
import { ALLOCATION_LIMIT_ERROR, MAX_CONTAINER_LENGTH, MAX_IR_DEPTH } from './limits.js';
import { callMethod } from './methods.js';
import { binaryOp, compareOp, unaryOp } from './operators.js';
import { assignSubscript, dictGet, dictSet, iterate, sliceValue, subscript } from './sequences.js';
import { datetimeNew, datetimeStrptime, ed25519Verify, hashSyscalls, keyIsValid, optionEntry, timedeltaNew } from './syscalls.js';
import { variableStorageKey } from './storage-keys.js';
import { syscallGas } from './zk-gas.js';
import {
  VmBuiltin, VmBytes, VmContractHandle, VmDecimal, VmDict, VmEventRef, VmException, VmFunctionRef, VmStorageRef, VmTimeDelta,
  VmTuple, VmTypeMarker, pyStr, truthy, typeName, type VmValue,
} from './values.js';

/**
 * IR → closures, once per module load. Every node is validated here (a malformed module fails
 * to load, not halfway through a transaction), names and host bindings are resolved to direct
 * lookups, and each closure charges its node's gas before it runs, in upstream's order.
 */
type Json = Record<string, unknown>;

const XIAN_IR_V1 = 'xian_ir_v1';
const XIAN_VM_V1 = 'xian_vm_v1';
const HOST_CATALOG = 'xian_vm_v1_host_v1';

function obj(v: unknown, label: string): Json {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new VmError(`${label} must be an object`);
  return v as Json;
}

function field(o: Json, name: string): unknown {
  if (!(name in o)) throw new VmError(`missing required field '${name}'`);
  return o[name];
}

function str(o: Json, name: string): string {
  const v = field(o, name);
  if (typeof v !== 'string') throw new VmError(`field '${name}' must be a string`);
  return v;
}

function optStr(o: Json, name: string): string | null {
  const v = o[name];
  return typeof v === 'string' ? v : null;
}

function arr(o: Json, name: string): unknown[] {
  const v = field(o, name);
  if (!Array.isArray(v)) throw new VmError(`field '${name}' must be an array`);
  return v;
}

function isNull(v: unknown): boolean {
  return v === null || v === undefined;
}

const CONSTANT_CACHE = new WeakMap<object, VmValue>();

class Compiler {
  private depth = 0;
  /** Imports, declarations and functions: names a declaration may not treat as builtins. */
  readonly moduleNames = new Set<string>();
  constructor(readonly moduleName: string, readonly functionNames: Set<string>) {}

  private enter(): void {
    if (++this.depth > MAX_IR_DEPTH) throw new VmError(`IR nesting exceeds the maximum depth of ${MAX_IR_DEPTH}`);
  }

  block(nodes: unknown[]): Stmt {
    const stmts = nodes.map((n) => this.stmt(n));
    if (stmts.length === 1) return stmts[0]!;
    return (scope, inst) => {
      for (let i = 0; i < stmts.length; i++) {
        const flow = stmts[i]!(scope, inst);
        if (flow !== FLOW_NEXT) return flow;
      }
      return FLOW_NEXT;
    };
  }

  stmt(node: unknown): Stmt {
    this.enter();
    try {
      return this.stmtInner(obj(node, 'statement'));
    } finally {
      this.depth--;
    }
  }

  private stmtInner(o: Json): Stmt {
    const kind = str(o, 'node');
    const gas = STATEMENT_GAS[kind];
    if (gas === undefined) throw new VmError(`unsupported statement node '${kind}'`);
    switch (kind) {
      case 'assign': {
        const value = this.expr(field(o, 'value'));
        const targets = arr(o, 'targets').map((t) => this.target(t));
        return (s, inst) => {
          inst.rt.meter.charge(gas);
          const v = value(s, inst);
          for (const t of targets) t(s, inst, v, false);
          return FLOW_NEXT;
        };
      }
      case 'storage_set': {
        const binding = str(o, 'binding');
        const key = this.expr(field(o, 'key'));
        const value = this.expr(field(o, 'value'));
        return (s, inst) => {
          inst.rt.meter.charge(gas);
          const k = key(s, inst);
          const v = value(s, inst);
          const storageKey = inst.hashSet(binding, k, v);
          inst.rt.host.recordStorageWrite(storageKey, v);
          inst.rt.meter.chargeWrite(storageKey, v);
          return FLOW_NEXT;
        };
      }
      case 'storage_mutate': {
        const binding = str(o, 'binding');
        const key = this.expr(field(o, 'key'));
        const value = this.expr(field(o, 'value'));
        const op = str(o, 'operator');
        return (s, inst) => {
          inst.rt.meter.charge(gas);
          const k = key(s, inst);
          const current = inst.hashGet(binding, k);
          const operand = value(s, inst);
          const result = binaryOp(op, current, operand);
          const storageKey = inst.hashSet(binding, k, result);
          inst.rt.host.recordStorageWrite(storageKey, result);
          inst.rt.meter.chargeWrite(storageKey, result);
          return FLOW_NEXT;
        };
      }
      case 'aug_assign': {
        const targetNode = obj(field(o, 'target'), 'target');
        const targetKind = str(targetNode, 'node');
        if (!['name', 'attribute', 'subscript'].includes(targetKind)) throw new VmError(`unsupported aug-assign target '${targetKind}'`);
        const read = this.expr(targetNode);
        const assign = this.target(targetNode);
        const value = this.expr(field(o, 'value'));
        const op = str(o, 'operator');
        return (s, inst) => {
          inst.rt.meter.charge(gas);
          const current = read(s, inst);
          const operand = value(s, inst);
          assign(s, inst, binaryOp(op, current, operand), false);
          return FLOW_NEXT;
        };
      }
      case 'return': {
        const value = isNull(o.value) ? null : this.expr(o.value);
        return (s, inst) => {
          inst.rt.meter.charge(gas);
          inst.returnValue = value ? value(s, inst) : null;
          return FLOW_RETURN;
        };
      }
      case 'expr': {
        const value = this.expr(field(o, 'value'));
        return (s, inst) => {
          inst.rt.meter.charge(gas);
          value(s, inst);
          return FLOW_NEXT;
        };
      }
      case 'if': {
        const test = this.expr(field(o, 'test'));
        const body = this.block(arr(o, 'body'));
        const orelse = this.block(arr(o, 'orelse'));
        return (s, inst) => {
          inst.rt.meter.charge(gas);
          return truthy(test(s, inst)) ? body(s, inst) : orelse(s, inst);
        };
      }
      case 'while': {
        const test = this.expr(field(o, 'test'));
        const body = this.block(arr(o, 'body'));
        const orelse = this.block(arr(o, 'orelse'));
        return (s, inst) => {
          const meter = inst.rt.meter;
          meter.charge(gas);
          while (truthy(test(s, inst))) {
            meter.charge(GAS_LOOP_ITERATION);
            const flow = body(s, inst);
            if (flow === FLOW_BREAK) return FLOW_NEXT;
            if (flow === FLOW_RETURN) return flow;
          }
          return orelse(s, inst);
        };
      }
      case 'for': {
        const iter = this.expr(field(o, 'iter'));
        const target = this.target(field(o, 'target'));
        const body = this.block(arr(o, 'body'));
        const orelse = this.block(arr(o, 'orelse'));
        return (s, inst) => {
          const meter = inst.rt.meter;
          meter.charge(gas);
          const items = iterate(iter(s, inst));
          for (let i = 0; i < items.length; i++) {
            meter.charge(GAS_LOOP_ITERATION);
            target(s, inst, items[i]!, false);
            const flow = body(s, inst);
            if (flow === FLOW_BREAK) return FLOW_NEXT;
            if (flow === FLOW_RETURN) return flow;
          }
          return orelse(s, inst);
        };
      }
      case 'assert': {
        const test = this.expr(field(o, 'test'));
        const message = isNull(o.message) ? null : this.expr(o.message);
        return (s, inst) => {
          inst.rt.meter.charge(gas);
          if (truthy(test(s, inst))) return FLOW_NEXT;
          if (!message) throw new VmError('AssertionError()');
          const m = message(s, inst);
          const rendered = typeof m === 'string' ? `'${m.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : pyStr(m);
          throw new VmError(`AssertionError(${rendered})`);
        };
      }
      case 'raise': {
        const exception = isNull(o.exception) ? null : this.expr(o.exception);
        const cause = isNull(o.cause) ? null : this.expr(o.cause);
        return (s, inst) => {
          inst.rt.meter.charge(gas);
          if (cause) cause(s, inst);
          if (!exception) throw new VmError("RuntimeError('No active exception to reraise')");
          const e = exception(s, inst);
          if (e instanceof VmException) throw new VmError(e.pythonRepr());
          if (e instanceof VmBuiltin && ['Exception', 'RuntimeError', 'ValueError', 'TypeError'].includes(e.name)) {
            throw new VmError(`${e.name}()`);
          }
          throw new VmError(`TypeError('exceptions must derive from BaseException, got ${typeName(e)}')`);
        };
      }
      case 'break':
        return (_s, inst) => {
          inst.rt.meter.charge(gas);
          return FLOW_BREAK;
        };
      case 'continue':
        return (_s, inst) => {
          inst.rt.meter.charge(gas);
          return FLOW_CONTINUE;
        };
      default:
        return (_s, inst) => {
          inst.rt.meter.charge(gas);
          return FLOW_NEXT;
        };
    }
  }

  // ---- assignment targets ---------------------------------------------------------------------

  target(node: unknown): Assign {
    const o = obj(node, 'target');
    const kind = str(o, 'node');
    switch (kind) {
      case 'name': {
        const id = str(o, 'id');
        return (s, inst, v, moduleScope) => {
          if (moduleScope) inst.globals.set(id, v);
          s.set(id, v);
        };
      }
      case 'tuple_target': case 'list_target': case 'tuple': case 'list': {
        const elements = arr(o, 'elements').map((e) => this.target(e));
        return (s, inst, v, moduleScope) => {
          let items: readonly VmValue[];
          if (Array.isArray(v)) items = v;
          else if (v instanceof VmTuple) items = v.items;
          else throw new VmError(`cannot destructure ${typeName(v)}`);
          if (items.length !== elements.length) throw new VmError('destructuring target count does not match value length');
          for (let i = 0; i < elements.length; i++) elements[i]!(s, inst, items[i]!, moduleScope);
        };
      }
      case 'subscript': {
        const containerExpr = this.expr(field(o, 'value'));
        const indexExpr = this.expr(field(o, 'slice'));
        const assignContainer = this.target(field(o, 'value'));
        return (s, inst, v, moduleScope) => {
          const [container, index] = inst.unmetered(() => [containerExpr(s, inst), indexExpr(s, inst)] as const);
          assignContainer(s, inst, assignSubscript(container, index, v), moduleScope);
        };
      }
      case 'attribute':
        return () => {
          throw new VmError('attribute assignment is not yet supported in xian-vm-core');
        };
      default:
        return () => {
          throw new VmError(`unsupported assignment target '${kind}'`);
        };
    }
  }

  // ---- expressions ----------------------------------------------------------------------------

  expr(node: unknown): Expr {
    this.enter();
    try {
      return this.exprInner(obj(node, 'expression'));
    } finally {
      this.depth--;
    }
  }

  private exprInner(o: Json): Expr {
    const kind = str(o, 'node');
    let gas = EXPRESSION_GAS[kind];
    if (gas === undefined) throw new VmError(`unsupported expression node '${kind}'`);
    if (kind === 'compare') gas *= Math.max(1, arr(o, 'operators').length);
    else if (kind === 'bool_op') gas *= Math.max(1, arr(o, 'values').length - 1);
    else if (kind === 'f_string') gas *= Math.max(1, arr(o, 'values').length);
    const g = gas;
    switch (kind) {
      case 'name': {
        const binding = optStr(o, 'host_binding_id');
        if (binding !== null) return this.hostBinding(binding, g);
        const id = str(o, 'id');
        const fallback: VmValue | undefined = this.functionNames.has(id) ? new VmFunctionRef(id) : builtinNameValue(id);
        return (s, inst) => {
          inst.rt.meter.charge(g);
          let v = s.get(id);
          if (v !== undefined) return v;
          v = inst.globals.get(id);
          if (v !== undefined) return v;
          if (inst.module.functions.has(id)) return new VmFunctionRef(id);
          if (fallback !== undefined) return fallback;
          throw new VmError(`unknown name '${id}'`);
        };
      }
      case 'constant': {
        const value = this.constant(o);
        return (_s, inst) => {
          inst.rt.meter.charge(g);
          return value;
        };
      }
      case 'list': case 'tuple': {
        const elements = arr(o, 'elements').map((e) => this.expr(e));
        const tuple = kind === 'tuple';
        return (s, inst) => {
          inst.rt.meter.charge(g);
          const values = elements.map((e) => e(s, inst));
          if (values.length > 64) reserveItems(values.length);
          return tuple ? new VmTuple(values) : values;
        };
      }
      case 'dict': {
        const entries = arr(o, 'entries').map((e) => {
          const eo = obj(e, 'dict entry');
          if ('unpack' in eo && !isNull(eo.unpack)) return { unpack: this.expr(eo.unpack) };
          return { key: this.expr(field(eo, 'key')), value: this.expr(field(eo, 'value')) };
        });
        return (s, inst) => {
          inst.rt.meter.charge(g);
          const out: (readonly [VmValue, VmValue])[] = [];
          for (const e of entries) {
            if (e.unpack) {
              const u = e.unpack(s, inst);
              if (!(u instanceof VmDict)) throw new VmError('dict unpacking requires a dict value');
              reserveItems(out.length + u.entries.length, ENTRY_BYTES);
              for (const entry of u.entries) out.push(entry);
            } else out.push([e.key!(s, inst), e.value!(s, inst)]);
          }
          return new VmDict(out);
        };
      }
      case 'list_comp': case 'dict_comp': return this.comprehension(o, kind, g);
      case 'attribute': {
        const binding = optStr(o, 'host_binding_id');
        if (binding !== null) return this.hostBinding(binding, g);
        const value = this.expr(field(o, 'value'));
        const attr = str(o, 'attr');
        return (s, inst) => {
          inst.rt.meter.charge(g);
          return nativeAttribute(value(s, inst), attr);
        };
      }
      case 'subscript': {
        const value = this.expr(field(o, 'value'));
        const sliceNode = obj(field(o, 'slice'), 'expression');
        if (sliceNode.node === 'slice') {
          const part = (name: string): Expr | null => (isNull(sliceNode[name]) ? null : this.expr(sliceNode[name]));
          const lower = part('lower');
          const upper = part('upper');
          const step = part('step');
          return (s, inst) => {
            inst.rt.meter.charge(g);
            const container = value(s, inst);
            const l = lower ? asBigInt(lower(s, inst)) : null;
            const u = upper ? asBigInt(upper(s, inst)) : null;
            const st = step ? asBigInt(step(s, inst)) : null;
            return sliceValue(container, l, u, st);
          };
        }
        const index = this.expr(sliceNode);
        return (s, inst) => {
          inst.rt.meter.charge(g);
          const container = value(s, inst);
          return subscript(container, index(s, inst));
        };
      }
      case 'storage_get': {
        const binding = str(o, 'binding');
        const key = this.expr(field(o, 'key'));
        return (s, inst) => {
          inst.rt.meter.charge(g);
          return inst.hashGet(binding, key(s, inst));
        };
      }
      case 'slice':
        return (_s, inst) => {
          inst.rt.meter.charge(g);
          throw new VmError('slice expressions are only supported as subscripts');
        };
      case 'call': return this.call(o, g);
      case 'compare': {
        const left = this.expr(field(o, 'left'));
        const operators = arr(o, 'operators').map((x) => {
          if (typeof x !== 'string') throw new VmError('value must be a string');
          return x;
        });
        const comparators = arr(o, 'comparators').map((c) => this.expr(c));
        if (operators.length !== comparators.length) throw new VmError('compare operator/comparator count mismatch');
        return (s, inst) => {
          inst.rt.meter.charge(g);
          let l = left(s, inst);
          for (let i = 0; i < operators.length; i++) {
            const r = comparators[i]!(s, inst);
            if (!compareOp(operators[i]!, l, r)) return false;
            l = r;
          }
          return true;
        };
      }
      case 'bool_op': {
        const op = str(o, 'operator');
        if (op !== 'and' && op !== 'or') throw new VmError(`unsupported bool operator '${op}'`);
        const values = arr(o, 'values').map((v) => this.expr(v));
        const isAnd = op === 'and';
        return (s, inst) => {
          inst.rt.meter.charge(g);
          let last: VmValue = isAnd;
          for (const v of values) {
            last = v(s, inst);
            if (truthy(last) !== isAnd) return last;
          }
          return last;
        };
      }
      case 'bin_op': {
        const op = str(o, 'operator');
        const left = this.expr(field(o, 'left'));
        const right = this.expr(field(o, 'right'));
        return (s, inst) => {
          inst.rt.meter.charge(g);
          const l = left(s, inst);
          return binaryOp(op, l, right(s, inst));
        };
      }
      case 'unary_op': {
        const op = str(o, 'operator');
        const operand = this.expr(field(o, 'operand'));
        return (s, inst) => {
          inst.rt.meter.charge(g);
          return unaryOp(op, operand(s, inst));
        };
      }
      case 'if_expr': {
        const test = this.expr(field(o, 'test'));
        const body = this.expr(field(o, 'body'));
        const orelse = this.expr(field(o, 'orelse'));
        return (s, inst) => {
          inst.rt.meter.charge(g);
          return truthy(test(s, inst)) ? body(s, inst) : orelse(s, inst);
        };
      }
      case 'f_string': {
        const values = arr(o, 'values').map((v) => this.expr(v));
        return (s, inst) => {
          inst.rt.meter.charge(g);
          const out = new TextBuilder();
          for (const v of values) out.push(pyStr(v(s, inst)));
          return out.done();
        };
      }
      default: {
        const value = this.expr(field(o, 'value'));
        return (s, inst) => {
          inst.rt.meter.charge(g);
          return pyStr(value(s, inst));
        };
      }
    }
  }

  private constant(o: Json): VmValue {
    const cached = CONSTANT_CACHE.get(o);
    if (cached !== undefined) return cached;
    const type = str(o, 'value_type');
    const raw = o.value;
    let value: VmValue;
    switch (type) {
      case 'none': value = null; break;
      case 'bool':
        if (typeof raw !== 'boolean') throw new VmError("field 'value' must be a bool");
        value = raw;
        break;
      case 'int':
        if (typeof raw === 'bigint') value = raw;
        else if (typeof raw === 'number' && Number.isInteger(raw)) value = BigInt(raw);
        else if (typeof raw === 'string' && /^-?[0-9]+$/.test(raw)) value = BigInt(raw);
        else throw new VmError("field 'value' must be an int");
        break;
      case 'float': {
        const literal = optStr(o, 'literal');
        if (literal !== null) value = VmDecimal.parse(literal);
        else if (typeof raw === 'number' || typeof raw === 'bigint') value = toDecimal(Number(raw));
        else throw new VmError("field 'value' must be a float");
        break;
      }
      case 'str':
        if (typeof raw !== 'string') throw new VmError("field 'value' must be a string");
        value = raw;
        break;
      case 'bytes':
        if (typeof raw !== 'string' || raw.length % 2 || !/^[0-9a-fA-F]*$/.test(raw)) {
          throw new VmError(`invalid bytes constant: ${typeof raw === 'string' ? 'Odd number of digits' : 'not a string'}`);
        }
        value = new VmBytes(Uint8Array.from(Buffer.from(raw, 'hex')), false);
        break;
      default:
        throw new VmError(`unsupported constant value_type '${type}'`);
    }
    CONSTANT_CACHE.set(o, value);
    return value;
  }

  private hostBinding(id: string, g: number): Expr {
    const constant = HOST_CONSTANTS[id];
    if (constant !== undefined) {
      return (_s, inst) => {
        inst.rt.meter.charge(g);
        return constant;
      };
    }
    const read = CONTEXT_READERS[id];
    if (!read) {
      return (_s, inst) => {
        inst.rt.meter.charge(g);
        throw new VmError(`unsupported host binding '${id}'`);
      };
    }
    return (_s, inst) => {
      inst.rt.meter.charge(g);
      return read(inst);
    };
  }

  private comprehension(o: Json, kind: string, g: number): Expr {
    const generators = arr(o, 'generators').map((gen) => {
      const go = obj(gen, 'comprehension generator');
      const targetNode = field(go, 'target');
      return {
        names: targetNames(targetNode),
        target: this.target(targetNode),
        iter: this.expr(field(go, 'iter')),
        ifs: arr(go, 'ifs').map((c) => this.expr(c)),
      };
    });
    if (!generators.length) throw new VmError(`missing ${kind === 'list_comp' ? 'list' : 'dict'} comprehension generator`);
    const element = kind === 'list_comp' ? this.expr(field(o, 'element')) : null;
    const key = kind === 'dict_comp' ? this.expr(field(o, 'key')) : null;
    const value = kind === 'dict_comp' ? this.expr(field(o, 'value')) : null;
    return (s, inst) => {
      inst.rt.meter.charge(g);
      const results: VmValue[] = [];
      const entries: (readonly [VmValue, VmValue])[] = [];
      const run = (index: number): void => {
        const gen = generators[index]!;
        const items = iterate(gen.iter(s, inst));
        const previous = gen.names.map((n) => [n, s.get(n)] as const);
        for (const item of items) {
          inst.rt.meter.charge(GAS_LOOP_ITERATION);
          gen.target(s, inst, item, false);
          let allowed = true;
          for (const cond of gen.ifs) {
            if (!truthy(cond(s, inst))) {
              allowed = false;
              break;
            }
          }
          if (!allowed) continue;
          if (index + 1 === generators.length) {
            if (results.length + entries.length >= MAX_CONTAINER_LENGTH) throw new VmError(ALLOCATION_LIMIT_ERROR);
            if (element) results.push(element(s, inst));
            else {
              const k = key!(s, inst);
              dictSet(entries, k, value!(s, inst));
            }
          } else run(index + 1);
        }
        for (const [n, v] of previous) {
          if (v === undefined) s.delete(n);
          else s.set(n, v);
        }
      };
      run(0);
      if (element) reserveItems(results.length, NEW_ELEMENT_BYTES);
      else reserveItems(entries.length, ENTRY_BYTES);
      return element ? results : new VmDict(entries);
    };
  }

  // ---- calls ----------------------------------------------------------------------------------

  private call(o: Json, g: number): Expr {
    const args = arr(o, 'args').map((a) => this.expr(a));
    const keywords = arr(o, 'keywords').map((k) => {
      const ko = obj(k, 'keyword');
      const kind = typeof ko.node === 'string' ? ko.node : 'keyword';
      if (kind === 'keyword') return { arg: str(ko, 'arg'), value: this.expr(field(ko, 'value')) };
      if (kind === 'keyword_unpack') return { arg: null, value: this.expr(field(ko, 'value')) };
      throw new VmError(`unsupported keyword node '${kind}'`);
    });
    const evalArgs = (s: Scope, inst: VmInstance): [VmValue[], [string, VmValue][]] => {
      const a = args.map((e) => e(s, inst));
      const kw: [string, VmValue][] = [];
      for (const k of keywords) {
        const v = k.value(s, inst);
        if (k.arg !== null) kw.push([k.arg, v]);
        else {
          if (!(v instanceof VmDict)) throw new VmError('keyword unpacking requires a dict value');
          for (const [key, x] of v.entries) kw.push([asString(key), x]);
        }
      }
      return [a, kw];
    };
    const funcNode = obj(field(o, 'func'), 'callable');
    const syscall = optStr(o, 'syscall_id');
    if (syscall !== null) {
      const handler = this.syscall(o, syscall);
      return (s, inst) => {
        inst.rt.meter.charge(g);
        const [a, kw] = evalArgs(s, inst);
        return handler(s, inst, a, kw);
      };
    }
    if (funcNode.node === 'attribute' && optStr(funcNode, 'host_binding_id') === null) {
      const receiverNode = field(funcNode, 'value');
      const receiver = this.expr(receiverNode);
      const writeBack = this.target(receiverNode);
      const method = str(funcNode, 'attr');
      return (s, inst) => {
        inst.rt.meter.charge(g);
        const [a, kw] = evalArgs(s, inst);
        const result = callMethod(receiver(s, inst), method, a, kw.length > 0);
        if (result.receiver !== undefined) {
          writeBack(s, inst, result.receiver, writesModuleScope(receiverNode, s, inst));
        }
        return result.value;
      };
    }
    const func = this.expr(funcNode);
    return (s, inst) => {
      inst.rt.meter.charge(g);
      const [a, kw] = evalArgs(s, inst);
      return callCallable(inst, func(s, inst), a, kw);
    };
  }

  private syscall(o: Json, id: string): (s: Scope, inst: VmInstance, args: VmValue[], kwargs: [string, VmValue][]) => VmValue {
    switch (id) {
      case 'numeric.decimal.new':
        return (_s, _i, a, kw) => {
          if (kw.length || a.length !== 1) throw new VmError('decimal() expects one argument');
          return toDecimal(a[0]!);
        };
      case 'time.datetime.new': return (_s, _i, a, kw) => datetimeNew(a, kw);
      case 'time.datetime.strptime': return (_s, _i, a, kw) => datetimeStrptime(a, kw);
      case 'time.timedelta.new': return (_s, _i, a, kw) => timedeltaNew(a, kw);
      case 'hash.sha3_256_text': case 'hash.sha3_256_hex': case 'hash.sha256_text': case 'hash.sha256_hex': {
        const fn = hashSyscalls[id]!;
        return (_s, _i, a, kw) => fn(a, kw);
      }
      case 'crypto.ed25519_verify': return (_s, _i, a, kw) => ed25519Verify(a, kw);
      case 'crypto.key_is_valid': return (_s, _i, a, kw) => keyIsValid(a, kw);
      case 'storage.variable.get': case 'storage.foreign_variable.get': {
        const binding = str(o, 'receiver_binding');
        return (_s, inst) => {
          inst.rt.meter.charge(GAS_VARIABLE_GET);
          return inst.variableGet(binding);
        };
      }
      case 'storage.variable.set': {
        const binding = str(o, 'receiver_binding');
        return (_s, inst, a) => {
          inst.rt.meter.charge(GAS_VARIABLE_SET);
          if (!a.length) throw new VmError('Variable.set expects one argument');
          const v = a[0]!;
          inst.variableSet(binding, v);
          const key = variableStorageKey(inst.name, binding);
          inst.rt.host.recordStorageWrite(key, v);
          inst.rt.meter.chargeWrite(key, v);
          return null;
        };
      }
      case 'storage.hash.all': case 'storage.foreign_hash.all': {
        const binding = str(o, 'receiver_binding');
        return (_s, inst, a) => {
          inst.rt.meter.charge(GAS_HASH_SCAN);
          return inst.hashAll(binding, a);
        };
      }
      case 'contract.import':
        return (_s, _i, a, kw) => new VmContractHandle(importName(a, kw), 'dynamic_import');
      case 'contract.call':
        return (_s, inst, a, kw) => {
          if (kw.length || a.length > 3) throw new VmError('contract.call expects target, function, and optional kwargs dict');
          if (!a.length) throw new VmError('contract.call expects a target');
          const t = a[0]!;
          let module: string;
          if (typeof t === 'string') module = t;
          else if (t instanceof VmContractHandle) module = t.module;
          else throw new VmError(`contract.call target must be a contract name or handle, got ${typeName(t)}`);
          if (a.length < 2) throw new VmError('contract.call expects a function');
          const fn = asString(a[1]!);
          let callKwargs: [string, VmValue][] = [];
          const k = a[2];
          if (k instanceof VmDict) callKwargs = k.entries.map(([key, v]) => [asString(key), v]);
          else if (k !== undefined && k !== null) throw new VmError(`contract.call kwargs must be a dict, got ${typeName(k)}`);
          return inst.rt.host.callContract(contractCall(inst, { kind: 'dynamic_import', module }, fn, [], callKwargs));
        };
      case 'event.log.emit': {
        const binding = str(o, 'event_binding');
        return (_s, inst, a, kw) => emitEvent(inst, binding, a, kw);
      }
      case 'contract.export_call': {
        const fn = str(o, 'function_name');
        const target = this.contractTarget(field(o, 'contract_target'));
        return (s, inst, a, kw) => inst.rt.host.callContract(contractCall(inst, target(s, inst), fn, a, kw));
      }
      case 'event.indexed':
        return (_s, _i, a) => {
          const type = a.length === 1 ? coerceTypeMarker(a[0]!) : new VmTuple(a.map(coerceTypeMarker));
          return new VmDict([['type', type], ['idx', true]]);
        };
      default:
        return (_s, inst, a, kw) => {
          const cost = syscallGas(id, a, kw);
          if (cost !== undefined) inst.rt.meter.charge(cost);
          return inst.rt.host.handleSyscall(id, a, kw);
        };
    }
  }

  private contractTarget(node: unknown): (s: Scope, inst: VmInstance) => VmContractCall['target'] {
    const o = obj(node, 'contract_target');
    const kind = str(o, 'kind') as ContractTargetKind;
    if (kind === 'static_import') {
      const binding = str(o, 'binding');
      return (_s, inst) => {
        const module = inst.imports.get(binding);
        if (module === undefined) throw new VmError(`unknown static import binding '${binding}'`);
        return { kind, binding, module };
      };
    }
    if (kind !== 'dynamic_import' && kind !== 'local_handle' && kind !== 'factory_call') {
      throw new VmError(`unsupported contract target kind '${kind}'`);
    }
    const source = this.expr(field(o, 'source'));
    const binding = kind === 'local_handle' ? str(o, 'binding') : undefined;
    const factory = kind === 'factory_call' ? str(o, 'factory') : undefined;
    return (s, inst) => {
      const module = asContractHandle(source(s, inst)).module;
      return { kind, module, ...(binding !== undefined ? { binding } : {}), ...(factory !== undefined ? { factory } : {}) };
    };
  }
}

function targetNames(node: unknown): string[] {
  const o = obj(node, 'target');
  const kind = str(o, 'node');
  if (kind === 'name') return [str(o, 'id')];
  if (kind === 'tuple_target' || kind === 'list_target') return arr(o, 'elements').flatMap(targetNames);
  throw new VmError(`unsupported comprehension target '${kind}'`);
}

/** A mutating method on a module-level name writes the module global (upstream `target_writes_module_scope`). */
function writesModuleScope(node: unknown, s: Scope, inst: VmInstance): boolean {
  const o = node as Json;
  if (o.node === 'name') {
    const id = o.id as string;
    return !s.has(id) && inst.globals.has(id);
  }
  if (o.node === 'subscript') return writesModuleScope(o.value, s, inst);
  return false;
}

function importName(args: VmValue[], kwargs: [string, VmValue][]): string {
  const byModule = kwargs.find(([k]) => k === 'module');
  if (byModule) return asString(byModule[1]);
  const byName = kwargs.find(([k]) => k === 'name');
  if (byName) return asString(byName[1]);
  if (!args.length) throw new VmError('contract.import expects a module name');
  return asString(args[0]!);
}

function contractCall(inst: VmInstance, target: VmContractCall['target'], fn: string, args: VmValue[], kwargs: [string, VmValue][]): VmContractCall {
  const c = inst.context;
  return {
    target, function: fn, args, kwargs, callerContract: c.this, signer: c.signer, entry: c.entry,
    submissionName: c.submissionName, now: c.now, blockNum: c.blockNum, blockHash: c.blockHash, chainId: c.chainId,
  };
}

export function callCallable(inst: VmInstance, callee: VmValue, args: VmValue[], kwargs: [string, VmValue][]): VmValue {
  if (callee instanceof VmBuiltin) {
    return callBuiltin(callee.name, args, kwargs, (fn, a) => callCallable(inst, fn, a, []));
  }
  if (callee instanceof VmFunctionRef) return inst.callNamed(callee.name, args, kwargs);
  throw new VmError(`value of type ${typeName(callee)} is not callable`);
}

function isIndexed(spec: VmValue): boolean {
  return spec instanceof VmDict && dictGet(spec, 'idx') === true;
}

function emitEvent(inst: VmInstance, binding: string, args: VmValue[], kwargs: [string, VmValue][]): VmValue {
  inst.rt.meter.charge(GAS_EVENT_EMIT);
  const event = inst.globals.get(binding);
  if (event === undefined) throw new VmError(`unknown event binding '${binding}'`);
  if (!(event instanceof VmEventRef)) throw new VmError(`binding '${binding}' is not an event reference but ${typeName(event)}`);
  const payload: VmValue = args.length ? args[0]! : kwargs.length ? new VmDict(kwargs.map(([k, v]) => [k, v] as const)) : null;
  if (!(event.params instanceof VmDict)) throw new VmError(`event schema must be a dict, got ${typeName(event.params)}`);
  if (!(payload instanceof VmDict)) throw new VmError(`event payload must be a dict, got ${typeName(payload)}`);
  const dataIndexed: [string, VmValue][] = [];
  const data: [string, VmValue][] = [];
  for (const [schemaKey, spec] of event.params.entries) {
    if (typeof schemaKey !== 'string') throw new VmError(`event schema keys must be strings, got ${typeName(schemaKey)}`);
    const value = dictGet(payload, schemaKey);
    if (value === undefined) throw new VmError(`event payload is missing key '${schemaKey}'`);
    (isIndexed(spec) ? dataIndexed : data).push([schemaKey, value]);
  }
  if (payload.entries.length !== dataIndexed.length + data.length) throw new VmError('event payload has unexpected keys');
  for (const [k, v] of dataIndexed) inst.rt.meter.chargeWrite(k, v);
  for (const [k, v] of data) inst.rt.meter.chargeWrite(k, v);
  const c = inst.context;
  inst.rt.host.emitEvent({
    contract: c.this ?? inst.name, event: event.eventName, signer: c.signer, caller: c.caller, dataIndexed, data,
  });
  return null;
}

export function nativeAttribute(v: VmValue, attr: string): VmValue {
  if (v instanceof VmTimeDelta) {
    const div: Record<string, bigint> = { seconds: 1n, minutes: 60n, hours: 3600n, days: 86400n, weeks: 604800n };
    const d = div[attr];
    if (d === undefined) throw new VmError(`timedelta has no attribute '${attr}'`);
    return v.seconds / d;
  }
  if (v !== null && typeof v === 'object' && 'parts' in v && typeof (v as { parts: unknown }).parts === 'function') {
    const names = ['year', 'month', 'day', 'hour', 'minute', 'second', 'microsecond'];
    const i = names.indexOf(attr);
    if (i < 0) throw new VmError(`datetime has no attribute '${attr}'`);
    return BigInt((v as { parts(): number[] }).parts()[i]!);
  }
  throw new VmError(`value of type ${typeName(v)} has no native attribute '${attr}'`);
}

const HOST_CONSTANTS: Record<string, VmValue> = {
  'numeric.decimal.new': new VmTypeMarker('decimal'),
  'typing.any': new VmTypeMarker('Any'),
  'storage.variable.new': new VmTypeMarker('Variable'),
  'storage.hash.new': new VmTypeMarker('Hash'),
  'storage.foreign_variable.new': new VmTypeMarker('ForeignVariable'),
  'storage.foreign_hash.new': new VmTypeMarker('ForeignHash'),
  'event.log.new': new VmTypeMarker('LogEvent'),
  'module.importlib': new VmBuiltin('importlib'),
  'module.hashlib': new VmBuiltin('hashlib'),
  'module.crypto': new VmBuiltin('crypto'),
  'module.datetime': new VmBuiltin('datetime'),
  'module.random': new VmBuiltin('random'),
  'module.zk': new VmBuiltin('zk'),
  'time.datetime.new': new VmTypeMarker('datetime.datetime'),
  'time.datetime.strptime': new VmTypeMarker('datetime.datetime'),
  'time.timedelta.new': new VmTypeMarker('datetime.timedelta'),
  'time.seconds': VmTimeDelta.fromSeconds(1n),
  'time.minutes': VmTimeDelta.fromSeconds(60n),
  'time.hours': VmTimeDelta.fromSeconds(3600n),
  'time.days': VmTimeDelta.fromSeconds(86400n),
  'time.weeks': VmTimeDelta.fromSeconds(604800n),
};

const CONTEXT_READERS: Record<string, (inst: VmInstance) => VmValue> = {
  'context.caller': (i) => i.context.caller,
  'context.signer': (i) => i.context.signer,
  'context.this': (i) => i.context.this,
  'context.owner': (i) => i.context.owner,
  'context.entry': (i) => optionEntry(i.context.entry),
  'context.submission_name': (i) => i.context.submissionName,
  'env.now': (i) => i.context.now,
  'env.block_num': (i) => i.context.blockNum,
  'env.block_hash': (i) => i.context.blockHash,
  'env.chain_id': (i) => i.context.chainId,
};

// ---- module ----------------------------------------------------------------------------------

function exportTypecheck(decorator: unknown): boolean {
  if (isNull(decorator)) return false;
  const d = decorator as Json;
  if (d.name !== 'export' || !Array.isArray(d.keywords)) return false;
  return d.keywords.some((k: Json) => {
    const v = k?.value as Json | undefined;
    return k?.arg === 'typecheck' && v?.node === 'constant' && v.value_type === 'bool' && v.value === true;
  });
}

function compileFunction(c: Compiler, node: unknown): CompiledFunction {
  const o = obj(node, 'function');
  if (o.node !== 'function') throw new VmError("function node must be 'function'");
  const name = str(o, 'name');
  const paramsRaw = arr(o, 'parameters');
  const body = arr(o, 'body');
  let complexity = irNodeComplexity(body);
  const params: CompiledParam[] = paramsRaw.map((p) => {
    const po = obj(p, 'parameter');
    const kind = str(po, 'kind');
    if (!['positional_or_keyword', 'keyword_only', 'vararg', 'kwarg'].includes(kind)) throw new VmError(`unsupported parameter kind '${kind}'`);
    if (!isNull(po.default)) complexity += irNodeComplexity(po.default);
    return {
      name: str(po, 'name'),
      kind: kind as CompiledParam['kind'],
      annotation: optStr(po, 'annotation'),
      default: isNull(po.default) ? null : c.expr(po.default),
    };
  });
  return {
    name,
    visibility: str(o, 'visibility'),
    typecheck: exportTypecheck(o.decorator),
    params,
    returns: optStr(o, 'returns'),
    body: c.block(body),
    entryGas: functionEntryGas(complexity),
  };
}

function keywordValue(c: Compiler, keywords: unknown[], name: string): Expr | null {
  const k = keywords.find((x) => (x as Json)?.arg === name) as Json | undefined;
  return k ? declarationExpr(c, field(k, 'value')) : null;
}

/** True for an expression whose value and gas never change: literals, builtins, host constants, `indexed(...)`. */
function isStatic(node: unknown, moduleNames: Set<string>): boolean {
  if (!node || typeof node !== 'object') return false;
  const o = node as Json;
  switch (o.node) {
    case 'constant': return true;
    case 'list': case 'tuple': return Array.isArray(o.elements) && o.elements.every((e) => isStatic(e, moduleNames));
    case 'dict':
      return Array.isArray(o.entries) && o.entries.every((e: Json) => e && isNull(e.unpack) && isStatic(e.key, moduleNames) && isStatic(e.value, moduleNames));
    case 'name': case 'attribute': {
      const id = optStr(o, 'host_binding_id');
      if (id !== null) return id in HOST_CONSTANTS;
      return o.node === 'name' && typeof o.id === 'string' && !moduleNames.has(o.id) && builtinNameValue(o.id) !== undefined;
    }
    case 'call':
      return o.syscall_id === 'event.indexed' && Array.isArray(o.keywords) && !o.keywords.length &&
        Array.isArray(o.args) && o.args.every((a) => isStatic(a, moduleNames));
  }
  return false;
}

/**
 * Module declarations run in every transaction that touches the module (and are charged each
 * time). A static one is evaluated once; later instantiations replay its exact charges and
 * share its (immutable) value.
 */
function declarationExpr(c: Compiler, node: unknown): Expr {
  const expr = c.expr(node);
  if (!isStatic(node, c.moduleNames)) return expr;
  let cached: { value: VmValue; charges: number[] } | undefined;
  return (scope, inst) => {
    const meter = inst.rt.meter;
    if (cached) {
      for (const charge of cached.charges) meter.charge(charge);
      return cached.value;
    }
    const recorder = new ChargeRecorder();
    inst.rt.meter = recorder as unknown as Meter;
    let value: VmValue;
    try {
      value = expr(scope, inst);
    } finally {
      inst.rt.meter = meter;
    }
    cached = { value, charges: recorder.charges };
    for (const charge of cached.charges) meter.charge(charge);
    return value;
  };
}

/** Stands in for the meter while a static declaration is evaluated the first time. */
class ChargeRecorder {
  readonly enabled = true;
  readonly charges: number[] = [];
  charge(cost: number): void {
    if (cost) this.charges.push(cost);
  }
}

function compileDeclaration(c: Compiler, node: unknown): (inst: VmInstance) => void {
  const o = obj(node, 'global declaration');
  const kind = str(o, 'node');
  const binding = str(o, 'name');
  const globalsScope = (inst: VmInstance): Scope => new Map(inst.globals);
  if (kind === 'storage_decl') {
    const storageType = str(o, 'storage_type');
    const args = arr(o, 'args');
    const keywords = arr(o, 'keywords');
    if (!['Variable', 'ForeignVariable', 'Hash', 'ForeignHash'].includes(storageType)) {
      throw new VmError(`unsupported storage declaration type '${storageType}'`);
    }
    const isVariable = storageType === 'Variable' || storageType === 'ForeignVariable';
    const foreign = storageType.startsWith('Foreign');
    const defaultExpr = storageType === 'ForeignVariable' ? null : keywordValue(c, keywords, 'default_value');
    const contractKw = foreign ? keywordValue(c, keywords, 'foreign_contract') : null;
    const nameKw = foreign ? keywordValue(c, keywords, 'foreign_name') : null;
    const contractPos = foreign && args.length > 2 ? c.expr(args[2]) : null;
    const namePos = foreign && args.length > 3 ? c.expr(args[3]) : null;
    return (inst) => {
      const defaultValue = defaultExpr ? defaultExpr(globalsScope(inst), inst) : null;
      let foreignKey: string | null = null;
      if (foreign) {
        const resolve = (kw: Expr | null, pos: Expr | null, what: string): string => {
          let v: VmValue | undefined = kw ? kw(globalsScope(inst), inst) : undefined;
          if (v === undefined && pos) {
            try {
              v = pos(globalsScope(inst), inst);
            } catch {
              v = undefined;
            }
          }
          if (v === undefined) throw new VmError(`${storageType} '${binding}' requires ${what}`);
          return asString(v);
        };
        const contract = resolve(contractKw, contractPos, 'foreign_contract');
        const name = resolve(nameKw, namePos, 'foreign_name');
        foreignKey = `${contract}:${name}`;
      }
      if (isVariable) {
        inst.variables.set(binding, { defaultValue, value: undefined, foreignKey, snapshotLocal: !foreign, dirty: false });
      } else {
        inst.hashes.set(binding, { defaultValue, entries: new Map(), foreignKey, snapshotLocal: !foreign, dirty: new Set() });
      }
      inst.globals.set(binding, new VmStorageRef(binding, storageType));
    };
  }
  if (kind === 'event_decl') {
    const eventName = str(o, 'event_name');
    const params = declarationExpr(c, field(o, 'params'));
    return (inst) => {
      inst.globals.set(binding, new VmEventRef(binding, eventName, params(globalsScope(inst), inst)));
    };
  }
  if (kind === 'binding_decl') {
    const value = declarationExpr(c, field(o, 'value'));
    return (inst) => {
      inst.globals.set(binding, value(globalsScope(inst), inst));
    };
  }
  throw new VmError(`unsupported global declaration node '${kind}'`);
}

/** Validates a module's IR (object or JSON already parsed) and compiles it. */
export function compileModule(ir: unknown): CompiledModule {
  const m = obj(ir, 'module IR');
  if (m.ir_version !== XIAN_IR_V1) throw new VmError(`unsupported ir_version '${String(m.ir_version)}'`);
  if (m.vm_profile !== XIAN_VM_V1) throw new VmError(`unsupported vm_profile '${String(m.vm_profile)}'`);
  if (m.host_catalog_version !== HOST_CATALOG) throw new VmError(`unsupported host_catalog_version '${String(m.host_catalog_version)}'`);
  const name = str(m, 'module_name');
  if (!name) throw new VmError('module_name must not be empty');
  const functionsRaw = arr(m, 'functions');
  const functionNames = new Set<string>();
  for (const f of functionsRaw) {
    const n = str(obj(f, 'function'), 'name');
    if (functionNames.has(n)) throw new VmError(`duplicate function '${n}'`);
    functionNames.add(n);
  }
  const c = new Compiler(name, functionNames);
  for (const n of functionNames) c.moduleNames.add(n);
  for (const i of arr(m, 'imports')) {
    const io = obj(i, 'import');
    c.moduleNames.add(optStr(io, 'alias') ?? str(io, 'module'));
  }
  for (const d of arr(m, 'global_declarations')) c.moduleNames.add(str(obj(d, 'global declaration'), 'name'));
  const imports: [string, string][] = [];
  const seenImports = new Set<string>();
  for (const i of arr(m, 'imports')) {
    const io = obj(i, 'import');
    if (io.node !== 'import') throw new VmError("import node must be 'import'");
    const module = str(io, 'module');
    const binding = optStr(io, 'alias') ?? module;
    if (seenImports.has(binding)) throw new VmError(`duplicate import binding '${binding}'`);
    seenImports.add(binding);
    imports.push([binding, module]);
  }
  const seenGlobals = new Set<string>();
  const declarations = arr(m, 'global_declarations').map((d) => {
    const n = str(obj(d, 'global declaration'), 'name');
    if (seenGlobals.has(n)) throw new VmError(`duplicate global declaration '${n}'`);
    seenGlobals.add(n);
    return compileDeclaration(c, d);
  });
  const functions = new Map<string, CompiledFunction>();
  for (const f of functionsRaw) {
    const compiled = compileFunction(c, f);
    functions.set(compiled.name, compiled);
  }
  const bodyRaw = arr(m, 'module_body');
  return { name, imports, declarations, body: bodyRaw.length ? c.block(bodyRaw) : null, functions };
}

