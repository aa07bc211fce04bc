import assert from 'node:assert/strict';
import { ChainDecimal } from '../../../core/chain/decimal.js';
import { exceptionRepr, pythonRepr, pythonStr, safeRepr, safeReprText } from '../../../core/chain/value-codec.js';
import { ChainDatetime, ChainTimedelta, chainRecord } from '../../../core/chain/values.js';

describe('pythonRepr (tx_result.data.result)', () => {
  it('writes None, booleans, ints and decimals in engineering form', () => {
    assert.equal(pythonRepr(null), 'None');
    assert.equal(pythonRepr(true), 'True');
    assert.equal(pythonRepr(false), 'False');
    assert.equal(pythonRepr(5n), '5');
    assert.equal(pythonRepr(ChainDecimal.parse('1000')), '1E+3');
    assert.equal(pythonRepr(ChainDecimal.parse('100')), '100');
    assert.equal(pythonRepr(ChainDecimal.parse('0.0000001')), '100E-9');
  });

  it('quotes strings as Python does', () => {
    assert.equal(pythonRepr('Sent 5 to bob'), "'Sent 5 to bob'");
    assert.equal(pythonRepr("it's"), '"it\'s"');
    assert.equal(pythonRepr('\'"'), "'\\'\"'");
    assert.equal(pythonRepr('tab\there\n\\'), "'tab\\there\\n\\\\'");
    assert.equal(pythonRepr('\u007fé\u200b\u00a0😀\ud800\u0000'), "'\\x7fé\\u200b\\xa0😀\\ud800\\x00'");
    assert.equal(pythonRepr('\u2028'), "'\\u2028'");
  });

  it('writes lists, dicts (insertion order), bytes, datetimes and timedeltas', () => {
    const d = chainRecord([['a', [1n, 'x']], ['b', null], ['c', true], ['d', new Uint8Array([0, 0x61])]]);
    assert.equal(pythonRepr(d), "{'a': [1, 'x'], 'b': None, 'c': True, 'd': b'\\x00a'}");
    assert.equal(pythonRepr(ChainDatetime.fromParts(2024, 1, 2, 3, 4, 5)), '2024-01-02 03:04:05');
    assert.equal(pythonRepr(new ChainTimedelta(-1, 86399)), '-1 day, 23:59:59');
    assert.equal(pythonRepr(new Uint8Array([0x27])), 'b"\'"');
  });
});

describe('safeRepr (≤ 1024 characters, memory addresses cut)', () => {
  it('truncates to 1024 code points', () => {
    assert.equal(safeRepr('x'.repeat(2000)).length, 1024);
    assert.equal(Array.from(safeReprText('😀'.repeat(1100))).length, 1024);
  });

  it('cuts everything from " at 0x" and closes with >', () => {
    assert.equal(safeReprText('<object Foo at 0x7f3a2b>'), '<object Foo>');
  });

  it('writes exception reprs', () => {
    assert.equal(exceptionRepr('AssertionError', 'Insufficient funds'), "AssertionError('Insufficient funds')");
    assert.equal(exceptionRepr('ValueError'), 'ValueError()');
  });
});

describe('pythonStr (StateChange attributes)', () => {
  it('keeps strings as they are and reprs the rest', () => {
    assert.equal(pythonStr('bob'), 'bob');
    assert.equal(pythonStr(ChainDecimal.parse('1010')), '1.01E+3');
    assert.equal(pythonStr(chainRecord([['k', ChainDecimal.parse('1.50')]])), "{'k': 1.5}");
  });
});
