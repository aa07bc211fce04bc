import { strict as assert } from 'node:assert';
import { silentLogger } from '../../../core/logger.js';
import { createGraphqlEngine } from '../../../plugins/graphql/graphql-engine.js';
import { dropSchema, TEST_POSTGRES_URL } from '../../support/databases.js';
import { engineOptions, openFixture, type GraphqlFixture } from './support/graphql-fixture.js';
import { fixtureTxs, txHash } from './support/fixture-rows.js';

/**
 * Issue #15: what upstream's PostGraphile 5 (makeV4Preset + pg-aggregates + connection-filter)
 * answers on the same tables — JSON as text (or values with `dynamicJson`), `Record` names,
 * the tie-break direction, relation filters, and limits that bound work without refusing or
 * shortening what upstream serves. The differential test (test/compat/postgraphile) proves the
 * rest against the real engine.
 */
describe('GraphQL answers as PostGraphile 5 under upstream\'s preset (issue #15)', function () {
  let f: GraphqlFixture;
  const schema = `gql_parity_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  before(async function () {
    this.timeout(60_000);
    f = await openFixture({ kind: 'postgres', home: '', url: TEST_POSTGRES_URL, pgliteDir: null, schema });
  });
  after(async function () {
    await f?.close();
    await dropSchema(schema).catch(() => undefined);
  });

  it('JSON columns are JSON text, and a JSON argument is JSON text', async function () {
    const tx = fixtureTxs().find((t) => t.hash === txHash(2, 0))!;
    const data = await f.data(`{ transactionByHash(hash: "${tx.hash}") { payload } }`);
    assert.equal(typeof data.transactionByHash.payload, 'string');
    assert.deepStrictEqual(JSON.parse(data.transactionByHash.payload), tx.payload);
    const state = await f.data('{ allStates(first: 1) { nodes { key value } } }');
    const { key, value } = state.allStates.nodes[0];
    const same = await f.data('query ($v: JSON) { allStates(condition: {value: $v}) { nodes { key } } }', { v: value });
    assert.ok(same.allStates.nodes.some((n: any) => n.key === key), 'the text given back matches its row');
    const bad = await f.run('{ allStates(condition: {value: "None"}) { totalCount } }');
    assert.match(String(bad.errors?.[0]?.message), /not valid JSON/);
  });

  it('dynamicJson: true gives JSON values instead', async function () {
    const engine = createGraphqlEngine(f.source, engineOptions({ dynamicJson: true }), [], silentLogger);
    const tx = fixtureTxs().find((t) => t.hash === txHash(2, 0))!;
    const r = await engine.execute(`{ transactionByHash(hash: "${tx.hash}") { payload } }`);
    assert.equal(r.errors, undefined);
    assert.deepStrictEqual(JSON.parse(JSON.stringify((r.data as any).transactionByHash.payload)), tx.payload);
  });

  it('state_patches is StatePatchRecord (PostGraphile\'s Record suffix for *patch tables)', async function () {
    const data = await f.data('{ allStatePatchRecords { totalCount nodes { hash blockByBlockHeight { statePatchRecordsByBlockHeight { totalCount } } } } }');
    assert.ok(data.allStatePatchRecords.totalCount > 0);
    assert.equal(data.allStatePatchRecords.nodes[0].blockByBlockHeight.statePatchRecordsByBlockHeight.totalCount > 0, true);
  });

  it('a non-unique order gets the primary key in the direction of its first column', async function () {
    const data = await f.data('{ allTransactions(orderBy: SENDER_DESC) { nodes { hash sender } } }');
    const expected = fixtureTxs().sort((a, b) => (a.sender === b.sender ? (a.hash < b.hash ? 1 : -1) : a.sender < b.sender ? 1 : -1)).map((t) => t.hash);
    assert.deepStrictEqual(data.allTransactions.nodes.map((n: any) => n.hash), expected);
  });

  it('relation filters: forward, …Exists, backward some/every/none and …Exist', async function () {
    const txs = fixtureTxs();
    const count = async (table: string, filter: string) => (await f.data(`{ ${table}(filter: ${filter}) { totalCount } }`))[table].totalCount;
    const events = (await f.data('{ allEvents { nodes { txHash } } }')).allEvents.nodes as Array<{ txHash: string }>;
    const aliceTx = new Set(txs.filter((t) => t.sender === 'alice').map((t) => t.hash));
    assert.equal(await count('allEvents', '{transactionByTxHash: {sender: {equalTo: "alice"}}}'), events.filter((e) => aliceTx.has(e.txHash)).length);
    const heights = (await f.data('{ allBlocks { nodes { height } } }')).allBlocks.nodes.map((b: any) => Number(b.height)) as number[];
    const withAlice = heights.filter((h) => txs.some((t) => t.block_height === h && t.sender === 'alice'));
    const allAlice = heights.filter((h) => txs.every((t) => t.block_height !== h || t.sender === 'alice'));
    const withTx = heights.filter((h) => txs.some((t) => t.block_height === h));
    assert.equal(await count('allBlocks', '{transactionsByBlockHeight: {some: {sender: {equalTo: "alice"}}}}'), withAlice.length);
    assert.equal(await count('allBlocks', '{transactionsByBlockHeight: {none: {sender: {equalTo: "alice"}}}}'), heights.length - withAlice.length);
    assert.equal(await count('allBlocks', '{transactionsByBlockHeight: {every: {sender: {equalTo: "alice"}}}}'), allAlice.length);
    assert.equal(await count('allBlocks', '{transactionsByBlockHeightExist: true}'), withTx.length);
    assert.equal(await count('allBlocks', '{transactionsByBlockHeightExist: false}'), heights.length - withTx.length);
    const rewards = await f.data('{ all: allRewards { totalCount } withTx: allRewards(filter: {transactionByTxHashExists: true}) { totalCount } noTx: allRewards(filter: {transactionByTxHashExists: false}) { totalCount } }');
    assert.equal(rewards.withTx.totalCount + rewards.noTx.totalCount, rewards.all.totalCount);
    const bad = await f.run('{ allEvents(filter: {transactionByTxHashExists: true}) { totalCount } }');
    assert.match(String(bad.errors?.[0]?.message), /transactionByTxHashExists/, 'Exists only on nullable keys, as connection-filter');
  });

  it('groupedAggregates(having:) keeps the groups whose aggregates match; columns unique alone are not group keys', async function () {
    const txs = fixtureTxs();
    const data = await f.data('{ allTransactions { groupedAggregates(groupBy: [SENDER], having: {sum: {chiUsed: {greaterThan: "600"}}, OR: [{max: {blockHeight: {greaterThanOrEqualTo: "0"}}}]}) { keys sum { chiUsed } } } }');
    const sums = new Map<string, number>();
    for (const t of txs) sums.set(t.sender, (sums.get(t.sender) ?? 0) + t.chi_used);
    const expected = [...sums].filter(([, n]) => n > 600).map(([s]) => s).sort();
    assert.deepStrictEqual(data.allTransactions.groupedAggregates.map((g: any) => g.keys[0]).sort(), expected, 'groups come unordered, as pg-aggregates');
    const values = (await f.data('{ __type(name: "TransactionGroupBy") { enumValues { name } } }')).__type.enumValues.map((v: any) => v.name);
    assert.ok(!values.includes('HASH') && values.includes('SENDER'), values.join(','));
  });

  it('orderBy an aggregate of a relation (TRANSACTIONS_BY_BLOCK_HEIGHT_COUNT_DESC), with cursors that page on it', async function () {
    const txs = fixtureTxs();
    const heights = (await f.data('{ allBlocks { nodes { height } } }')).allBlocks.nodes.map((b: any) => Number(b.height)) as number[];
    const count = (h: number) => txs.filter((t) => t.block_height === h).length;
    const expected = [...heights].sort((a, b) => count(b) - count(a) || a - b).map(String);
    const all = await f.data('{ allBlocks(orderBy: [TRANSACTIONS_BY_BLOCK_HEIGHT_COUNT_DESC, HEIGHT_ASC]) { nodes { height } } }');
    assert.deepStrictEqual(all.allBlocks.nodes.map((n: any) => n.height), expected);
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 10; i++) {
      const page: any = await f.data('query ($a: Cursor) { allBlocks(first: 2, after: $a, orderBy: [TRANSACTIONS_BY_BLOCK_HEIGHT_SUM_CHI_USED_DESC, HEIGHT_ASC]) { nodes { height } pageInfo { hasNextPage endCursor } } }', { a: after });
      seen.push(...page.allBlocks.nodes.map((n: any) => n.height));
      if (!page.allBlocks.pageInfo.hasNextPage) break;
      after = page.allBlocks.pageInfo.endCursor;
    }
    const sum = (h: number) => txs.filter((t) => t.block_height === h).reduce((n, t) => n + t.chi_used, 0);
    assert.deepStrictEqual(seen, [...heights].sort((a, b) => sum(b) - sum(a) || a - b).map(String));
  });

  it('relation aggregate filters: BlockFilter.transactionsByBlockHeight.aggregates {filter, sum, distinctCount}', async function () {
    const txs = fixtureTxs();
    const heights = (await f.data('{ allBlocks { nodes { height } } }')).allBlocks.nodes.map((b: any) => Number(b.height)) as number[];
    const sum = (h: number, sender?: string) => txs.filter((t) => t.block_height === h && (!sender || t.sender === sender)).reduce((n, t) => n + t.chi_used, 0);
    const count = async (filter: string) => (await f.data(`{ allBlocks(filter: ${filter}) { nodes { height } } }`)).allBlocks.nodes.map((n: any) => Number(n.height));
    assert.deepStrictEqual(await count('{transactionsByBlockHeight: {aggregates: {sum: {chiUsed: {greaterThan: "400"}}}}}'), heights.filter((h) => sum(h) > 400));
    assert.deepStrictEqual(await count('{transactionsByBlockHeight: {aggregates: {filter: {sender: {equalTo: "alice"}}, sum: {chiUsed: {greaterThan: "0"}}}}}'), heights.filter((h) => sum(h, 'alice') > 0));
    const senders = (h: number) => new Set(txs.filter((t) => t.block_height === h).map((t) => t.sender)).size;
    assert.deepStrictEqual(await count('{transactionsByBlockHeight: {aggregates: {distinctCount: {sender: {equalTo: "3"}}}}}'), heights.filter((h) => senders(h) === 3));
  });

  it('bdsNumeric(v: JSON) runs the BDS function, as PostGraphile exposes it', async function () {
    const data = await f.data('{ a: bdsNumeric(v: "{\\"__fixed__\\": \\"1.5\\"}") b: bdsNumeric(v: "\\"x\\"") c: bdsNumeric }');
    assert.deepStrictEqual(data, { a: '1.5', b: null, c: null });
  });

  it('no page cap: first above 1000 is served, and a relation without first is not cut at 100', async function () {
    const height = 900_000;
    await f.db.knex.raw(`INSERT INTO ${schema}.blocks (height, block_hash, block_time, block_time_iso, tx_count, app_hash, created_at) VALUES (?, 'BIG', 1, now(), 0, 'A', now())`, [height]);
    await f.db.knex.raw(`INSERT INTO ${schema}.state_changes (block_height, block_hash, block_time, tx_hash, tx_index, write_index, key, new_value, origin_type, created_at)
      SELECT ?, 'BIG', 1, NULL, 0, i, 'k' || i, '1'::jsonb, 'genesis', now() FROM generate_series(0, 149) AS i`, [height]);
    try {
      const data = await f.data(`{ blockByHeight(height: "${height}") { stateChangesByBlockHeight { totalCount nodes { changeId } pageInfo { hasNextPage } } } allStateChanges(first: 5000) { totalCount nodes { changeId } } }`);
      const rel = data.blockByHeight.stateChangesByBlockHeight;
      assert.equal(rel.totalCount, 150);
      assert.equal(rel.nodes.length, 150, 'every related row, as upstream');
      assert.equal(rel.pageInfo.hasNextPage, false);
      assert.equal(data.allStateChanges.nodes.length, data.allStateChanges.totalCount);
    } finally {
      await f.db.knex.raw(`DELETE FROM ${schema}.state_changes WHERE block_height = ?`, [height]);
      await f.db.knex.raw(`DELETE FROM ${schema}.blocks WHERE height = ?`, [height]);
    }
  });

  it('"the latest 50 blocks with their transactions and events" is served', async function () {
    const data = await f.data('{ allBlocks(first: 50, orderBy: HEIGHT_DESC) { nodes { height transactionsByBlockHeight { totalCount nodes { hash eventsByTxHash { totalCount nodes { id event } } } } } } }');
    assert.ok(data.allBlocks.nodes.length > 0);
  });

  it('the work bound is rows actually read: past maxRowsRead the request fails with RESULT_TOO_LARGE, never a short page', async function () {
    const engine = createGraphqlEngine(f.source, engineOptions({ maxRowsRead: 5 }), [], silentLogger);
    const small = await engine.execute('{ allBlocks(first: 3) { nodes { height } } }');
    assert.equal(small.errors, undefined);
    const big = await engine.execute('{ allTransactions { nodes { hash } } }');
    assert.equal(big.errors?.[0]?.extensions?.code, 'RESULT_TOO_LARGE');
    assert.match(big.errors![0]!.message, /reads more than 5 rows/);
    const nested = await engine.execute('{ allBlocks(first: 3) { nodes { transactionsByBlockHeight { nodes { hash } } } } }');
    assert.equal(nested.errors?.[0]?.extensions?.code, 'RESULT_TOO_LARGE');
  });
});
