import assert from 'node:assert/strict';
import { compiled, nodes, span } from './support.js';

/** A contract of ours using every IR node kind; expected values derived by hand from the reference (contracting-vm.md c.1–c.4). */
const SOURCE = `"""Every IR node."""
import currency
import con_registry as registry

I = importlib
balances = Hash(default_value=0)
metadata = Variable()
foreign = ForeignHash(foreign_contract='currency', foreign_name='balances')
Moved = LogEvent('Moved', {'who': indexed(str), 'amount': int})
LIMIT = 10 ** 3


def token(name: str):
    return I.import_module(name)


@construct
def seed():
    metadata.set({'owner': ctx.caller, **{'n': 1}})


@export(typecheck=False)
def move(to: str, amount: float = 1.5, *rest: list, mode: str = 'a', **extra: dict) -> dict:
    """Moves."""
    balances[to] = amount
    balances[to] += 1
    a, [b, c] = 1, [2, 3]
    x = balances[to] + foreign[to]
    x -= 1
    if x > 0 and not x < -1:
        pass
    elif x == 0:
        x = x if x else 0
    else:
        raise Exception('bad') from None
    while x:
        break
    for i in range(3):
        continue
    assert x >= 0, f'x={x!r:>{5}}'
    currency.transfer(amount=amount, to=to)
    token('con_t').transfer(amount=1, to=to)
    t = token('con_u')
    t.transfer(amount=2, to=to)
    importlib.import_module('con_v').ping()
    registry.register(**extra)
    Moved({'who': to, 'amount': 1})
    items = [v for v in rest if v]
    table = {k: v for k, v in extra.items()}
    return {'items': items[1:2:1], 'table': table, 'all': balances.all(), 'big': 12345678901234567890, 'raw': b'\\x00\\xff', 'huge': 1e20, 'tiny': 0.00001, 'when': now}
`;

/** Its normalized text, checked by hand against the normalizer's rules (contracting-vm.md b.1). */
const NORMALIZED = [
  "'Every IR node.'",
  "import currency",
  "import con_registry as registry",
  "I = importlib",
  "balances = Hash(default_value=0)",
  "metadata = Variable()",
  "foreign = ForeignHash(foreign_contract='currency', foreign_name='balances')",
  "Moved = LogEvent('Moved', {'who': indexed(str), 'amount': int})",
  "LIMIT = 10 ** 3",
  "",
  "def token(name: str):",
  "    return I.import_module(name)",
  "",
  "@construct",
  "def seed():",
  "    metadata.set({'owner': ctx.caller, **{'n': 1}})",
  "",
  "@export(typecheck=False)",
  "def move(to: str, amount: float=1.5, *rest: list, mode: str='a', **extra: dict) -> dict:",
  "    'Moves.'",
  "    balances[to] = amount",
  "    balances[to] += 1",
  "    a, [b, c] = (1, [2, 3])",
  "    x = balances[to] + foreign[to]",
  "    x -= 1",
  "    if x > 0 and (not x < -1):",
  "        pass",
  "    elif x == 0:",
  "        x = x if x else 0",
  "    else:",
  "        raise Exception('bad') from None",
  "    while x:",
  "        break",
  "    for i in range(3):",
  "        continue",
  "    assert x >= 0, f'x={x!r:>{5}}'",
  "    currency.transfer(amount=amount, to=to)",
  "    token('con_t').transfer(amount=1, to=to)",
  "    t = token('con_u')",
  "    t.transfer(amount=2, to=to)",
  "    importlib.import_module('con_v').ping()",
  "    registry.register(**extra)",
  "    Moved({'who': to, 'amount': 1})",
  "    items = [v for v in rest if v]",
  "    table = {k: v for (k, v) in extra.items()}",
  "    return {'items': items[1:2:1], 'table': table, 'all': balances.all(), 'big': 12345678901234567890, 'raw': b'\\x00\\xff', 'huge': 100000000000000000000.0, 'tiny': 1e-05, 'when': now}"
].join('\n');

