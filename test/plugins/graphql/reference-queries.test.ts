import { strict as assert } from 'node:assert';
import { blockHash, fixtureEvents, fixtureRewards, fixtureTxs, pgIso, txHash } from './support/fixture-rows.js';
import { forEachFixture, type GraphqlFixture } from './support/graphql-fixture.js';

/**
 * graphql.md §5: every example query of the reference, with the exact data PostGraphile would
 * return for the fixture (BigInt as strings, Datetime with microseconds, JSONB as values).
 */
describe('GraphQL: the reference example queries (graphql.md §5)', function () {
  forEachFixture((fixture) => {
    let f: GraphqlFixture;
    beforeEach(function () {
      f = fixture();
    });

    it('latest transactions: allTransactions(first: 20, orderBy: BLOCK_HEIGHT_DESC)', async function () {
      const data = await f.data(`{ allTransactions(first: 20, orderBy: BLOCK_HEIGHT_DESC) {
        nodes { hash blockHeight contract function success } } }`);
      // PostGraphile 5 takes block_height (first column of unique (block_height, tx_index)) as a
      // unique order and appends nothing; the index on that key reads a block's transactions backwards.
      const expected = fixtureTxs()
        .sort((a, b) => b.block_height - a.block_height || b.tx_index - a.tx_index)
        .slice(0, 20)
        .map((t) => ({ hash: t.hash, blockHeight: String(t.block_height), contract: t.contract, function: t.function, success: t.success }));
      assert.deepStrictEqual(data, { allTransactions: { nodes: expected } });
    });

    it('one transaction by its hash: transactionByHash(hash: $hash)', async function () {
      const query = `query ($hash: String!) {
        transactionByHash(hash: $hash) { hash blockHeight sender contract function success chiUsed } }`;
      const tx = fixtureTxs().find((t) => t.hash === txHash(4, 1))!;
      assert.deepStrictEqual(await f.data(query, { hash: tx.hash }), {
        transactionByHash: { hash: tx.hash, blockHeight: '4', sender: tx.sender, contract: 'currency', function: 'transfer', success: false, chiUsed: '401' },
      });
      assert.deepStrictEqual(await f.data(query, { hash: 'NOPE' }), { transactionByHash: null }, 'a miss is null, not an error');
    });

    it('latest blocks, and one block by a BigInt height passed as a string', async function () {
      assert.deepStrictEqual(await f.data(`{ allBlocks(first: 10, orderBy: HEIGHT_DESC) { nodes { height blockHash txCount } } }`), {
        allBlocks: { nodes: [6, 5, 4, 3, 2, 1, 0].map((h) => ({ height: String(h), blockHash: blockHash(h), txCount: h === 0 ? 1 : 3 })) },
      });
      const query = `query ($height: BigInt!) { blockByHeight(height: $height) { height blockHash txCount blockTimeIso } }`;
      assert.deepStrictEqual(await f.data(query, { height: '3' }), {
        blockByHeight: { height: '3', blockHash: blockHash(3), txCount: 3, blockTimeIso: pgIso(3) },
      });
      assert.deepStrictEqual(await f.data(query, { height: '99' }), { blockByHeight: null });
    });

    it('swap events of one pair: condition plus JSONB containment on dataIndexed', async function () {
      const data = await f.data(`{ allEvents(condition: {contract: "con_pairs", event: "Swap"},
            filter: {dataIndexed: {contains: "{\\"pair\\": 7}"}}, orderBy: ID_ASC, first: 100) {
          nodes { id txHash blockHeight data dataIndexed createdAt } } }`);
      const swaps = fixtureEvents().filter((e) => e.event === 'Swap');
      const numeric = swaps.filter((e) => e.data_indexed.pair === 7);
      // JSON columns are JSON text (upstream's preset): compared parsed.
      assert.deepStrictEqual(data.allEvents.nodes.map((n: any) => ({ ...n, id: undefined, data: JSON.parse(n.data), dataIndexed: JSON.parse(n.dataIndexed) })), numeric.map((e) => ({
        id: undefined, txHash: e.tx_hash, blockHeight: String(e.block_height), data: e.data, dataIndexed: e.data_indexed, createdAt: pgIso(e.block_height),
      })));
      const ids = data.allEvents.nodes.map((n: any) => BigInt(n.id));
      assert.deepStrictEqual([...ids].sort((a, b) => (a < b ? -1 : 1)), ids, 'ID_ASC');
      // The candle projection's trick: match both {"pair": 7} and {"pair": "7"} with `or`.
      const both = await f.data(`{ allEvents(condition: {contract: "con_pairs", event: "Swap"},
            filter: {or: [{dataIndexed: {contains: "{\\"pair\\": 7}"}}, {dataIndexed: {contains: "{\\"pair\\": \\"7\\"}"}}]}, orderBy: ID_ASC, first: 100) {
          totalCount nodes { txHash } } }`);
      assert.equal(both.allEvents.totalCount, swaps.length);
      assert.deepStrictEqual(both.allEvents.nodes.map((n: any) => n.txHash), swaps.map((e) => e.tx_hash));
    });

    it('incoming transfers of an address', async function () {
      const data = await f.data(`{ allEvents(condition: {event: "Transfer"}, filter: {dataIndexed: {contains: "{\\"to\\": \\"dave\\"}"}}) {
          nodes { id contract dataIndexed data txHash createdAt } } }`);
      const transfers = fixtureEvents().filter((e) => e.event === 'Transfer');
      assert.equal(data.allEvents.nodes.length, transfers.length);
      assert.deepStrictEqual(data.allEvents.nodes.map((n: any) => n.txHash), transfers.map((e) => e.tx_hash), 'default order PRIMARY_KEY_ASC = insertion order');
      assert.deepStrictEqual(Object.keys(data.allEvents.nodes[0]), ['id', 'contract', 'dataIndexed', 'data', 'txHash', 'createdAt']);
      assert.equal(typeof data.allEvents.nodes[0].id, 'string', 'BIGINT id as a string');
    });

    it('current balance and balance history of a key', async function () {
      const key = 'currency.balances:alice';
      const data = await f.data(`{ stateByKey(key: "${key}") { value valueNumeric lastBlockHeight }
        allStateChanges(condition: {key: "${key}"}, orderBy: CHANGE_ID_DESC, first: 50) {
          nodes { newValue newValueNumeric txHash blockHeight originType } } }`);
      const aliceTxs = fixtureTxs().filter((t) => t.sender === 'alice');
      const last = aliceTxs[aliceTxs.length - 1]!;
      assert.deepStrictEqual(data.stateByKey, { value: JSON.stringify({ __fixed__: `${1000 - last.nonce}.5` }), valueNumeric: `${1000 - last.nonce}.5`, lastBlockHeight: String(last.block_height) });
      assert.deepStrictEqual(data.allStateChanges.nodes, [...aliceTxs].reverse().map((t) => ({
        newValue: JSON.stringify({ __fixed__: `${1000 - t.nonce}.5` }), newValueNumeric: `${1000 - t.nonce}.5`, txHash: t.hash, blockHeight: String(t.block_height), originType: 'transaction',
      })));
    });

    it('XSC001 contracts and developer rewards with a sum aggregate', async function () {
      const data = await f.data(`{ allContracts(condition: {xsc001: true}, orderBy: SUBMITTED_AT_BLOCK_DESC) { nodes { name submittedAt } }
        allRewards(condition: {type: "developer_reward", recipientKey: "alice"}) {
          aggregates { sum { value } } nodes { value sourceContract txHash } } }`);
      assert.deepStrictEqual(data.allContracts, { nodes: [{ name: 'currency', submittedAt: pgIso(0) }] });
      const rewards = fixtureRewards().filter((r) => r.type === 'developer_reward');
      assert.deepStrictEqual(data.allRewards.nodes, rewards.map((r) => ({ value: r.value, sourceContract: 'currency', txHash: r.tx_hash })));
      const sum = rewards.reduce((s, r) => s + Number(r.value), 0);
      assert.equal(Number(data.allRewards.aggregates.sum.value), sum);
      assert.equal(typeof data.allRewards.aggregates.sum.value, 'string', 'a NUMERIC sum is a BigFloat string');
    });
  });
});
