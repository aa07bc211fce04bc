import assert from 'node:assert/strict';
import { compiled } from './support.js';

/** The body of an exported function as the chain normalizes it (contracting-vm.md b.1). */
function normalizedBody(lines: string[]): string[] {
  const source = `@export\ndef f(a: int, b: int, c: int, d: int):\n${lines.map((l) => `    ${l}`).join('\n')}\n`;
  return compiled(source).source.split('\n').slice(2).map((l) => l.replace(/^ {4}/, ''));
}

describe('compileContract: the normalized source', () => {
  it('drops comments and blank lines, keeps one blank line before each top-level def, no trailing newline', () => {
    const source = '# header\n\n\nx = 1   # one\ny = 2\n\n\n\n@export\ndef f():\n\n    # inside\n    return x\ndef g():\n    return y\n';
    assert.equal(compiled(source).source, 'x = 1\ny = 2\n\n@export\ndef f():\n    return x\n\ndef g():\n    return y');
  });

  it('prints numbers by value: ints in decimal, floats as upstream formats them (no exponent at or above 1e-4)', () => {
    assert.deepEqual(
      normalizedBody(['return [0x10, 0o17, 0b11, 1_000, 1e20, 2.50, .5, 0.00001, 1.5e-7, 1e-4, 123456789012345678901234567890]']),
      ['return [16, 15, 3, 1000, 100000000000000000000.0, 2.5, 0.5, 1e-05, 1.5e-07, 0.0001, 123456789012345678901234567890]'],
    );
  });

  it('reads a float written with a trailing dot (1., 1.e5) as that number', () => {
    assert.deepEqual(normalizedBody(['return [1., 1.e5, (2.)]']), ['return [1.0, 100000.0, 2.0]']);
  });

  it('quotes strings with single quotes unless the text holds only the other kind; escapes \\\\, the quote, \\n \\r \\t, controls as \\uXXXX', () => {
    assert.deepEqual(
      normalizedBody([`return ["it's", 'say "hi"', 'both \\' "', "tab\\t\\r\\n", '\\x01\\x7f', 'é✓', r'\\d', b'ab', 'a' "b"]`]),
      [`return ["it's", 'say "hi"', 'both \\' "', 'tab\\t\\r\\n', '\\u0001\\u007f', 'é✓', '\\\\d', b'\\x61\\x62', 'ab']`],
    );
  });

  it('prints docstrings that span lines triple-quoted, others as strings', () => {
    const source = '"""Module\ndoc"""\n@export\ndef f():\n    """One line."""\n    return 1\n';
    assert.equal(compiled(source).source, '"""Module\ndoc"""\n\n@export\ndef f():\n    \'One line.\'\n    return 1');
  });

  it('parenthesizes only where precedence needs it', () => {
    assert.deepEqual(
      normalizedBody([
        'x = (a + b) * c',
        'x = a + (b * c)',
        'x = (a ** b) ** c',
        'x = a ** (b ** c)',
        'x = (-a) ** b',
        'x = -(a + b)',
        'x = not (a and b)',
        'x = (a or b) and c',
        'x = (a and b) or c',
        'x = a or (b and c)',
        'x = a if b else (c if d else a)',
        'x = (a < b) == c',
        'x = (a if b else c).d',
        'x = a - (b - c)',
        'x = (a).b[c](d)',
      ]),
      [
        'x = (a + b) * c',
        'x = a + b * c',
        'x = (a ** b) ** c',
        'x = a ** b ** c',
        'x = (-a) ** b',
        'x = -(a + b)',
        'x = not (a and b)',
        'x = (a or b) and c',
        'x = a and b or c',
        'x = a or (b and c)',
        'x = a if b else (c if d else a)',
        'x = (a < b) == c',
        'x = (a if b else c).d',
        'x = a - (b - c)',
        'x = a.b[c](d)',
      ],
    );
  });

  it('prints elif for an else holding exactly one if, tuples with parentheses except as targets and subscripts', () => {
    assert.deepEqual(
      normalizedBody([
        'if a:',
        '    x = 1',
        'else:',
        '    if b:',
        '        x = 2',
        '    else:',
        '        x = 3',
        'a, b = 1, 2',
        'c, = [3]',
        'x = 1,',
        'y = h[a, b]',
        'for k, v in d.items():',
        '    pass',
        'else:',
        '    pass',
        'z = [k for k, v in d]',
        'return a, b',
      ]),
      [
        'if a:',
        '    x = 1',
        'elif b:',
        '    x = 2',
        'else:',
        '    x = 3',
        'a, b = (1, 2)',
        'c, = [3]',
        'x = (1,)',
        'y = h[a, b]',
        'for k, v in d.items():',
        '    pass',
        'else:',
        '    pass',
        'z = [k for (k, v) in d]',
        'return (a, b)',
      ],
    );
  });

  it('prints parameters without spaces around defaults, with the * marker; calls, dicts, slices, f-strings', () => {
    const source = [
      'def g(a, b = 1, *c, d, e = 2, **f) -> int:',
      '    return a',
      'def h(a, *, c):',
      '    return a',
      '@export',
      'def f(x: dict):',
      "    y = {**x, 'k' : x [ 1 : : 2 ], 'l': x[:], 'm': x[::]}",
      '    z = g( 1 , d = 2 , ** x )',
      "    w = f\"{x!r:>10} {{lit}} {y}\" 'tail'",
      '    while x:',
      '        break',
      '    else:',
      '        pass',
      "    raise Exception('e') from None",
    ].join('\n');
    assert.equal(
      compiled(source).source,
      [
        'def g(a, b=1, *c, d, e=2, **f) -> int:',
        '    return a',
        '',
        'def h(a, *, c):',
        '    return a',
        '',
        '@export',
        'def f(x: dict):',
        "    y = {**x, 'k': x[1::2], 'l': x[:], 'm': x[:]}",
        '    z = g(1, d=2, **x)',
        "    w = f'{x!r:>10} {{lit}} {y}tail'",
        '    while x:',
        '        break',
        '    else:',
        '        pass',
        "    raise Exception('e') from None",
      ].join('\n'),
    );
  });

  it('prints imports, asserts, augmented assignments and chained assignments as written', () => {
    const source = "import currency as c, con_token\n@export\ndef f(a: int):\n    assert a, 'm'\n    a //= 2\n    a <<= 1\n    x = y = a\n    return x\n";
    assert.equal(
      compiled(source).source,
      "import currency as c, con_token\n\n@export\ndef f(a: int):\n    assert a, 'm'\n    a //= 2\n    a <<= 1\n    x = y = a\n    return x",
    );
  });
});

