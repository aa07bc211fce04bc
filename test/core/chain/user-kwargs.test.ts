import assert from 'node:assert/strict';
import { canonicalJson } from '../../../core/chain/canonical-json.js';
import { ChainDecimal } from '../../../core/chain/decimal.js';
import { kwargsFromUser, KwargsError } from '../../../core/chain/value-codec.js';
import { ChainDatetime } from '../../../core/chain/values.js';

const wire = (input: unknown) => canonicalJson(kwargsFromUser(input));

function refuses(input: unknown, argument: string, reason: RegExp): void {
  assert.throws(() => kwargsFromUser(input), (err: unknown) => {
    assert.ok(err instanceof KwargsError);
    assert.equal(err.argument, argument);
    assert.match(err.message, new RegExp(`argument '${argument}'`));
    assert.match(err.message, reason);
    return true;
  });
}

describe('kwargsFromUser (tool input → wire kwargs)', () => {
  it('passes strings, booleans, null and safe integers through', () => {
    assert.equal(wire({ to: 'bob', ok: true, memo: null, n: 5, neg: -0 }), '{"memo":null,"n":5,"neg":0,"ok":true,"to":"bob"}');
  });

  it('turns fractional numbers into exact decimals from their own text', () => {
    assert.equal(wire({ amount: 0.1, b: 1.5, c: 1e-7, d: 123.45 }),
      '{"amount":{"__fixed__":"0.1"},"b":{"__fixed__":"1.5"},"c":{"__fixed__":"0.0000001"},"d":{"__fixed__":"123.45"}}');
  });

  it('writes decimals in plain form as the official SDK does, never the runtime exponent form (issue #18 item 7)', () => {
    assert.equal(wire({ a: { __fixed__: '5E+6' }, b: 5e6 + 0.5, c: { __fixed__: 5000000 } }),
      '{"a":{"__fixed__":"5000000"},"b":{"__fixed__":"5000000.5"},"c":{"__fixed__":"5000000"}}');
  });

  it('refuses a JSON number whose shortest text has more than 15 significant digits, asking for a string (issue #18 item 2)', () => {
    refuses({ amount: 0.1 + 0.2 }, 'amount', /0\.30000000000000004 has 17 significant digits.*decimal string.*"0\.3"/);
    refuses({ amount: { __fixed__: 0.1 + 0.2 } }, 'amount', /decimal string/);
    refuses({ nested: [1, 1.1 * 3] }, 'nested', /significant digits/);
    assert.equal(wire({ a: 0.123456789012345, b: 123456789.123456 }), '{"a":{"__fixed__":"0.123456789012345"},"b":{"__fixed__":"123456789.123456"}}');
  });

  it('refuses integers beyond the safe range unless wrapped', () => {
    refuses({ n: 2 ** 60 }, 'n', /__big_int__/);
    assert.equal(wire({ n: { __big_int__: '18446744073709551616' } }), '{"n":{"__big_int__":"18446744073709551616"}}');
    assert.equal(wire({ n: 2n ** 64n }), '{"n":{"__big_int__":"18446744073709551616"}}');
  });

  it('checks and normalises explicit wrappers', () => {
    assert.equal(wire({ a: { __fixed__: '1000' }, b: { __fixed__: '1.50' } }), '{"a":{"__fixed__":"1000"},"b":{"__fixed__":"1.5"}}');
    assert.equal(wire({ t: { __time__: [2024, 1, 2, 3, 4, 5, 0] } }), '{"t":{"__time__":[2024,1,2,3,4,5,0]}}');
    assert.equal(wire({ b: { __bytes__: 'ABcd' } }), '{"b":{"__bytes__":"abcd"}}');
    refuses({ a: { __fixed__: 'abc' } }, 'a', /not a decimal/);
    refuses({ t: { __time__: [2024, 13, 1] } }, 't', /invalid datetime/);
    refuses({ t: { __time__: [2024] } }, 't', /3 to 7 integers/);
    refuses({ b: { __bytes__: 'abc' } }, 'b', /even number of hex/);
    refuses({ a: { __fixed__: '1', extra: 1 } }, 'a', /only key/);
  });

  it('refuses more than 30 decimal places instead of letting the chain truncate', () => {
    refuses({ amount: { __fixed__: '0.0000000000000000000000000000001' } }, 'amount', /30 decimal places/);
    refuses({ amount: 1e-31 }, 'amount', /30 decimal places/);
  });

  it('refuses bad argument names, NaN and non-JSON values, naming the argument and the place', () => {
    refuses({ 'bad key': 1 }, 'bad key', /not a valid argument name/);
    refuses({ x: NaN }, 'x', /NaN/);
    refuses({ data: { items: [1, 2.5, new Map()] } }, 'data', /data\.items\[2\].*Map/);
    assert.throws(() => kwargsFromUser([1]), KwargsError);
  });

  it('accepts typed values from code', () => {
    assert.equal(wire({ amount: ChainDecimal.parse('100'), deadline: ChainDatetime.fromParts(2025, 1, 31, 12, 34, 56, 789000) }),
      '{"amount":{"__fixed__":"100"},"deadline":{"__time__":[2025,1,31,12,34,56,789000]}}');
  });

  it('keeps __proto__ as data in nested objects and gives an empty object for undefined', () => {
    assert.equal(wire({ m: JSON.parse('{"__proto__":1}') }), '{"m":{"__proto__":1}}');
    assert.equal(wire(undefined), '{}');
  });
});
