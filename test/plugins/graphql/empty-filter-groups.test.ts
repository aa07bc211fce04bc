import { strict as assert } from 'node:assert';
import { fixtureTxs } from './support/fixture-rows.js';
import { forEachFixture, type GraphqlFixture } from './support/graphql-fixture.js';

/**
 * Issue 31 item 1: an empty `or`/`and` list is no condition at all in PostGraphile 5
 * (@dataplan/pg drops a condition group nothing was added to), wherever it stands — not FALSE
 * (it gave 0 rows here, silently) and not TRUE (which differs inside an `or` or under a
 * `not`). The differential corpus (test/compat/postgraphile, `filter/empty-*`) has
 * PostGraphile confirm each expected answer.
 */
const TXS = fixtureTxs();
const ALL = TXS.length;
const PAIRS = TXS.filter((t) => t.contract === 'con_pairs').length;
const ALICE = TXS.filter((t) => t.sender === 'alice').length;

describe('GraphQL: empty and/or groups in filters and having (as PostGraphile 5)', function () {
  forEachFixture((fixture) => {
    let f: GraphqlFixture;
    beforeEach(function () {
      f = fixture();
    });
    const count = async (filter: string) => (await f.data(`{ allTransactions(filter: ${filter}) { totalCount nodes { hash } } }`)).allTransactions;

    it('`or: []` and `and: []` add no condition', async function () {
      for (const filter of ['{or: []}', '{and: []}', '{and: [], or: []}']) {
        const c = await count(filter);
        assert.deepEqual([c.totalCount, c.nodes.length], [ALL, ALL], filter);
      }
    });

    it('an empty group inside `and` or `or` is dropped, not TRUE or FALSE', async function () {
      assert.equal((await count('{and: [{or: []}, {contract: {equalTo: "con_pairs"}}]}')).totalCount, PAIRS);
      assert.equal((await count('{or: [{or: []}, {contract: {equalTo: "con_pairs"}}]}')).totalCount, PAIRS, 'TRUE would give every row');
      assert.equal((await count('{or: [{and: []}, {sender: {equalTo: "alice"}}]}')).totalCount, ALICE);
      assert.equal((await count('{contract: {equalTo: "con_pairs"}, or: []}')).totalCount, PAIRS);
    });

    it('`not` over an empty group adds no condition', async function () {
      assert.equal((await count('{not: {and: []}}')).totalCount, ALL);
      assert.equal((await count('{not: {or: []}}')).totalCount, ALL, 'NOT TRUE would give none');
      assert.equal((await count('{not: {or: [{or: []}]}, sender: {equalTo: "alice"}}')).totalCount, ALICE);
    });

    it('a relation filter over an empty group is dropped (not "a related row exists")', async function () {
      const blocks = async (filter: string) => (await f.data(`{ allBlocks(filter: ${filter}) { totalCount } }`)).allBlocks.totalCount;
      const all = await blocks('{height: {greaterThanOrEqualTo: "0"}}');
      assert.equal(await blocks('{transactionsByBlockHeight: {some: {or: []}}}'), all);
      assert.equal(await blocks('{transactionsByBlockHeight: {none: {and: []}}}'), all);
      assert.equal(await blocks('{transactionsByBlockHeight: {every: {or: []}}}'), all);
      const events = async (filter: string) => (await f.data(`{ allEvents(filter: ${filter}) { totalCount } }`)).allEvents.totalCount;
      assert.equal(await events('{transactionByTxHash: {or: []}}'), await events('{id: {greaterThan: "0"}}'));
    });

    it('null and empty items are still refused as PostGraphile refuses them', async function () {
      for (const [filter, message] of [['{or: [{}]}', 'Empty objects are forbidden'], ['{not: {}}', 'Empty objects are forbidden'], ['{or: null}', 'Null literals are forbidden']] as const) {
        const result = await f.run(`{ allTransactions(filter: ${filter}) { totalCount } }`);
        assert.ok(result.errors?.some((e) => e.message.includes(message)), `${filter}: ${JSON.stringify(result.errors)}`);
      }
    });

    it('`having: {OR: []}` keeps every group; an empty group inside OR is dropped', async function () {
      const groups = async (having: string) => (await f.data(`{ allTransactions { groupedAggregates(groupBy: [SENDER], having: ${having}) { keys } } }`)).allTransactions.groupedAggregates.length;
      const senders = new Set(TXS.map((t) => t.sender)).size;
      assert.equal(await groups('{OR: []}'), senders);
      assert.equal(await groups('{AND: []}'), senders);
      assert.equal(await groups('{OR: [{OR: []}, {sum: {chiUsed: {greaterThan: "1000000"}}}]}'), 0, 'TRUE would keep every group');
    });
  });
});
