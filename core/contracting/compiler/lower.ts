import { ContractHandles } from './contract-handles.js';
import { formatFloat as formatFloatLiteral } from './format-float.js';
import { HOST_CATALOG_VERSION, HOST_MODULES, hostBindingById, hostBindingByPath, type HostBinding } from './host-bindings.js';
import { IrFloat, type IrObject, type IrValue } from './ir-json.js';
import { formatExpression } from './normalize.js';
import type {
  BinaryOperator, Comprehension, Constant, DictEntry, Expression, Keyword, Parameter, SourceRange, Statement,
} from './syntax-tree.js';
import { dottedPath, nameId, splitDocstring, type CallExpression, type FunctionDef } from './syntax-queries.js';

export const IR_VERSION = 'xian_ir_v1';
export const VM_PROFILE = 'xian_vm_v1';

/** A construct the IR cannot express (`xian.ir.lowering_error`). */
export class LoweringError extends Error {
  constructor(message: string, readonly span: SourceRange | null) {
    super(message);
  }
}

const STORAGE_CONSTRUCTORS: Record<string, string> = {
  Variable: 'storage.variable.new',
  Hash: 'storage.hash.new',
  ForeignVariable: 'storage.foreign_variable.new',
  ForeignHash: 'storage.foreign_hash.new',
};
const STORAGE_METHODS: Record<string, string> = {
  'Variable.get': 'storage.variable.get',
  'Variable.set': 'storage.variable.set',
  'ForeignVariable.get': 'storage.foreign_variable.get',
  'Hash.all': 'storage.hash.all',
  'ForeignHash.all': 'storage.foreign_hash.all',
};
const STORAGE_READS: Record<string, string> = { Hash: 'storage.hash.get', ForeignHash: 'storage.foreign_hash.get' };
const STORAGE_WRITES: Record<string, string> = { Hash: 'storage.hash.set' };
const EVENT_CONSTRUCTOR = 'LogEvent';
const CONTRACT_EXPORT_SYSCALL = 'contract.export_call';

const TARGET_KIND_NAMES: Record<string, string> = { IfExp: 'IfExp', JoinedStr: 'JoinedStr' };

export function spanValue(span: SourceRange): IrObject {
  return { line: span.startLine, col: span.startColumn, end_line: span.endLine, end_col: span.endColumn };
}

interface StorageSubscript {
  binding: string;
  storageType: string;
  read: string | null;
  write: string | null;
}

/** Lowers the syntax tree of the normalized source to the `xian_ir_v1` module object (upstream C/ir.rs). */
export function lowerModule(moduleName: string, sourceHash: string, body: Statement[]): IrObject {
  return new Lowerer().lower(moduleName, sourceHash, body);
}

class Lowerer {
  private readonly hostDependencies = new Map<string, HostBinding>();
  private readonly eventBindings = new Set<string>();
  private readonly storageBindings = new Map<string, string>();
  private readonly staticImports = new Set<string>();
  private readonly hostModuleAliases = new Map<string, string>();
  private readonly handles = new ContractHandles(this.staticImports, (call) => this.isImportCall(call));
  private localHandles = new Map<string, Expression>();

  lower(moduleName: string, sourceHash: string, moduleBody: Statement[]): IrObject {
    const [docstring, body] = splitDocstring(moduleBody);
    this.inspectModuleBindings(body);
    const functions = body.filter((s): s is FunctionDef => s.kind === 'FunctionDef');
    this.handles.analyze(functions);

    const imports: IrValue[] = [];
    const globalDeclarations: IrValue[] = [];
    const loweredFunctions: IrValue[] = [];
    const moduleStatements: IrValue[] = [];
    for (const s of body) {
      if (s.kind === 'Import') {
        for (const alias of s.names) imports.push({ node: 'import', span: spanValue(s.span), module: alias.name, alias: alias.alias });
      } else if (s.kind === 'Assign') globalDeclarations.push(this.globalDeclaration(s));
      else if (s.kind === 'FunctionDef') loweredFunctions.push(this.function(s));
      else moduleStatements.push(this.statement(s));
    }
    const dependencies = [...this.hostDependencies.keys()].sort().map((id) => bindingValue(this.hostDependencies.get(id)!));
    return {
      ir_version: IR_VERSION,
      vm_profile: VM_PROFILE,
      host_catalog_version: HOST_CATALOG_VERSION,
      module_name: moduleName,
      source_hash: sourceHash,
      docstring,
      imports,
      global_declarations: globalDeclarations,
      functions: loweredFunctions,
      module_body: moduleStatements,
      host_dependencies: dependencies,
    };
  }

