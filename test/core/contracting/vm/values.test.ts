import assert from 'node:assert/strict';
import {
  VmDateTime, VmDecimal, VmTimeDelta, VmSet, VmTuple, VmBytes, parseVmJson, stringifyVmJson, runVm, VmRequestError,
  vmStr, normalizeHashKey,
} from '../../../../core/contracting/vm/index.js';
import { rustFloatDebug, rustFloatDisplay, ryuFloat } from '../../../../core/contracting/vm/float-format.js';
import { normalizeSetItems } from '../../../../core/contracting/vm/compare.js';

describe('VM values', () => {
  it('parses decimals like the chain: 30 places truncated, range checked', () => {
    assert.equal(VmDecimal.parse('0.1234567890123456789012345678909').toString(), '0.123456789012345678901234567890'.replace(/0$/, ''));
    assert.equal(VmDecimal.parse(' -1e3 ').toString(), '-1000');
    assert.throws(() => VmDecimal.parse('1e61'), /exceeds the supported decimal range/);
    assert.throws(() => VmDecimal.parse('abc'), /invalid decimal literal 'abc'/);
    assert.equal(VmDecimal.parse('2').mul(VmDecimal.parse('0.333333333333333333333333333333')).toString(), '0.666666666666666666666666666666');
  });
  it("prints decimals in Python's engineering notation for str()", () => {
    assert.equal(VmDecimal.parse('1000').pythonStr(), '1E+3');
    assert.equal(VmDecimal.parse('50000000').pythonStr(), '50E+6');
    assert.equal(VmDecimal.parse('0.0000001').pythonStr(), '100E-9');
    assert.equal(VmDecimal.parse('1234.5').pythonStr(), '1234.5');
  });
  it('prints floats as Rust Display, Debug and serde do', () => {
    assert.equal(rustFloatDisplay(1e20), '100000000000000000000');
    assert.equal(rustFloatDisplay(1), '1');
    assert.equal(rustFloatDebug(1), '1.0');
    assert.equal(rustFloatDebug(1e20), '1e20');
    assert.equal(rustFloatDebug(1.5e-7), '1.5e-7');
    assert.equal(ryuFloat(1e20), '1e20');
    assert.equal(ryuFloat(123.0), '123.0');
    assert.equal(ryuFloat(0.0001), '0.0001');
    assert.equal(ryuFloat(0.00001), '0.00001');
    assert.equal(ryuFloat(1e-7), '1e-7');
  });
  it('renders datetimes and whole-second timedeltas', () => {
    assert.equal(VmDateTime.of(2024n, 2n, 29n, 1n, 2n, 3n, 4n).toString(), '2024-02-29 01:02:03.000004');
    assert.equal(VmTimeDelta.of(0n, 0n, 0n, 0n, -1n).toString(), '-0:00:01');
    assert.equal(VmTimeDelta.of(1n, 2n, 0n, 0n, 0n).toString(), '9 days, 0:00:00');
    assert.equal(VmDateTime.strptime('2024-01-02 03:04:05', '%Y-%m-%d %H:%M:%S').toString(), '2024-01-02 03:04:05');
  });
  it('sorts and de-duplicates sets by the chain key order', () => {
    assert.deepEqual(normalizeSetItems(['b', 2n, null, true, 'a', 2n]), [null, true, 2n, 'a', 'b']);
    assert.equal(vmStr(new VmSet([], true)), 'frozenset()');
    assert.equal(vmStr(new VmBytes(Uint8Array.from([0, 39, 65]), false)), "b'\\x00\\'A'");
    assert.equal(vmStr(new VmTuple([])), '()');
  });
  it('builds hash keys with the delimiter rules', () => {
    assert.equal(normalizeHashKey(new VmTuple(['a', 1n, true, null])), 'a:1:True:None');
    assert.throws(() => normalizeHashKey(VmDecimal.parse('1.5')), /Illegal separator in key\./);
    assert.throws(() => normalizeHashKey(new VmTuple(Array(17).fill('x'))), /Too many dimensions \(17\) for hash\. Max is 16/);
  });
  it('keeps ints and floats apart in JSON text by lexeme', () => {
    const parsed = parseVmJson('{"i": 2, "f": 2.0, "big": 123456789012345678901234567890}') as Record<string, unknown>;
    assert.equal(parsed.i, 2n);
    assert.equal(parsed.f, 2);
    assert.equal(parsed.big, 123456789012345678901234567890n);
    assert.equal(stringifyVmJson({ i: 2n, f: 2 }), '{"i":2,"f":2.0}');
  });
  it('names the field of a malformed runVm request', () => {
    const field = (request: unknown): string => {
      try {
        runVm(request);
      } catch (err) {
        assert.ok(err instanceof VmRequestError);
        return err.field;
      }
      throw new Error('accepted');
    };
    assert.equal(field({ modules: [] }), 'modules');
    assert.equal(field({ modules: [{ module_name: '', ir: {} }] }), 'modules[0].module_name');
    assert.equal(field({ modules: [{ module_name: 'm', ir: '{' }] }), 'modules[0].ir');
    assert.throws(() => runVm({ modules: [{ module_name: 'm', ir: {} }], meter: { chi_budget: 0n } }), /modules\[0\]\.ir/);
    assert.throws(() => runVm({ modules: [{ module_name: 'm', ir: {} }], call: {} }), /modules\[0\]\.ir: unsupported ir_version/);
    assert.throws(() => runVm('{"modules": 1}'), /modules: must be an array/);
  });
});