const ALL_NODE_KINDS = [
  'assert', 'assign', 'attribute', 'aug_assign', 'bin_op', 'binding_decl', 'bool_op', 'break', 'call', 'compare',
  'constant', 'continue', 'decorator', 'dict', 'dict_comp', 'event_decl', 'expr', 'f_string', 'for', 'formatted_value',
  'function', 'if', 'if_expr', 'import', 'keyword', 'keyword_unpack', 'list', 'list_comp', 'list_target', 'name', 'pass',
  'raise', 'return', 'slice', 'storage_decl', 'storage_get', 'storage_mutate', 'storage_set', 'subscript', 'tuple',
  'tuple_target', 'unary_op', 'while',
];

type Node = Record<string, any>;
const name = (id: string, range: string, host: string | null = null) => ({ node: 'name', span: span(range), id, host_binding_id: host });
const constant = (valueType: string, value: unknown, range: string) => ({ node: 'constant', span: span(range), value_type: valueType, value });

describe('compileContract: every IR node kind', () => {
  const artifact = compiled(SOURCE, 'con_cov');
  const ir = JSON.parse(artifact.vm_ir_json) as Node;
  const move = ir.functions.find((f: Node) => f.name === 'move') as Node;
  const calls = nodes(ir, 'call');
  const callOf = (path: string) => calls.find((c) => (c.func as Node).path === path || (c.func as Node).id === path) as Node;

  it('normalizes the source as upstream prints it', () => {
    assert.equal(artifact.source, NORMALIZED);
  });

  it('uses all 43 node kinds, and the module object has every field', () => {
    assert.deepEqual([...new Set(nodes(ir).map((n) => n.node as string))].sort(), ALL_NODE_KINDS);
    assert.deepEqual(Object.keys(ir).sort(), [
      'docstring', 'functions', 'global_declarations', 'host_catalog_version', 'host_dependencies', 'imports', 'ir_version',
      'module_body', 'module_name', 'source_hash', 'vm_profile',
    ]);
    assert.equal(ir.docstring, 'Every IR node.');
    assert.equal(ir.source_hash, artifact.hashes.source_sha256);
    assert.deepEqual(ir.module_body, []);
  });

  it('imports: one node per alias, spanning the statement', () => {
    assert.deepEqual(ir.imports, [
      { node: 'import', span: span('2:0-2:15'), module: 'currency', alias: null },
      { node: 'import', span: span('3:0-3:31'), module: 'con_registry', alias: 'registry' },
    ]);
  });

  it('global declarations: binding, storage and event declarations', () => {
    const [alias, hash, variable, foreign, event, limit] = ir.global_declarations as Node[];
    assert.deepEqual(alias, { node: 'binding_decl', span: span('4:0-4:13'), name: 'I', value: name('importlib', '4:4-4:13', 'module.importlib') });
    assert.deepEqual(hash, {
      node: 'storage_decl', span: span('5:0-5:32'), name: 'balances', storage_type: 'Hash', syscall_id: 'storage.hash.new', args: [],
      keywords: [{ node: 'keyword', span: span('5:16-5:31'), arg: 'default_value', value: constant('int', 0, '5:30-5:31') }],
    });
    assert.equal(variable.syscall_id, 'storage.variable.new');
    assert.equal(foreign.storage_type, 'ForeignHash');
    assert.equal(event.node, 'event_decl');
    assert.equal(event.event_name, 'Moved');
    assert.equal(event.syscall_id, 'event.log.new');
    assert.deepEqual(event.params.entries[0].value.func, name('indexed', '8:34-8:41', 'event.indexed'));
    assert.equal(event.params.entries[0].value.syscall_id, 'event.indexed');
    assert.deepEqual(limit.value, {
      node: 'bin_op', span: span('9:8-9:15'), operator: 'pow', left: constant('int', 10, '9:8-9:10'), right: constant('int', 3, '9:14-9:15'),
    });
  });

  it('functions: visibility, decorator with keywords, docstring, parameters of every kind, returns', () => {
    const token = ir.functions[0] as Node;
    assert.equal(token.visibility, 'private');
    assert.equal(token.decorator, null);
    assert.equal(ir.functions[1].visibility, 'construct');
    assert.deepEqual(move.decorator, {
      node: 'decorator', span: span('18:1-18:24'), name: 'export', args: [],
      keywords: [{ node: 'keyword', span: span('18:8-18:23'), arg: 'typecheck', value: constant('bool', false, '18:18-18:23') }],
    });
    assert.deepEqual(move.span, span('19:0-46:183'));
    assert.equal(move.visibility, 'export');
    assert.equal(move.docstring, 'Moves.');
    assert.equal(move.returns, 'dict');
    assert.deepEqual(move.parameters, [
      { name: 'to', kind: 'positional_or_keyword', annotation: 'str', default: null, span: span('19:9-19:16') },
      {
        name: 'amount', kind: 'positional_or_keyword', annotation: 'float',
        default: { node: 'constant', span: span('19:32-19:35'), value_type: 'float', value: 1.5, literal: '1.5' }, span: span('19:18-19:31'),
      },
      { name: 'rest', kind: 'vararg', annotation: 'list', default: null, span: span('19:38-19:48') },
      { name: 'mode', kind: 'keyword_only', annotation: 'str', default: constant('str', 'a', '19:60-19:63'), span: span('19:50-19:59') },
      { name: 'extra', kind: 'kwarg', annotation: 'dict', default: null, span: span('19:67-19:78') },
    ]);
    // The docstring statement is not in the body.
    assert.equal(move.body[0].node, 'storage_set');
  });

  it('storage statements and reads: h[k] = v, h[k] op= v, h[k] of a Hash and of a ForeignHash', () => {
    assert.deepEqual(move.body[0], {
      node: 'storage_set', span: span('21:4-21:25'), binding: 'balances', storage_type: 'Hash', syscall_id: 'storage.hash.set',
      key: name('to', '21:13-21:15'), value: name('amount', '21:19-21:25'),
    });
    assert.deepEqual(move.body[1], {
      node: 'storage_mutate', span: span('22:4-22:21'), binding: 'balances', storage_type: 'Hash', read_syscall_id: 'storage.hash.get',
      write_syscall_id: 'storage.hash.set', key: name('to', '22:13-22:15'), operator: 'add', value: constant('int', 1, '22:20-22:21'),
    });
    assert.deepEqual(move.body[3].value.left, {
      node: 'storage_get', span: span('24:8-24:20'), binding: 'balances', storage_type: 'Hash', syscall_id: 'storage.hash.get', key: name('to', '24:17-24:19'),
    });
    assert.deepEqual(move.body[3].value.right, {
      node: 'storage_get', span: span('24:23-24:34'), binding: 'foreign', storage_type: 'ForeignHash', syscall_id: 'storage.foreign_hash.get', key: name('to', '24:31-24:33'),
    });
    assert.deepEqual(move.body[4], { node: 'aug_assign', span: span('25:4-25:10'), operator: 'sub', target: name('x', '25:4-25:5'), value: constant('int', 1, '25:9-25:10') });
  });

  it('destructuring targets: a bare tuple target and a list target; the value tuple spans its parentheses', () => {
    assert.deepEqual(move.body[2].targets, [{
      node: 'tuple_target', span: span('23:4-23:13'),
      elements: [name('a', '23:4-23:5'), { node: 'list_target', span: span('23:7-23:13'), elements: [name('b', '23:8-23:9'), name('c', '23:11-23:12')] }],
    }]);
    assert.deepEqual(move.body[2].value.span, span('23:16-23:27'));
    assert.equal(move.body[2].value.node, 'tuple');
  });

  it('if/elif/else: each elif is an if in orelse spanning from its keyword to the end of the chain', () => {
    const chain = move.body[5] as Node;
    assert.deepEqual(chain.span, span('26:4-31:40'));
    assert.deepEqual(chain.test, {
      node: 'bool_op', span: span('26:7-26:29'), operator: 'and',
      values: [
        { node: 'compare', span: span('26:7-26:12'), left: name('x', '26:7-26:8'), operators: ['gt'], comparators: [constant('int', 0, '26:11-26:12')] },
        {
          node: 'unary_op', span: span('26:18-26:28'), operator: 'not',
          operand: {
            node: 'compare', span: span('26:22-26:28'), left: name('x', '26:22-26:23'), operators: ['lt'],
            comparators: [{ node: 'unary_op', span: span('26:26-26:28'), operator: 'neg', operand: constant('int', 1, '26:27-26:28') }],
          },
        },
      ],
    });
    const elif = chain.orelse[0] as Node;
    assert.equal(chain.orelse.length, 1);
    assert.deepEqual(elif.span, span('28:4-31:40'));
    assert.deepEqual(elif.body[0].value, { node: 'if_expr', span: span('29:12-29:25'), test: name('x', '29:17-29:18'), body: name('x', '29:12-29:13'), orelse: constant('int', 0, '29:24-29:25') });
    assert.deepEqual(elif.orelse[0].cause, constant('none', null, '31:36-31:40'));
    assert.equal(elif.orelse[0].node, 'raise');
  });

  it('f-strings: literal and {…} parts get spans scanned from the normalized line', () => {
    const message = (move.body[8] as Node).message as Node;
    assert.equal(message.node, 'f_string');
    assert.deepEqual(message.span, span('36:19-36:34'));
    assert.deepEqual(message.values[0], constant('str', 'x=', '36:21-36:23'));
    const field = message.values[1] as Node;
    assert.deepEqual(
      { node: field.node, span: field.span, value: field.value, conversion: field.conversion },
      { node: 'formatted_value', span: span('36:23-36:33'), value: name('x', '36:24-36:25'), conversion: 'r' },
    );
    assert.equal(field.format_spec.node, 'f_string');
    // rustpython gives every part of an f-string the whole string's range (only the expressions in
    // fields keep their own); upstream then re-derives the parts of each JoinedStr by scanning from
    // the string's opening quote — for a format spec too, so its parts land on the outer fields.
    assert.deepEqual(field.format_spec.span, span('36:19-36:34'));
    assert.deepEqual(field.format_spec.values.map((v: Node) => v.span), [span('36:21-36:23'), span('36:23-36:33')]);
    assert.deepEqual(field.format_spec.values[1].value.span, span('36:30-36:31'));
    assert.deepEqual(field.format_spec.values.map((v: Node) => [v.node, v.value_type ?? null, v.node === 'constant' ? v.value : v.value.value]), [
      ['constant', 'str', '>'],
      ['formatted_value', null, 5],
    ]);
  });

  it('calls: storage methods, the four contract targets, event emission, host syscalls and plain calls', () => {
    assert.deepEqual(
      (({ syscall_id, receiver_binding, receiver_type, method }) => ({ syscall_id, receiver_binding, receiver_type, method }))(callOf('metadata.set')),
      { syscall_id: 'storage.variable.set', receiver_binding: 'metadata', receiver_type: 'Variable', method: 'set' },
    );
    assert.equal(callOf('balances.all').syscall_id, 'storage.hash.all');
    const staticCall = callOf('currency.transfer');
    assert.deepEqual(staticCall.contract_target, { kind: 'static_import', binding: 'currency', span: span('37:4-37:12') });
    assert.equal(staticCall.syscall_id, 'contract.export_call');
    assert.equal(staticCall.function_name, 'transfer');
    assert.deepEqual(staticCall.keywords[0], { node: 'keyword', span: span('37:22-37:35'), arg: 'amount', value: name('amount', '37:29-37:35') });
    const factory = calls.find((c) => (c.contract_target as Node)?.kind === 'factory_call') as Node;
    assert.deepEqual(factory.contract_target.factory, 'token');
    assert.deepEqual(factory.contract_target.span, span('38:4-38:18'));
    assert.deepEqual(factory.contract_target.source.args, [constant('str', 'con_t', '38:10-38:17')]);
    const local = calls.find((c) => (c.contract_target as Node)?.kind === 'local_handle') as Node;
    assert.equal(local.contract_target.binding, 't');
    assert.deepEqual(local.contract_target.span, span('40:4-40:5'));
    // The handle's source is the expression that produced it (line 39), lowered again.
    assert.deepEqual(local.contract_target.source.span, span('39:8-39:22'));
    const dynamic = calls.find((c) => (c.contract_target as Node)?.kind === 'dynamic_import') as Node;
    assert.equal(dynamic.function_name, 'ping');
    assert.equal(dynamic.contract_target.source.syscall_id, 'contract.import');
    assert.deepEqual(Object.keys(dynamic.contract_target).sort(), ['kind', 'source', 'span']);
    const aliased = callOf('I.import_module');
    assert.equal(aliased.syscall_id, 'contract.import');
    assert.deepEqual(aliased.func.host_binding_id, 'contract.import');
    const emit = callOf('Moved');
    assert.equal(emit.syscall_id, 'event.log.emit');
    assert.equal(emit.event_binding, 'Moved');
    const unpack = callOf('registry.register');
    assert.deepEqual(unpack.keywords, [{ node: 'keyword_unpack', span: span('42:22-42:29'), value: name('extra', '42:24-42:29') }]);
    const plain = callOf('range');
    assert.equal(plain.syscall_id, null);
    assert.equal(plain.event_binding, null);
  });

  it('comprehensions: generators carry no node or span; a tuple target keeps its parentheses', () => {
    const items = (move.body[16] as Node).value as Node;
    assert.equal(items.node, 'list_comp');
    assert.deepEqual(items.generators, [{ target: name('v', '44:19-44:20'), iter: name('rest', '44:24-44:28'), ifs: [name('v', '44:32-44:33')] }]);
    const table = (move.body[17] as Node).value as Node;
    assert.equal(table.node, 'dict_comp');
    assert.deepEqual(table.generators[0].target.node, 'tuple_target');
    assert.deepEqual(table.generators[0].target.span, span('45:22-45:28'));
  });

  it('dicts (with ** entries), slices, big ints, floats, bytes, host values', () => {
    const seedBody = ir.functions[1].body[0].value as Node;
    assert.deepEqual(seedBody.args[0].entries.map((e: Node) => Object.keys(e).sort()), [['key', 'value'], ['unpack']]);
    assert.deepEqual(seedBody.args[0].entries[0].value, {
      node: 'attribute', span: span('16:27-16:37'), value: name('ctx', '16:27-16:30'), attr: 'caller', path: 'ctx.caller', host_binding_id: 'context.caller',
    });
    const result = (move.body[18] as Node).value as Node;
    const entry = (key: string) => (result.entries as Node[]).find((e) => e.key.value === key)!.value as Node;
    assert.deepEqual(entry('items').slice, {
      node: 'slice', span: span('46:27-46:32'), lower: constant('int', 1, '46:27-46:28'), upper: constant('int', 2, '46:29-46:30'), step: constant('int', 1, '46:31-46:32'),
    });
    assert.deepEqual(entry('big').value, '12345678901234567890');
    assert.deepEqual(entry('raw').value, '00ff');
    assert.deepEqual(entry('raw').value_type, 'bytes');
    assert.deepEqual([entry('huge').literal, entry('tiny').literal], ['100000000000000000000.0', '1e-05']);
    assert.ok(artifact.vm_ir_json.includes('"literal": "1e-05", "node": "constant", "span": '));
    assert.ok(artifact.vm_ir_json.includes('"value": 1e-05, "value_type": "float"'));
    assert.ok(artifact.vm_ir_json.includes('"value": 100000000000000000000.0, "value_type": "float"'));
    assert.equal(entry('when').host_binding_id, 'env.now');
  });

  it('host dependencies: every binding used, once, ordered by id, storage nodes adding both their read and write ids', () => {
    assert.deepEqual(ir.host_dependencies.map((h: Node) => h.id), [
      'context.caller', 'contract.export_call', 'contract.import', 'env.now', 'event.indexed', 'event.log.emit', 'event.log.new',
      'module.importlib', 'storage.foreign_hash.get', 'storage.foreign_hash.new', 'storage.hash.all', 'storage.hash.get',
      'storage.hash.new', 'storage.hash.set', 'storage.variable.new', 'storage.variable.set',
    ]);
    assert.deepEqual(ir.host_dependencies[0], { binding: 'ctx.caller', id: 'context.caller', kind: 'context_field', category: 'context' });
  });
});
