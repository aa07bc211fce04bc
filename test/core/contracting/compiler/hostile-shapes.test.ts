import assert from 'node:assert/strict';
import { compileContract, MAX_SOURCE_BYTES } from '../../../../core/contracting/index.js';

/** Repeats `unit` as often as fits in the size limit beside `head` and `tail`. */
function fill(head: string, unit: string, tail: string, closer = ''): string {
  const room = MAX_SOURCE_BYTES - Buffer.byteLength(head + tail) - 16;
  const count = Math.floor(room / Buffer.byteLength(unit + closer));
  return head + unit.repeat(count) + 'a' + closer.repeat(count) + tail;
}

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * No source may end the compiler with anything but a result: every shape of nesting the grammar
 * has, as deep as the size limit allows, and random token soup, compile or are refused with a
 * diagnostic — no RangeError from a recursion, no other exception.
 */
describe('compileContract: hostile shapes never throw', function () {
  this.timeout(600_000);

  const shapes: Record<string, string> = {
    'not chain': fill('x = ', 'not ', '\n'),
    'unary minus': fill('x = ', '-', '\n'),
    'ternaries nested right': fill('x = ', 'a if b else ', '\n'),
    'lambda in lambda': fill('x = ', 'lambda: ', '\n'),
    'calls of calls': fill('x = ', '', '\n', '(a)'),
    'subscripts': fill('x = a', '[0]', '\n'),
    'attributes': fill('x = a', '.b', '\n'),
    'power chain': fill('x = a', ' ** a', '\n'),
    'and chain': fill('x = a', ' and a', '\n'),
    'mixed boolean chain': fill('x = a', ' and not a or a', '\n'),
    'compare chain': fill('x = a', ' < a', '\n'),
    'parentheses': fill('x = ', '(', '\n', ')'),
    'lists in f-strings': fill("x = f'{", '[', "}'\n", ']'),
    'dicts': fill('x = ', '{1: ', '\n', '}'),
    'nested blocks (tabs)': (() => {
      let s = '';
      for (let level = 0; Buffer.byteLength(s) < MAX_SOURCE_BYTES - 2000; level++) s += `${'\t'.repeat(level)}if a:\n`;
      return s + '\t'.repeat(400) + 'pass\n';
    })(),
    'elif chain': fill('if a:\n    pass\n', 'elif a:\n    pass\n', ''),
    'decorators': fill('', '@export\n', 'def f():\n    return 1\n'),
    'backslash lines': fill('x = 1', ' \\\n', '\n'),
    'blank continuations': fill('x = 1', '\\\n\n', '\n'),
    'unclosed brackets': '(['.repeat(190) + '\n'.repeat(100),
    'with headers': fill('', 'with (a as b):\n    pass\n', ''),
  };

  for (const [name, source] of Object.entries(shapes)) {
    it(`${name}: a result, not an exception`, () => {
      assert.ok(Buffer.byteLength(source) <= MAX_SOURCE_BYTES, name);
      const result = compileContract('con_shape', source);
      if (!result.ok) for (const d of result.diagnostics) assert.match(d.code, /^xian\./);
    });
  }

  it('random token soup (2,000 sources, seeded): a result, not an exception', () => {
    const tokens = [
      '(', ')', '[', ']', '{', '}', ':', ',', '\n', '\t', ' ', '    ', '"', "'", '"""', '\\', '#', 'and', 'not', 'if', 'else',
      'for', 'in', 'lambda', '=', '==', '.', '1', '1.', 'f"', "b'", '*', '**', '@', 'return', 'def', 'pass', ';', '\r', '\f',
      'as', 'with', 'yield', 'x', 'export', 'Variable()', 'Hash()', '-', '+', '<', 'is', 'None', 'True', 'ctx', '{x}', '\\N', 'é',
    ];
    const next = random(35);
    for (let n = 0; n < 2000; n++) {
      let source = '';
      const length = 1 + Math.floor(next() * 60);
      for (let k = 0; k < length; k++) source += tokens[Math.floor(next() * tokens.length)];
      let result;
      try {
        result = compileContract('con_soup', source);
      } catch (error) {
        assert.fail(`${JSON.stringify(source)} threw ${String(error)}`);
      }
      assert.ok(result.ok || result.diagnostics.length > 0);
    }
  });
});
