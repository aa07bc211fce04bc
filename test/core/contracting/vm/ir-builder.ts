/**
 * A small builder for hand-written `xian_ir_v1` modules, so tests read like the contracts
 * they stand for. Field names and shapes follow the IR the chain's compiler emits.
 */
type Node = Record<string, unknown>;
const span = { line: 1, col: 0, end_line: 1, end_col: 1 };

export const int = (v: number | bigint | string): Node => ({ node: 'constant', span, value_type: 'int', value: typeof v === 'bigint' ? v.toString() : v });
export const float = (literal: string): Node => ({ node: 'constant', span, value_type: 'float', value: Number(literal), literal });
export const str = (value: string): Node => ({ node: 'constant', span, value_type: 'str', value });
export const bool = (value: boolean): Node => ({ node: 'constant', span, value_type: 'bool', value });
export const none = (): Node => ({ node: 'constant', span, value_type: 'none', value: null });
export const bytes = (hex: string): Node => ({ node: 'constant', span, value_type: 'bytes', value: hex });
export const name = (id: string, host: string | null = null): Node => ({ node: 'name', span, id, host_binding_id: host });
export const attr = (value: Node, attribute: string, host: string | null = null, path: string | null = null): Node => ({
  node: 'attribute', span, value, attr: attribute, path, host_binding_id: host,
});
export const list = (...elements: Node[]): Node => ({ node: 'list', span, elements });
export const tuple = (...elements: Node[]): Node => ({ node: 'tuple', span, elements });
export const dict = (...entries: [Node, Node][]): Node => ({ node: 'dict', span, entries: entries.map(([key, value]) => ({ key, value })) });
export const dictUnpack = (value: Node): { unpack: Node } => ({ unpack: value });
export const bin = (left: Node, operator: string, right: Node): Node => ({ node: 'bin_op', span, operator, left, right });
export const unary = (operator: string, operand: Node): Node => ({ node: 'unary_op', span, operator, operand });
export const cmp = (left: Node, ...pairs: [string, Node][]): Node => ({
  node: 'compare', span, left, operators: pairs.map(([o]) => o), comparators: pairs.map(([, c]) => c),
});
export const boolOp = (operator: 'and' | 'or', ...values: Node[]): Node => ({ node: 'bool_op', span, operator, values });
export const ifExpr = (test: Node, body: Node, orelse: Node): Node => ({ node: 'if_expr', span, test, body, orelse });
export const sub = (value: Node, slice: Node): Node => ({ node: 'subscript', span, value, slice });
export const slice = (lower: Node | null, upper: Node | null, step: Node | null = null): Node => ({ node: 'slice', span, lower, upper, step });
export const fstr = (...values: Node[]): Node => ({ node: 'f_string', span, values });
export const fval = (value: Node): Node => ({ node: 'formatted_value', span, value, conversion: null, format_spec: null });
export const kw = (arg: string, value: Node): Node => ({ node: 'keyword', span, arg, value });
export const kwUnpack = (value: Node): Node => ({ node: 'keyword_unpack', span, value });
export const gen = (target: Node, iter: Node, ...ifs: Node[]): Node => ({ target, iter, ifs });
export const listComp = (element: Node, ...generators: Node[]): Node => ({ node: 'list_comp', span, element, generators });
export const dictComp = (key: Node, value: Node, ...generators: Node[]): Node => ({ node: 'dict_comp', span, key, value, generators });

/** A call by name or attribute; `syscall` marks a host syscall (then `func` is not evaluated). */
export const call = (func: Node, args: Node[] = [], keywords: Node[] = [], extra: Node = {}): Node => ({
  node: 'call', span, func, args, keywords, syscall_id: null, event_binding: null, ...extra,
});
export const syscall = (id: string, func: Node, args: Node[] = [], keywords: Node[] = [], extra: Node = {}): Node =>
  call(func, args, keywords, { syscall_id: id, ...extra });
export const varGet = (binding: string): Node =>
  syscall('storage.variable.get', attr(name(binding), 'get'), [], [], { receiver_binding: binding, receiver_type: 'Variable', method: 'get' });
export const varSet = (binding: string, value: Node): Node =>
  syscall('storage.variable.set', attr(name(binding), 'set'), [value], [], { receiver_binding: binding, receiver_type: 'Variable', method: 'set' });
export const foreignVarGet = (binding: string): Node =>
  syscall('storage.foreign_variable.get', attr(name(binding), 'get'), [], [], { receiver_binding: binding, receiver_type: 'ForeignVariable', method: 'get' });
export const hashAll = (binding: string, ...prefix: Node[]): Node =>
  syscall('storage.hash.all', attr(name(binding), 'all'), prefix, [], { receiver_binding: binding, receiver_type: 'Hash', method: 'all' });
export const hashGet = (binding: string, key: Node, foreign = false): Node => ({
  node: 'storage_get', span, binding, storage_type: foreign ? 'ForeignHash' : 'Hash',
  syscall_id: foreign ? 'storage.foreign_hash.get' : 'storage.hash.get', key,
});
export const emit = (event: string, payload: Node): Node => call(name(event), [payload], [], { syscall_id: 'event.log.emit', event_binding: event });
export const exportCall = (target: Node, fn: string, args: Node[] = [], keywords: Node[] = []): Node =>
  call(attr(name('x'), fn), args, keywords, { syscall_id: 'contract.export_call', contract_target: target, function_name: fn });
