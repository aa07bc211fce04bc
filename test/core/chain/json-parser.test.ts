import assert from 'node:assert/strict';
import { JsonSyntaxError, parseJsonExact, parseJsonText } from '../../../core/chain/json-parser.js';

describe('parseJsonExact (big-int-safe JSON as the node reads it)', () => {
  it('keeps integers beyond 2^53 exact as bigint and safe ones as numbers', () => {
    assert.deepEqual(parseJsonExact('[9007199254740991,9007199254740993,-18446744073709551616]'), [9007199254740991, 9007199254740993n, -18446744073709551616n]);
  });

  it('reads floats as numbers outside canonical mode', () => {
    assert.deepEqual(parseJsonExact(' [1.5, 1e3, -0.25] '), [1.5, 1000, -0.25]);
  });

  it('builds null-prototype objects, so __proto__ is data', () => {
    const v = parseJsonExact('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(v), null);
    assert.deepEqual(Object.keys(v), ['__proto__', 'a']);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });

  it('keeps the last of duplicate keys, like Python', () => {
    assert.equal((parseJsonExact('{"a":1,"a":2}') as Record<string, unknown>)['a'], 2);
  });

  it('decodes escapes, surrogate pairs included', () => {
    assert.equal(parseJsonExact('"\\u00e9\\ud83d\\ude00\\n\\/"'), 'é😀\n/');
  });
});

describe('syntax errors carry Python JSONDecodeError text', () => {
  const cases: Array<[string, string]> = [
    ['', 'Expecting value: line 1 column 1 (char 0)'],
    ['[1,]', 'Expecting value: line 1 column 4 (char 3)'],
    ['01', 'Extra data: line 1 column 2 (char 1)'],
    ['{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
    ['{1:2}', 'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'],
    ['{"a":1,}', 'Expecting property name enclosed in double quotes: line 1 column 8 (char 7)'],
    ['[1 2]', "Expecting ',' delimiter: line 1 column 4 (char 3)"],
    ['{"a":1', "Expecting ',' delimiter: line 1 column 7 (char 6)"],
    ['"\\x"', 'Invalid \\escape: line 1 column 2 (char 1)'],
    ['"\\u12"', 'Invalid \\uXXXX escape: line 1 column 3 (char 2)'],
    ['"abc', 'Unterminated string starting at: line 1 column 1 (char 0)'],
    ['"a\u0001"', 'Invalid control character at: line 1 column 3 (char 2)'],
    ['\n\n [x]', 'Expecting value: line 3 column 3 (char 4)'],
    ['"é" x', 'Extra data: line 1 column 5 (char 4)'],
    ['[1e]', "Expecting ',' delimiter: line 1 column 3 (char 2)"],
  ];
  for (const [text, message] of cases) {
    it(`${JSON.stringify(text)} → ${message}`, () => {
      assert.throws(() => parseJsonExact(text), (err: unknown) => err instanceof JsonSyntaxError && err.message === message);
    });
  }

  it('refuses nesting that would exhaust the stack', () => {
    assert.throws(() => parseJsonExact('['.repeat(5000)), /maximum recursion depth/);
  });
});

describe('canonical mode records the first violation in document order', () => {
  it('reports the first float, not a later one', () => {
    const { violation } = parseJsonText('{"a":[1,2.0],"b":3.5}', true);
    assert.deepEqual(violation?.path, ['a', 1]);
    assert.equal(violation?.message, 'Transaction bytes are not canonical');
  });

  it('records nothing for canonical text', () => {
    assert.equal(parseJsonText('{"a":[1,2]}', true).violation, undefined);
  });
});
