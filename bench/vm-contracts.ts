import * as ir from '../test/core/contracting/vm/ir-builder.js';

/**
 * Contracts for bench/vm-execution.ts, written as IR with the test builder until the compiler
 * lands (then they become compiled source): a currency token shaped like the genesis
 * `currency` (transfer, transfer_from, Transfer event) and a reduced DEX — a pairs module
 * holding reserves and a router swapping along a path of pairs with the constant-product
 * formula, moving tokens with cross-contract calls as con_dex does.
 */
type N = Record<string, unknown>;
const caller = ir.name('caller', 'context.caller');
const decimal = (v: N): N => ir.syscall('numeric.decimal.new', ir.name('decimal', 'numeric.decimal.new'), [v]);

export function tokenIr(name: string): N {
  const amount = ir.name('amount');
  const transferEvent = (from: N, to: N): N =>
    ir.expr(ir.emit('TransferEvent', ir.dict([ir.str('from'), from], [ir.str('to'), to], [ir.str('amount'), amount])));
  return ir.module(name, {
    globals: [
      ir.hash('balances', ir.int(0)),
      ir.hash('approvals', ir.int(0)),
      ir.event('TransferEvent', 'Transfer', ir.dict(
        [ir.str('from'), ir.dict([ir.str('type'), ir.name('str')], [ir.str('idx'), ir.bool(true)])],
        [ir.str('to'), ir.dict([ir.str('type'), ir.name('str')], [ir.str('idx'), ir.bool(true)])],
        [ir.str('amount'), ir.dict([ir.str('type'), ir.tuple(ir.name('int'), ir.name('float'), ir.name('decimal', 'numeric.decimal.new'))])],
      )),
    ],
    functions: [
      ir.fn('transfer', [ir.param('amount', 'float'), ir.param('to', 'str')], [
        ir.assertStmt(ir.cmp(amount, ['gt', ir.int(0)]), ir.str('Cannot send negative balances.')),
        ir.assertStmt(ir.cmp(ir.hashGet('balances', caller), ['gt_e', amount]), ir.str('Not enough coins to send.')),
        ir.hashMutate('balances', caller, 'sub', amount),
        ir.hashMutate('balances', ir.name('to'), 'add', amount),
        transferEvent(caller, ir.name('to')),
      ]),
      ir.fn('approve', [ir.param('amount', 'float'), ir.param('to', 'str')], [
        ir.hashSet('approvals', ir.tuple(caller, ir.name('to')), amount),
      ]),
      ir.fn('transfer_from', [ir.param('amount', 'float'), ir.param('to', 'str'), ir.param('main_account', 'str')], [
        ir.assertStmt(ir.cmp(amount, ['gt', ir.int(0)]), ir.str('Cannot send negative balances.')),
        ir.assertStmt(ir.cmp(ir.hashGet('approvals', ir.tuple(ir.name('main_account'), caller)), ['gt_e', amount]), ir.str('Not enough coins approved to send.')),
        ir.assertStmt(ir.cmp(ir.hashGet('balances', ir.name('main_account')), ['gt_e', amount]), ir.str('Not enough coins to send.')),
        ir.hashMutate('approvals', ir.tuple(ir.name('main_account'), caller), 'sub', amount),
        ir.hashMutate('balances', ir.name('main_account'), 'sub', amount),
        ir.hashMutate('balances', ir.name('to'), 'add', amount),
        transferEvent(ir.name('main_account'), ir.name('to')),
      ]),
    ],
  });
}