export const staticTarget = (binding: string): Node => ({ kind: 'static_import', binding, span });
export const dynamicTarget = (source: Node): Node => ({ kind: 'dynamic_import', source, span });

// statements
export const assign = (target: Node, value: Node): Node => ({ node: 'assign', span, targets: [target], value });
export const augAssign = (target: Node, operator: string, value: Node): Node => ({ node: 'aug_assign', span, operator, target, value });
export const hashSet = (binding: string, key: Node, value: Node): Node => ({
  node: 'storage_set', span, binding, storage_type: 'Hash', syscall_id: 'storage.hash.set', key, value,
});
export const hashMutate = (binding: string, key: Node, operator: string, value: Node): Node => ({
  node: 'storage_mutate', span, binding, storage_type: 'Hash', read_syscall_id: 'storage.hash.get',
  write_syscall_id: 'storage.hash.set', key, operator, value,
});
export const ret = (value: Node | null = null): Node => ({ node: 'return', span, value });
export const expr = (value: Node): Node => ({ node: 'expr', span, value });
export const ifStmt = (test: Node, body: Node[], orelse: Node[] = []): Node => ({ node: 'if', span, test, body, orelse });
export const whileStmt = (test: Node, body: Node[], orelse: Node[] = []): Node => ({ node: 'while', span, test, body, orelse });
export const forStmt = (target: Node, iter: Node, body: Node[], orelse: Node[] = []): Node => ({ node: 'for', span, target, iter, body, orelse });
export const assertStmt = (test: Node, message: Node | null = null): Node => ({ node: 'assert', span, test, message });
export const raise = (exception: Node | null, cause: Node | null = null): Node => ({ node: 'raise', span, exception, cause });
export const brk = (): Node => ({ node: 'break', span });
export const cont = (): Node => ({ node: 'continue', span });
export const pass = (): Node => ({ node: 'pass', span });
export const tupleTarget = (...elements: Node[]): Node => ({ node: 'tuple_target', span, elements });

// module level
export const param = (pname: string, annotation: string | null = null, defaultValue: Node | null = null, kind = 'positional_or_keyword'): Node => ({
  name: pname, kind, annotation, default: defaultValue, span,
});
export const fn = (fname: string, params: Node[], body: Node[], visibility = 'export', decorator: Node | null = null, returns: string | null = null): Node => ({
  node: 'function', span, name: fname, visibility,
  decorator: decorator ?? (visibility === 'private' ? null : { node: 'decorator', span, name: visibility, args: [], keywords: [] }),
  docstring: null, parameters: params, returns, body,
});
export const typecheckedExport = (): Node => ({ node: 'decorator', span, name: 'export', args: [], keywords: [kw('typecheck', bool(true))] });
export const variable = (vname: string, defaultValue?: Node): Node => ({
  node: 'storage_decl', span, name: vname, storage_type: 'Variable', syscall_id: 'storage.variable.new', args: [],
  keywords: defaultValue ? [kw('default_value', defaultValue)] : [],
});
export const hash = (hname: string, defaultValue?: Node): Node => ({
  node: 'storage_decl', span, name: hname, storage_type: 'Hash', syscall_id: 'storage.hash.new', args: [],
  keywords: defaultValue ? [kw('default_value', defaultValue)] : [],
});
export const foreign = (fname: string, type: 'ForeignVariable' | 'ForeignHash', contract: string, foreignName: string): Node => ({
  node: 'storage_decl', span, name: fname, storage_type: type,
  syscall_id: type === 'ForeignHash' ? 'storage.foreign_hash.new' : 'storage.foreign_variable.new', args: [],
  keywords: [kw('foreign_contract', str(contract)), kw('foreign_name', str(foreignName))],
});
export const event = (ename: string, eventName: string, params: Node): Node => ({
  node: 'event_decl', span, name: ename, syscall_id: 'event.log.new', event_name: eventName, params,
});
export const indexed = (type: Node): Node => syscall('event.indexed', name('indexed', 'event.indexed'), [type]);
export const binding = (bname: string, value: Node): Node => ({ node: 'binding_decl', span, name: bname, value });
export const importNode = (module: string, alias: string | null = null): Node => ({ node: 'import', span, module, alias });

export function module(moduleName: string, parts: { imports?: Node[]; globals?: Node[]; functions?: Node[]; body?: Node[] }): Node {
  return {
    ir_version: 'xian_ir_v1', vm_profile: 'xian_vm_v1', host_catalog_version: 'xian_vm_v1_host_v1',
    module_name: moduleName, source_hash: '0'.repeat(64), docstring: null,
    imports: parts.imports ?? [], global_declarations: parts.globals ?? [], functions: parts.functions ?? [],
    module_body: parts.body ?? [], host_dependencies: [],
  };
}