  private inspectModuleBindings(body: Statement[]): void {
    const pending: [string, Expression][] = [];
    for (const s of body) {
      if (s.kind === 'Assign' && s.targets.length === 1 && s.targets[0]!.kind === 'Name') pending.push([s.targets[0]!.id, s.value]);
    }
    let changed = true;
    while (changed) {
      changed = false;
      for (const [target, value] of pending) {
        if (this.hostModuleAliases.has(target) || value.kind !== 'Name') continue;
        const canonical = this.hostModuleAliases.get(value.id) ?? value.id;
        if (HOST_MODULES.has(canonical)) {
          this.hostModuleAliases.set(target, canonical);
          changed = true;
        }
      }
    }
    for (const s of body) {
      if (s.kind === 'Import') {
        for (const alias of s.names) this.staticImports.add(alias.alias ?? alias.name);
      } else if (s.kind === 'Assign' && s.targets.length === 1 && s.targets[0]!.kind === 'Name' && s.value.kind === 'Call') {
        const path = dottedPath(s.value.func);
        if (path === null) continue;
        if (STORAGE_CONSTRUCTORS[path]) this.storageBindings.set(s.targets[0]!.id, path);
        else if (path === EVENT_CONSTRUCTOR) this.eventBindings.add(s.targets[0]!.id);
      }
    }
  }

  private canonicalPath(e: Expression): string | null {
    const path = dottedPath(e);
    if (path === null) return null;
    const dot = path.indexOf('.');
    const root = dot < 0 ? path : path.slice(0, dot);
    const canonicalRoot = this.hostModuleAliases.get(root) ?? root;
    return dot < 0 ? canonicalRoot : canonicalRoot + path.slice(dot);
  }

  private isImportCall(call: CallExpression): boolean {
    return this.canonicalPath(call.func) === 'importlib.import_module';
  }

  private recordHostDependency(e: Expression): HostBinding | undefined {
    const path = this.canonicalPath(e);
    if (path === null) return undefined;
    const binding = hostBindingByPath(path);
    if (binding) this.hostDependencies.set(binding.id, binding);
    return binding;
  }

  private recordHostDependencyId(id: string): void {
    const binding = hostBindingById(id);
    if (binding) this.hostDependencies.set(binding.id, binding);
  }

  private globalDeclaration(s: Extract<Statement, { kind: 'Assign' }>): IrValue {
    if (s.targets.length !== 1) throw new LoweringError('multi-target module assignments are not supported in Xian IR', s.span);
    const target = nameId(s.targets[0]!);
    if (target === null) throw new LoweringError('module-level declarations must assign into a named binding', s.targets[0]!.span);
    const value = s.value;
    if (value.kind === 'Call') {
      const callee = dottedPath(value.func);
      if (callee !== null && STORAGE_CONSTRUCTORS[callee]) {
        this.recordHostDependency(value.func);
        return {
          node: 'storage_decl', span: spanValue(s.span), name: target, storage_type: callee,
          syscall_id: STORAGE_CONSTRUCTORS[callee]!, args: this.expressions(value.args), keywords: this.keywords(value.keywords),
        };
      }
      if (callee === EVENT_CONSTRUCTOR) {
        this.recordHostDependency(value.func);
        this.eventBindings.add(target);
        const [eventName, params] = logEventParts(value);
        return {
          node: 'event_decl', span: spanValue(s.span), name: target, syscall_id: 'event.log.new',
          event_name: eventName, params: this.expression(params),
        };
      }
    }
    return { node: 'binding_decl', span: spanValue(s.span), name: target, value: this.expression(value) };
  }

  private function(fn: FunctionDef): IrValue {
    const [docstring, body] = splitDocstring(fn.body);
    const decorator = this.decorator(fn);
    const locals = this.handles.localBindings(
      body,
      this.handles.factories,
      this.handles.parameterBindings(fn, this.handles.parameters.get(fn.name)),
    );
    const previous = this.localHandles;
    this.localHandles = locals;
    let loweredBody: IrValue[];
    try {
      loweredBody = body.map((s) => this.statement(s));
    } finally {
      this.localHandles = previous;
    }
    return {
      node: 'function', span: spanValue(fn.span), name: fn.name, visibility: decorator.visibility,
      decorator: decorator.value, docstring, parameters: fn.parameters.map((p) => this.parameter(p)),
      returns: this.annotation(fn.returns), body: loweredBody,
    };
  }

