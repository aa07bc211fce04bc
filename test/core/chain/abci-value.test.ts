import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  AbciQueryError,
  AbciValueError,
  abciBool,
  abciDecimal,
  abciInt,
  abciJson,
  abciString,
  assertAbciOk,
  decodeAbciQuery,
  decodeExecTxResult,
  decodeRawTx,
  decodeTxResultData,
  QueryPath,
  readAbciValue,
} from '../../../core/chain/abci-value.js';
import type { ResultAbciQuery } from '../../../core/chain/rpc/cometbft-types.js';

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

/** The shared exact JSON parser makes null-prototype objects; compare their contents as plain data. */
function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

/** An abci_query result as CometBFT 0.38 renders it (every field present). */
function answer(info: string, value: string | null, extra: Partial<ResultAbciQuery['response']> = {}): ResultAbciQuery {
  return {
    response: {
      code: 0, log: '', info, index: '0', key: b64('currency.balances:alice'),
      value: value === null ? null : b64(value), proofOps: null, height: '42', codespace: '', ...extra,
    },
  };
}

describe('abci_query decoding (abci-query.md §3)', () => {
  it('decodes code, log, info, key text, height and value text', () => {
    const q = decodeAbciQuery(answer('decimal', '123.45'));
    assert.deepEqual(q, { code: 0, log: '', info: 'decimal', key: 'currency.balances:alice', height: '42', codespace: '', value: { text: '123.45' } });
  });

  it('accepts the bare ResponseQuery too', () => {
    assert.equal(decodeAbciQuery(answer('int', '5').response).value?.text, '5');
  });

  it('treats value null and "AA==" (one zero byte) as no value', () => {
    const unknown = decodeAbciQuery({ response: { ...answer('', null).response, code: 1, value: 'AA==', log: 'Unknown query path: nope', key: '' } });
    assert.equal(unknown.value, null);
    assert.equal(unknown.key, '');
    assert.equal(unknown.log, 'Unknown query path: nope');
    assert.deepEqual(readAbciValue(unknown), { type: 'none' });
    const missing = decodeAbciQuery(answer('', null));
    assert.equal(missing.value, null);
    assert.equal(abciDecimal(missing), null);
    assert.equal(abciInt(missing), null);
    assert.equal(abciJson(missing), null);
  });

  it('decodes a handler failure that has no key, value, log or info', () => {
    const q = decodeAbciQuery({ response: { code: 1, log: '', info: '', index: '0', key: null, value: null, proofOps: null, height: '0', codespace: '' } });
    assert.equal(q.code, 1);
    assert.equal(q.value, null);
    assert.throws(() => assertAbciOk(q, '/get_next_nonce/x'), (e: unknown) => e instanceof AbciQueryError && /code 1 \(the node gave no reason\)/.test(e.message));
    assert.throws(() => assertAbciOk({ ...q, log: 'Unknown query path: nope' }, '/nope'), /failed with code 1: Unknown query path: nope/);
    assert.equal(assertAbciOk(decodeAbciQuery(answer('int', '0')), '/x').value?.text, '0');
  });

  describe('typed readers by info', () => {
    it('int → bigint, beyond 2^53 and negative', () => {
      assert.equal(abciInt(decodeAbciQuery(answer('int', '0'))), 0n);
      assert.equal(abciInt(decodeAbciQuery(answer('int', '18446744073709551615'))), 18446744073709551615n);
      assert.equal(abciInt(decodeAbciQuery(answer('int', '-9007199254740993'))), -9007199254740993n);
      assert.deepEqual(readAbciValue(decodeAbciQuery(answer('int', '7'))), { type: 'int', value: 7n });
    });

    for (const [text, plain] of [['123.45', '123.45'], ['1E+3', '1000'], ['1.01E+3', '1010'], ['100E-9', '0.0000001'], ['1E-7', '0.0000001'], ['0.000000000000000000000000000001', '0.000000000000000000000000000001']]) {
      it(`decimal ${text} → ChainDecimal ${plain}`, () => {
        assert.equal(abciDecimal(decodeAbciQuery(answer('decimal', text)))!.toString(), plain);
      });
    }

    it('decimal reader also takes info int (a whole balance)', () => {
      assert.equal(abciDecimal(decodeAbciQuery(answer('int', '5')))!.toString(), '5');
    });

    it('bool True/False', () => {
      assert.equal(abciBool(decodeAbciQuery(answer('bool', 'True'))), true);
      assert.equal(abciBool(decodeAbciQuery(answer('bool', 'False'))), false);
      assert.throws(() => abciBool(decodeAbciQuery(answer('bool', 'yes'))), AbciValueError);
    });

    it('str keeps the text (including a contract Datetime rendering and non-ASCII)', () => {
      assert.equal(abciString(decodeAbciQuery(answer('str', '2026-03-27 21:57:00'))), '2026-03-27 21:57:00');
      assert.equal(abciString(decodeAbciQuery(answer('str', 'OK é ✓'))), 'OK é ✓');
    });

    it('dict/list → big-int-safe JSON, integers > 2^53 preserved exactly', () => {
      const q = decodeAbciQuery(answer('dict', '{"a":9007199254740993,"b":[18446744073709551615,1.5,-7],"c":"1000","d":{"e":null,"f":true}}'));
      assert.deepEqual(plain(q.value?.json), { a: 9007199254740993n, b: [18446744073709551615n, 1.5, -7], c: '1000', d: { e: null, f: true } });
      assert.equal(abciJson(q), q.value?.json);
      const list = readAbciValue(decodeAbciQuery(answer('list', '["alice",{"x":12345678901234567890}]')));
      assert.deepEqual(plain(list), { type: 'list', value: ['alice', { x: 12345678901234567890n }] });
      const keys = readAbciValue(decodeAbciQuery(answer('dict', '{"after":null,"has_more":true,"items":["alice","bob"],"limit":2,"next_after":"bob","prefix":"currency.balances"}')));
      assert.deepEqual(plain(keys), { type: 'dict', value: { after: null, has_more: true, items: ['alice', 'bob'], limit: 2, next_after: 'bob', prefix: 'currency.balances' } });
    });

    it('keeps a "__proto__" key as data', () => {
      const json = abciJson(decodeAbciQuery(answer('dict', '{"__proto__":{"polluted":1},"a":2}'))) as Record<string, unknown>;
      assert.ok(Object.prototype.hasOwnProperty.call(json, '__proto__'));
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });

    it('reports a value whose info does not match the reader, naming both', () => {
      assert.throws(() => abciInt(decodeAbciQuery(answer('decimal', '1.5'))), /expected an abci value of info "int", got info "decimal" \("1.5"\)/);
      assert.throws(() => abciJson(decodeAbciQuery(answer('str', 'x'))), AbciValueError);
      assert.throws(() => readAbciValue(decodeAbciQuery(answer('dict', '[1]'))), /not a JSON object/);
      assert.throws(() => readAbciValue(decodeAbciQuery(answer('list', '{broken'))), /not valid JSON/);
    });

    it('an unknown info tag reads as raw text', () => {
      assert.deepEqual(readAbciValue(decodeAbciQuery(answer('datetime', 'x'))), { type: 'unknown', info: 'datetime', value: 'x' });
    });
  });
});

