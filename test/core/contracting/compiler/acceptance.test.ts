import assert from 'node:assert/strict';
import { compiled, EXPORTED, refused } from './support.js';

/** The one diagnostic of a refused source, as [code, line, column, message]. */
function refusal(source: string): [string, number | undefined, number | undefined, string] {
  const diagnostics = refused(source);
  const d = diagnostics[0]!;
  return [d.code, d.range?.start_line, d.range?.start_column, d.message];
}

/**
 * The chain's parser (rustpython's) accepts exactly Python's grammar; @lezer/python is an editor's
 * error-tolerant grammar. Every expectation here is Python's (checked by hand against CPython 3.11's
 * `ast.parse` and rustpython-parser 0.4's lexer rules): what it accepts compiles, what it refuses
 * is one `xian.syntax.parse_error`.
 */
describe('compileContract: parser acceptance equal to the chain', () => {
  const F = '@export\ndef f(a: int):\n    return a\n';

  it('accepts a source ending in a line of blanks without a final line break', () => {
    assert.equal(compiled(`${F}    `).source, compiled(F).source);
    assert.equal(compiled(`${F}\n\t`).source, compiled(F).source);
    assert.equal(compiled(`${F}  # the end`).source, compiled(F).source);
  });

  it('refuses indentation the chain refuses: an indented first line, an unexpected indent, a dedent to no outer level, a missing block', () => {
    assert.deepEqual(refusal(`  ${F}`), ['xian.syntax.parse_error', 1, 2, 'unexpected indent']);
    assert.deepEqual(refusal(`  # a comment first is fine\n  x = 1\n${F}`), ['xian.syntax.parse_error', 2, 2, 'unexpected indent']);
    assert.deepEqual(refusal('@export\ndef f(a: int):\n    x = 1\n        return a\n'), ['xian.syntax.parse_error', 4, 8, 'unexpected indent']);
    assert.deepEqual(
      refusal('@export\ndef f(a: int):\n    if a:\n        return a\n  return 0\n'),
      ['xian.syntax.parse_error', 5, 2, 'unindent does not match any outer indentation level'],
    );
    assert.deepEqual(refusal('@export\ndef f(a: int):\nreturn a\n'), ['xian.syntax.parse_error', 3, 0, 'expected an indented block']);
    assert.equal(refusal('@export\ndef f(a: int):\n')[0], 'xian.syntax.parse_error');
    // Inside brackets and after a backslash, a line's indentation is free.
    compiled('@export\ndef f(a: int):\n    return (a +\n  a +\n            a) + \\\n a\n');
  });

  it('refuses tabs and spaces mixed inconsistently (TabError), and a tab after spaces, as rustpython does', () => {
    assert.deepEqual(
      refusal('@export\ndef f(a: int):\n    if a:\n\treturn a\n    return 0\n'),
      ['xian.syntax.parse_error', 4, 1, 'inconsistent use of tabs and spaces in indentation'],
    );
    // One level of a tab, the next of eight spaces: equal with tabs of 8 columns, not with tabs of 1.
    assert.equal(refusal('@export\ndef f(a: int):\n\tif a:\n        return a\n\treturn 0\n')[3], 'inconsistent use of tabs and spaces in indentation');
    assert.deepEqual(
      refusal('@export\ndef f(a: int):\n  \treturn a\n'),
      ['xian.syntax.parse_error', 3, 2, 'inconsistent use of tabs and spaces in indentation (a tab after spaces)'],
    );
    // Consistent mixes compile: tabs throughout, a tab then spaces deeper, spaces inside brackets.
    compiled('@export\ndef f(a: int):\n\tif a:\n\t\treturn a\n\treturn 0\n');
    compiled('@export\ndef f(a: int):\n\tif a:\n\t    return a\n\treturn 0\n');
    compiled('@export\ndef f(a: int):\n\treturn (a +\n    \t a)\n');
  });

  it('refuses an unterminated string instead of reading it as an empty one', () => {
    assert.deepEqual(refusal(`${F}x = ")\n`), ['xian.syntax.parse_error', 4, 4, 'unterminated string literal']);
    assert.deepEqual(refusal('x = ")'), ['xian.syntax.parse_error', 1, 4, 'unterminated string literal']);
    assert.deepEqual(refusal(`${F}x = b'abc\ny = 1\n`), ['xian.syntax.parse_error', 4, 4, 'unterminated string literal']);
    assert.deepEqual(refusal(`${F}x = """abc\n\ny = 1\n`), ['xian.syntax.parse_error', 4, 4, 'unterminated triple-quoted string literal']);
    assert.deepEqual(refusal(`${F}x = f'{a}\n`), ['xian.syntax.parse_error', 4, 4, 'unterminated string literal']);
    // A backslash keeps a quote or a line break inside the string, raw or not.
    const artifact = compiled(`x = 'a\\'b'\ny = r'c\\'d'\nz = 'e\\\nf'\n${F}`);
    assert.match(artifact.source, /^x = "a'b"\ny = "c\\\\'d"\nz = 'ef'/);
  });

  it('refuses a backslash that does not end its line', () => {
    assert.deepEqual(refusal(`${F}x = 1 \\ \n`), ['xian.syntax.parse_error', 4, 6, 'unexpected character after line continuation character']);
  });

  it('refuses brackets closed without being opened or by the wrong kind', () => {
    assert.deepEqual(refusal('x = 1)\n'), ['xian.syntax.parse_error', 1, 5, "unmatched ')'"]);
    assert.deepEqual(refusal('x = (1]\n'), ['xian.syntax.parse_error', 1, 6, "closing parenthesis ']' does not match opening parenthesis '('"]);
  });

  it('reads a generator whose target is a tuple as the only argument (then refuses it as a generator)', () => {
    const [d] = refused(`x = tuple(v for v, _ in xs)${EXPORTED}`);
    assert.equal(d!.code, 'xian.syntax.unsupported_expression.generator_exp');
    assert.deepEqual(d!.range, { start_line: 1, start_column: 10, end_line: 1, end_column: 26 });
    assert.equal(refused(`x = f(v for a, b in c for d, e in g if h)${EXPORTED}`)[0]!.code, 'xian.syntax.unsupported_expression.generator_exp');
    // Beside another argument, or with a trailing comma, Python wants it parenthesized.
    for (const [source, column] of [['x = f(v for v in a, b)\n', 6], ['x = f(a, v for v in a)\n', 9], ['x = f(v for v in a,)\n', 6]] as const) {
      assert.deepEqual(refusal(source + EXPORTED), ['xian.syntax.parse_error', 1, column, 'Generator expression must be parenthesized'], source);
    }
  });

  it('ends a statement at a blank line after a backslash, as Python does, instead of joining the next line to it', () => {
    // Python: `x = 1` and then the statement `-2`; lezer skipped the blank line and read `x = 1 - 2`.
    const artifact = compiled('@export\ndef f():\n    x = 1\\\n\n    - 2\n    return x\n');
    assert.equal(artifact.source, '@export\ndef f():\n    x = 1\n    -2\n    return x');
    const commented = compiled('@export\ndef f():\n    x = 1\\\n    # nothing\n    - 2\n    return x\n');
    assert.equal(commented.source, artifact.source);
    // A continuation that continues something still joins the lines.
    assert.equal(compiled('@export\ndef f():\n    x = 1\\\n    - 2\n    return x\n').source, '@export\ndef f():\n    x = 1 - 2\n    return x');
    assert.deepEqual(refusal(`${F}x = 1\\\n`), ['xian.syntax.parse_error', 4, 5, 'unexpected EOF while parsing']);
  });

  it('refuses a statement that lezer would indent differently from Python: a backslash before its first token', () => {
    // Python puts `x = 2` in the function (the backslash's line sets the indentation); lezer put it,
    // and every statement after it, at module level.
    assert.deepEqual(
      refusal('@export\ndef f():\n    x = 1\n    \\\nx = 2\n    return x\n'),
      ['xian.syntax.parse_error', 4, 4, 'a line continuation before the first token of a statement must be followed by a line of the same indentation'],
    );
    assert.equal(compiled('@export\ndef f():\n    x = 1\n    \\\n    y = 2\n    return x\n').source, '@export\ndef f():\n    x = 1\n    y = 2\n    return x');
  });

  it('refuses `raise E, value` (Python 2) and a decorator indented unlike its def', () => {
    assert.deepEqual(refusal('@export\ndef f():\n    raise Exception, ("boom")\n'), ['xian.syntax.parse_error', 3, 19, 'invalid syntax']);
    compiled('@export\ndef f():\n    raise Exception("boom") from Exception("x")\n');
    assert.equal(refusal('@export\ndef f():\n    return 1\n    @export\ndef g():\n    return 2\n')[0], 'xian.syntax.parse_error');
  });

  it('refuses Python keywords as attribute names, which lezer takes for names', () => {
    for (const attribute of ['try', 'is', 'None', 'True', 'await', 'async', 'nonlocal', 'if']) {
      assert.deepEqual(refusal(`x = ctx.${attribute}${EXPORTED}`), ['xian.syntax.parse_error', 1, 8, 'invalid syntax'], attribute);
    }
    assert.equal(refusal(`x = f'{a.if}'${EXPORTED}`)[0], 'xian.syntax.parse_error');
    assert.equal(refusal(`x.if = 1${EXPORTED}`)[0], 'xian.syntax.parse_error');
    // Soft keywords are names.
    compiled(`x = ctx.match${EXPORTED}`);
  });

  it('refuses a float with a trailing dot followed by a separate name (`1. real`), not an attribute of an int', () => {
    assert.deepEqual(refusal(`x = 1. real${EXPORTED}`), ['xian.syntax.parse_error', 1, 7, 'invalid syntax']);
    assert.equal(refusal(`@export\ndef f(a: int) ->1. str:\n    return a\n`)[0], 'xian.syntax.parse_error');
    assert.equal(compiled(`x = [1., 2.]${EXPORTED}`).source.split('\n')[0], 'x = [1.0, 2.0]');
    // A float followed by a stray dot.
    assert.equal(refusal('@export\ndef f(rate: float = 0.11.) -> float:\n    return rate\n')[0], 'xian.syntax.parse_error');
    assert.equal(refusal(`x = 1.5.${EXPORTED}`)[0], 'xian.syntax.parse_error');
  });

  it('refuses parameter lists and asserts Python refuses: after **kwargs, a bare * with nothing after it, a dangling assert comma', () => {
    assert.deepEqual(refusal(`def f(**a, b):\n    pass\n${EXPORTED}`), ['xian.syntax.parse_error', 1, 11, 'arguments cannot follow var-keyword argument']);
    assert.deepEqual(refusal(`def f(a, *):\n    pass\n${EXPORTED}`), ['xian.syntax.parse_error', 1, 9, 'named arguments must follow bare *']);
    assert.deepEqual(refusal(`def f(a, *, **k):\n    pass\n${EXPORTED}`), ['xian.syntax.parse_error', 1, 9, 'named arguments must follow bare *']);
    assert.deepEqual(refusal(`@export\ndef f(a: int):\n    assert a,\n    return a\n`), ['xian.syntax.parse_error', 3, 4, 'invalid syntax']);
    compiled('@export\ndef f(a: int, *, b: int, **k: dict):\n    assert a, "a"\n    return a\n');
  });

  it('reads parenthesized with-items (Python 3.9) as a with statement, refused as one', () => {
    for (const source of ['with (a as x, b as y):\n    pass\n', 'with (\n    a() as x,  # first\n    b() as y,\n):\n    pass\n', 'with (a as x):\n    pass\n']) {
      const [d, ...rest] = refused(source + EXPORTED);
      assert.equal(d!.code, 'xian.syntax.unsupported_statement.with', source);
      assert.equal(rest.length, 0);
      assert.equal(d!.range!.start_line, 1);
    }
    assert.equal(refused(`with (a as x, b as):\n    pass\n${EXPORTED}`)[0]!.code, 'xian.syntax.parse_error');
  });
});

