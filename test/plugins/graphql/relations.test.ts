import { strict as assert } from 'node:assert';
import { fixtureEvents, fixtureTxs } from './support/fixture-rows.js';
import { forEachFixture, type GraphqlFixture } from './support/graphql-fixture.js';

/**
 * graphql.md §3.2: relations from foreign keys, both directions, named by PostGraphile's
 * inflection; and batching: a query joining blocks → transactions → events costs one SQL
 * statement for the whole chain (each level a LATERAL join, as PostGraphile 5 compiles it), and
 * whatever is not in the chain one statement per level, however many parents each level has
 * (no N+1).
 */
const TXS = fixtureTxs();
const EVENTS = fixtureEvents();

describe('GraphQL: relations and batching (graphql.md §3.2)', function () {
  forEachFixture((fixture) => {
    let f: GraphqlFixture;
    beforeEach(function () {
      f = fixture();
    });
    const selects = () => f.statements.filter((s) => /^\s*select/i.test(s));

    it('blocks → transactions → events resolves in one statement (no N+1)', async function () {
      const query = (n: number) => `{ allBlocks(first: ${n}) { nodes { height
        transactionsByBlockHeight { nodes { hash txIndex eventsByTxHash { nodes { id event eventIndex } } } } } } }`;
      f.resetStatements();
      const data = await f.data(query(7));
      assert.equal(selects().length, 1, `statements:\n${f.statements.join('\n')}`);
      assert.match(selects()[0]!, /LEFT JOIN LATERAL .* LEFT JOIN LATERAL/);
      for (const block of data.allBlocks.nodes) {
        const txs = TXS.filter((t) => t.block_height === Number(block.height)).sort((a, b) => (a.hash < b.hash ? -1 : 1));
        assert.deepStrictEqual(block.transactionsByBlockHeight.nodes.map((t: any) => t.hash), txs.map((t) => t.hash));
        for (const tx of block.transactionsByBlockHeight.nodes) {
          assert.deepStrictEqual(tx.eventsByTxHash.nodes.map((e: any) => [e.event, e.eventIndex]), EVENTS.filter((e) => e.tx_hash === tx.hash).map((e) => [e.event, e.event_index]));
        }
      }
      f.resetStatements();
      await f.data(query(2));
      assert.equal(selects().length, 1, 'the statement count does not grow with the number of parents');
    });

    it('a chain read in one statement answers exactly as the same relations read level by level', async function () {
      // A directive keeps a relation out of the chain (it is then read by its own batched statement).
      const query = (d: string) => `{ allBlocks(first: 4, orderBy: HEIGHT_DESC) { totalCount pageInfo { hasNextPage endCursor } nodes { height
        transactionsByBlockHeight(first: 2, orderBy: CHI_USED_DESC) ${d} { totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
          edges { cursor node { hash chiUsed eventsByTxHash(last: 1) ${d} { pageInfo { hasPreviousPage } nodes { id event } } } } }
        eventsByBlockHeight(first: 1) { nodes { id } } } } }`;
      f.resetStatements();
      const chained = await f.data(query(''));
      const chainStatements = selects().length;
      f.resetStatements();
      const levelwise = await f.data(query('@include(if: true)'));
      assert.deepStrictEqual(chained, levelwise);
      assert.ok(chainStatements < selects().length, `chain ${chainStatements} statements, level by level ${selects().length}`);
      assert.ok(chained.allBlocks.nodes.some((b: any) => b.transactionsByBlockHeight.pageInfo.hasNextPage), 'a parent with more rows than its page');
    });

    it('a page\'s look-ahead row (read to learn hasNextPage) has none of its relations read', async function () {
      // Level 0 reads 3 blocks (2 + the look-ahead), level 1 each page block's first 2 transactions
      // plus a look-ahead one; only the rows below the answered rows are read.
      const rows: number[] = [];
      const count = (response: unknown) => {
        const r = response as { rows?: unknown[] } | unknown[];
        rows.push(Array.isArray(r) ? r.length : r.rows?.length ?? -1);
      };
      f.db.knex.on('query-response', count);
      try {
        const data = await f.data(`{ allBlocks(first: 2, orderBy: HEIGHT_DESC) { pageInfo { hasNextPage } nodes { height
          transactionsByBlockHeight(first: 2) { pageInfo { hasNextPage } nodes { hash eventsByTxHash { nodes { id } } } } } } }`);
        assert.equal(data.allBlocks.pageInfo.hasNextPage, true);
        const pageBlocks = data.allBlocks.nodes.map((b: any) => Number(b.height));
        // One joined row per path: every answered transaction's events (or one row without), each look-ahead row alone.
        let paths = 1; // the look-ahead block
        for (const h of pageBlocks) {
          const txs = TXS.filter((t) => t.block_height === h).sort((a, b) => (a.hash < b.hash ? -1 : 1));
          assert.ok(txs.length > 2, 'a block with more transactions than the page');
          for (const tx of txs.slice(0, 2)) paths += Math.max(1, EVENTS.filter((e) => e.tx_hash === tx.hash).length);
          paths += 1; // the block's look-ahead transaction
        }
        assert.deepStrictEqual(rows, [paths]);
      } finally {
        f.db.knex.off('query-response', count);
      }
    });

    it('nested connection arguments, totalCount, pageInfo and aggregates are batched per level too', async function () {
      f.resetStatements();
      const data = await f.data(`{ allBlocks(filter: {height: {greaterThan: "0"}}) { nodes { height
        transactionsByBlockHeight(first: 1, orderBy: CHI_USED_DESC, condition: {success: true}) {
          totalCount pageInfo { hasNextPage } aggregates { sum { chiUsed } max { txIndex } } nodes { hash chiUsed } } } } }`);
      // allBlocks with the transaction pages joined, then one statement for the count and the aggregates of all six blocks (issue 31).
      assert.equal(selects().length, 2, `statements:\n${f.statements.join('\n')}`);
      for (const block of data.allBlocks.nodes) {
        const ok = TXS.filter((t) => t.block_height === Number(block.height) && t.success);
        const top = [...ok].sort((a, b) => b.chi_used - a.chi_used)[0]!;
        const c = block.transactionsByBlockHeight;
        assert.equal(c.totalCount, ok.length);
        assert.equal(c.pageInfo.hasNextPage, ok.length > 1);
        assert.deepStrictEqual(c.nodes, [{ hash: top.hash, chiUsed: String(top.chi_used) }]);
        assert.equal(c.aggregates.sum.chiUsed, String(ok.reduce((s, t) => s + t.chi_used, 0)));
        assert.equal(c.aggregates.max.txIndex, Math.max(...ok.map((t) => t.tx_index)));
      }
    });

    it('totalCount with aggregates is one statement, as PostGraphile plans it; each alone is one too', async function () {
      f.resetStatements();
      const data = await f.data('{ allTransactions(condition: {sender: "alice"}) { totalCount aggregates { sum { chiUsed } distinctCount { contract } } } }');
      assert.equal(selects().length, 1, `statements:\n${f.statements.join('\n')}`);
      const alice = TXS.filter((t) => t.sender === 'alice');
      assert.equal(data.allTransactions.totalCount, alice.length);
      assert.equal(data.allTransactions.aggregates.sum.chiUsed, String(alice.reduce((n, t) => n + t.chi_used, 0)));
      assert.equal(data.allTransactions.aggregates.distinctCount.contract, String(new Set(alice.map((t) => t.contract)).size));
      f.resetStatements();
      const none = await f.data('{ allTransactions(condition: {sender: "nobody"}) { totalCount aggregates { sum { chiUsed } } } a: allTransactions { totalCount } }');
      assert.deepEqual(none.allTransactions, { totalCount: 0, aggregates: { sum: { chiUsed: '0' } } });
      assert.equal(none.a.totalCount, TXS.length);
      assert.equal(selects().length, 2);
    });

    it('forward relations of a page are fetched in one statement', async function () {
      f.resetStatements();
      const data = await f.data(`{ allEvents(first: 30) { nodes { id transactionByTxHash { hash sender blockByBlockHeight { height } } blockByBlockHeight { blockHash } } } }`);
      // events; their transactions; the blocks (shared by both paths, one loader per table key).
      assert.equal(selects().length, 3, `statements:\n${f.statements.join('\n')}`);
      for (const e of data.allEvents.nodes) {
        assert.ok(e.transactionByTxHash.hash);
        assert.equal(e.transactionByTxHash.blockByBlockHeight.height, String(TXS.find((t) => t.hash === e.transactionByTxHash.hash)!.block_height));
      }
    });

    it('cursors on a relation page per parent (last, before, after) in one statement per level', async function () {
      const first = await f.data(`{ allBlocks(filter: {height: {greaterThan: "0"}}, first: 3) { nodes { height
        transactionsByBlockHeight(last: 1) { nodes { hash } pageInfo { hasPreviousPage hasNextPage startCursor } } } } }`);
      for (const b of first.allBlocks.nodes) {
        const hashes = TXS.filter((t) => t.block_height === Number(b.height)).map((t) => t.hash).sort();
        assert.deepStrictEqual(b.transactionsByBlockHeight.nodes, [{ hash: hashes[hashes.length - 1] }]);
        assert.deepStrictEqual({ ...b.transactionsByBlockHeight.pageInfo, startCursor: undefined }, { hasPreviousPage: true, hasNextPage: false, startCursor: undefined });
      }
      const cursor = first.allBlocks.nodes[0].transactionsByBlockHeight.pageInfo.startCursor;
      f.resetStatements();
      const data = await f.data(`query ($c: Cursor) { allBlocks(filter: {height: {greaterThan: "0"}}, first: 3) { nodes { height
        before: transactionsByBlockHeight(before: $c) { nodes { hash } pageInfo { hasNextPage hasPreviousPage } }
        after: transactionsByBlockHeight(after: $c) { nodes { hash } pageInfo { hasPreviousPage } } } } }`, { c: cursor });
      // blocks with the `before` pages joined; the `after` page (PostGraphile 5 looks only ahead of the reading direction).
      assert.equal(selects().length, 2, `statements:\n${f.statements.join('\n')}`);
      const [b1] = data.allBlocks.nodes;
      const hashes = TXS.filter((t) => t.block_height === 1).map((t) => t.hash).sort();
      assert.deepStrictEqual(b1.before.nodes.map((n: any) => n.hash), hashes.slice(0, -1));
      assert.deepStrictEqual(b1.before.pageInfo, { hasNextPage: false, hasPreviousPage: false });
      assert.deepStrictEqual(b1.after, { nodes: [], pageInfo: { hasPreviousPage: false } });
    });

    it('offers PostGraphile\'s relation names in both directions', async function () {
      const tx = TXS.find((t) => t.block_height === 2 && t.tx_index === 0)!;
      const data = await f.data(`query ($h: String!) { transactionByHash(hash: $h) {
          blockByBlockHeight { height txCount }
          eventsByTxHash { totalCount }
          stateChangesByTxHash { nodes { key writeIndex } }
          rewardsByTxHash { nodes { type value } }
        }
        blockByHeight(height: "0") { contractsBySubmittedAtBlock { nodes { name } } }
        contractByName(name: "con_pairs") { transactionByLastTxHash { function } blockBySubmittedAtBlock { height } }
        statePatchRecordByHash(hash: "PATCH3") { blockByBlockHeight { height } }
        shieldedOutputByTxHashAndOutputIndex(txHash: "${TXS.find((t) => t.block_height === 5 && t.tx_index === 0)!.hash}", outputIndex: 0) { noteIndex transactionByTxHash { blockHeight } }
      }`, { h: tx.hash });
      assert.deepStrictEqual(data.transactionByHash.blockByBlockHeight, { height: '2', txCount: 3 });
      assert.equal(data.transactionByHash.eventsByTxHash.totalCount, EVENTS.filter((e) => e.tx_hash === tx.hash).length);
      assert.deepStrictEqual(data.transactionByHash.stateChangesByTxHash.nodes, [{ key: `currency.balances:${tx.sender}`, writeIndex: 0 }]);
      assert.deepStrictEqual(data.transactionByHash.rewardsByTxHash.nodes, [{ type: 'developer_reward', value: '2.25' }, { type: 'validator_reward', value: '10' }]);
      assert.deepStrictEqual(data.blockByHeight.contractsBySubmittedAtBlock.nodes, [{ name: 'currency' }]);
      assert.deepStrictEqual(data.contractByName, { transactionByLastTxHash: { function: 'swap' }, blockBySubmittedAtBlock: { height: '1' } });
      assert.deepStrictEqual(data.statePatchRecordByHash, { blockByBlockHeight: { height: '3' } });
      assert.deepStrictEqual(data.shieldedOutputByTxHashAndOutputIndex, { noteIndex: 40, transactionByTxHash: { blockHeight: '5' } });
    });

    it('a relation without first reads its default page and says when more exist', async function () {
      const small = await f.run(`{ blockByHeight(height: "1") { transactionsByBlockHeight { nodes { hash } pageInfo { hasNextPage } } } }`);
      assert.equal(small.errors, undefined);
      assert.equal((small.data as any).blockByHeight.transactionsByBlockHeight.pageInfo.hasNextPage, false);
    });

    it('node(nodeId) and nodeId round-trip for every table with a primary key', async function () {
      const data = await f.data(`{ allBlocks(first: 1) { nodes { nodeId height } } allEvents(first: 1) { nodes { nodeId id } } allStates(first: 1) { nodes { nodeId key } } }`);
      const blockId = data.allBlocks.nodes[0].nodeId;
      // PostGraphile's form: a BIGINT key as a string, whichever handle (bds's in a host gives numbers) read the row (issue 31 item 4).
      assert.deepStrictEqual(JSON.parse(Buffer.from(blockId, 'base64').toString()), ['blocks', '0']);
      assert.deepStrictEqual(JSON.parse(Buffer.from(data.allEvents.nodes[0].nodeId, 'base64').toString()), ['events', data.allEvents.nodes[0].id]);
      const back = await f.data(`query ($a: ID!, $b: ID!, $c: ID!) {
        a: node(nodeId: $a) { __typename ... on Block { height } }
        b: node(nodeId: $b) { __typename nodeId }
        c: state(nodeId: $c) { key }
        wrong: block(nodeId: $b) { height }
        query { nodeId } }`, { a: blockId, b: data.allEvents.nodes[0].nodeId, c: data.allStates.nodes[0].nodeId });
      assert.deepStrictEqual(back, {
        a: { __typename: 'Block', height: '0' },
        b: { __typename: 'Event', nodeId: data.allEvents.nodes[0].nodeId },
        c: { key: data.allStates.nodes[0].key },
        wrong: null,
        query: { nodeId: 'query' },
      });
    });

    it('groupedAggregates groups by a column with keys', async function () {
      const data = await f.data(`{ allTransactions { groupedAggregates(groupBy: [SENDER]) { keys sum { chiUsed } distinctCount { contract } } } }`);
      const senders = [...new Set(TXS.map((t) => t.sender))].sort();
      // Groups come unordered, as pg-aggregates: compare them sorted by key.
      const groups = [...data.allTransactions.groupedAggregates].sort((a: any, b: any) => (a.keys[0] < b.keys[0] ? -1 : 1));
      assert.deepStrictEqual(groups, senders.map((s) => ({
        keys: [s],
        sum: { chiUsed: String(TXS.filter((t) => t.sender === s).reduce((n, t) => n + t.chi_used, 0)) },
        distinctCount: { contract: String(new Set(TXS.filter((t) => t.sender === s).map((t) => t.contract)).size) },
      })));
    });
  });
});
