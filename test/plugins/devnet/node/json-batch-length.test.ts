import assert from 'node:assert/strict';
import { batchExceeds } from '../../../../plugins/devnet/node/json-batch-length.js';

const exceeds = (text: string, max = 3) => batchExceeds(Buffer.from(text, 'utf8'), max);

describe('batchExceeds (a JSON-RPC batch over the cap, told without parsing)', () => {
  it('counts top-level elements: at the cap is not over, one more is', () => {
    assert.equal(exceeds('[{"id":1},{"id":2},{"id":3}]'), false);
    assert.equal(exceeds('[{"id":1},{"id":2},{"id":3},{"id":4}]'), true);
    assert.equal(exceeds(' \n\t[1,2,3,4]'), true, 'leading whitespace');
    assert.equal(exceeds('[]'), false);
  });

  it('does not count separators inside strings, objects or nested arrays', () => {
    assert.equal(exceeds('[{"params":[1,2,3,4,5]},{"a":{"b":1,"c":2,"d":3}},"x,y,z,w"]'), false);
    // Built with JSON.stringify, so the escapes are JSON's own.
    assert.equal(exceeds(JSON.stringify(['a\\', ',', ','])), false, 'a string ending in an escaped backslash ends at its quote');
    assert.equal(exceeds(JSON.stringify(['a\\', ',', ',', 'd'])), true);
    assert.equal(exceeds(JSON.stringify(['",",",",",', 'b'])), false, 'escaped quotes stay inside the string');
    assert.equal(exceeds('["é,ü","日本,語"]', 1), true, 'multi-byte characters');
    assert.equal(exceeds('["é,ü"]', 1), false);
  });

  it('a body that is not an array is never a batch', () => {
    assert.equal(exceeds('{"a":[1,2,3,4,5]}'), false);
    assert.equal(exceeds('"[1,2,3,4,5]"'), false);
    assert.equal(exceeds(''), false);
  });

  it('stops at the separator that starts call max + 1, whatever follows', () => {
    assert.equal(exceeds('[1,2,3,4 this is not JSON'), true);
    assert.equal(exceeds('[1,2,3 this is not JSON'), false);
  });
});