  private decorator(fn: FunctionDef): { visibility: string; value: IrValue } {
    const decorator = fn.decorators[0];
    if (!decorator) return { visibility: 'private', value: null };
    if (decorator.kind === 'Name') {
      return {
        visibility: decorator.id,
        value: { node: 'decorator', span: spanValue(decorator.span), name: decorator.id, args: [], keywords: [] },
      };
    }
    if (decorator.kind === 'Call' && decorator.func.kind === 'Name') {
      return {
        visibility: decorator.func.id,
        value: {
          node: 'decorator', span: spanValue(decorator.span), name: decorator.func.id,
          args: this.expressions(decorator.args), keywords: this.keywords(decorator.keywords),
        },
      };
    }
    throw new LoweringError('complex decorators are not supported in Xian IR', decorator.span);
  }

  private parameter(p: Parameter): IrValue {
    if (p.kind === 'positional_only') throw new LoweringError('positional-only arguments are not supported in Xian IR', p.span);
    const annotation = this.annotation(p.annotation);
    return { name: p.name, kind: p.kind, annotation, default: p.default ? this.expression(p.default) : null, span: spanValue(p.span) };
  }

  private annotation(e: Expression | null): IrValue {
    if (!e) return null;
    this.recordHostDependency(e);
    return formatExpression(e);
  }

  private keywords(keywords: Keyword[]): IrValue[] {
    return keywords.map((k): IrValue =>
      k.arg !== null
        ? { node: 'keyword', span: spanValue(k.span), arg: k.arg, value: this.expression(k.value) }
        : { node: 'keyword_unpack', span: spanValue(k.span), value: this.expression(k.value) });
  }

  private storageSubscript(e: Expression): StorageSubscript | null {
    if (e.kind !== 'Name') return null;
    const storageType = this.storageBindings.get(e.id);
    if (!storageType) return null;
    const read = STORAGE_READS[storageType] ?? null;
    const write = STORAGE_WRITES[storageType] ?? null;
    if (!read && !write) return null;
    return { binding: e.id, storageType, read, write };
  }

  private statement(s: Statement): IrValue {
    const span = spanValue(s.span);
    switch (s.kind) {
      case 'Assign': {
        const target = s.targets[0]!;
        if (s.targets.length === 1 && target.kind === 'Subscript') {
          const storage = this.storageSubscript(target.value);
          if (storage?.write) {
            this.recordHostDependencyId(storage.write);
            if (storage.read) this.recordHostDependencyId(storage.read);
            const key = this.expression(target.slice);
            return {
              node: 'storage_set', span, binding: storage.binding, storage_type: storage.storageType,
              syscall_id: storage.write, key, value: this.expression(s.value),
            };
          }
        }
        const targets = s.targets.map((t) => this.target(t));
        return { node: 'assign', span, targets, value: this.expression(s.value) };
      }
      case 'AugAssign': {
        const operator = s.operator as BinaryOperator;
        if (s.target.kind === 'Subscript') {
          const storage = this.storageSubscript(s.target.value);
          if (storage?.write) {
            this.recordHostDependencyId(storage.write);
            if (storage.read) this.recordHostDependencyId(storage.read);
            const key = this.expression(s.target.slice);
            return {
              node: 'storage_mutate', span, binding: storage.binding, storage_type: storage.storageType,
              read_syscall_id: storage.read, write_syscall_id: storage.write, key, operator, value: this.expression(s.value),
            };
          }
        }
        const target = this.target(s.target);
        return { node: 'aug_assign', span, operator, target, value: this.expression(s.value) };
      }
      case 'Return':
        return { node: 'return', span, value: s.value ? this.expression(s.value) : null };
      case 'Expr':
        return { node: 'expr', span, value: this.expression(s.value) };
      case 'If':
      case 'While': {
        const test = this.expression(s.test);
        const body = this.statements(s.body);
        return { node: s.kind === 'If' ? 'if' : 'while', span, test, body, orelse: this.statements(s.orelse) };
      }
      case 'For': {
        const target = this.target(s.target);
        const iter = this.expression(s.iter);
        const body = this.statements(s.body);
        return { node: 'for', span, target, iter, body, orelse: this.statements(s.orelse) };
      }
      case 'Assert': {
        const test = this.expression(s.test);
        return { node: 'assert', span, test, message: s.message ? this.expression(s.message) : null };
      }
      case 'Raise': {
        const exception = s.exception ? this.expression(s.exception) : null;
        return { node: 'raise', span, exception, cause: s.cause ? this.expression(s.cause) : null };
      }
      case 'Break': return { node: 'break', span };
      case 'Continue': return { node: 'continue', span };
      case 'Pass': return { node: 'pass', span };
      default:
        throw new LoweringError('unsupported statement position in Xian IR', s.span);
    }
  }