describe('compileContract: operator precedence as Python reads it', () => {
  /** The returned expression of `return <expr>` as a compact tree. */
  function tree(expression: string): string {
    const ir = JSON.parse(compiled(`@export\ndef f(a: int, b: int, c: int, d: int):\n    return ${expression}\n`).vm_ir_json);
    const show = (n: Record<string, any>): string => {
      switch (n.node) {
        case 'name': return n.id;
        case 'bin_op': return `(${show(n.left)} ${n.operator} ${show(n.right)})`;
        case 'unary_op': return `(${n.operator} ${show(n.operand)})`;
        case 'bool_op': return `(${n.values.map(show).join(` ${n.operator} `)})`;
        case 'compare': return `(${show(n.left)} ${n.operators.map((o: string, i: number) => `${o} ${show(n.comparators[i])}`).join(' ')})`;
        case 'if_expr': return `(${show(n.body)} if ${show(n.test)} else ${show(n.orelse)})`;
        default: return n.node;
      }
    };
    return show(ir.functions[0].body[0].value);
  }

  it('`not` binds tighter than `and`/`or` and looser than comparisons; chains of one boolean operator are one node', () => {
    assert.equal(tree('not a and b'), '((not a) and b)');
    assert.equal(tree('not a or b'), '((not a) or b)');
    assert.equal(tree('a and not b and c'), '(a and (not b) and c)');
    assert.equal(tree('not a and b and c or d'), '(((not a) and b and c) or d)');
    assert.equal(tree('not a == b and c'), '((not (a eq b)) and c)');
    assert.equal(tree('a if not b and c else d'), '(a if ((not b) and c) else d)');
    assert.equal(tree('not (a and b)'), '(not (a and b))');
  });

  it('unary minus binds looser than ** and tighter than * and +; comparisons chain', () => {
    assert.equal(tree('-a ** -b'), '(neg (a pow (neg b)))');
    assert.equal(tree('-a * b + c'), '(((neg a) mul b) add c)');
    assert.equal(tree('a | b ^ c & d << a + b'), '(a bitor (b bitxor (c bitand (d lshift (a add b)))))');
    assert.equal(tree('a < b <= c != d'), '(a lt b lt_e c not_eq d)');
    assert.equal(tree('a not in b is not c'), '(a not_in b is_not c)');
  });

  it('spans a regrouped `not` from its keyword', () => {
    const ir = JSON.parse(compiled('@export\ndef f(a: int, b: int):\n    return not a and b\n').vm_ir_json);
    const value = ir.functions[0].body[0].value;
    assert.deepEqual(value.span, { line: 3, col: 11, end_line: 3, end_col: 22 });
    assert.deepEqual(value.values[0].span, { line: 3, col: 11, end_line: 3, end_col: 16 });
  });
});