/** `con_vm_pairs`: reserves per pair; `swap` pays out through the token contract. */
export function pairsIr(): N {
  const pair = ir.name('pair');
  const field = (f: string): N => ir.hashGet('pairs', ir.tuple(pair, ir.str(f)));
  const token = (f: string): N => ir.call(ir.attr(ir.name('importlib', 'module.importlib'), 'import_module', 'contract.import'), [field(f)], [], { syscall_id: 'contract.import' });
  return ir.module('con_vm_pairs', {
    globals: [ir.hash('pairs')],
    functions: [
      ir.fn('create', [ir.param('pair', 'int'), ir.param('token0', 'str'), ir.param('token1', 'str'), ir.param('reserve0', 'float'), ir.param('reserve1', 'float')], [
        ir.hashSet('pairs', ir.tuple(pair, ir.str('token0')), ir.name('token0')),
        ir.hashSet('pairs', ir.tuple(pair, ir.str('token1')), ir.name('token1')),
        ir.hashSet('pairs', ir.tuple(pair, ir.str('reserve0')), ir.name('reserve0')),
        ir.hashSet('pairs', ir.tuple(pair, ir.str('reserve1')), ir.name('reserve1')),
      ]),
      ir.fn('swap', [ir.param('pair', 'int'), ir.param('amount_in', 'float'), ir.param('amount_out', 'float'), ir.param('zero_for_one', 'bool'), ir.param('to', 'str')], [
        ir.ifStmt(ir.name('zero_for_one'), [
          ir.hashMutate('pairs', ir.tuple(pair, ir.str('reserve0')), 'add', ir.name('amount_in')),
          ir.hashMutate('pairs', ir.tuple(pair, ir.str('reserve1')), 'sub', ir.name('amount_out')),
          ir.expr(ir.exportCall(ir.dynamicTarget(token('token1')), 'transfer', [], [ir.kw('amount', ir.name('amount_out')), ir.kw('to', ir.name('to'))])),
        ], [
          ir.hashMutate('pairs', ir.tuple(pair, ir.str('reserve1')), 'add', ir.name('amount_in')),
          ir.hashMutate('pairs', ir.tuple(pair, ir.str('reserve0')), 'sub', ir.name('amount_out')),
          ir.expr(ir.exportCall(ir.dynamicTarget(token('token0')), 'transfer', [], [ir.kw('amount', ir.name('amount_out')), ir.kw('to', ir.name('to'))])),
        ]),
      ]),
    ],
  });
}

/** `con_vm_router.swap(amount_in, path, src)`: constant-product amounts with a 0.3 % fee along `path`. */
export function routerIr(): N {
  const pairs = (pair: N, f: string): N => ir.hashGet('pairs', ir.tuple(pair, ir.str(f)), true);
  const p = ir.name('p');
  return ir.module('con_vm_router', {
    imports: [ir.importNode('con_vm_pairs')],
    globals: [ir.foreign('pairs', 'ForeignHash', 'con_vm_pairs', 'pairs')],
    functions: [
      ir.fn('swap', [ir.param('amount_in', 'float'), ir.param('path', 'list'), ir.param('src', 'str')], [
        ir.expr(ir.exportCall(ir.dynamicTarget(ir.call(ir.attr(ir.name('importlib', 'module.importlib'), 'import_module', 'contract.import'), [ir.name('src')], [], { syscall_id: 'contract.import' })),
          'transfer_from', [], [ir.kw('amount', ir.name('amount_in')), ir.kw('to', ir.str('con_vm_pairs')), ir.kw('main_account', caller)])),
        ir.assign(ir.name('current'), ir.name('src')),
        ir.assign(ir.name('amount'), decimal(ir.name('amount_in'))),
        ir.assign(ir.name('hops'), ir.call(ir.name('len'), [ir.name('path')])),
        ir.assign(ir.name('i'), ir.int(0)),
        ir.forStmt(p, ir.name('path'), [
          ir.assign(ir.name('forward'), ir.cmp(pairs(p, 'token0'), ['eq', ir.name('current')])),
          ir.assign(ir.name('reserve_in'), ir.ifExpr(ir.name('forward'), pairs(p, 'reserve0'), pairs(p, 'reserve1'))),
          ir.assign(ir.name('reserve_out'), ir.ifExpr(ir.name('forward'), pairs(p, 'reserve1'), pairs(p, 'reserve0'))),
          ir.assign(ir.name('with_fee'), ir.bin(ir.name('amount'), 'mul', ir.float('0.997'))),
          ir.assign(ir.name('out'), ir.bin(ir.bin(ir.name('with_fee'), 'mul', ir.name('reserve_out')), 'div', ir.bin(ir.name('reserve_in'), 'add', ir.name('with_fee')))),
          ir.augAssign(ir.name('i'), 'add', ir.int(1)),
          ir.expr(ir.exportCall(ir.staticTarget('con_vm_pairs'), 'swap', [], [
            ir.kw('pair', p), ir.kw('amount_in', ir.name('amount')), ir.kw('amount_out', ir.name('out')), ir.kw('zero_for_one', ir.name('forward')),
            ir.kw('to', ir.ifExpr(ir.cmp(ir.name('i'), ['eq', ir.name('hops')]), caller, ir.str('con_vm_pairs'))),
          ])),
          ir.assign(ir.name('current'), ir.ifExpr(ir.name('forward'), pairs(p, 'token1'), pairs(p, 'token0'))),
          ir.assign(ir.name('amount'), ir.name('out')),
        ]),
        ir.ret(ir.name('amount')),
      ]),
    ],
  });
}