  private statements(list: Statement[]): IrValue[] {
    return list.map((s) => this.statement(s));
  }

  private target(e: Expression): IrValue {
    const span = spanValue(e.span);
    switch (e.kind) {
      case 'Tuple': return { node: 'tuple_target', span, elements: e.elements.map((x) => this.target(x)) };
      case 'List': return { node: 'list_target', span, elements: e.elements.map((x) => this.target(x)) };
      case 'Name': {
        const host = this.recordHostDependency(e);
        return { node: 'name', span, id: e.id, host_binding_id: host?.id ?? null };
      }
      case 'Attribute': {
        const host = this.recordHostDependency(e);
        return { node: 'attribute', span, value: this.expression(e.value), attr: e.attr, path: dottedPath(e), host_binding_id: host?.id ?? null };
      }
      case 'Subscript': {
        const value = this.expression(e.value);
        return { node: 'subscript', span, value, slice: this.expression(e.slice) };
      }
      default:
        throw new LoweringError(`unsupported assignment target '${TARGET_KIND_NAMES[e.kind] ?? e.kind}' in Xian IR`, e.span);
    }
  }

  private expressions(list: Expression[]): IrValue[] {
    return list.map((e) => this.expression(e));
  }

  private expression(e: Expression): IrValue {
    const span = spanValue(e.span);
    switch (e.kind) {
      case 'Name': {
        const host = this.recordHostDependency(e);
        return { node: 'name', span, id: e.id, host_binding_id: host?.id ?? null };
      }
      case 'Constant': return constantValue(span, e.value);
      case 'List': return { node: 'list', span, elements: this.expressions(e.elements) };
      case 'ListComp': {
        const element = this.expression(e.element);
        return { node: 'list_comp', span, element, generators: this.generators(e.generators) };
      }
      case 'DictComp': {
        const key = this.expression(e.key);
        const value = this.expression(e.value);
        return { node: 'dict_comp', span, key, value, generators: this.generators(e.generators) };
      }
      case 'Tuple': return { node: 'tuple', span, elements: this.expressions(e.elements) };
      case 'Dict': return { node: 'dict', span, entries: this.dictEntries(e.entries) };
      case 'Attribute': {
        const host = this.recordHostDependency(e);
        return { node: 'attribute', span, value: this.expression(e.value), attr: e.attr, path: dottedPath(e), host_binding_id: host?.id ?? null };
      }
      case 'Subscript': {
        const storage = this.storageSubscript(e.value);
        if (storage?.read) {
          this.recordHostDependencyId(storage.read);
          return { node: 'storage_get', span, binding: storage.binding, storage_type: storage.storageType, syscall_id: storage.read, key: this.expression(e.slice) };
        }
        const value = this.expression(e.value);
        return { node: 'subscript', span, value, slice: this.expression(e.slice) };
      }
      case 'Slice': {
        const lower = e.lower ? this.expression(e.lower) : null;
        const upper = e.upper ? this.expression(e.upper) : null;
        return { node: 'slice', span, lower, upper, step: e.step ? this.expression(e.step) : null };
      }
      case 'Call': return this.call(e);
      case 'Compare': {
        const left = this.expression(e.left);
        return { node: 'compare', span, left, operators: [...e.operators], comparators: this.expressions(e.comparators) };
      }
      case 'BoolOp': return { node: 'bool_op', span, operator: e.operator, values: this.expressions(e.values) };
      case 'BinOp': {
        const left = this.expression(e.left);
        return { node: 'bin_op', span, operator: e.operator as BinaryOperator, left, right: this.expression(e.right) };
      }
      case 'UnaryOp': return { node: 'unary_op', span, operator: e.operator, operand: this.expression(e.operand) };
      case 'IfExp': {
        const test = this.expression(e.test);
        const body = this.expression(e.body);
        return { node: 'if_expr', span, test, body, orelse: this.expression(e.orelse) };
      }
      case 'JoinedStr': return { node: 'f_string', span, values: this.expressions(e.values) };
      case 'FormattedValue': {
        const value = this.expression(e.value);
        return { node: 'formatted_value', span, value, conversion: e.conversion, format_spec: e.formatSpec ? this.expression(e.formatSpec) : null };
      }
      case 'Unsupported':
        throw new LoweringError(e.message, e.span);
    }
  }

