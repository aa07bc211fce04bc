import assert from 'node:assert/strict';
import {
  contractSha256,
  contractSha3,
  hexToBytes,
  pythonFromHex,
  pythonUtf8Decode,
  sha256Hex,
  sha3Hex,
  utf8Bytes,
} from '../../../core/chain/hashes.js';

describe('hash helpers', () => {
  it('computes SHA-256 and SHA3-256 (FIPS 202, not Keccak) of text as UTF-8', () => {
    assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(sha3Hex('abc'), '3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532');
    assert.equal(sha3Hex(''), 'a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a');
  });

  it('hashes contract input that parses as hex as bytes, anything else as UTF-8', () => {
    assert.equal(contractSha3('616263'), sha3Hex('abc'));
    assert.equal(contractSha256('61 62 63'), sha256Hex('abc'), 'bytes.fromhex skips whitespace between bytes');
    assert.equal(contractSha3('hello'), sha3Hex('hello'));
    assert.equal(contractSha3('abc'), sha3Hex('abc'), 'odd-length hex is text');
  });
});

describe('pythonFromHex (bytes.fromhex)', () => {
  it('accepts either case and whitespace between byte pairs', () => {
    assert.deepEqual(pythonFromHex(' 7B\t22\n'), new Uint8Array([0x7b, 0x22]));
    assert.deepEqual(pythonFromHex(''), new Uint8Array());
  });

  it('fails with Python messages', () => {
    assert.throws(() => pythonFromHex('7 b'), /^RangeError: non-hexadecimal number found in fromhex\(\) arg at position 1$/);
    assert.throws(() => pythonFromHex('abc'), /at position 3$/);
    assert.throws(() => pythonFromHex('zz'), /at position 0$/);
  });
});

describe('UTF-8', () => {
  it('refuses lone surrogates instead of replacing them', () => {
    assert.deepEqual(utf8Bytes('é'), new Uint8Array([0xc3, 0xa9]));
    assert.throws(() => utf8Bytes('a\uDC00'), /lone UTF-16 surrogate/);
  });

  it('decodes strictly with Python UnicodeDecodeError text', () => {
    const cases: Array<[number[], string]> = [
      [[0xff], "byte 0xff in position 0: invalid start byte"],
      [[0x61, 0x62, 0xe2, 0x28, 0xa1], 'byte 0xe2 in position 2: invalid continuation byte'],
      [[0xed, 0xa0, 0x80], 'byte 0xed in position 0: invalid continuation byte'],
      [[0xc0, 0x80], 'byte 0xc0 in position 0: invalid start byte'],
      [[0x61, 0x62, 0xe2, 0x82], 'bytes in position 2-3: unexpected end of data'],
      [[0x61, 0x62, 0xe2], 'byte 0xe2 in position 2: unexpected end of data'],
      [[0xf4, 0x90, 0x80, 0x80], 'byte 0xf4 in position 0: invalid continuation byte'],
    ];
    for (const [bytes, message] of cases) {
      assert.throws(() => pythonUtf8Decode(new Uint8Array(bytes)), { message: `'utf-8' codec can't decode ${message}` });
    }
    assert.equal(pythonUtf8Decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x61])), '\uFEFFa', 'a BOM is kept, as Python does');
  });

  it('parses strict hex for keys without echoing it', () => {
    assert.throws(() => hexToBytes('abc', 'private key'), /^TypeError: private key must be an even number of hex characters$/);
  });
});
