import assert from 'node:assert/strict';
import { compactJson, parseCanonical, parseJsonExact, type JsonObject } from '../../../core/chain/canonical-json.js';
import { sha3Hex } from '../../../core/chain/hashes.js';
import { sign } from '../../../core/chain/keys.js';
import { wrapRuntimeInts } from '../../../core/chain/value-codec.js';
import {
  canonicalPayload,
  cometTxHash,
  encodeTransaction,
  executionHash,
  signTransaction,
  type TxPayload,
} from '../../../core/chain/transaction.js';

const SEED_01 = '01'.repeat(32);
const PUB_01 = '8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c';
const SEED_SEQ = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
const PUB_SEQ = '03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8';
const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex');

const numericKeys: TxPayload = {
  chain_id: 'xian-local-1',
  chi_supplied: 100,
  contract: 'con_probe',
  function: 'run',
  nonce: 7,
  kwargs: parseJsonExact('{"data":{"2":"two","10":"ten","0":false}}') as JsonObject,
  sender: PUB_01,
};

const transfer: TxPayload = {
  chain_id: 'xian-local',
  chi_supplied: 50000,
  contract: 'currency',
  function: 'transfer',
  kwargs: { amount: 5, memo: 'ascii memo', to: PUB_SEQ },
  nonce: 1,
  sender: PUB_SEQ,
};

describe('building and signing (transactions.md §1-§4, vectors §12)', () => {
  it('matches the upstream wire vector numeric_keys byte for byte (§12.1)', () => {
    assert.equal(canonicalPayload(numericKeys),
      '{"chain_id":"xian-local-1","chi_supplied":100,"contract":"con_probe","function":"run","kwargs":{"data":{"0":false,"10":"ten","2":"two"}},"nonce":7,"sender":"8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c"}');
    const tx = signTransaction(numericKeys, SEED_01);
    assert.equal(tx.metadata.signature, '991f4878ba759f0d68a91a0665eb83b5975c2bc5b29e244dfbc19a7e0b6f9bbb75690913c38333a15e82108c39df4346d086ee288702699c9632806fd3b75e06');
    const encoded = encodeTransaction(tx);
    assert.equal(encoded.json,
      '{"metadata":{"signature":"991f4878ba759f0d68a91a0665eb83b5975c2bc5b29e244dfbc19a7e0b6f9bbb75690913c38333a15e82108c39df4346d086ee288702699c9632806fd3b75e06"},"payload":{"chain_id":"xian-local-1","chi_supplied":100,"contract":"con_probe","function":"run","kwargs":{"data":{"0":false,"10":"ten","2":"two"}},"nonce":7,"sender":"8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c"}}');
    assert.equal(encoded.hex.length, 782);
    assert.ok(encoded.hex.startsWith('7b226d65746164617461223a7b227369676e6174757265223a22'));
    assert.equal(encoded.hex, hex(encoded.json));
    assert.equal(encoded.hash, 'A4810754B9869FB9BAD88B10710D3DD431F8EB3C7AB03991A89F3271A63D1740');
  });

  it('matches the computed transfer vector (§12.2)', () => {
    assert.equal(canonicalPayload(transfer),
      '{"chain_id":"xian-local","chi_supplied":50000,"contract":"currency","function":"transfer","kwargs":{"amount":5,"memo":"ascii memo","to":"03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8"},"nonce":1,"sender":"03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8"}');
    const encoded = encodeTransaction(signTransaction(transfer, SEED_SEQ));
    assert.equal(encoded.tx.metadata.signature, '8f0f0d778ae1fdfa25c54ee1998f2db1a8d785154b7a55a19d10eb6e3133acf2a4378fe1b701a655d37a9784dcc4f55429527a53d3374226157a54f637bd2407');
    assert.equal(encoded.json, `{"metadata":{"signature":"${encoded.tx.metadata.signature}"},"payload":${canonicalPayload(transfer)}}`);
    assert.equal(encoded.hash, '08FC5168128E929884D3C8440293F7C2DDD8705754580BF031634D6A018288D4');
  });

  it('reproduces the legacy vector from the same primitives (§12.3)', () => {
    const payload = '{"chain_id":"xian-network-1","contract":"currency","function":"transfer","kwargs":{"amount":{"__fixed__":"1.5"},"to":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"},"nonce":0,"sender":"8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c","stamps_supplied":50}';
    const sig = sign(SEED_01, payload);
    assert.equal(sig, '1670c1473b18c052b80cc25a2a6811c1b115f4e8408b90189180aa1f49622dfc1abe3a748cee72c580bb63621cd37af87bde49424ef4f47452ad88d898800c0d');
    assert.equal(cometTxHash(hex(`{"metadata":{"signature":"${sig}"},"payload":${payload}}`)), '240E6C8D5E21A221C96990B677DE65967312B1256D2CA34F412A9A1DCB25E75D');
    const pythonStyle = `{"chain_id": "xian-network-1", "contract": "currency", "function": "transfer", "kwargs": {"amount": {"__fixed__": "1.5"}, "to": "${'b'.repeat(64)}"}, "nonce": 0, "sender": "${PUB_01}", "stamps_supplied": 50}`;
    assert.equal(sign(SEED_01, pythonStyle), '49b9426af784f7c82e59480de1472f2fa02d4b01b4ea9f54c2c20cd0ff7bc8ecdb79c4b3152c5852d451669741e10eff4e8d0f4da1a5a9a3c6bc42f24e41f00f');
  });

  it('refuses payloads the node would refuse, and keys that are not the sender', () => {
    assert.throws(() => signTransaction({ ...transfer, chi_supplied: 0 }, SEED_SEQ), /chi_supplied must be an integer of at least 1/);
    assert.throws(() => signTransaction({ ...transfer, contract: 'bad-name' }, SEED_SEQ), /not an identifier/);
    assert.throws(() => signTransaction({ ...transfer, kwargs: { amount: 1.5 } as unknown as JsonObject }, SEED_SEQ), /floats are not allowed/);
    assert.throws(() => signTransaction(transfer, SEED_01), /not to the sender/);
    assert.throws(() => signTransaction({ ...transfer, contract: 'submission', function: 'submit_contract', kwargs: { name: 'token' } }, SEED_SEQ), /Transaction contract name is invalid/);
  });
});

