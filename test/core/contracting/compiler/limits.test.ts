import assert from 'node:assert/strict';
import { compileContract, MAX_SOURCE_BYTES, MAX_SYNTAX_DEPTH } from '../../../../core/contracting/index.js';
import { compiled } from './support.js';

const KIB = 1024;

function onlyDiagnostic(source: string) {
  const result = compileContract('con_big', source);
  assert.ok(!result.ok, 'expected a refusal');
  assert.equal(result.diagnostics.length, 1);
  return result.diagnostics[0]!;
}

/**
 * Work is bounded by the input: pathological sources up to the chain's 128 KiB limit compile or are
 * refused with a diagnostic naming the limit — no hang, no stack overflow (the timeout only catches
 * hangs).
 */
describe('compileContract: bounded work', function () {
  this.timeout(240_000);

  it('refuses brackets nested past the limit before parsing, naming the limit', () => {
    const half = (120 * KIB) / 2;
    for (const [open, close] of [['(', ')'], ['[', ']'], ['{', '}']]) {
      const d = onlyDiagnostic(`x = ${open.repeat(half)}1${close.repeat(half)}\n`);
      assert.equal(d.code, 'xian.syntax.too_deeply_nested');
      assert.match(d.message, new RegExp(`limit of ${MAX_SYNTAX_DEPTH} levels`));
      assert.deepEqual(d.range, { start_line: 1, start_column: 4 + MAX_SYNTAX_DEPTH, end_line: 1, end_column: 5 + MAX_SYNTAX_DEPTH });
    }
    // Brackets inside the fields of an f-string nest too.
    assert.equal(onlyDiagnostic(`x = f'{${'('.repeat(1000)}1${')'.repeat(1000)}}'\n`).code, 'xian.syntax.too_deeply_nested');
    // ...but not inside plain strings or comments.
    compiled(`# ${'('.repeat(5000)}\nx = '${'['.repeat(5000)}'\n@export\ndef f():\n    return x\n`);
  });

  it('refuses expressions nested past the limit (operator chains, unary runs, elif chains)', () => {
    const cases = [
      `@export\ndef f(a: int):\n    return ${'a + '.repeat(30 * KIB)}a\n`,
      `@export\ndef f(a: int):\n    return ${'-'.repeat(120 * KIB)}a\n`,
      `@export\ndef f(a: int):\n    return a${' ** a'.repeat(24 * KIB)}\n`,
      `@export\ndef f(a: int):\n    return a${'.b'.repeat(60 * KIB)}\n`,
      `@export\ndef f(a: int):\n    if a == 0:\n        return 0\n${Array.from({ length: 2500 }, (_, i) => `    elif a == ${i + 1}:\n        return ${i}\n`).join('')}`,
    ];
    for (const source of cases) {
      const d = onlyDiagnostic(source);
      assert.equal(d.code, 'xian.syntax.too_deeply_nested', source.slice(0, 60));
      assert.match(d.message, /limit of \d+ levels/);
    }
  });

  it('compiles nesting within the limit', () => {
    const depth = 100;
    const artifact = compiled(`@export\ndef f(a: int):\n    return ${'('.repeat(depth)}a${')'.repeat(depth)} + ${'-'.repeat(depth)}a\n`);
    assert.equal(artifact.source, `@export\ndef f(a: int):\n    return a + ${'-'.repeat(depth)}a`);
  });

  it('compiles a 120 KiB source of thousands of functions, and one of a single 120 KiB line', () => {
    let many = '';
    for (let i = 0; many.length < 120 * KIB; i++) many += `@export\ndef f${i}(a: int):\n    return f${i + 1}(a) + a\n\n`;
    const artifact = compiled(many);
    assert.ok(JSON.parse(artifact.vm_ir_json).functions.length > 2000);
    const line = compiled(`@export\ndef f():\n    return [${'1, '.repeat(40 * KIB)}1]\n`);
    assert.equal(JSON.parse(line.vm_ir_json).functions[0].body[0].value.elements.length, 40 * KIB + 1);
  });

  it('infers a factory through a chain of thousands of functions (the handle fixpoint)', () => {
    let source = '';
    let i = 0;
    for (; source.length < 120 * KIB; i++) source += `def f${i}(t: str):\n    return f${i + 1}(t)\n\n`;
    source += `def f${i}(t: str):\n    return importlib.import_module(t)\n\n@export\ndef g(t: str):\n    return f0(t).x()\n`;
    const ir = JSON.parse(compiled(source).vm_ir_json);
    const call = ir.functions[ir.functions.length - 1].body[0].value;
    assert.equal(call.contract_target.kind, 'factory_call');
    assert.equal(call.contract_target.factory, 'f0');
  });

  it(`refuses a source over the chain's ${MAX_SOURCE_BYTES} bytes (MAX_CONTRACT_SUBMISSION_BYTES), counted in UTF-8, with its text`, () => {
    assert.equal(MAX_SOURCE_BYTES, 131_072);
    const body = '@export\ndef f():\n    return 1\n#';
    // Exactly at the limit compiles (a 3-byte character straddling the count would not).
    const atLimit = body + 'x'.repeat(MAX_SOURCE_BYTES - Buffer.byteLength(body) - 1) + '\n';
    assert.equal(Buffer.byteLength(atLimit), MAX_SOURCE_BYTES);
    compiled(atLimit);
    const over = body + '€'.repeat(Math.ceil((MAX_SOURCE_BYTES - body.length) / 3)) + '\n';
    assert.ok(over.length < MAX_SOURCE_BYTES, 'fewer characters than bytes');
    const d = onlyDiagnostic(over);
    assert.equal(d.code, 'xian.source.too_large');
    assert.match(d.message, /^Contract source exceeds the maximum allowed size\. /);
    assert.match(d.message, new RegExp(`limit of ${MAX_SOURCE_BYTES} bytes`));
    // The probe: a 262,183-byte source.
    assert.equal(onlyDiagnostic(`x = 1\n${'#'.repeat(262_183 - 7)}\n`).code, 'xian.source.too_large');
  });

  it('accepts long flat chains (and, or, comparisons, not between them) as one level each, as Python does', () => {
    for (const [operator, count] of [[' and ', 399], [' and ', 1900], [' or ', 1900], [' < ', 1900], [' not in ', 600]] as const) {
      const ir = JSON.parse(compiled(`@export\ndef f(a: bool):\n    return ${Array(count).fill('a').join(operator)}\n`).vm_ir_json);
      const value = ir.functions[0].body[0].value;
      if (operator.trim() === 'and' || operator.trim() === 'or') assert.equal(value.values.length, count, operator);
      else assert.equal(value.comparators.length, count - 1, operator);
    }
    // lezer reads `not` as binding looser than `and`/`or` and nests the rest of the chain inside it.
    const mixed = compiled(`@export\ndef f(a: bool):\n    return ${Array(300).fill('a and not a or a < a').join(' or ')}\n`);
    assert.equal(JSON.parse(mixed.vm_ir_json).functions[0].body[0].value.values.length, 600);
  });

  it('refuses a chain past the parser limit for its depth, never as a syntax error, and deep nots still nest', () => {
    for (const source of [
      `@export\ndef f(a: bool):\n    return ${Array(21_000).fill('a').join(' and ')}\n`,
      `@export\ndef f(a: bool):\n    return ${Array(40_000).fill('a').join('<')}\n`,
      `@export\ndef f(a: bool):\n    return ${Array(3000).fill('a and not a or a').join(' or ')}\n`,
    ]) {
      const d = onlyDiagnostic(source);
      assert.equal(d.code, 'xian.syntax.too_deeply_nested', source.slice(0, 60));
      assert.match(d.message, /parser's limit of 2000 levels/);
    }
    assert.equal(onlyDiagnostic(`@export\ndef f(a: bool):\n    return ${'not '.repeat(500)}a\n`).code, 'xian.syntax.too_deeply_nested');
  });
});
