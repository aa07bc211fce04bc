import assert from 'node:assert/strict';
import nacl from 'tweetnacl';
import { runVm } from '../../../../core/contracting/vm/index.js';
import * as ir from './ir-builder.js';
import { call } from './helpers.js';

/** The remaining node kinds, host bindings and syscalls, each in a contract of its own. */
type N = Record<string, unknown>;
const ctx = (field: string) => ir.name(field, `context.${field}`);
const env = (field: string) => ir.name(field, `env.${field}`);
const importlib = (fn: string, id: string, args: N[], keywords: N[] = []) =>
  ir.syscall(id, ir.attr(ir.name('importlib', 'module.importlib'), fn, id), args, keywords);

function run(functions: N[], fn: string, extra: { globals?: N[]; body?: N[]; others?: N[]; options?: Parameters<typeof call>[2] } = {}) {
  const m = ir.module('con_cover', { globals: extra.globals, functions, body: extra.body });
  return call([m, ...(extra.others ?? [])], fn, extra.options ?? {});
}

describe('VM coverage of node kinds and syscalls', () => {
  it('evaluates binding declarations, the module body and module-level mutation through methods', () => {
    const out = run([ir.fn('probe', [], [ir.expr(ir.call(ir.attr(ir.name('log'), 'append'), [ir.int(2)])), ir.ret(ir.name('log'))])], 'probe', {
      globals: [ir.binding('log', ir.list(ir.int(0)))],
      body: [ir.expr(ir.call(ir.attr(ir.name('log'), 'append'), [ir.int(1)]))],
    });
    assert.deepEqual(out.result, [0n, 1n, 2n]);
  });

  it('unpacks dicts and keywords, destructures lists and updates subscripts in place', () => {
    const helper = ir.fn('helper', [ir.param('a'), ir.param('b')], [ir.ret(ir.bin(ir.name('a'), 'sub', ir.name('b')))], 'private');
    const out = run([helper, ir.fn('probe', [], [
      ir.assign(ir.name('d'), ir.dict([ir.str('a'), ir.int(9)])),
      ir.assign(ir.name('e'), { node: 'dict', entries: [ir.dictUnpack(ir.name('d')), { key: ir.str('b'), value: ir.int(4) }] }),
      ir.assign(ir.tupleTarget(ir.name('x'), ir.name('y')), ir.list(ir.int(1), ir.int(2))),
      ir.assign(ir.sub(ir.name('e'), ir.str('a')), ir.int(10)),
      ir.augAssign(ir.sub(ir.name('e'), ir.str('b')), 'mul', ir.int(2)),
      ir.ret(ir.tuple(ir.call(ir.name('helper'), [], [ir.kwUnpack(ir.name('e'))]), ir.name('x'), ir.name('y'), ir.name('e'))),
    ])], 'probe');
    assert.deepEqual(out.result, [2n, 1n, 2n, { a: 10n, b: 8n }]);
  });

  it('runs unary, boolean and conditional operators with Python results', () => {
    const out = run([ir.fn('probe', [], [ir.ret(ir.tuple(
      ir.unary('not', ir.str('')), ir.unary('invert', ir.int(5)), ir.unary('pos', ir.int(3)),
      ir.boolOp('or', ir.int(0), ir.str(''), ir.str('x')), ir.boolOp('and', ir.int(1), ir.int(0)),
      ir.ifExpr(ir.list(), ir.str('yes'), ir.str('no')), ir.cmp(ir.none(), ['is', ir.none()]),
      ir.bin(ir.int(6), 'bitand', ir.int(3)), ir.bin(ir.int(1), 'lshift', ir.int(4)),
    ))])], 'probe');
    assert.deepEqual(out.result, [true, -6n, 3n, 'x', 0n, 'no', true, 2n, 16n]);
  });

  it('refuses attribute assignment, a bare slice and the unsupported random syscalls', () => {
    assert.equal(run([ir.fn('probe', [], [ir.assign(ir.attr(ir.name('x'), 'y'), ir.int(1))])], 'probe').error,
      'attribute assignment is not yet supported in xian-vm-core');
    assert.equal(run([ir.fn('probe', [], [ir.ret(ir.slice(null, null))])], 'probe').error, 'slice expressions are only supported as subscripts');
    const randint = ir.syscall('random.randint', ir.attr(ir.name('random', 'module.random'), 'randint', 'random.randint'), [ir.int(1), ir.int(2)]);
    assert.equal(run([ir.fn('probe', [], [ir.ret(randint)])], 'probe').error, "unsupported host syscall 'random.randint'");
    assert.equal(run([ir.fn('probe', [], [ir.raise(ir.name('Exception'), ir.call(ir.name('nothing')))])], 'probe').error, "unknown name 'nothing'");
  });

  it('exposes context and environment bindings', () => {
    const out = run([ir.fn('probe', [], [ir.ret(ir.tuple(
      ctx('this'), ctx('owner'), ctx('submission_name'), env('block_num'), env('block_hash'), env('chain_id'),
      ir.attr(env('now'), 'year'), ir.attr(ir.attr(ir.name('datetime', 'module.datetime'), 'DAYS', 'time.days'), 'hours'),
    ))])], 'probe', {
      options: { context: { caller: 'alice', signer: 'alice', block_num: 9n, block_hash: 'h', chain_id: 'c', submission_name: 's', now: { __vm_type__: 'datetime', parts: [2030n, 1n, 1n, 0n, 0n, 0n, 0n] } } },
    });
    assert.deepEqual(out.result, ['con_cover', null, 's', 9n, 'h', 'c', 2030n, 24n]);
  });

  it('answers the contract reflection syscalls and imports contracts dynamically', () => {
    const other = ir.module('con_other', { functions: [ir.fn('get', [ir.param('k')], [ir.ret(ir.bin(ir.name('k'), 'mul', ir.int(2)))]), ir.fn('inner', [], [ir.pass()], 'private')] });
    const handle = importlib('import_module', 'contract.import', [ir.str('con_other')]);
    const out = run([ir.fn('probe', [], [ir.ret(ir.tuple(
      importlib('exists', 'contract.exists', [ir.str('con_other')]),
      importlib('exists', 'contract.exists', [ir.str('con_missing')]),
      importlib('has_export', 'contract.has_export', [ir.str('con_other'), ir.str('inner')]),
      importlib('enforce_interface', 'contract.enforce_interface', [ir.str('con_other'), ir.list(importlib('Func', 'contract.interface.func', [ir.str('get')], [ir.kw('args', ir.tuple(ir.str('k')))]), importlib('Var', 'contract.interface.var', [ir.str('v'), ir.name('int')]))]),
      ir.exportCall(ir.dynamicTarget(handle), 'get', [ir.int(21)]),
      importlib('call', 'contract.call', [ir.str('con_other'), ir.str('get'), ir.dict([ir.str('k'), ir.int(5)])]),
    ))])], 'probe', { others: [other] });
    assert.equal(out.status, 0, out.error);
    assert.deepEqual(out.result, [true, false, false, true, 42n, 10n]);
  });

  it('enforces a module owner as upstream harness does', () => {
    const m = ir.module('con_owned', { functions: [ir.fn('f', [], [ir.ret(ir.int(1))])] });
    const out = (caller: string) => runVmOwned(m, caller);
    assert.equal(out('mallory').error, 'Caller is not the owner!');
    assert.equal(out('boss').result, 1n);
  });

  it('verifies Ed25519 signatures and key shapes', () => {
    const pair = nacl.sign.keyPair.fromSeed(new Uint8Array(32).fill(7));
    const vk = Buffer.from(pair.publicKey).toString('hex');
    const sig = Buffer.from(nacl.sign.detached(Buffer.from('hello'), pair.secretKey)).toString('hex');
    const verify = (message: string) => ir.syscall('crypto.ed25519_verify', ir.attr(ir.name('crypto', 'module.crypto'), 'verify', 'crypto.ed25519_verify'), [ir.str(vk), ir.str(message), ir.str(sig)]);
    const out = run([ir.fn('probe', [], [ir.ret(ir.tuple(verify('hello'), verify('hellO'),
      ir.syscall('crypto.key_is_valid', ir.attr(ir.name('crypto', 'module.crypto'), 'key_is_valid', 'crypto.key_is_valid'), [ir.str(vk)])))])], 'probe');
    assert.deepEqual(out.result, [true, false, true]);
  });

  it('reads ForeignVariables, scans Hash prefixes and stores multi-part keys', () => {
    const source = ir.module('con_src', { globals: [ir.variable('price', ir.int(3))], functions: [ir.fn('noop', [], [ir.pass()])] });
    const out = run([ir.fn('probe', [], [
      ir.hashSet('book', ir.tuple(ir.str('a'), ir.str('x')), ir.int(1)),
      ir.hashSet('book', ir.tuple(ir.str('a'), ir.str('y')), ir.int(2)),
      ir.hashSet('book', ir.tuple(ir.str('b'), ir.str('x')), ir.int(3)),
      ir.ret(ir.tuple(ir.foreignVarGet('remote'), ir.hashAll('book', ir.str('a')), ir.hashGet('book', ir.tuple(ir.str('b'), ir.str('x'))))),
    ])], 'probe', { globals: [ir.hash('book'), ir.foreign('remote', 'ForeignVariable', 'con_src', 'price')], others: [source] });
    assert.equal(out.status, 0, out.error);
    assert.deepEqual(out.result, [3n, [1n, 2n], 3n]);
  });

  it('handles bytes, bytearrays and sets as values', () => {
    const out = run([ir.fn('probe', [], [
      ir.assign(ir.name('b'), ir.call(ir.name('bytearray'), [ir.bytes('0102')])),
      ir.expr(ir.call(ir.attr(ir.name('b'), 'append'), [ir.int(255)])),
      ir.assign(ir.name('s'), ir.call(ir.name('set'))),
      ir.expr(ir.call(ir.attr(ir.name('s'), 'add'), [ir.str('z')])),
      ir.expr(ir.call(ir.attr(ir.name('s'), 'add'), [ir.str('a')])),
      ir.ret(ir.tuple(ir.call(ir.attr(ir.name('b'), 'hex')), ir.name('s'), ir.call(ir.name('frozenset'), [ir.list(ir.int(2), ir.int(1))]), ir.call(ir.name('len'), [ir.bytes('00ff')]))),
    ])], 'probe');
    assert.deepEqual(out.result, ['0102ff', { __set__: ['a', 'z'] }, { __frozenset__: [1n, 2n] }, 2n]);
  });
});

function runVmOwned(module: N, caller: string) {
  return runVm({
    modules: [{ module_name: module.module_name, ir: module, owner: 'boss' }],
    call: { module: module.module_name, function: 'f' },
    context: { caller, signer: caller },
  });
}
