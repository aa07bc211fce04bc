import assert from 'node:assert/strict';
import { diag, EXPORTED, refused } from './support.js';

const unsupported = (category: string, code: string, message: string, range: string) =>
  diag(`xian.syntax.unsupported_${category}.${code}`, message, range);

/**
 * The syntax subset (contracting-vm.md a.2): every construct outside it is refused with
 * `xian.syntax.unsupported_<category>.<code>` at its range, all of them collected; parse errors and
 * IR lowering errors with their codes.
 */
describe('compileContract: syntax refusals', () => {
  it('refuses every statement outside the subset, each at its statement, all collected in order', () => {
    const source = [
      'async def a():',
      '    pass',
      'class B:',
      '    pass',
      'del x',
      'type T = int',
      'y: int = 1',
      'def c():',
      '    async for i in j:',
      '        pass',
      '    nonlocal n',
      'with w:',
      '    pass',
      'match m:',
      '    case 1:',
      '        pass',
      'try:',
      '    pass',
      'except E:',
      '    pass',
      'from a import b',
      'global g',
      '',
    ].join('\n');
    assert.deepEqual(refused(source), [
      unsupported('statement', 'async_function_def', 'async functions are not supported', '1:0-2:8'),
      unsupported('statement', 'class_def', 'class definitions are not supported', '3:0-4:8'),
      unsupported('statement', 'delete', 'delete statements are not supported', '5:0-5:5'),
      unsupported('statement', 'type_alias', 'type aliases are not supported', '6:0-6:12'),
      unsupported('statement', 'ann_assign', 'annotated assignments are not supported', '7:0-7:10'),
      unsupported('statement', 'async_for', 'async for loops are not supported', '9:4-10:12'),
      unsupported('statement', 'nonlocal', 'nonlocal statements are not supported', '11:4-11:14'),
      unsupported('statement', 'with', 'with statements are not supported', '12:0-13:8'),
      unsupported('statement', 'match', 'match statements are not supported', '14:0-16:12'),
      unsupported('statement', 'try', 'try statements are not supported', '17:0-20:8'),
      unsupported('statement', 'import_from', 'from-import statements are not supported', '21:0-21:15'),
      unsupported('statement', 'global', 'global statements are not supported', '22:0-22:8'),
    ]);
  });

  it('refuses every expression, constant and operator outside the subset, at its own range', () => {
    const source = [
      'a = (n := 1)',
      'b = lambda: 1',
      'c = {1, 2}',
      'd = {x for x in y}',
      'e = (x for x in y)',
      'f = await z',
      'g = yield 1',
      'h(*args)',
      'i = 1j',
      'j = ...',
      'k = l @ m',
      'k @= m',
      'yield',
      '',
    ].join('\n');
    assert.deepEqual(refused(source), [
      unsupported('expression', 'named_expr', 'assignment expressions are not supported', '1:5-1:11'),
      unsupported('expression', 'lambda', 'lambda expressions are not supported', '2:4-2:13'),
      unsupported('expression', 'set', 'set literals are not supported', '3:4-3:10'),
      unsupported('expression', 'set_comp', 'set comprehensions are not supported', '4:4-4:18'),
      unsupported('expression', 'generator_exp', 'generator expressions are not supported', '5:4-5:18'),
      unsupported('expression', 'await', 'await expressions are not supported', '6:4-6:11'),
      unsupported('expression', 'yield', 'yield expressions are not supported', '7:4-7:11'),
      unsupported('expression', 'starred', 'starred expressions are not supported', '8:2-8:7'),
      unsupported('constant', 'complex', 'complex constants are not supported', '9:4-9:6'),
      unsupported('constant', 'ellipsis', 'ellipsis constants are not supported', '10:4-10:7'),
      unsupported('operator', 'mat_mult', 'matrix multiplication is not supported', '11:4-11:9'),
      unsupported('operator', 'mat_mult', 'matrix multiplication is not supported', '12:0-12:6'),
      unsupported('expression', 'yield', 'yield expressions are not supported', '13:0-13:5'),
    ]);
  });

  it('reports the first refused construct of a statement and drops the statement (its body unvisited)', () => {
    const source = 'x = [lambda: 1, {1}]\n@decorator(lambda: 2)\ndef f():\n    y = {2}\n';
    assert.deepEqual(refused(source), [
      unsupported('expression', 'lambda', 'lambda expressions are not supported', '1:5-1:14'),
      unsupported('expression', 'lambda', 'lambda expressions are not supported', '2:11-2:20'),
    ]);
  });

  it('a generator as the only call argument spans the element and its clauses, without the call parentheses', () => {
    assert.deepEqual(refused(`x = sum(v for v in w)${EXPORTED}`), [
      unsupported('expression', 'generator_exp', 'generator expressions are not supported', '1:8-1:20'),
    ]);
  });

  it('a parse error is one xian.syntax.parse_error marking one character', () => {
    const [d, ...rest] = refused('def broken(:\n');
    assert.equal(rest.length, 0);
    assert.equal(d!.code, 'xian.syntax.parse_error');
    assert.deepEqual(d!.range, { start_line: 1, start_column: 11, end_line: 1, end_column: 12 });
  });

  it('invalid Python the parser recovers from is still a parse error: targets, argument order, escapes, print statements', () => {
    for (const [source, line, column] of [
      ['f() = 1\n', 1, 0],
      ['x = f(a=1, b)\n', 1, 11],
      ["x = b'\\xZZ'\n", 1, 6],
      ["x = 'é' b'a'\n", 1, 8],
      ['print x\n', 1, 6],
      ['x = 012\n', 1, 4],
      ['def f(a=1, b):\n    pass\n', 1, 11],
      ["x = f'{a!x}'\n", 1, 8],
      ['x = 1.e-5\n', 1, 4],
      ['x = 1.real\n', 1, 4],
    ] as const) {
      const diagnostics = refused(source);
      assert.deepEqual(
        diagnostics.map((d) => [d.code, d.range?.start_line, d.range?.start_column]),
        [['xian.syntax.parse_error', line, column]],
        source,
      );
    }
  });

  it('an f-string expression holding a backslash is a parse error, also when normalization puts one there', () => {
    assert.equal(refused("x = f'{\"\\n\"}'\n")[0]!.code, 'xian.syntax.parse_error');
    // Upstream's normalizer escapes the quotes of a string inside an f-string field, and its parser
    // refuses the normalized text: such a contract cannot be compiled on the chain either.
    const diagnostics = refused(`@export\ndef f(d: dict):\n    return f"{d['k']}"\n`);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.range?.start_line]), [['xian.syntax.parse_error', 3]]);
  });
});

