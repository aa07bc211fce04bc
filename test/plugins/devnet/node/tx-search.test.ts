import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { AbciEvent } from '../../../../core/chain/rpc/cometbft-types.js';
import { ChainStore } from '../../../../plugins/devnet/node/chain-store.js';
import { EventQuery } from '../../../../plugins/devnet/node/event-query.js';
import { blockSearch, txSearch } from '../../../../plugins/devnet/node/rpc-search.js';
import type { StoredBlock } from '../../../../plugins/devnet/node/stored-block.js';
import { tempHome } from './devnet-fixture.js';

/**
 * tx_search / block_search semantics against CometBFT 0.38's kv indexer (state/txindex/kv
 * kv_test.go cases), on a chain store fed synthetic blocks: one event's attributes must match
 * together, `=` is textual, ranges are exact decimals, a tx.hash condition wins, order and
 * pages as rpc/core/tx.go, and the index survives a reopen.
 */
const attr = (key: string, value: string, index = true) => ({ key, value, index });

function block(height: number, txEvents: AbciEvent[][], blockEvents: AbciEvent[] = []): StoredBlock {
  const txs = txEvents.map((_, i) => Buffer.from(`tx-${height}-${i}`).toString('base64'));
  return {
    height,
    block_id: { hash: createHash('sha256').update(`block-${height}`).digest('hex').toUpperCase(), parts: { total: 1, hash: '' } },
    header: { height: String(height) } as StoredBlock['header'],
    last_commit: {} as StoredBlock['last_commit'],
    txs,
    tx_hashes: txs.map((t) => createHash('sha256').update(t).digest('hex').toUpperCase()),
    txs_results: txEvents.map((events) => ({ code: 0, data: null, log: '', info: '', gas_wanted: '0', gas_used: '0', events, codespace: '' })),
    finalize_block_events: blockEvents,
    app_hash: '', results_hash: '', block_size: 0, time_nanos: '0', writes: [],
  };
}

function openStore(dir: string, onProgress?: (read: number, size: number) => void): ChainStore {
  return ChainStore.open(path.join(dir, 'data'), [], { fsync: false, snapshotInterval: 1000, onProgress });
}

const search = (store: ChainStore, query: string, options: Parameters<typeof txSearch>[2] = {}) => txSearch(store, query, options);
const count = (store: ChainStore, query: string) => Number(search(store, query).total_count);