describe('tx_result.data decoding (cometbft-rpc.md §7)', () => {
  const OUTPUT = '{"chi_used":12,"events":[{"caller":"alice","contract":"currency","data":{"amount":"5"},"data_indexed":{"from":"alice","to":"bob"},"event":"Transfer","signer":"alice"}],"hash":"' + 'ab'.repeat(32) + '","result":"None","reward_records":[{"recipient_key":"dev","source_contract":"currency","type":"developer_reward","value":"0.408"}],"rewards":{"delegator_reward":{},"developer_reward":{"dev":"0.408"},"foundation_reward":{},"validator_reward":{}},"state":[{"key":"currency.balances:alice","value":"94.4"},{"key":"currency.balances:bob","value":"5"},{"key":"currency.balances:dev","value":"0.408"}],"status":0}';

  it('decodes a successful execution output', () => {
    const d = decodeTxResultData(b64(OUTPUT));
    assert.equal(d.kind, 'execution');
    if (d.kind !== 'execution') return;
    const o = d.output;
    assert.equal(o.status, 0);
    assert.equal(o.chi_used, 12);
    assert.equal(o.result, 'None');
    assert.equal(o.hash, 'ab'.repeat(32));
    assert.deepEqual(plain(o.state[0]), { key: 'currency.balances:alice', value: '94.4' });
    assert.equal(o.events[0]!.event, 'Transfer');
    assert.deepEqual(plain(o.events[0]!.data_indexed), { from: 'alice', to: 'bob' });
    assert.deepEqual(plain(o.rewards!.developer_reward), { dev: '0.408' });
    assert.equal(o.reward_records![0]!.value, '0.408');
  });

  it('decodes a failed execution (status 1, exception repr, no events, null rewards)', () => {
    const d = decodeTxResultData(b64('{"chi_used":3,"events":[],"hash":"00","result":"AssertionError(\'Not enough coins to send!\')","reward_records":null,"rewards":null,"state":[{"key":"currency.balances:alice","value":"99.9"}],"status":1}'));
    assert.ok(d.kind === 'execution');
    assert.equal(d.output.status, 1);
    assert.equal(d.output.result, "AssertionError('Not enough coins to send!')");
    assert.equal(d.output.rewards, null);
    assert.equal(d.output.reward_records, null);
  });

  it('keeps big integers in state values and unknown fields', () => {
    const d = decodeTxResultData(b64('{"chi_used":18446744073709551615,"events":[],"result":"1","state":[{"key":"con.x","value":123456789012345678901}],"status":0,"extra":"kept"}'));
    assert.ok(d.kind === 'execution');
    assert.equal(d.output.chi_used, 18446744073709551615n);
    assert.equal(d.output.state[0]!.value, 123456789012345678901n);
    assert.equal(d.output.extra, 'kept');
    assert.equal(d.output.hash, null);
    assert.equal(d.output.rewards, null);
  });

  it('tolerates the {"error": "..."} form of a tx rejected inside the block', () => {
    assert.deepEqual(decodeTxResultData(b64('{"error":"Transaction nonce is invalid"}')), { kind: 'rejected', error: 'Transaction nonce is invalid' });
  });

  it('maps legacy stamps_used to chi_used', () => {
    const d = decodeTxResultData(b64('{"stamps_used":7,"status":0,"state":[],"result":"None"}'));
    assert.ok(d.kind === 'execution');
    assert.equal(d.output.chi_used, 7);
    assert.deepEqual(d.output.events, []);
  });

  it('empty and unrecognised data', () => {
    assert.deepEqual(decodeTxResultData(''), { kind: 'empty' });
    assert.deepEqual(decodeTxResultData(null), { kind: 'empty' });
    assert.deepEqual(decodeTxResultData(b64('not json')), { kind: 'unrecognized', text: 'not json' });
    assert.deepEqual(decodeTxResultData(b64('[1]')), { kind: 'unrecognized', text: '[1]', json: [1] });
  });

  it('decodeExecTxResult keeps code and log beside the decoded data', () => {
    const r = decodeExecTxResult({ code: 1, data: b64('{"error":"Bad signature"}'), log: '', info: '', gas_wanted: '0', gas_used: '0', events: [], codespace: '' });
    assert.deepEqual(r, { code: 1, log: '', data: { kind: 'rejected', error: 'Bad signature' } });
  });
});

