import assert from 'node:assert/strict';
import {
  sortKeysByCodePoint,
  CanonicalJsonError,
  canonicalJson,
  compactJson,
  compareCodePoints,
  JsonSyntaxError,
  parseCanonical,
  type JsonValue,
} from '../../../core/chain/canonical-json.js';
import { ChainDecimal } from '../../../core/chain/decimal.js';

const NOT_CANONICAL = /^Transaction bytes are not canonical$/;

function refusedAt(value: unknown, path: string, reason: RegExp): void {
  assert.throws(() => canonicalJson(value as JsonValue), (err: unknown) => {
    assert.ok(err instanceof CanonicalJsonError);
    assert.equal(err.path, path);
    assert.match(err.reason, reason);
    assert.ok(err.message.includes(path));
    return true;
  });
}

describe('canonicalJson (transactions.md §2)', () => {
  describe('key order', () => {
    it('sorts keys by code point at every depth ("0" < "10" < "2")', () => {
      const kwargs = JSON.parse('{"data":{"2":"two","10":"ten","0":false}}');
      assert.equal(canonicalJson(kwargs), '{"data":{"0":false,"10":"ten","2":"two"}}');
    });

    it('puts astral characters after U+E000..U+FFFF, unlike the UTF-16 sort', () => {
      const value = { '\u{1F600}': 3, '\uE000': 2, 'é': 1 };
      assert.equal(canonicalJson(value), '{"é":1,"\uE000":2,"\u{1F600}":3}');
      assert.deepEqual(['\u{1F600}', '\uE000', 'é'].sort(compareCodePoints), ['é', '\uE000', '\u{1F600}']);
      assert.deepEqual(['\u{1F600}', '\uE000', 'é'].sort(), ['é', '\u{1F600}', '\uE000'], 'the default sort differs');
    });

    it('orders prefixes first and compares like UTF-8 bytes', () => {
      const keys = ['ab', 'a', 'b', 'A', '\u007f', '\u0080', '\uFFFF', '\u{10000}', '\u{10FFFF}'];
      const byBytes = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
      assert.deepEqual([...keys].sort(compareCodePoints), byBytes);
    });

    it('keeps __proto__ and constructor as ordinary keys', () => {
      const parsed = JSON.parse('{"z":1,"__proto__":{"x":1},"constructor":2}');
      assert.equal(canonicalJson(parsed), '{"__proto__":{"x":1},"constructor":2,"z":1}');
      const record = Object.create(null);
      record['__proto__'] = 'data';
      assert.equal(canonicalJson(record), '{"__proto__":"data"}');
    });
  });

  describe('strings', () => {
    it('writes non-ASCII raw, escapes only ", \\ and control characters', () => {
      assert.equal(canonicalJson('é😀\u2028\u2029\u007f/'), '"é😀\u2028\u2029\u007f/"');
      assert.equal(canonicalJson('"\\\b\f\n\r\t\u0001\u001f'), '"\\"\\\\\\b\\f\\n\\r\\t\\u0001\\u001f"');
    });

    it('refuses lone surrogates, which have no UTF-8 form', () => {
      refusedAt({ memo: 'a\uD800' }, '$.memo', /lone UTF-16 surrogate/);
      refusedAt({ ['\uDC00']: 1 }, '$["\\udc00"]', /lone UTF-16 surrogate/);
    });
  });

  describe('numbers', () => {
    it('writes integers, with bigint up to 2^64-1 and down to -(2^63)', () => {
      assert.equal(canonicalJson([0, -1, 9007199254740991, 18446744073709551615n, -9223372036854775808n]),
        '[0,-1,9007199254740991,18446744073709551615,-9223372036854775808]');
    });

    it('refuses floats, NaN, Infinity and -0, naming the path', () => {
      refusedAt({ kwargs: { amount: 1.5 } }, '$.kwargs.amount', /floats are not allowed \(1\.5\).*__fixed__/);
      refusedAt([NaN], '$[0]', /NaN is not a JSON number/);
      refusedAt({ a: [1, { b: Infinity }] }, '$.a[1].b', /Infinity/);
      refusedAt({ n: -0 }, '$.n', /negative zero/);
    });

    it('refuses unsafe JS numbers and bigints beyond the node range', () => {
      refusedAt({ n: 2 ** 60 }, '$.n', /beyond the exact range.*bigint/);
      refusedAt({ n: 2n ** 64n }, '$.n', /__big_int__/);
      refusedAt({ n: -(2n ** 63n) - 1n }, '$.n', /outside -\(2\^63\)\.\.2\^64-1/);
    });
  });

  describe('other values', () => {
    it('refuses undefined, functions, class instances and holes', () => {
      refusedAt({ a: undefined }, '$.a', /undefined is not a JSON value/);
      refusedAt({ f: () => 1 }, '$.f', /function/);
      refusedAt({ d: ChainDecimal.parse('1.5') }, '$.d', /ChainDecimal is not a JSON value; encode/);
      refusedAt({ m: new Map() }, '$.m', /Map/);
      // eslint-disable-next-line no-sparse-arrays
      refusedAt([1, , 3], '$[1]', /hole/);
    });

    it('refuses nesting beyond the node limit of 128', () => {
      let deep: JsonValue = 1;
      for (let i = 0; i < 129; i++) deep = [deep];
      refusedAt(deep, '$' + '[0]'.repeat(129), /deeper than 128/);
      let ok: JsonValue = [];
      for (let i = 0; i < 128; i++) ok = [ok];
      assert.ok(canonicalJson(ok).startsWith('[[['));
    });
  });
});