/**
 * Where a parse error points (#40 item 7): a bracket left open is reported at the bracket, as
 * CPython does ("'(' was never closed"), unless the parser's error lies on the bracket's own line.
 */
describe('compileContract: parse error positions', () => {
  it('reports a missing closing bracket at the opening one, not at the next statement', () => {
    const source = '@export\ndef f(a: int):\n    x = 1\n    y = 2\n    b = g(a,\n    return a\n';
    assert.deepEqual(refusal(source), ['xian.syntax.parse_error', 5, 9, "'(' was never closed"]);
    assert.deepEqual(refusal('x = [1, 2\nif y:\n    pass\n'), ['xian.syntax.parse_error', 1, 4, "'[' was never closed"]);
    assert.deepEqual(refusal('x = {1: 2,\n\ny = 3\n'), ['xian.syntax.parse_error', 1, 4, "'{' was never closed"]);
    assert.deepEqual(refusal('x = f(a,\n'), ['xian.syntax.parse_error', 1, 5, "'(' was never closed"]);
    // The innermost bracket left open is the one reported.
    assert.deepEqual(refusal('x = f([1,\n  2\n'), ['xian.syntax.parse_error', 1, 6, "'[' was never closed"]);
  });

  it('keeps the parser error when it lies on the bracket line', () => {
    assert.deepEqual(refusal('def broken(:\n'), ['xian.syntax.parse_error', 1, 11, "invalid syntax: unexpected ':'"]);
  });
});