describe('compileContract: IR lowering errors (xian.ir.lowering_error, at spans of the normalized text)', () => {
  const lowering = (source: string) => refused(source);
  const error = (message: string, range?: string) => diag('xian.ir.lowering_error', message, range);

  it('module-level assignments: one named target only', () => {
    assert.deepEqual(lowering(`a = b = 1${EXPORTED}`), [error('multi-target module assignments are not supported in Xian IR', '1:0-1:9')]);
    assert.deepEqual(lowering(`x[0] = 1${EXPORTED}`), [error('module-level declarations must assign into a named binding', '1:0-1:4')]);
  });

  it('LogEvent declarations need a constant event name and a params schema', () => {
    assert.deepEqual(lowering(`E = LogEvent('E')${EXPORTED}`), [
      error('LogEvent declarations must use a constant string event name', '1:4-1:17'),
    ]);
    assert.deepEqual(lowering(`E = LogEvent(event='E')${EXPORTED}`), [
      error('LogEvent declarations must include a params schema', '1:4-1:23'),
    ]);
  });

  it('positional-only parameters', () => {
    assert.deepEqual(lowering(`def g(a, /):\n    return a${EXPORTED}`), [
      error('positional-only arguments are not supported in Xian IR', '1:6-1:7'),
    ]);
  });

  it('async comprehensions, at the comprehension', () => {
    assert.deepEqual(lowering('@export\ndef f(y: list):\n    return [x async for x in y]\n'), [
      error('async comprehensions are not supported in Xian IR', '3:11-3:31'),
    ]);
  });

  it('a def or import nested in a module-level block', () => {
    assert.deepEqual(lowering(`if x:\n    import token${EXPORTED}`), [error('unsupported statement position in Xian IR', '2:4-2:16')]);
  });
});
