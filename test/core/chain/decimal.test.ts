import assert from 'node:assert/strict';
import { ChainDecimal } from '../../../core/chain/decimal.js';

describe('ChainDecimal (30-place fixed point, truncation toward zero)', () => {
  const forms: Array<[string, string, string, string]> = [
    // input, __fixed__ form, engineering form, ABCI plain form (encoding.md §3.4)
    ['100', '1E+2', '100', '100'],
    ['1000', '1E+3', '1E+3', '1000'],
    ['1010', '1.01E+3', '1.01E+3', '1010'],
    ['0.0000001', '1E-7', '100E-9', '0.0000001'],
    ['123.4500', '123.45', '123.45', '123.45'],
    ['5E+3', '5E+3', '5E+3', '5000'],
    ['-0', '0', '0', '0'],
    ['0.000005', '0.000005', '0.000005', '0.000005'],
  ];
  for (const [input, fixed, eng, plain] of forms) {
    it(`prints ${input} as ${fixed} / ${eng} / ${plain}`, () => {
      const d = ChainDecimal.parse(input);
      assert.equal(d.toFixedWrapperString(), fixed);
      assert.equal(d.toEngString(), eng);
      assert.equal(d.toString(), plain);
    });
  }

  it('truncates products and quotients toward zero', () => {
    assert.equal(ChainDecimal.parse('-2').div(3).toString(), '-0.666666666666666666666666666666');
    assert.equal(ChainDecimal.parse('2').div(3).toString(), '0.666666666666666666666666666666');
  });

  it('takes the floor square root on the scaled value (dex.md §8 first mint)', () => {
    assert.equal(ChainDecimal.from(1000).times(500).sqrt().toString(), '707.106781186547524400844362104849');
  });

  it('refuses values of 10^61 and beyond, and text that is not a decimal', () => {
    assert.throws(() => ChainDecimal.parse('1E+61'), /out of range/);
    assert.throws(() => ChainDecimal.parse('1.2.3'), /not a decimal/);
    assert.throws(() => ChainDecimal.parse('NaN'), /not a decimal/);
  });
});
