import assert from 'node:assert/strict';
import { parseJsonExact, type JsonObject } from '../../../../core/chain/canonical-json.js';
import { sign } from '../../../../core/chain/keys.js';
import { canonicalPayload, cometTxHash, encodeTransaction, signTransaction, type TxPayload } from '../../../../core/chain/transaction.js';
import { decodeAndValidateNative, NativeTxError } from '../../../../plugins/devnet/node/native-tx-validator.js';
import { wireForms } from '../../../conformance/wire-forms.js';
import { cpuTimeOfSync } from '../../../support/cpu-time.js';

/**
 * The native fast path of the production node (xian-contracting
 * packages/xian-fastpath-core/src/lib.rs), rule by rule in its order and with its texts; the
 * table in plugins/devnet/node/README.md lists the same rules with their source lines.
 */
const SEED_01 = '01'.repeat(32);
const PUB_01 = '8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c';
const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex');
const bytes = (text: string) => new TextEncoder().encode(text);

const numericKeys: TxPayload = {
  chain_id: 'xian-local-1', chi_supplied: 100, contract: 'con_probe', function: 'run', nonce: 7,
  kwargs: parseJsonExact('{"data":{"2":"two","10":"ten","0":false}}') as JsonObject, sender: PUB_01,
};

describe('native transaction validator (CheckTx step 1 as the production image runs it)', () => {
  const options = { chainId: 'xian-local-1', maxTxBytes: 4194304 };
  const valid = encodeTransaction(signTransaction(numericKeys, SEED_01));
  const payloadText = canonicalPayload(numericKeys);
  const sig = valid.tx.metadata.signature;
  const wireOf = (payload: string, metadata = `{"signature":"${sig}"}`) => hex(`{"metadata":${metadata},"payload":${payload}}`);
  const signedWire = (payload: string) => wireOf(payload, `{"signature":"${sign(SEED_01, canonicalPayload(parseJsonExact(payload) as unknown as TxPayload))}"}`);

  function refused(raw: string | Uint8Array, message: string, opts: Partial<typeof options> = {}): void {
    assert.throws(() => decodeAndValidateNative(typeof raw === 'string' ? bytes(raw) : raw, { ...options, ...opts }), (err: unknown) => {
      assert.ok(err instanceof NativeTxError, String(err));
      assert.equal(err.message, message);
      assert.equal(err.log, `TransactionException: ${message}`);
      return true;
    });
  }
  const accepted = (raw: string) => decodeAndValidateNative(bytes(raw), options);

  it('accepts the upstream wire vector and returns the SHA-256 of the bytes as broadcast', () => {
    const r = accepted(valid.hex);
    assert.equal(r.hash, valid.hash);
    assert.equal(r.tx.metadata.signature, sig);
    assert.equal(canonicalPayload(r.tx.payload), payloadText);
    const upper = valid.hex.toUpperCase();
    assert.equal(accepted(upper).hash, cometTxHash(upper), 'hex::decode takes either case; the hash is of the bytes received');
  });

  it('accepts whitespace, any key order, \\u escapes and duplicate keys (the last wins), verifying over the canonical payload', () => {
    const spaced = `{"metadata": {"signature": "${sig}"}, "payload": ${payloadText.replace(/,"/g, ', "').replace(/":/g, '": ')}}`;
    assert.equal(accepted(hex(spaced)).hash, cometTxHash(hex(spaced)));
    const reordered = `{"payload":{"sender":"${PUB_01}","nonce":7,"kwargs":{"data":{"2":"two","0":false,"10":"ten"}},"function":"run","contract":"con_probe","chi_supplied":100,"chain_id":"xian-local-1"},"metadata":{"signature":"${sig}"}}`;
    assert.doesNotThrow(() => accepted(hex(reordered)));
    assert.doesNotThrow(() => accepted(wireOf(payloadText.replace('"run"', '"\\u0072un"'))));
    assert.doesNotThrow(() => accepted(wireOf(payloadText.replace('"nonce":7', '"nonce":3,"nonce":7'))));
    assert.doesNotThrow(() => accepted(hex(`{"extra":1.5,"metadata":{"signature":"${sig}"},"payload":${payloadText}}`)), 'lib.rs never checks the top-level key set');
  });

  it('decodes strings with raw UTF-8, escapes and both mixed to the signed text', () => {
    const memo = 'aé\n😀 "q" \\ b\u0001';
    const payload = canonicalPayload({ ...numericKeys, kwargs: { memo } });
    const raw = JSON.stringify(memo);
    assert.ok(payload.includes(raw));
    for (const written of [raw, raw.replace('é', '\\u00e9'), raw.replace('😀', '\\ud83d\\ude00')]) {
      const r = accepted(signedWire(payload.replace(raw, written)));
      assert.equal(r.tx.payload.kwargs['memo'], memo);
    }
  });

  it('accepts every wire form of the Python-made fixture up to the node state checks', () => {
    for (const form of wireForms.forms) {
      const attempt = () => decodeAndValidateNative(bytes(form.raw_hex), { chainId: wireForms.chain_id });
      if (form.name === 'python_wrong_chain_id') refused(form.raw_hex, 'Wrong chain_id', { chainId: wireForms.chain_id, maxTxBytes: undefined });
      else if (form.name === 'python_bad_signature') refused(form.raw_hex, 'Bad signature', { chainId: wireForms.chain_id, maxTxBytes: undefined });
      else assert.equal(attempt().hash, form.hash, form.name);
    }
  });

  it('refuses oversized transactions before decoding (check_tx.py)', () => {
    refused(valid.hex, 'Transaction exceeds maximum configured size of 100 bytes', { maxTxBytes: 100 });
  });

  it('reports decode failures with the Rust texts (std::str, hex, serde_json)', () => {
    refused(new Uint8Array([0x37, 0xff]), 'invalid utf-8 sequence of 1 bytes from index 1');
    refused(new Uint8Array([0x37, 0xe2, 0x82]), 'incomplete utf-8 byte sequence from index 1');
    refused('7b2', 'Odd number of digits');
    refused('zz', "Invalid character 'z' at position 0");
    refused('7g', "Invalid character 'g' at position 1");
    refused('ff', 'invalid utf-8 sequence of 1 bytes from index 0');
    refused(hex(''), 'EOF while parsing a value at line 1 column 0');
    refused(hex('{"metadata"'), 'EOF while parsing an object at line 1 column 11');
    refused(hex('{"a" 1}'), 'expected `:` at line 1 column 6');
    refused(hex('{"a":1,}'), 'trailing comma at line 1 column 8');
    refused(hex('{"a":01}'), 'invalid number at line 1 column 7');
    refused(hex('{"a":1} x'), 'trailing characters at line 1 column 9');
    refused(hex('{"a":"\\ud800"}'), 'unexpected end of hex escape at line 1 column 13');
    refused(hex('{"a":NaN}'), 'expected value at line 1 column 6');
    refused(hex('{\n"a":tru}'), 'expected ident at line 2 column 8');
    refused(hex('['.repeat(128) + ']'.repeat(128)), 'recursion limit exceeded at line 1 column 128');
    const { ms } = cpuTimeOfSync(() => refused(hex(`{"a":${'9'.repeat(1_000_000)}}`), 'number out of range at line 1 column 1000005'));
    assert.ok(ms < 2000, `a million-digit integer is refused in linear time (${ms.toFixed(0)} ms of CPU)`);
  });

  it('finds the payload by its first "payload": marker and cross-checks it (lib.rs extract_payload_string)', () => {
    refused(hex('[1]'), "No 'payload' found in the provided JSON string.");
    refused(hex('{"payload":1}'), "Malformed JSON: No opening brace for 'payload'.");
    refused(hex(`{"metadata":{"signature":"${sig}"}}`), "No 'payload' found in the provided JSON string.");
    refused(hex(`{"metadata":{"payload":{"a":1}},"payload":${payloadText}}`), 'Invalid payload');
  });

  it('checks metadata and payload keys in the native order and words', () => {
    refused(hex(`{"payload":${payloadText}}`), 'Metadata is missing');
    refused(hex(`{"metadata":[],"payload":${payloadText}}`), 'Metadata is missing');
    refused(hex(`{"metadata":{},"payload":${payloadText}}`), 'Wrong number of metadata entries');
    refused(wireOf(payloadText, `{"a":1,"signature":"${sig}"}`), 'Wrong number of metadata entries');
    refused(wireOf(payloadText, `{"sig":"${sig}"}`), 'Transaction has unexpected or missing keys');
    refused(wireOf('{}'), "Payload key 'sender' is missing");
    refused(wireOf(payloadText.replace(/,"sender":"[0-9a-f]+"/, '')), "Payload key 'sender' is missing");
    refused(wireOf(payloadText.replace('"contract":"con_probe"', '"contract":""')), "Payload key 'contract' is missing");
    refused(wireOf(payloadText.replace('"function":"run"', '"function":5')), "Payload key 'function' is missing");
    refused(wireOf(payloadText.replace('"chi_supplied":100', '"chi_supplied":0')), "Payload key 'chi_supplied' is missing");
    refused(wireOf(payloadText.replace('"chi_supplied":100', '"chi_supplied":null')), "Payload key 'chi_supplied' is missing");
    refused(wireOf(payloadText.replace(/"chi_supplied":100,/, '')), "Payload key 'chi_supplied' is missing");
    refused(wireOf(payloadText.replace(/,"nonce":7/, '')), 'Transaction has unexpected or missing keys');
    refused(wireOf(payloadText.replace('"chain_id"', '"a":1,"chain_id"')), 'Transaction has unexpected or missing keys');
    refused(hex('{"payload":{}}'), 'Metadata is missing');
  });

  it('refuses wrongly typed fields, floats and out-of-range integers as a wrongly formatted dictionary', () => {
    refused(wireOf(payloadText.replace('"nonce":7', '"nonce":true')), 'Transaction has wrongly formatted dictionary');
    refused(wireOf(payloadText.replace('"nonce":7', '"nonce":-1')), 'Transaction has wrongly formatted dictionary');
    refused(wireOf(payloadText.replace('"nonce":7', '"nonce":7.0')), 'Transaction has wrongly formatted dictionary');
    refused(wireOf(payloadText.replace('"chi_supplied":100', '"chi_supplied":1e2')), 'Transaction has wrongly formatted dictionary');
    refused(wireOf(payloadText.replace('"chi_supplied":100', '"chi_supplied":18446744073709551616')), 'Transaction has wrongly formatted dictionary');
    refused(wireOf(payloadText.replace('"function":"run"', '"function":"1run"')), 'Transaction has wrongly formatted dictionary');
    refused(wireOf(payloadText.replace('"chain_id":"xian-local-1"', '"chain_id":1')), 'Transaction has wrongly formatted dictionary');
    refused(wireOf(payloadText.replace('{"data":', '{"x":1.5,"data":')), 'Transaction has wrongly formatted dictionary');
    refused(wireOf(payloadText.replace('{"data":', '{"x":[-0],"data":')), 'Transaction has wrongly formatted dictionary');
    refused(wireOf(payloadText.replace('{"data":', '{"x":-9223372036854775809,"data":')), 'Transaction has wrongly formatted dictionary');
    refused(wireOf(payloadText.replace('{"data":', '{"bad-key":1,"data":')), 'Transaction has wrongly formatted dictionary');
    refused(wireOf(payloadText, '{"signature":"abc"}'), 'Transaction has wrongly formatted dictionary');
    refused(wireOf(canonicalPayload({ ...numericKeys, kwargs: 'x' as unknown as JsonObject })), 'Transaction has wrongly formatted dictionary');
  });

  it('keeps u64 and i64 integers exact and signs over them', () => {
    const text = canonicalPayload({ ...numericKeys, chi_supplied: 18446744073709551615n, kwargs: { x: -9223372036854775808n } as unknown as JsonObject });
    assert.equal(accepted(signedWire(text)).tx.payload.chi_supplied, 18446744073709551615n);
  });

  it('checks the signature, then the chain id, then a submission name', () => {
    const flipped = (sig[0] === '0' ? '1' : '0') + sig.slice(1);
    refused(wireOf(payloadText, `{"signature":"${flipped}"}`), 'Bad signature');
    refused(wireOf(payloadText.replace('"nonce":7', '"nonce":8')), 'Bad signature');
    refused(wireOf(payloadText.replace('"nonce":7', '"nonce":8'), `{"signature":"${sig}"}`), 'Bad signature', { chainId: 'other' });
    refused(valid.hex, 'Wrong chain_id', { chainId: 'chain-local-1' });
    assert.doesNotThrow(() => accepted(wireOf(payloadText, `{"signature":"${sig.toUpperCase()}"}`)));
    const submission = canonicalPayload({ ...numericKeys, contract: 'submission', function: 'submit_contract', kwargs: { name: 'token', code: 'x' } });
    refused(signedWire(submission), 'Transaction contract name is invalid');
    refused(signedWire(submission.replace('"name":"token"', `"name":"con_${'a'.repeat(252)}"`)), 'Transaction contract name is invalid');
    assert.doesNotThrow(() => accepted(signedWire(submission.replace('"name":"token"', '"name":"con_token"'))));
  });
});
