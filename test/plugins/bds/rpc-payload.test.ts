import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import type { ResultBlock, ResultBlockResults } from '../../../core/chain/rpc/cometbft-types.js';
import { blockTimeOf, parsePayload, serializePayload } from '../../../plugins/bds/block/block-payload.js';
import { normalizeBlock } from '../../../plugins/bds/block/normalize-block.js';
import { aggregatePatchHash, genesisEntries, payloadFromRpc } from '../../../plugins/bds/block/payload-from-rpc.js';
import { spoolFileName } from '../../../plugins/bds/follower/spool.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const rawTx = (tx: unknown) => b64(Buffer.from(JSON.stringify(tx)).toString('hex'));

function block(txs: string[]): ResultBlock {
  return {
    block_id: { hash: 'ab'.repeat(32), parts: { total: 1, hash: '00' } },
    block: {
      header: {
        version: { block: '11', app: '0' }, chain_id: 'chain-local-1', height: '42', time: '2026-01-01T00:00:04.123456789Z',
        last_block_id: { hash: 'cd'.repeat(32), parts: { total: 1, hash: '00' } }, last_commit_hash: '', data_hash: '', validators_hash: '',
        next_validators_hash: '', consensus_hash: '', app_hash: 'ef'.repeat(32), last_results_hash: '', evidence_hash: '', proposer_address: '',
      },
      data: { txs }, evidence: { evidence: [] }, last_commit: null,
    },
  };
}

function results(datas: unknown[], events: ResultBlockResults['finalize_block_events'] = []): ResultBlockResults {
  return {
    height: '42',
    txs_results: datas.map((d, i) => ({ code: i === 1 ? 1 : 0, data: b64(JSON.stringify(d)), log: '', info: '', gas_wanted: '0', gas_used: '0', events: [], codespace: '' })),
    finalize_block_events: events, validator_updates: [], consensus_param_updates: null, app_hash: '',
  };
}

describe('BDS block payloads from RPC (bds.md §9.1)', function () {
  const payload = { chain_id: 'chain-local-1', chi_supplied: 100, contract: 'currency', function: 'transfer', kwargs: { amount: { __fixed__: '5' }, to: 'bob' }, nonce: 3, sender: 'alice' };
  const txs = [rawTx({ metadata: { signature: 'aa' }, payload, b_meta: { height: 42 } }), rawTx({ metadata: { signature: 'bb' }, payload }), rawTx({ metadata: { signature: 'cc' }, payload })];
  const outputs = [
    { chi_used: 12, events: [{ caller: 'alice', contract: 'currency', data: { amount: '5' }, data_indexed: { from: 'alice', to: 'bob' }, event: 'Transfer', signer: 'alice' }], hash: 'f'.repeat(64), result: 'None', reward_records: null, rewards: { developer_reward: { dev: '0.4' } }, state: [{ key: 'currency.balances:alice', value: '94.4' }, { key: 'currency.balances:big', value: 123456789012345678901234567890n }], status: 0 },
    { error: 'Transaction nonce is invalid' },
    { chi_used: 3, events: [], hash: 'e'.repeat(64), result: "AssertionError('no')", reward_records: null, rewards: null, state: [{ key: 'currency.balances:alice', value: '94' }], status: 1 },
  ];
  const jsonWithBigInt = (o: unknown) => JSON.stringify(o, (_k, v) => (typeof v === 'bigint' ? `__BIG__${v}` : v)).replace(/"__BIG__(\d+)"/g, '$1');

  it('keeps executed transactions in block order, drops those rejected inside the block, uppercases hashes', function () {
    const r = results([]);
    r.txs_results = outputs.map((d, i) => ({ code: i === 1 ? 1 : 0, data: b64(jsonWithBigInt(d)), log: '', info: '', gas_wanted: '0', gas_used: '0', events: [], codespace: '' }));
    const p = payloadFromRpc(block(txs), r);
    assert.equal(p.block_meta.hash, 'AB'.repeat(32));
    assert.equal(p.app_hash, 'EF'.repeat(32));
    assert.equal(p.parent_hash, 'CD'.repeat(32));
    assert.equal(p.block_meta.nanos, '1767225604123456000', 'truncated to microseconds');
    assert.equal(p.block_time, '2026-01-01T00:00:04.123456+00:00');
    assert.equal(p.block_tx_count, 3);
    assert.deepEqual(p.transactions.map((t) => t.tx_index), [0, 2]);
    const hash0 = createHash('sha256').update(Buffer.from(txs[0]!, 'base64')).digest('hex').toUpperCase();
    assert.equal(p.transactions[0]!.tx_result.hash, hash0);
    assert.equal('b_meta' in (p.transactions[0]!.envelope as object), false);
    const again = parsePayload(serializePayload(p));
    assert.equal((again.transactions[0]!.tx_result.state as any)[1].value, 123456789012345678901234567890n, 'big integers survive the spool exactly');
    const rows = normalizeBlock(again);
    assert.deepEqual(rows.transactions.map((t) => [t.tx_index, t.success, t.status_code, t.result]), [[0, true, 0, null], [2, false, 1, "AssertionError('no')"]]);
    assert.deepEqual(rows.transactions[0]!.rewards, [{ reward_index: 0, type: 'developer_reward', recipient_key: 'dev', source_contract: null, value: '0.4' }]);
    assert.equal(spoolFileName(42, p.block_meta.hash), `00000000000000000042-${'AB'.repeat(32)}.json`);
  });

  it('refuses a block whose tx and result counts differ', function () {
    assert.throws(() => payloadFromRpc(block(txs), results(outputs.slice(1, 3))), /block 42 tx\/result count mismatch: 3 txs vs 2 results/);
  });

  it('reads applied state patches announced in finalize_block_events, with their aggregate hash', function () {
    const executions = [{ patch_id: 'b-fix', execution_hash: '22'.repeat(32), changes: [{ key: 'x.y', value: 1, comment: '' }] }, { patch_id: 'a-fix', execution_hash: '11'.repeat(32), changes: [] }];
    const p = payloadFromRpc(block([]), results([], [{ type: 'StatePatch', attributes: [{ key: 'executions', value: JSON.stringify(executions), index: false }] }]));
    assert.equal(p.state_patches.length, 2);
    const expected = createHash('sha256').update(JSON.stringify(['11'.repeat(32), '22'.repeat(32)])).digest('hex');
    assert.equal(p.state_patch_hash, expected);
    assert.equal(aggregatePatchHash(executions), expected);
    assert.equal(normalizeBlock(p).transactions.at(-1)!.contract, 'STATE_PATCHER');
  });

  it('finds genesis entries where nodes put them', function () {
    const entries = [{ key: 'a.b', value: 1 }];
    assert.deepEqual(genesisEntries({ abci_genesis: { genesis: entries } }), entries);
    assert.deepEqual(genesisEntries({ genesis: entries }), entries);
    assert.deepEqual(genesisEntries([['a.b', 1]]), entries);
    assert.deepEqual(genesisEntries(undefined), []);
  });

  it('parses RFC 3339 block times to µs-truncated nanoseconds', function () {
    assert.deepEqual(blockTimeOf('2026-01-01T00:00:10Z'), { nanos: 1767225610000000000n, iso: '2026-01-01T00:00:10+00:00' });
    assert.deepEqual(blockTimeOf('2026-01-01T00:00:10.5Z'), { nanos: 1767225610500000000n, iso: '2026-01-01T00:00:10.500000+00:00' });
    assert.throws(() => blockTimeOf('yesterday'), /is not RFC 3339/);
  });
});
