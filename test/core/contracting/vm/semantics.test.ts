import assert from 'node:assert/strict';
import * as ir from './ir-builder.js';
import { call } from './helpers.js';

/** Language semantics through tiny contracts of our own: one IR node kind or builtin at a time. */
type N = Record<string, unknown>;

function probe(body: N[], options: Parameters<typeof call>[2] = {}, extra: { globals?: N[]; functions?: N[]; imports?: N[] } = {}) {
  const m = ir.module('con_probe', { globals: extra.globals, imports: extra.imports, functions: [ir.fn('probe', [], body), ...(extra.functions ?? [])] });
  return call([m], 'probe', options);
}

function value(e: N): unknown {
  const out = probe([ir.ret(e)]);
  assert.equal(out.status, 0, out.error);
  return out.result;
}

function failure(body: N[], extra: Parameters<typeof probe>[2] = {}): string | undefined {
  const out = probe(body, {}, extra);
  assert.equal(out.status, 1, `expected a failure, got ${String(out.result)}`);
  return out.error;
}

const dec = (v: string) => ({ __vm_type__: 'decimal', value: v });
const decimal = (text: string): N => ir.syscall('numeric.decimal.new', ir.name('decimal', 'numeric.decimal.new'), [ir.str(text)]);
const builtin = (n: string, ...args: N[]): N => ir.call(ir.name(n), args);
const method = (receiver: N, m: string, ...args: N[]): N => ir.call(ir.attr(receiver, m), args);

