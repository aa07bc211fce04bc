import assert from 'node:assert/strict';
import { canonicalJson, compactJson, parseJsonExact } from '../../../core/chain/canonical-json.js';
import { ChainDecimal } from '../../../core/chain/decimal.js';
import {
  abciJsonText,
  decodeValue,
  encodeValue,
  runtimeJsonText,
  ValueCodecError,
  wrapRuntimeInts,
} from '../../../core/chain/value-codec.js';
import { ChainDatetime, ChainTimedelta, chainRecord, type ChainRecord, type ChainValue } from '../../../core/chain/values.js';

const dec = (s: string) => ChainDecimal.parse(s);
const rec = (o: Record<string, ChainValue>): ChainRecord => chainRecord(Object.entries(o));

describe('decodeValue (runtime wrappers → values, encoding.md §2)', () => {
  it('decodes __fixed__ in every form the chain writes, exponents included', () => {
    for (const [text, plain] of [['1E+2', '100'], ['1.01E+3', '1010'], ['1E-7', '0.0000001'], ['100E-9', '0.0000001'], ['123.45', '123.45'], ['-5E+3', '-5000']]) {
      const v = decodeValue({ __fixed__: text });
      assert.ok(v instanceof ChainDecimal);
      assert.equal(v.toString(), plain);
    }
  });

  it('decodes __time__ with 3 to 7 elements, months 1-based, microseconds last', () => {
    assert.equal(String(decodeValue({ __time__: [2024, 1, 2] })), '2024-01-02 00:00:00');
    assert.equal(String(decodeValue({ __time__: [2024, 1, 2, 3, 4, 5] })), '2024-01-02 03:04:05');
    assert.equal(String(decodeValue({ __time__: [2025, 1, 31, 12, 34, 56, 789000] })), '2025-01-31 12:34:56.789000');
    assert.throws(() => decodeValue({ __time__: [2024, 1] }), ValueCodecError);
    assert.throws(() => decodeValue({ t: { __time__: [2024, 13, 1] } }), /value at \$\.t\.__time__/);
  });

  it('decodes __delta__, __bytes__, __bytearray__, __big_int__ and sets', () => {
    const delta = decodeValue({ __delta__: [1, 5] });
    assert.ok(delta instanceof ChainTimedelta);
    assert.equal(delta.toString(), '1 day, 0:00:05');
    assert.deepEqual(decodeValue({ __bytes__: '6162' }), new Uint8Array([0x61, 0x62]));
    assert.deepEqual(decodeValue({ __bytearray__: '00ff' }), new Uint8Array([0, 255]));
    assert.equal(decodeValue({ __big_int__: '-9223372036854775808' }), -9223372036854775808n);
    assert.deepEqual(decodeValue({ __set__: [1, { __fixed__: '1.5' }] }), [1n, dec('1.5')]);
    assert.deepEqual(decodeValue({ __frozenset__: ['a'] }), ['a']);
  });

  it('lets the first marker key win and ignores other keys of a wrapper', () => {
    const v = decodeValue(parseJsonExact('{"note":"x","__big_int__":"5","__fixed__":"1"}'));
    assert.equal(v, 5n);
  });

  it('decodes at every depth, ints as bigint, records null-prototype', () => {
    const v = decodeValue(parseJsonExact('{"a":[[{"__fixed__":"2"}]],"__proto__":{"n":18446744073709551615}}')) as ChainRecord;
    assert.equal(Object.getPrototypeOf(v), null);
    assert.deepEqual((v['a'] as ChainValue[][])[0]![0], dec('2'));
    assert.equal((v['__proto__'] as ChainRecord)['n'], 18446744073709551615n);
  });

  it('turns legacy float state into a decimal through its shortest text, and refuses lossy ints', () => {
    assert.deepEqual(decodeValue(0.1), dec('0.1'));
    assert.throws(() => decodeValue(2 ** 60), /lost digits; parse with parseJsonExact/);
  });
});