describe('tx_search and block_search (CometBFT kv indexer semantics)', () => {
  let home: ReturnType<typeof tempHome>;
  let store: ChainStore;

  beforeEach(() => {
    home = tempHome();
    store = openStore(home.dir);
    // kv_test.go TestTxSearchEventMatch's transaction, at height 1.
    store.commit(block(1, [[
      { type: 'account', attributes: [attr('number', '1'), attr('owner', 'Ana')] },
      { type: 'account', attributes: [attr('number', '2'), attr('owner', '/Ivan/.test')] },
      { type: 'account', attributes: [attr('number', '3', false), attr('owner', 'Mickey', false)] },
      { type: '', attributes: [attr('not_allowed', 'Vlad')] },
    ]]), new Map());
  });

  afterEach(() => {
    store.close();
    home.remove();
  });

  it('matches all conditions within one event, as kv_test.go TestTxSearchEventMatch', () => {
    const cases: Array<[string, number]> = [
      ['tx.height = 1', 1],
      ['account.number = 3 AND account.owner = \'Mickey\'', 0],
      ['tx.height > 0', 1],
      ['tx.height <= 1', 1],
      ['tx.height = 1 AND tx.height = 1', 1],
      ['tx.height < 2 AND tx.height > 0 AND account.number > 0 AND account.number <= 1 AND account.owner CONTAINS \'Ana\'', 1],
      ['tx.height < 2 AND tx.height > 0 AND account.number = 1 AND account.owner CONTAINS \'Ana\' AND account.owner CONTAINS \'An\'', 1],
      ['tx.height < 2 AND tx.height > 0 AND account.number = 2 AND account.owner = \'Ana\'', 0],
      ['account.number = 2 AND account.owner = \'Ana\' AND tx.height = 1', 0],
      ['tx.height < 2 AND account.number = 3 AND account.number = 2 AND account.number = 5', 0],
      ['account.number < 2 AND account.owner = \'/Ivan/.test\'', 0],
      ['account.number <= 2 AND account.owner = \'/Ivan/.test\' AND tx.height > 0', 1],
      ['account.number <= 2 AND account.owner CONTAINS \'/Iv\' AND account.owner CONTAINS \'an\' AND tx.height = 1', 1],
      ['account.number <= 2 AND account.owner CONTAINS \'an\' AND tx.height > 0', 1],
      ['account.number EXISTS', 1],
      ['account.date EXISTS', 0],
      ['not_allowed EXISTS', 0],
    ];
    for (const [query, expected] of cases) assert.equal(count(store, query), expected, query);
  });

  it('compares ranges as exact decimals, "=" as text, and ignores values that are not numbers', () => {
    store.commit(block(2, [
      [{ type: 'transfer', attributes: [attr('amount', '100000000000000000000.000000000000000001')] }],
      [{ type: 'transfer', attributes: [attr('amount', '100000000000000000000')] }],
      [{ type: 'transfer', attributes: [attr('amount', '8atom')] }],
      [{ type: 'transfer', attributes: [attr('amount', '5.50')] }],
    ]), new Map());
    assert.equal(count(store, 'transfer.amount > 100000000000000000000'), 1);
    assert.equal(count(store, 'transfer.amount >= 100000000000000000000'), 2);
    assert.equal(count(store, 'transfer.amount < 6'), 1);
    assert.equal(count(store, 'transfer.amount > 5.5'), 2);
    assert.equal(count(store, 'transfer.amount >= 5.5 AND transfer.amount < 100'), 1);
    assert.equal(count(store, 'transfer.amount = 5.5'), 0, '= compares the text');
    assert.equal(count(store, 'transfer.amount = \'5.50\''), 1);
    assert.equal(count(store, 'transfer.amount CONTAINS \'atom\''), 1);
    assert.equal(count(store, 'transfer.amount > TIME 2024-01-01T00:00:00Z'), 0, 'time bounds never match event values');
    // A later bound of the same side replaces the earlier one (LookForRangesWithHeight).
    assert.equal(count(store, 'transfer.amount > 1000 AND transfer.amount > 1'), 3);
    // A range on tx.height drops the equality on it (dedupHeight).
    assert.equal(count(store, 'tx.height = 1 AND tx.height >= 1'), 5);
  });

  it('orders by (height, index), ascending unless desc, and pages as CometBFT', () => {
    for (let h = 2; h <= 6; h++) store.commit(block(h, [[{ type: 'Transfer', attributes: [attr('to', 'bob')] }], []]), new Map());
    const asc = search(store, 'Transfer.to = \'bob\'', { perPage: 2, page: 2 });
    assert.equal(asc.total_count, '5');
    assert.deepEqual(asc.txs.map((t) => [t.height, t.index]), [['4', 0], ['5', 0]]);
    const desc = search(store, 'Transfer.to = \'bob\'', { perPage: 2, orderBy: 'desc' });
    assert.deepEqual(desc.txs.map((t) => t.height), ['6', '5']);
    const byHeight = search(store, 'tx.height >= 3 AND tx.height < 5', { orderBy: 'desc' });
    assert.deepEqual(byHeight.txs.map((t) => [t.height, t.index]), [['4', 1], ['4', 0], ['3', 1], ['3', 0]]);
    assert.throws(() => search(store, 'Transfer.to = \'bob\'', { perPage: 2, page: 4 }), /page should be within \[1, 3\] range, given 4/);
    assert.deepEqual(search(store, 'Transfer.to = \'nobody\'').txs, []);
  });

  it('a tx.hash condition answers that transaction whatever the other conditions say (kv.go lookForHash)', () => {
    const hash = store.block(1)!.tx_hashes[0]!;
    assert.equal(count(store, `tx.hash = '${hash}' AND account.owner = 'nobody'`), 1);
    assert.equal(count(store, `tx.hash = '${'0'.repeat(64)}'`), 0);
    assert.throws(() => search(store, 'tx.hash = \'zz\''), /error during searching for a hash/);
  });

  it('block_search: block.height ranges without reading the chain, FinalizeBlock events, newest first', () => {
    for (let h = 2; h <= 9; h++) {
      store.commit(block(h, [], h % 3 === 0 ? [{ type: 'loan', attributes: [attr('account_no', String(h)), attr('amount', '200')] }] : []), new Map());
    }
    const before = store.blocksDecoded;
    assert.equal(blockSearch(store, 'block.height >= 1', { perPage: 1 }).total_count, '9');
    assert.equal(blockSearch(store, 'block.height > 3 AND block.height <= 7', { perPage: 1 }).total_count, '4');
    assert.equal(blockSearch(store, 'block.height = 12', { perPage: 1 }).total_count, '0');
    assert.ok(store.blocksDecoded - before <= 2, 'only the page is read');
    const loans = blockSearch(store, 'loan.amount = \'200\'');
    assert.deepEqual(loans.blocks.map((b) => b.block.header.height), ['9', '6', '3']);
    assert.deepEqual(blockSearch(store, 'loan.account_no > 3 AND block.height < 9', { orderBy: 'asc' }).blocks.map((b) => b.block.header.height), ['6']);
    // CONTAINS on the height key tests its decimal text; = on it is then dropped (dedupHeight).
    assert.deepEqual(blockSearch(store, 'block.height CONTAINS \'3\' AND block.height = 5 AND loan.amount EXISTS').blocks.map((b) => b.block.header.height), ['3']);
    assert.equal(blockSearch(store, 'block.height EXISTS').total_count, '9');
    assert.equal(count(store, 'tx.height CONTAINS \'1\''), 1);
  });

  it('refuses over-long queries (512 bytes, CometBFT maxQueryLength) and queries broader than the work limit', () => {
    const long = Array.from({ length: 60 }, (_, i) => `a${i}.b = 'x'`).join(' AND ');
    assert.ok(Buffer.byteLength(long) > 512);
    assert.throws(() => search(store, long), /maximum query length exceeded/);
    assert.throws(() => blockSearch(store, long), /maximum query length exceeded/);
    for (let h = 2; h <= 30; h++) store.commit(block(h, [[{ type: 'Transfer', attributes: [attr('amount', String(h))] }]]), new Map());
    assert.throws(() => search(store, 'Transfer.amount > 0', { workLimit: 20 }), /query is too broad: .*more than 20 index entries/);
    assert.equal(search(store, 'Transfer.amount > 0 AND tx.height <= 5', { workLimit: 100 }).total_count, '4');
    assert.equal(search(store, 'Transfer.amount = \'7\'', { workLimit: 5 }).total_count, '1');
    // Many conditions over the same broad list cost a lookup each per candidate.
    const exists = Array.from({ length: 10 }, () => 'Transfer.amount EXISTS').join(' AND ');
    assert.throws(() => search(store, exists, { workLimit: 29 * 10 + 28 }), /query is too broad/);
    assert.equal(search(store, exists, { workLimit: 29 * 10 + 29 }).total_count, '29');
  });

  it('is rebuilt from the block log when the store reopens', () => {
    store.commit(block(2, [[{ type: 'Transfer', attributes: [attr('to', 'carol')] }]]), new Map());
    store.close();
    const progress: Array<[number, number]> = [];
    store = openStore(home.dir, (read, size) => progress.push([read, size]));
    const [read, size] = progress[progress.length - 1]!;
    assert.ok(size > 0 && read === size, 'start-up reports its pass over the block log');
    assert.equal(count(store, 'Transfer.to = \'carol\''), 1);
    assert.equal(count(store, 'account.owner = \'Ana\''), 1);
    store.commit(block(3, [[{ type: 'Transfer', attributes: [attr('to', 'carol')] }]]), new Map());
    assert.deepEqual(search(store, 'Transfer.to = \'carol\'').txs.map((t) => t.height), ['2', '3']);
  });

  it('parses CometBFT\'s grammar and refuses what it refuses', () => {
    assert.deepEqual(EventQuery.parse('a.b>=5 AND c.d CONTAINS \'x y\' AND e EXISTS AND t.t < TIME 2024-01-02T03:04:05Z AND d.d = DATE 2024-01-02').conditions.map((c) => [c.tag, c.op, c.arg?.type]),
      [['a.b', '>=', 'number'], ['c.d', 'CONTAINS', 'string'], ['e', 'EXISTS', undefined], ['t.t', '<', 'time'], ['d.d', '=', 'date']]);
    for (const bad of ['', 'a.b >', 'a.b = -1', 'a.b < \'x\'', 'a.b CONTAINS 5', 'a.b = 1 OR c = 2', 'a.b = \'open', 'a.b = DATE 1800-01-01']) {
      assert.throws(() => EventQuery.parse(bad), /failed to parse query/, bad);
    }
  });
});