describe('execution hash (§5)', () => {
  it('matches the §12.2 vector with b_meta', () => {
    const tx = signTransaction(transfer, SEED_SEQ);
    const bMeta = { chain_id: 'xian-local', hash: 'ab'.repeat(32), height: 7, nanos: 1710000000123000000n };
    assert.equal(executionHash(tx, bMeta), 'b676999c81a997efa19dfe86065ff51acb8fe1bcb0a0e14f47fa4b1cb89533d4');
  });

  it('hashes the runtime encoding: ints beyond int64 wrapped as __big_int__ where Python wraps them, others bare', () => {
    const bMeta = { chain_id: 'xian-local', hash: 'ab'.repeat(32), height: 7, nanos: 1710000000123000000n };
    // The runtime encoding written out in full: the int pass, then sorted, compact, ASCII-escaped text.
    const reference = (tx: ReturnType<typeof signTransaction>) => sha3Hex(compactJson(
      wrapRuntimeInts({ b_meta: bMeta, metadata: tx.metadata, payload: tx.payload } as unknown as JsonObject), { asciiOnly: true, sortKeys: true }));
    const wide = signTransaction({ ...transfer, kwargs: { amount: 18446744073709551615n, list: [9223372036854775807n, 5], nested: [[-5]], memo: 'é' } as unknown as JsonObject }, SEED_SEQ);
    const text = compactJson(wrapRuntimeInts(wide.payload as unknown as JsonObject), { asciiOnly: true, sortKeys: true });
    assert.match(text, /"amount":\{"__big_int__":"18446744073709551615"\}.*"list":\[\{"__big_int__":"9223372036854775807"\},5\],"memo":"\\u00e9","nested":\[\[-5\]\]/);
    assert.equal(executionHash(wide, bMeta), reference(wide));
    const plain = signTransaction(transfer, SEED_SEQ);
    assert.equal(executionHash(plain, bMeta), reference(plain));
  });
});

describe('our signer emits canonical bytes, the strictest form every node decoder accepts (§2, §4)', () => {
  it('re-serialises to itself: code-point key order, raw UTF-8, no whitespace', () => {
    const payload: TxPayload = {
      ...numericKeys,
      kwargs: { data: { '😀': 3, '\uE000': 2, 'é': 1 }, memo: 'bob-ü→😀 "q" \\ \n', big: 18446744073709551615n, neg: -5 } as unknown as JsonObject,
    };
    const encoded = encodeTransaction(signTransaction(payload, SEED_01));
    assert.doesNotThrow(() => parseCanonical(encoded.json));
    assert.ok(encoded.json.includes('"data":{"é":1,"\uE000":2,"😀":3}'), encoded.json);
    assert.ok(!/\\u[0-9a-f]{4}/.test(encoded.json.replace('\\n', '')), 'non-ASCII travels raw, not escaped');
    assert.equal(encoded.hex, hex(encoded.json));
  });
});