describe('encodeValue (values → runtime wrappers)', () => {
  it('writes decimals in the __fixed__ form (1E+2, 1.01E+3, 1E-7)', () => {
    assert.equal(canonicalJson(encodeValue([dec('100'), dec('1010'), dec('0.0000001'), dec('123.4500')].map((d) => rec({ d })))),
      '[{"d":{"__fixed__":"1E+2"}},{"d":{"__fixed__":"1.01E+3"}},{"d":{"__fixed__":"1E-7"}},{"d":{"__fixed__":"123.45"}}]');
  });

  it('writes datetimes as 7 ints (1-based month, microseconds), timedeltas as [days, seconds], bytes as hex', () => {
    const v = rec({ t: ChainDatetime.fromParts(2025, 1, 31, 12, 34, 56, 789000), d: new ChainTimedelta(1, 5), b: new Uint8Array([0x61, 0x62]) });
    assert.equal(canonicalJson(encodeValue(v)), '{"b":{"__bytes__":"6162"},"d":{"__delta__":[1,5]},"t":{"__time__":[2025,1,31,12,34,56,789000]}}');
  });

  it('round-trips through decodeValue', () => {
    const v = rec({ a: dec('1.5'), b: [1n, 'x', null, true], c: ChainDatetime.fromParts(2024, 2, 29) });
    assert.deepEqual(decodeValue(encodeValue(v)), v);
  });

  describe('big-int wrapping scope', () => {
    it('runtime: top level, dict values and list items directly in a dict; not lists in lists', () => {
      const v = rec({ a: 2n ** 70n, b: [2n ** 70n, [2n ** 70n], rec({ c: 2n ** 63n - 1n })], d: -(2n ** 63n), e: 2n ** 63n - 2n, f: 'é' });
      assert.equal(runtimeJsonText(v),
        '{"a":{"__big_int__":"1180591620717411303424"},"b":[{"__big_int__":"1180591620717411303424"},[1180591620717411303424],{"c":{"__big_int__":"9223372036854775807"}}],"d":{"__big_int__":"-9223372036854775808"},"e":9223372036854775806,"f":"\\u00e9"}');
      assert.equal(canonicalJson(encodeValue(2n ** 63n - 1n)), '{"__big_int__":"9223372036854775807"}');
      assert.deepEqual(encodeValue([2n ** 70n]), [2n ** 70n], 'a top-level list is left alone');
    });

    it('runtime: a bare int or decimal as the state stores it', () => {
      const cases: Array<[ChainValue, string]> = [
        [5n, '5'], [-(2n ** 63n) + 1n, '-9223372036854775807'], [2n ** 63n - 1n, '{"__big_int__":"9223372036854775807"}'],
        [-(2n ** 63n), '{"__big_int__":"-9223372036854775808"}'], [dec('100'), '{"__fixed__":"1E+2"}'], [dec('-0.0000001'), '{"__fixed__":"-1E-7"}'],
        [dec('999998.194'), '{"__fixed__":"999998.194"}'],
      ];
      for (const [v, text] of cases) {
        assert.equal(runtimeJsonText(v), text);
        assert.equal(runtimeJsonText(v), compactJson(encodeValue(v, 'runtime'), { asciiOnly: true, sortKeys: false }));
      }
    });

    it('wire: every integer outside the JS safe range, at any depth', () => {
      const v = rec({ a: [[2n ** 53n]], b: 2n ** 53n - 1n });
      assert.equal(canonicalJson(encodeValue(v, 'wire')), '{"a":[[{"__big_int__":"9007199254740992"}]],"b":9007199254740991}');
    });

    it('wrapRuntimeInts applies the runtime scope to plain JSON', () => {
      assert.equal(compactJson(wrapRuntimeInts({ h: 1710000000123000000n, x: 9223372036854775807n }), { asciiOnly: true, sortKeys: true }),
        '{"h":1710000000123000000,"x":{"__big_int__":"9223372036854775807"}}');
    });
  });
});

describe('abciJsonText (ABCI JSON normalisation, encoding.md §4)', () => {
  it('writes decimals plain, keys sorted, ASCII-escaped, ints bare even beyond 2^53', () => {
    const v = rec({ z: dec('5E+3'), a: dec('0.000005'), m: dec('-0'), n: 2n ** 64n, s: 'é', t: dec('10.5000') });
    assert.equal(abciJsonText(v), '{"a":"0.000005","m":"0","n":18446744073709551616,"s":"\\u00e9","t":"10.5","z":"5000"}');
  });

  it('writes datetimes as "YYYY-MM-DD HH:MM:SS[.ffffff]" and bytes as text or b\'…\'', () => {
    const v = [ChainDatetime.fromParts(2026, 1, 1, 0, 0, 10), ChainDatetime.fromParts(2026, 1, 1, 0, 0, 10, 5), new TextEncoder().encode('hi'), new Uint8Array([0xff])];
    assert.equal(abciJsonText(v), '["2026-01-01 00:00:10","2026-01-01 00:00:10.000005","hi","b\'\\\\xff\'"]');
  });

  it('sorts keys by code point', () => {
    assert.equal(abciJsonText(rec({ '\u{1F600}': 1n, '\uE000': 2n })), '{"\\ue000":2,"\\ud83d\\ude00":1}');
  });

  it('writes nested records, lists, tolerated JS ints and bytes alike, and refuses what is not JSON', () => {
    const v = rec({ b: [rec({ y: 1 as unknown as bigint, x: new TextEncoder().encode('ok') })], a: rec({ d: [true, null, 'x\n\u007f'], c: -(2n ** 70n) }) });
    assert.equal(abciJsonText(v), '{"a":{"c":-1180591620717411303424,"d":[true,null,"x\\n\\u007f"]},"b":[{"x":"ok","y":1}]}');
    assert.throws(() => abciJsonText(rec({ f: 1.5 as unknown as bigint })), /floats are not allowed/);
  });
});
