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
 * Work is bounded by the input: pathological 256 KiB sources compile or are refused with a
 * diagnostic naming the limit — no hang, no stack overflow (the timeout only catches hangs).
 */
describe('compileContract: bounded work', function () {
  this.timeout(240_000);

  it('refuses brackets nested past the limit before parsing, naming the limit', () => {
    const half = (256 * KIB) / 2 - 8;
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
      `@export\ndef f(a: int):\n    return ${'a + '.repeat(64 * KIB - 16)}a\n`,
      `@export\ndef f(a: int):\n    return ${'-'.repeat(256 * KIB - 64)}a\n`,
      `@export\ndef f(a: int):\n    return a${' ** a'.repeat(50 * KIB)}\n`,
      `@export\ndef f(a: int):\n    return a${'.b'.repeat(128 * KIB - 32)}\n`,
      `@export\ndef f(a: int):\n    if a == 0:\n        return 0\n${Array.from({ length: 6000 }, (_, i) => `    elif a == ${i + 1}:\n        return ${i}\n`).join('')}`,
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

  it('compiles a 256 KiB source of thousands of functions, and one of a single 256 KiB line', () => {
    let many = '';
    for (let i = 0; many.length < 256 * KIB; i++) many += `@export\ndef f${i}(a: int):\n    return f${i + 1}(a) + a\n\n`;
    const artifact = compiled(many);
    assert.ok(JSON.parse(artifact.vm_ir_json).functions.length > 5000);
    const line = compiled(`@export\ndef f():\n    return [${'1, '.repeat(85 * KIB)}1]\n`);
    assert.equal(JSON.parse(line.vm_ir_json).functions[0].body[0].value.elements.length, 85 * KIB + 1);
  });

  it('infers a factory through a chain of thousands of functions (the handle fixpoint)', () => {
    let source = '';
    let i = 0;
    for (; source.length < 128 * KIB; i++) source += `def f${i}(t: str):\n    return f${i + 1}(t)\n\n`;
    source += `def f${i}(t: str):\n    return importlib.import_module(t)\n\n@export\ndef g(t: str):\n    return f0(t).x()\n`;
    const ir = JSON.parse(compiled(source).vm_ir_json);
    const call = ir.functions[ir.functions.length - 1].body[0].value;
    assert.equal(call.contract_target.kind, 'factory_call');
    assert.equal(call.contract_target.factory, 'f0');
  });

  it(`refuses a source over ${MAX_SOURCE_BYTES} bytes without parsing it`, () => {
    const d = onlyDiagnostic(`x = 1\n${'#'.repeat(MAX_SOURCE_BYTES)}\n`);
    assert.equal(d.code, 'xian.source.too_large');
    assert.match(d.message, new RegExp(`limit of ${MAX_SOURCE_BYTES} bytes`));
  });
});