describe('compactJson (Python json.dumps, compact)', () => {
  it('ASCII-escapes like ensure_ascii, DEL and astral pairs included', () => {
    assert.equal(compactJson({ b: 'é😀\u007f\u2028', a: 1 }, { asciiOnly: true, sortKeys: true }),
      '{"a":1,"b":"\\u00e9\\ud83d\\ude00\\u007f\\u2028"}');
  });

  it('keeps integers of any size bare and can keep insertion order', () => {
    assert.equal(compactJson({ b: 2n ** 80n, a: [1] }, { asciiOnly: false, sortKeys: false }), '{"b":1208925819614629174706176,"a":[1]}');
  });
});

describe('parseCanonical (the node decoder)', () => {
  it('returns exact values for canonical text', () => {
    const text = '{"__proto__":1,"big":18446744073709551615,"n":-9223372036854775808,"s":"é"}';
    const v = parseCanonical(text) as Record<string, JsonValue>;
    assert.equal(Object.getPrototypeOf(v), null);
    assert.equal(v['__proto__'], 1);
    assert.equal(v['big'], 18446744073709551615n);
    assert.equal(v['n'], -9223372036854775808n);
    assert.equal(canonicalJson(v), text);
  });

  const notCanonical: Array<[string, string]> = [
    ['{"a":1.0}', 'floats (1.0)'],
    ['{"a":1e3}', 'exponent floats'],
    ['{"a":NaN}', 'NaN'],
    ['[-0]', '-0'],
    ['{"b":1,"a":2}', 'unsorted keys'],
    ['{"a":1,"a":1}', 'duplicate keys'],
    ['{"a": 1}', 'whitespace'],
    ['"\\u00e9"', 'escaped non-ASCII'],
    ['"\\/"', 'escaped slash'],
    ['["\\ud800"]', 'a lone surrogate escape'],
    ['[18446744073709551616]', 'an integer above 2^64-1'],
    ['[-9223372036854775809]', 'an integer below -(2^63)'],
    ['{"\u{1F600}":1,"\uE000":2}', 'UTF-16 key order'],
  ];
  for (const [text, what] of notCanonical) {
    it(`refuses ${what} as not canonical`, () => {
      assert.throws(() => parseCanonical(text), (err: unknown) => err instanceof CanonicalJsonError && NOT_CANONICAL.test(err.message));
    });
  }

  it('names the offending path in the error details', () => {
    assert.throws(() => parseCanonical('{"kwargs":{"x":[1,2.5]}}'), (err: unknown) => {
      assert.ok(err instanceof CanonicalJsonError);
      assert.equal(err.path, '$.kwargs.x[1]');
      assert.match(err.reason, /float 2\.5/);
      return true;
    });
  });

  it('reports nesting beyond 128 with the node message', () => {
    const text = '['.repeat(130) + ']'.repeat(130);
    assert.throws(() => parseCanonical(text), /^CanonicalJsonError: recursion limit exceeded$|recursion limit exceeded/);
  });

  it('reports syntax errors with Python JSONDecodeError text', () => {
    assert.throws(() => parseCanonical('{"a" 1}'), (err: unknown) => err instanceof JsonSyntaxError && err.message === "Expecting ':' delimiter: line 1 column 6 (char 5)");
  });
});

describe('sortKeysByCodePoint', () => {
  it('orders few and many keys by code point, astral characters after U+E000..U+FFFF', () => {
    const few = ['b', '\u{1F600}', '\uE000', 'a', 'é', 'B'];
    assert.deepEqual(sortKeysByCodePoint([...few]), ['B', 'a', 'b', 'é', '\uE000', '\u{1F600}']);
    const many = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? '\u{1F600}' : i % 3 === 1 ? '\uE000' : 'k') + String(39 - i).padStart(2, '0'));
    const expected = [...many].sort((a, b) => {
      const x = [...a].map((c) => c.codePointAt(0)!);
      const y = [...b].map((c) => c.codePointAt(0)!);
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
      return x.length - y.length;
    });
    assert.deepEqual(sortKeysByCodePoint([...many]), expected);
    assert.deepEqual(sortKeysByCodePoint(many.slice(0, 20)), expected.filter((k) => many.slice(0, 20).includes(k)));
  });
});