  private call(e: CallExpression): IrValue {
    const span = spanValue(e.span);
    const func = e.func;
    if (func.kind === 'Attribute') {
      const receiver = func.value;
      const storageType = receiver.kind === 'Name' ? this.storageBindings.get(receiver.id) : undefined;
      const syscall = storageType ? STORAGE_METHODS[`${storageType}.${func.attr}`] : undefined;
      if (storageType && syscall) {
        this.recordHostDependencyId(syscall);
        return {
          node: 'call', span, func: this.expression(func), args: this.expressions(e.args), keywords: this.keywords(e.keywords),
          syscall_id: syscall, receiver_binding: (receiver as { id: string }).id, receiver_type: storageType, method: func.attr,
        };
      }
      const contractTarget = this.contractTarget(receiver);
      if (contractTarget) {
        this.recordHostDependencyId(CONTRACT_EXPORT_SYSCALL);
        return {
          node: 'call', span, func: this.expression(func), args: this.expressions(e.args), keywords: this.keywords(e.keywords),
          syscall_id: CONTRACT_EXPORT_SYSCALL, contract_target: contractTarget, function_name: func.attr,
        };
      }
    }
    const host = this.recordHostDependency(func);
    let eventEmit: HostBinding | undefined;
    if (!host && func.kind === 'Name' && this.eventBindings.has(func.id)) {
      eventEmit = hostBindingByPath('LogEvent.__call__');
      if (eventEmit) this.hostDependencies.set(eventEmit.id, eventEmit);
    }
    const syscallId = host && host.kind === 'syscall' ? host.id : eventEmit?.id ?? null;
    return {
      node: 'call', span, func: this.expression(func), args: this.expressions(e.args), keywords: this.keywords(e.keywords),
      syscall_id: syscallId, event_binding: eventEmit && func.kind === 'Name' ? func.id : null,
    };
  }

  private contractTarget(e: Expression): IrValue | null {
    const span = spanValue(e.span);
    if (e.kind === 'Name') {
      if (this.staticImports.has(e.id)) return { kind: 'static_import', binding: e.id, span };
      const source = this.localHandles.get(e.id);
      if (source) return { kind: 'local_handle', binding: e.id, source: this.expression(source), span };
      return null;
    }
    if (e.kind === 'Call') {
      if (this.isImportCall(e)) return { kind: 'dynamic_import', source: this.expression(e), span };
      if (e.func.kind === 'Name' && this.handles.factories.has(e.func.id)) {
        return { kind: 'factory_call', factory: e.func.id, source: this.expression(e), span };
      }
    }
    return null;
  }

  private dictEntries(entries: DictEntry[]): IrValue[] {
    return entries.map((entry): IrValue => {
      if (!entry.key) return { unpack: this.expression(entry.value) };
      const key = this.expression(entry.key);
      return { key, value: this.expression(entry.value) };
    });
  }

  private generators(generators: Comprehension[]): IrValue[] {
    return generators.map((g) => {
      if (g.isAsync) throw new LoweringError('async comprehensions are not supported in Xian IR', g.span);
      const target = this.target(g.target);
      const iter = this.expression(g.iter);
      return { target, iter, ifs: this.expressions(g.ifs) };
    });
  }
}

function logEventParts(call: CallExpression): [string, Expression] {
  let eventNode: Expression | undefined;
  let paramsNode: Expression | undefined;
  if (call.args.length >= 2) {
    eventNode = call.args[0];
    paramsNode = call.args[1];
  } else {
    eventNode = call.keywords.find((k) => k.arg === 'event')?.value;
    paramsNode = call.keywords.find((k) => k.arg === 'params')?.value;
  }
  if (!(eventNode?.kind === 'Constant' && eventNode.value.type === 'str')) {
    throw new LoweringError('LogEvent declarations must use a constant string event name', call.span);
  }
  if (!paramsNode) throw new LoweringError('LogEvent declarations must include a params schema', call.span);
  return [eventNode.value.value, paramsNode];
}

const I64_MAX = (1n << 63n) - 1n;

function constantValue(span: IrObject, c: Constant): IrValue {
  switch (c.type) {
    case 'none': return { node: 'constant', span, value_type: 'none', value: null };
    case 'bool': return { node: 'constant', span, value_type: 'bool', value: c.value };
    case 'int': {
      const value = BigInt(c.value);
      return { node: 'constant', span, value_type: 'int', value: value <= I64_MAX ? value : c.value };
    }
    case 'float': return { node: 'constant', span, value_type: 'float', value: new IrFloat(c.value), literal: formatFloatLiteral(c.value) };
    case 'str': return { node: 'constant', span, value_type: 'str', value: c.value };
    case 'bytes': return { node: 'constant', span, value_type: 'bytes', value: c.value };
  }
}

function bindingValue(binding: HostBinding): IrObject {
  return { binding: binding.binding, id: binding.id, kind: binding.kind, category: binding.category };
}