describe('raw transaction decoding (transactions.md §10)', () => {
  const json = '{"metadata":{"signature":"' + 'cd'.repeat(64) + '"},"payload":{"chain_id":"chain-local-1","chi_supplied":18446744073709551615,"contract":"currency","function":"transfer","kwargs":{"amount":{"__fixed__":"1.5"},"to":"bob é"},"nonce":7,"sender":"' + 'ef'.repeat(32) + '"}}';
  const hex = Buffer.from(json, 'utf8').toString('hex');
  const base64 = Buffer.from(hex, 'ascii').toString('base64');

  it('base64 → hex text → JSON signed tx, with the CometBFT hash of the raw bytes', () => {
    const d = decodeRawTx(base64);
    assert.equal(d.encoding, 'hex');
    assert.equal(d.raw, hex);
    assert.equal(d.hash, createHash('sha256').update(hex, 'latin1').digest('hex').toUpperCase());
    const tx = d.tx as { payload: Record<string, unknown>; metadata: Record<string, unknown> };
    assert.equal(tx.payload.chi_supplied, 18446744073709551615n);
    assert.equal(tx.payload.nonce, 7);
    assert.deepEqual(plain(tx.payload.kwargs), { amount: { __fixed__: '1.5' }, to: 'bob é' });
  });

  it('tolerates raw bytes that are the JSON itself (legacy)', () => {
    const d = decodeRawTx(Buffer.from(json).toString('base64'));
    assert.equal(d.encoding, 'json');
    assert.equal((d.tx as { payload: { nonce: number } }).payload.nonce, 7);
  });

  it('rejects bytes that are neither', () => {
    assert.throws(() => decodeRawTx(b64('zzz')), /neither hex nor JSON/);
  });
});

describe('QueryPath', () => {
  it('builds /route/parts/name=value paths', () => {
    assert.equal(QueryPath.get('currency.balances:alice'), '/get/currency.balances:alice');
    assert.equal(QueryPath.nextNonce('ab12'), '/get_next_nonce/ab12');
    assert.equal(QueryPath.contractMethods('currency'), '/contract_methods/currency');
    assert.equal(QueryPath.keys('currency.balances:', { limit: 2 }), '/keys/currency.balances:/limit=2');
    assert.equal(QueryPath.keys('currency.balances', { limit: 2, after: 'bob' }), '/keys/currency.balances/limit=2/after=bob');
    assert.equal(QueryPath.build('events', ['con_x', 'Transfer'], { after_id: 41n, limit: 10, offset: undefined }), '/events/con_x/Transfer/after_id=41/limit=10');
  });

  it('refuses "/" in segments and empty parts', () => {
    assert.throws(() => QueryPath.get('a/b'), /must not contain "\/"/);
    assert.throws(() => QueryPath.build('txs_by_sender', ['']), /must not be empty/);
  });

  it('quotes the path as a JSON string for the URI form and percent-encodes it', () => {
    assert.equal(QueryPath.uriParam('/get/currency.balances:alice'), 'path=%22%2Fget%2Fcurrency.balances%3Aalice%22');
    const url = QueryPath.uri('http://127.0.0.1:26657/', '/get/x+y z&"q"');
    assert.equal(url, 'http://127.0.0.1:26657/abci_query?path=%22%2Fget%2Fx%2By%20z%26%5C%22q%5C%22%22');
    assert.equal(JSON.parse(new URL(url).searchParams.get('path')!), '/get/x+y z&"q"');
  });
});