describe('VM semantics', () => {
  describe('numbers', () => {
    it('keeps decimals to 30 digits, truncating after * and /, and // toward zero', () => {
      assert.deepEqual(value(ir.bin(decimal('1'), 'div', decimal('3'))), dec('0.333333333333333333333333333333'));
      assert.deepEqual(value(ir.bin(decimal('-5'), 'floordiv', decimal('2'))), dec('-2'));
      assert.deepEqual(value(ir.bin(decimal('0.1234567890123456789012345678909'), 'add', ir.float('1.5'))), dec('1.623456789012345678901234567890'.replace(/0$/, '')));
      assert.deepEqual(value(ir.bin(decimal('9'), 'pow', ir.float('0.5'))), dec('3'));
      assert.equal(value(builtin('str', decimal('1000'))), '1E+3');
    });
    it('gives a float for int / int and keeps int // and % floored', () => {
      assert.equal(value(ir.bin(ir.int(7), 'div', ir.int(2))), 3.5);
      assert.equal(value(ir.bin(ir.int(-5), 'floordiv', ir.int(2))), -3n);
      assert.equal(value(ir.bin(ir.int(-5), 'mod', ir.int(3))), 1n);
      assert.equal(value(builtin('str', ir.bin(ir.int(1), 'div', ir.int(1)))), '1.0');
    });
    it('refuses bool + int and float //', () => {
      assert.equal(failure([ir.ret(ir.bin(ir.bool(true), 'add', ir.int(1)))]), 'unsupported add operands bool and int');
      assert.equal(failure([ir.ret(ir.bin(builtin('float', ir.int(1)), 'floordiv', builtin('float', ir.int(2))))]), 'unsupported floordiv operands float and float');
    });
    it('caps integers at 1,048,576 bits before computing them', () => {
      assert.equal(
        failure([ir.ret(ir.bin(ir.int(2), 'pow', ir.int(2_000_000)))]),
        'integer exponentiation exceeds the maximum allowed integer size of 1048576 bits',
      );
      assert.equal(value(builtin('pow', ir.int(3), ir.int(200), ir.int(1000007))), 3n ** 200n % 1000007n);
      assert.equal(value(builtin('format', builtin('int', ir.str('ff'), ir.int(16)), ir.str('08x'))), '000000ff');
    });
    it('rounds decimals half away from zero', () => {
      assert.deepEqual(value(builtin('round', decimal('2.5'), ir.int(0))), dec('3'));
      assert.deepEqual(value(builtin('round', decimal('-1.25'), ir.int(1))), dec('-1.3'));
    });
  });

  describe('strings and containers', () => {
    it("renders str() the chain's way", () => {
      assert.equal(value(builtin('str', ir.list(ir.str('a'), ir.int(1)))), '[a, 1]');
      assert.equal(value(builtin('str', ir.tuple(ir.str('a')))), '(a,)');
      assert.equal(value(builtin('str', ir.dict([ir.str('k'), ir.none()]))), '{k: None}');
      assert.equal(value(ir.fstr(ir.str('n='), ir.fval(ir.int(5)))), 'n=5');
      assert.equal(value(builtin('str', builtin('set', ir.list(ir.int(3), ir.int(1), ir.int(3))))), '{1, 3}');
    });
    it('copies on assignment: b = a; b.append(1) leaves a alone', () => {
      const out = probe([
        ir.assign(ir.name('a'), ir.list()),
        ir.assign(ir.name('b'), ir.name('a')),
        ir.expr(method(ir.name('b'), 'append', ir.int(1))),
        ir.ret(ir.tuple(ir.name('a'), ir.name('b'))),
      ]);
      assert.deepEqual(out.result, [[], [1n]]);
    });
    it('keeps the first of duplicate dict-literal keys and matches keys strictly', () => {
      assert.equal(value(ir.sub(ir.dict([ir.str('k'), ir.int(1)], [ir.str('k'), ir.int(2)]), ir.str('k'))), 1n);
      assert.equal(value(method(ir.dict([ir.int(1), ir.str('int')]), 'get', ir.bool(true))), null);
      assert.equal(value(ir.cmp(ir.bool(true), ['in', ir.list(ir.int(1))])), true);
    });
    it('slices, indexes from the end and compares chained', () => {
      assert.equal(value(ir.sub(ir.str('hello'), ir.slice(ir.int(1), null, ir.int(2)))), 'el');
      assert.equal(value(ir.sub(ir.list(ir.int(1), ir.int(2)), ir.unary('neg', ir.int(1)))), 2n);
      assert.equal(value(ir.cmp(ir.int(1), ['lt', ir.int(2)], ['lt', ir.int(2)])), false);
    });
    it('runs comprehensions with their own target scope', () => {
      const out = probe([
        ir.assign(ir.name('x'), ir.str('kept')),
        ir.assign(ir.name('squares'), ir.listComp(ir.bin(ir.name('x'), 'mul', ir.name('x')), ir.gen(ir.name('x'), builtin('range', ir.int(4)), ir.cmp(ir.name('x'), ['gt', ir.int(1)])))),
        ir.assign(ir.name('d'), ir.dictComp(ir.name('k'), builtin('len', ir.name('k')), ir.gen(ir.name('k'), ir.list(ir.str('ab'))))),
        ir.ret(ir.tuple(ir.name('squares'), ir.name('d'), ir.name('x'))),
      ]);
      assert.deepEqual(out.result, [[4n, 9n], { ab: 2n }, 'kept']);
    });
    it('offers the string, list, dict and set methods', () => {
      assert.deepEqual(value(method(ir.str('a,b'), 'split', ir.str(','))), ['a', 'b']);
      assert.equal(value(method(ir.str('-'), 'join', ir.list(ir.str('x'), ir.str('y')))), 'x-y');
      assert.equal(value(method(ir.str('{} and {}'), 'format', ir.int(1), ir.str('b'))), '1 and b');
      assert.equal(value(method(ir.str('Xian'), 'lower')), 'xian');
      assert.deepEqual(value(method(ir.dict([ir.str('a'), ir.int(1)]), 'items')), [['a', 1n]]);
      assert.deepEqual(value(method(builtin('set', ir.list(ir.int(1))), 'union', ir.list(ir.int(0)))), { __set__: [0n, 1n] });
      assert.equal(failure([ir.ret(method(ir.str('x'), 'zfill', ir.int(3)))]), "unsupported str method 'zfill()'");
    });
    it('offers sorted, sum, min, max, zip, map, filter, all, any, divmod, isinstance', () => {
      assert.deepEqual(value(builtin('sorted', ir.list(ir.int(3), ir.int(1), ir.int(2)))), [1n, 2n, 3n]);
      assert.equal(value(builtin('sum', ir.list(ir.int(3), ir.int(4)))), 7n);
      assert.equal(value(builtin('max', ir.int(3), ir.int(9), ir.int(4))), 9n);
      assert.deepEqual(value(builtin('zip', ir.list(ir.int(1)), ir.list(ir.str('a')))), [[1n, 'a']]);
      assert.deepEqual(value(builtin('map', ir.name('str'), ir.list(ir.int(1)))), ['1']);
      assert.deepEqual(value(builtin('filter', ir.none(), ir.list(ir.int(0), ir.int(2)))), [2n]);
      assert.equal(value(builtin('all', ir.list(ir.int(1), ir.int(0)))), false);
      assert.deepEqual(value(builtin('divmod', ir.int(7), ir.int(2))), [3n, 1n]);
      assert.equal(value(builtin('isinstance', decimal('1'), ir.name('decimal'))), true);
      assert.equal(value(builtin('isinstance', builtin('float', ir.int(1)), ir.name('float'))), true);
    });
  });

  describe('the other builtins', () => {
    it('converts and formats like the chain', () => {
      assert.equal(value(builtin('issubclass', ir.name('bool'), ir.name('int'))), true);
      assert.deepEqual(value(builtin('reversed', ir.tuple(ir.int(1), ir.int(2)))), [2n, 1n]);
      assert.equal(value(builtin('ord', ir.str('A'))), 65n);
      assert.equal(value(builtin('chr', ir.int(0x263a))), '\u263a');
      assert.deepEqual(value(builtin('abs', ir.unary('neg', decimal('1.5')))), dec('1.5'));
      assert.equal(value(builtin('ascii', ir.str('é'))), "'\\xe9'");
      assert.deepEqual(value(ir.tuple(builtin('bin', ir.int(5)), builtin('hex', ir.int(-255)), builtin('oct', ir.int(8)))), ['0b101', '-0xff', '0o10']);
      assert.deepEqual(value(builtin('tuple', ir.str('ab'))), ['a', 'b']);
      assert.deepEqual(value(builtin('list', ir.dict([ir.str('k'), ir.int(1)]))), ['k']);
      assert.deepEqual(value(builtin('dict', ir.list(ir.tuple(ir.str('a'), ir.int(1))))), { a: 1n });
      assert.deepEqual(value(builtin('bytes', ir.str('hi'), ir.str('utf-8'))), { __bytes__: '6869' });
      assert.equal(value(builtin('min', ir.list(ir.int(4), ir.int(2)))), 2n);
      assert.equal(value(builtin('any', ir.list(ir.int(0), ir.str('x')))), true);
      assert.equal(value(builtin('bool', ir.list())), false);
      assert.equal(value(builtin('float', ir.str('2.5'))), 2.5);
    });
  });

  describe('time, hashing, crypto', () => {
    const dt = (...p: number[]): N => ir.syscall('time.datetime.new', ir.attr(ir.name('datetime', 'module.datetime'), 'datetime', 'time.datetime.new'), p.map(ir.int));
    const td = (keywords: [string, number][]): N =>
      ir.syscall('time.timedelta.new', ir.attr(ir.name('datetime', 'module.datetime'), 'timedelta', 'time.timedelta.new'), [], keywords.map(([k, v]) => ir.kw(k, ir.int(v))));
    it('has whole-second timedeltas whose .seconds is the total', () => {
      assert.equal(value(ir.attr(td([['days', 2], ['seconds', 5]]), 'seconds')), 172_805n);
      assert.equal(value(builtin('str', td([['days', 1], ['hours', 2]]))), '1 day, 2:00:00');
      assert.equal(value(builtin('str', ir.bin(dt(2024, 1, 31), 'add', td([['days', 1]])))), '2024-02-01 00:00:00');
      assert.deepEqual(value(ir.bin(dt(2024, 3, 1), 'sub', dt(2024, 2, 28))), { __vm_type__: 'timedelta', seconds: 172_800n });
      assert.equal(failure([ir.ret(dt(2023, 2, 29))]), 'invalid datetime date');
    });
    it('hashes text with SHA3-256 and SHA-256', () => {
      const h = (id: string, fnName: string) => ir.syscall(id, ir.attr(ir.name('hashlib', 'module.hashlib'), fnName, id), [ir.str('xian-vm-host')]);
      assert.equal(value(h('hash.sha3_256_text', 'sha3_text')), 'e39a9f0e9e95d826378899f724ba459e7fc42b75671b38138c9de55cc0f5d7ca');
      assert.equal(value(h('hash.sha256_text', 'sha256_text')), '15c5c38c338df4264d5093d0312e6b8ce47c8aa4918a30476c994a17fe526e32');
    });
  });

  describe('control flow and errors', () => {
    it('runs while/for with break, continue and else', () => {
      const out = probe([
        ir.assign(ir.name('n'), ir.int(0)),
        ir.assign(ir.name('seen'), ir.list()),
        ir.whileStmt(ir.cmp(ir.name('n'), ['lt', ir.int(10)]), [
          ir.augAssign(ir.name('n'), 'add', ir.int(1)),
          ir.ifStmt(ir.cmp(ir.bin(ir.name('n'), 'mod', ir.int(2)), ['eq', ir.int(0)]), [ir.cont()]),
          ir.ifStmt(ir.cmp(ir.name('n'), ['gt', ir.int(5)]), [ir.brk()]),
          ir.expr(method(ir.name('seen'), 'append', ir.name('n'))),
        ], [ir.expr(method(ir.name('seen'), 'append', ir.str('else')))]),
        ir.forStmt(ir.name('i'), ir.list(), [ir.pass()], [ir.expr(method(ir.name('seen'), 'append', ir.str('for-else')))]),
        ir.ret(ir.name('seen')),
      ]);
      assert.deepEqual(out.result, [1n, 3n, 5n, 'for-else']);
    });
    it("reports failures with the chain's texts", () => {
      assert.equal(failure([ir.assertStmt(ir.bool(false), ir.str("it's bad"))]), "AssertionError('it\\'s bad')");
      assert.equal(failure([ir.assertStmt(ir.bool(false))]), 'AssertionError()');
      assert.equal(failure([ir.raise(builtin('Exception', ir.str('x'), ir.int(3)))]), "Exception('x', 3)");
      assert.equal(failure([ir.raise(ir.int(1))]), "TypeError('exceptions must derive from BaseException, got int')");
      assert.equal(failure([ir.ret(ir.name('nope'))]), "unknown name 'nope'");
      assert.equal(failure([ir.ret(ir.call(ir.name('helper')))], { functions: [ir.fn('helper', [ir.param('to')], [ir.ret(ir.name('to'))], 'private')] }),
        'TypeError("missing required argument \'to\'")');
      assert.equal(failure([ir.ret(ir.sub(ir.list(), ir.int(0)))]), 'sequence index out of bounds');
    });
    it('binds defaults, *args and **kwargs', () => {
      const helper = ir.fn('helper', [ir.param('a'), ir.param('b', null, ir.int(10)), ir.param('rest', null, null, 'vararg'), ir.param('kw', null, null, 'kwarg')],
        [ir.ret(ir.tuple(ir.name('a'), ir.name('b'), ir.name('rest'), ir.name('kw')))], 'private');
      const out = probe([ir.ret(ir.call(ir.name('helper'), [ir.int(1), ir.int(2), ir.int(3)], [ir.kw('z', ir.int(4))]))], {}, { functions: [helper] });
      assert.deepEqual(out.result, [1n, 2n, [3n], { z: 4n }]);
    });
    it('checks @export(typecheck=True) annotations', () => {
      const m = ir.module('con_typed', {
        functions: [ir.fn('take', [ir.param('amount', 'int')], [ir.ret(ir.name('amount'))], 'export', ir.typecheckedExport(), 'int')],
      });
      const out = call([m], 'take', { kwargs: { amount: 'x' } });
      assert.equal(out.error, 'TypeError("Argument \'amount\' must be <class \'int\'>, got str!")');
      assert.equal(call([m], 'take', { kwargs: { amount: 5n } }).result, 5n);
    });
  });

  describe('storage, events, imports', () => {
    const token = ir.module('con_token', {
      globals: [
        ir.hash('balances', ir.int(0)),
        ir.variable('supply', ir.int(100)),
        ir.event('Transfer', 'Transfer', ir.dict([ir.str('to'), ir.indexed(ir.name('str'))], [ir.str('amount'), ir.name('int')])),
      ],
      functions: [
        ir.fn('send', [ir.param('to', 'str'), ir.param('amount', 'int')], [
          ir.hashMutate('balances', ir.name('to', null), 'add', ir.name('amount')),
          ir.expr(ir.emit('Transfer', ir.dict([ir.str('to'), ir.name('to')], [ir.str('amount'), ir.name('amount')]))),
          ir.ret(ir.hashGet('balances', ir.name('to'))),
        ]),
        ir.fn('total', [], [ir.ret(ir.varGet('supply'))]),
      ],
    });
    it('reads Hash defaults, mutates entries and emits events with indexed fields', () => {
      const out = call([token], 'send', {
        kwargs: { to: 'bob', amount: 5n },
        observe: { con_token: { hashes: [{ binding: 'balances', entries: [{ key: 'bob' }, { key: 'amy' }] }], variables: [{ binding: 'supply' }] } },
      });
      assert.equal(out.status, 0, out.error);
      assert.equal(out.result, 5n);
      assert.deepEqual(out.state.con_token!.hashes, [{ binding: 'balances', entries: [{ key: 'bob', value: 5n }, { key: 'amy', value: 0n }] }]);
      assert.deepEqual(out.state.con_token!.variables, [{ binding: 'supply', value: 100n }]);
      assert.deepEqual(out.events, [{ contract: 'con_token', event: 'Transfer', signer: 'alice', caller: 'alice', data_indexed: { to: 'bob' }, data: { amount: 5n } }]);
    });
    it('refuses key parts with the storage delimiter and a payload missing a field', () => {
      assert.equal(call([token], 'send', { kwargs: { to: 'a:b', amount: 1n } }).error, 'Illegal delimiter in key.');
      const bad = ir.module('con_bad', {
        globals: [ir.event('E', 'E', ir.dict([ir.str('x'), ir.name('int')]))],
        functions: [ir.fn('go', [], [ir.expr(ir.emit('E', ir.dict()))])],
      });
      assert.equal(call([bad], 'go').error, "event payload is missing key 'x'");
    });
    it('calls another contract with caller = the calling contract', () => {
      const reader = ir.module('con_reader', {
        imports: [ir.importNode('con_who')],
        functions: [ir.fn('ask', [], [ir.ret(ir.exportCall(ir.staticTarget('con_who'), 'who'))])],
      });
      const who = ir.module('con_who', {
        functions: [ir.fn('who', [], [ir.ret(ir.tuple(ir.name('caller', 'context.caller'), ir.name('signer', 'context.signer'), ir.name('entry', 'context.entry')))])],
      });
      assert.deepEqual(call([reader, who], 'ask').result, ['con_reader', 'alice', ['con_reader', 'ask']]);
    });
    it('reads a ForeignHash of another module and ignores its declared default', () => {
      const other = ir.module('con_other', { globals: [ir.hash('data', ir.int(7))], functions: [ir.fn('noop', [], [ir.pass()])] });
      const viewer = ir.module('con_viewer', {
        globals: [ir.foreign('remote', 'ForeignHash', 'con_other', 'data')],
        functions: [ir.fn('look', [], [ir.ret(ir.hashGet('remote', ir.str('k'), true))])],
      });
      // The sandbox follows upstream's harness: a foreign read of a module present in the
      // request sees that module's value with its own default applied.
      assert.equal(call([viewer, other], 'look').result, 7n);
    });
  });
});
