import assert from 'node:assert/strict';
import { diag, EXPORTED, refused } from './support.js';

const ALLOWED = 'Any, bool, bytearray, bytes, datetime.datetime, datetime.timedelta, dict, float, frozenset, int, list, set, str';

/**
 * Every lint rule of the chain's linter (contracting-vm.md a.3) with its code, message and range in
 * the submitted text; lint is always on, so each finding refuses the contract.
 */
describe('compileContract: lint rules', () => {
  const lint = (source: string) => refused(source);

  it('E001: augmented multiplication, at the statement', () => {
    assert.deepEqual(lint('@export\ndef f(a: int):\n    a *= 2\n    return a\n'), [
      diag('xian.lint.E001', 'Illegal syntax: Augmented multiplication is not allowed; use x = x * y', '3:4-3:10'),
    ]);
  });

  it('E001: a compound statement whose first body statement shares its line (an else-line body is not caught)', () => {
    const source = '@export\ndef f(a: int):\n    if a: return 1\n    else: return 2\n\ndef g(): return 3\n\ndef h(a: int):\n    for x in a: pass\n    while a: break\n';
    assert.deepEqual(lint(source), [
      diag('xian.lint.E001', 'Illegal syntax: Single-line compound statements are not allowed', '3:10-3:18'),
      diag('xian.lint.E001', 'Illegal syntax: Single-line compound statements are not allowed', '6:9-6:17'),
      diag('xian.lint.E001', 'Illegal syntax: Single-line compound statements are not allowed', '9:16-9:20'),
      diag('xian.lint.E001', 'Illegal syntax: Single-line compound statements are not allowed', '10:13-10:18'),
    ]);
  });

  it('E002: a name or attribute starting or ending with an underscore (the attribute at the whole attribute expression)', () => {
    assert.deepEqual(lint('@export\ndef f():\n    return _x + y_.z_\n'), [
      diag('xian.lint.E002', "Name '_x' must not start or end with underscore", '3:11-3:13'),
      diag('xian.lint.E002', "Name 'z_' must not start or end with underscore", '3:16-3:21'),
      diag('xian.lint.E002', "Name 'y_' must not start or end with underscore", '3:16-3:18'),
    ]);
  });

  it('E003: an import inside a function', () => {
    assert.deepEqual(lint('@export\ndef f():\n    import token\n    return 1\n'), [
      diag('xian.lint.E003', 'Imports are not allowed inside functions', '3:4-3:16'),
    ]);
  });

  it('E005: importing a stdlib module (by the first dotted part), at the statement', () => {
    assert.deepEqual(lint(`import os.path, currency, json as j${EXPORTED}`), [
      diag('xian.lint.E005', "Cannot import stdlib module 'os.path'", '1:0-1:35'),
      diag('xian.lint.E005', "Cannot import stdlib module 'json'", '1:0-1:35'),
    ]);
  });

  it('E008: a decorator other than export/construct, at the decorator expression', () => {
    assert.deepEqual(lint(`@other\ndef f():\n    pass\n\n@a.b\ndef g():\n    pass${EXPORTED}`), [
      diag('xian.lint.E008', "Invalid decorator 'other'; must be 'export' or 'construct'", '1:1-1:6'),
      diag('xian.lint.E008', "Invalid decorator '<complex>'; must be 'export' or 'construct'", '5:1-5:4'),
    ]);
  });

  it('E009: a second @construct, at its function', () => {
    assert.deepEqual(lint(`@construct\ndef a():\n    pass\n\n@construct\ndef b():\n    pass${EXPORTED}`), [
      diag('xian.lint.E009', 'Multiple @construct decorators found; only one allowed', '6:0-7:8'),
    ]);
  });

  it('E010: more than one decorator, at the function (from def to its last statement)', () => {
    assert.deepEqual(lint('@export\n@construct\ndef f():\n    pass\n'), [
      diag('xian.lint.E010', 'Functions may have at most one decorator', '3:0-4:8'),
    ]);
  });

  it('E011: contract= or name= passed to Variable, Hash or LogEvent, at the keyword', () => {
    assert.deepEqual(lint(`v = Variable(contract='c', name='n')\nf = ForeignHash(contract='c')${EXPORTED}`), [
      diag('xian.lint.E011', "Cannot pass 'contract' to Variable; it is set automatically", '1:13-1:25'),
      diag('xian.lint.E011', "Cannot pass 'name' to Variable; it is set automatically", '1:27-1:35'),
    ]);
  });

  it('E012: an ORM constructor assigned to a tuple, at the statement', () => {
    assert.deepEqual(lint(`a, b = Hash()${EXPORTED}`), [diag('xian.lint.E012', 'Tuple unpacking on ORM assignment is not allowed', '1:0-1:13')]);
  });

  it('E013: no @export function, at the first function, else 1:0-1:0', () => {
    assert.deepEqual(lint('x = 1\n\ndef f():\n    return x\n'), [diag('xian.lint.E013', 'Contract must have at least one @export function', '3:0-4:12')]);
    assert.deepEqual(lint('x = 1\n'), [diag('xian.lint.E013', 'Contract must have at least one @export function', '1:0-1:0')]);
  });

  it('E014: a disallowed builtin call (at the call), any use of rt, an ORM class as a value (at the statement)', () => {
    assert.deepEqual(lint(`x = Variable\n@export\ndef f():\n    print(rt)\n    return enumerate([1])`), [
      diag('xian.lint.E014', "'Variable' is not allowed in smart contracts", '1:0-1:12'),
      diag('xian.lint.E014', "'print' is not allowed in smart contracts", '4:4-4:13'),
      diag('xian.lint.E014', "'rt' is not allowed in smart contracts", '4:10-4:12'),
      diag('xian.lint.E014', "'enumerate' is not allowed in smart contracts", '5:11-5:25'),
    ]);
  });

  it('E015: an @export parameter named like a module-level ORM variable, at the parameter', () => {
    assert.deepEqual(lint('balances = Hash()\n\n@export\ndef f(balances: str):\n    return 1\n'), [
      diag('xian.lint.E015', "Argument 'balances' shadows ORM variable defined at module level", '4:6-4:19'),
    ]);
  });

  it('E016 and E017: @export parameter annotations (allowed base before [, string annotations by content), at the parameter (a vararg spans its name, not the star)', () => {
    const source = "@export\ndef f(a: Foo, b, c: list[str], d: 'int', e: Decimal[int], *rest: tuple):\n    return 1\n";
    assert.deepEqual(lint(source), [
      diag('xian.lint.E016', `Type annotation 'Foo' is not allowed; use one of: ${ALLOWED}`, '2:6-2:12'),
      diag('xian.lint.E017', 'All @export function arguments must have type annotations', '2:14-2:15'),
      diag('xian.lint.E016', `Type annotation 'Decimal[int]' is not allowed; use one of: ${ALLOWED}`, '2:41-2:56'),
      diag('xian.lint.E016', `Type annotation 'tuple' is not allowed; use one of: ${ALLOWED}`, '2:59-2:70'),
    ]);
  });

  it('E018: an @export return annotation not allowed, at the function', () => {
    assert.deepEqual(lint('@export\ndef f() -> Foo:\n    return 1\n'), [
      diag('xian.lint.E018', `Return type annotation 'Foo' is not allowed; use one of: ${ALLOWED}`, '2:0-3:12'),
    ]);
  });

  it('E019: a nested def, at the inner function (its body unvisited)', () => {
    assert.deepEqual(lint('@export\ndef f():\n    def g():\n        return _x\n    return 1\n'), [
      diag('xian.lint.E019', 'Nested function definitions are not allowed', '3:4-4:17'),
    ]);
  });

  it('E021: decorator arguments', () => {
    const source = '@construct(1)\ndef a():\n    pass\n\n@export(1, strict=True, typecheck=1)\ndef b():\n    pass\n';
    assert.deepEqual(lint(source), [
      diag('xian.lint.E021', "Invalid decorator arguments for 'construct': @construct does not accept arguments", '1:1-1:13'),
      diag('xian.lint.E021', "Invalid decorator arguments for 'export': @export accepts keyword arguments only", '5:1-5:36'),
      diag('xian.lint.E021', "Invalid decorator arguments for 'export': only 'typecheck' is supported", '5:11-5:22'),
      diag('xian.lint.E021', "Invalid decorator arguments for 'export': 'typecheck' must be True or False", '5:34-5:35'),
    ]);
  });

  it('collects every finding, sorted by line, column and code', () => {
    const diagnostics = lint('import os\n@export\ndef f(a):\n    a *= _b\n    return a\n');
    assert.deepEqual(diagnostics.map((d) => [d.code, d.range?.start_line, d.range?.start_column]), [
      ['xian.lint.E005', 1, 0],
      ['xian.lint.E017', 3, 6],
      ['xian.lint.E001', 4, 4],
      ['xian.lint.E002', 4, 9],
    ]);
  });
});
