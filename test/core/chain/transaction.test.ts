import assert from 'node:assert/strict';
import { canonicalJson, parseJsonExact, type JsonObject } from '../../../core/chain/canonical-json.js';
import { sign } from '../../../core/chain/keys.js';
import {
  canonicalPayload,
  cometTxHash,
  decodeAndValidateTx,
  encodeTransaction,
  executionHash,
  signTransaction,
  TransactionValidationError,
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
});

describe('decodeAndValidateTx (CheckTx step 1, §6)', () => {
  const options = { chainId: 'xian-local-1', maxTxBytes: 4194304 };
  const valid = encodeTransaction(signTransaction(numericKeys, SEED_01));
  const payloadText = canonicalPayload(numericKeys);
  const sig = valid.tx.metadata.signature;
  const wireOf = (payload: string, metadata = `{"signature":"${sig}"}`) => hex(`{"metadata":${metadata},"payload":${payload}}`);

  function refused(raw: string | Uint8Array, message: string, opts: Partial<typeof options> & { rejectZeroChi?: boolean } = {}): void {
    assert.throws(() => decodeAndValidateTx(raw, { ...options, ...opts }), (err: unknown) => {
      assert.ok(err instanceof TransactionValidationError, String(err));
      assert.equal(err.message, message);
      assert.equal(err.log, `TransactionException: ${message}`);
      return true;
    });
  }

  it('accepts a valid transaction as hex text or raw bytes and returns its CometBFT hash', () => {
    const fromText = decodeAndValidateTx(valid.hex, options);
    assert.equal(fromText.hash, valid.hash);
    assert.equal(fromText.json, valid.json);
    assert.equal(canonicalJson(fromText.tx as unknown as JsonObject), valid.json);
    assert.equal(decodeAndValidateTx(new TextEncoder().encode(valid.hex), options).hash, valid.hash);
  });

  it('accepts upper-case hex as bytes.fromhex does (the hash is of the bytes received)', () => {
    const upper = valid.hex.toUpperCase();
    assert.equal(decodeAndValidateTx(upper, options).hash, cometTxHash(upper));
  });

  it('refuses oversized transactions before decoding', () => {
    refused(valid.hex, 'Transaction exceeds maximum configured size of 100 bytes', { maxTxBytes: 100 });
  });

  it('reports decode failures with Python messages', () => {
    refused('zz', 'non-hexadecimal number found in fromhex() arg at position 0');
    refused('7b2', 'non-hexadecimal number found in fromhex() arg at position 3');
    refused('ff', "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte");
    refused(new Uint8Array([0x37, 0xff]), "'utf-8' codec can't decode byte 0xff in position 1: invalid start byte");
    refused(hex('{"metadata"'), "Expecting ':' delimiter: line 1 column 12 (char 11)");
  });

  it('refuses bytes that are not canonical', () => {
    refused(hex(valid.json.replace('"payload":', '"payload": ')), 'Transaction bytes are not canonical');
    refused(wireOf(payloadText.replace('"nonce":7', '"nonce":7.0')), 'Transaction bytes are not canonical');
    refused(wireOf(payloadText.replace('{"data":', '{"x":1.5,"data":')), 'Transaction bytes are not canonical');
    refused(hex(`{"payload":${payloadText},"metadata":{"signature":"${sig}"}}`), 'Transaction bytes are not canonical');
  });

  it('checks metadata and payload keys in the node order and words', () => {
    refused(hex(`{"payload":${payloadText}}`), 'Metadata is missing');
    refused(hex(`{"metadata":{},"payload":${payloadText}}`), 'Metadata is missing');
    refused(wireOf(payloadText, `{"a":1,"signature":"${sig}"}`), 'Wrong number of metadata entries');
    refused(hex(`{"metadata":{"signature":"${sig}"}}`), 'Invalid payload');
    refused(wireOf('{}'), 'Payload is missing');
    refused(wireOf(payloadText.replace('"chain_id"', '"a":1,"chain_id"')), 'Payload keys are not valid');
    refused(wireOf(payloadText.replace(/,"nonce":7/, '')), "Payload key 'nonce' is missing");
    refused(wireOf(payloadText.replace(/,"sender":"[0-9a-f]+"/, '')), "Payload key 'sender' is missing");
    refused(wireOf(payloadText.replace('"contract":"con_probe"', '"contract":""')), "Payload key 'contract' is missing");
    refused(wireOf(payloadText.replace('"chi_supplied":100', '"chi_supplied":0')), "Payload key 'chi_supplied' is missing");
    refused(wireOf(payloadText.replace('"chi_supplied":100', '"chi_supplied":null')), "Payload key 'chi_supplied' is missing");
    refused(hex('[1]'), 'list indices must be integers or slices, not str');
    refused(wireOf(payloadText.replace('"nonce":7', '"nonce":null')), 'Transaction has wrongly formatted dictionary');
    const noChain = canonicalPayload({ ...numericKeys, chain_id: '' });
    refused(wireOf(noChain, `{"signature":"${sign(SEED_01, noChain)}"}`), 'Wrong chain_id');
  });

  it('refuses wrongly typed fields, booleans as integers included', () => {
    refused(wireOf(payloadText.replace('"nonce":7', '"nonce":true')), 'Transaction has wrongly formatted dictionary');
    refused(wireOf(payloadText.replace('"nonce":7', '"nonce":-1')), 'Transaction has wrongly formatted dictionary');
    refused(wireOf(payloadText.replace('"function":"run"', '"function":"1run"')), 'Transaction has wrongly formatted dictionary');
    refused(wireOf(payloadText, '{"signature":"abc"}'), 'Transaction has wrongly formatted dictionary');
    refused(wireOf(payloadText, `{"sig":"${sig}"}`), 'Transaction has wrongly formatted dictionary');
    refused(hex(`{"extra":1,"metadata":{"signature":"${sig}"},"payload":${payloadText}}`), 'Transaction has unexpected or missing keys');
  });

  it('checks the signature, then the chain id', () => {
    const flipped = (sig[0] === '0' ? '1' : '0') + sig.slice(1);
    refused(wireOf(payloadText, `{"signature":"${flipped}"}`), 'Bad signature');
    refused(wireOf(payloadText.replace('"nonce":7', '"nonce":8')), 'Bad signature');
    refused(valid.hex, 'Wrong chain_id', { chainId: 'chain-local-1' });
    assert.doesNotThrow(() => decodeAndValidateTx(wireOf(payloadText, `{"signature":"${sig.toUpperCase()}"}`), options));
  });

  it('refuses contract submissions with an invalid name after a valid signature', () => {
    const payload: TxPayload = { ...numericKeys, contract: 'submission', function: 'submit_contract', kwargs: { name: 'token', code: 'x' } };
    const text = canonicalPayload(payload);
    refused(wireOf(text, `{"signature":"${sign(SEED_01, text)}"}`), 'Transaction contract name is invalid');
    const ok = { ...payload, kwargs: { name: 'con_token', code: 'x' } };
    assert.doesNotThrow(() => decodeAndValidateTx(encodeTransaction(signTransaction(ok, SEED_01)).hex, options));
  });

  it('lets chi_supplied 0 through only when asked to follow the Python fallback', () => {
    const payload = canonicalPayload({ ...numericKeys, chi_supplied: 0 });
    const raw = wireOf(payload, `{"signature":"${sign(SEED_01, payload)}"}`);
    refused(raw, "Payload key 'chi_supplied' is missing");
    assert.doesNotThrow(() => decodeAndValidateTx(raw, { ...options, rejectZeroChi: false }));
  });

  it('keeps u64 integers exact', () => {
    const payload = canonicalPayload({ ...numericKeys, chi_supplied: 18446744073709551615n });
    const raw = wireOf(payload, `{"signature":"${sign(SEED_01, payload)}"}`);
    assert.equal(decodeAndValidateTx(raw, options).tx.payload.chi_supplied, 18446744073709551615n);
  });
});
