import { createHash } from 'node:crypto';
import { strict as assert } from 'node:assert';
import { fixtureTxs, pgIso } from './support/fixture-rows.js';
import { forEachFixture, type GraphqlFixture } from './support/graphql-fixture.js';

/**
 * graphql.md §4: connection shape and arguments as PostGraphile has them — `nodes`, `edges {
 * cursor node }`, `pageInfo`, `totalCount`; `first/last/offset/before/after`, `orderBy`
 * (primary key appended), `condition` (equality, null = IS NULL) and connection-filter.
 */
const TXS = fixtureTxs();
const byHash = [...TXS].sort((a, b) => (a.hash < b.hash ? -1 : 1));

describe('GraphQL: connections (graphql.md §4)', function () {
  forEachFixture((fixture) => {
    let f: GraphqlFixture;
    beforeEach(function () {
      f = fixture();
    });

    describe('shape', function () {
      it('nodes, edges { cursor node }, pageInfo and totalCount', async function () {
        const data = await f.data(`{ allTransactions(first: 2) {
          totalCount
          nodes { hash }
          edges { cursor node { hash } }
          pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`);
        const c = data.allTransactions;
        assert.equal(c.totalCount, TXS.length);
        assert.deepStrictEqual(c.nodes, byHash.slice(0, 2).map((t) => ({ hash: t.hash })), 'default order PRIMARY_KEY_ASC');
        assert.deepStrictEqual(c.edges.map((e: any) => e.node), c.nodes);
        assert.deepStrictEqual(c.pageInfo, { hasNextPage: true, hasPreviousPage: false, startCursor: c.edges[0].cursor, endCursor: c.edges[1].cursor });
        assert.deepStrictEqual(JSON.parse(Buffer.from(c.edges[0].cursor, 'base64').toString()), [createHash('sha256').update(JSON.stringify(['__transactions__."hash"'])).digest('hex').slice(0, 10), byHash[0]!.hash], 'PostGraphile 5 cursor form: [digest of the order columns, ...values]');
      });

      it('an empty page has null cursors and no next page', async function () {
        const data = await f.data(`{ allTransactions(condition: {sender: "nobody"}) { totalCount nodes { hash } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`);
        assert.deepStrictEqual(data.allTransactions, { totalCount: 0, nodes: [], pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null } });
      });

      it('first: 0 returns no rows but the count (and no next page, as PostGraphile 5)', async function () {
        const data = await f.data(`{ allBlocks(first: 0) { totalCount nodes { height } pageInfo { hasNextPage } } }`);
        assert.deepStrictEqual(data.allBlocks, { totalCount: 7, nodes: [], pageInfo: { hasNextPage: false } });
      });
    });

    describe('pagination', function () {
      it('walks forward with first/after and gets every row once', async function () {
        const seen: string[] = [];
        let after: string | null = null;
        for (let page = 0; page < 10; page++) {
          const data: any = await f.data(`query ($after: Cursor) { allTransactions(first: 4, after: $after, orderBy: [BLOCK_HEIGHT_DESC, TX_INDEX_ASC]) {
            nodes { hash } pageInfo { hasNextPage hasPreviousPage endCursor } } }`, { after });
          seen.push(...data.allTransactions.nodes.map((n: any) => n.hash));
          assert.equal(data.allTransactions.pageInfo.hasPreviousPage, false, 'PostGraphile 5 looks only ahead when reading forward');
          if (!data.allTransactions.pageInfo.hasNextPage) break;
          after = data.allTransactions.pageInfo.endCursor;
        }
        const expected = [...TXS].sort((a, b) => b.block_height - a.block_height || a.tx_index - b.tx_index).map((t) => t.hash);
        assert.deepStrictEqual(seen, expected);
      });

      it('walks backward with last/before', async function () {
        const seen: string[] = [];
        let before: string | null = null;
        for (let page = 0; page < 10; page++) {
          const data: any = await f.data(`query ($before: Cursor) { allBlocks(last: 3, before: $before) {
            nodes { height } pageInfo { hasNextPage hasPreviousPage startCursor } } }`, { before });
          seen.unshift(...data.allBlocks.nodes.map((n: any) => Number(n.height)));
          assert.equal(data.allBlocks.pageInfo.hasNextPage, false, 'PostGraphile 5 looks only back when reading backward');
          if (!data.allBlocks.pageInfo.hasPreviousPage) break;
          before = data.allBlocks.pageInfo.startCursor;
        }
        assert.deepStrictEqual(seen, [0, 1, 2, 3, 4, 5, 6]);
      });

      it('offset skips rows and marks a previous page', async function () {
        const data = await f.data(`{ allBlocks(first: 2, offset: 3) { nodes { height } pageInfo { hasNextPage hasPreviousPage } } }`);
        assert.deepStrictEqual(data.allBlocks, { nodes: [{ height: '3' }, { height: '4' }], pageInfo: { hasNextPage: true, hasPreviousPage: true } });
      });

      it('before and after together bound a window', async function () {
        const all = await f.data(`{ allBlocks { edges { cursor node { height } } } }`);
        const edges = all.allBlocks.edges;
        const data = await f.data(`query ($a: Cursor, $b: Cursor) { allBlocks(after: $a, before: $b) { nodes { height } pageInfo { hasNextPage hasPreviousPage } } }`, { a: edges[1].cursor, b: edges[5].cursor });
        assert.deepStrictEqual(data.allBlocks, { nodes: [{ height: '2' }, { height: '3' }, { height: '4' }], pageInfo: { hasNextPage: false, hasPreviousPage: false } });
      });

      it('keyset over a nullable column (result) keeps every row exactly once', async function () {
        const seen = new Set<string>();
        let after: string | null = null;
        for (let page = 0; page < 20; page++) {
          const data: any = await f.data(`query ($after: Cursor) { allTransactions(first: 3, after: $after, orderBy: RESULT_DESC) { nodes { hash } pageInfo { hasNextPage endCursor } } }`, { after });
          for (const n of data.allTransactions.nodes) {
            assert.ok(!seen.has(n.hash), `row ${n.hash} seen twice`);
            seen.add(n.hash);
          }
          if (!data.allTransactions.pageInfo.hasNextPage) break;
          after = data.allTransactions.pageInfo.endCursor;
        }
        assert.equal(seen.size, TXS.length);
      });
    });

    describe('orderBy and condition', function () {
      it('orders by several columns, appending the primary key', async function () {
        const data = await f.data(`{ allTransactions(orderBy: [SENDER_ASC, CHI_USED_DESC], first: 4) { nodes { sender chiUsed } } }`);
        const expected = [...TXS].sort((a, b) => (a.sender < b.sender ? -1 : a.sender > b.sender ? 1 : b.chi_used - a.chi_used)).slice(0, 4);
        assert.deepStrictEqual(data.allTransactions.nodes, expected.map((t) => ({ sender: t.sender, chiUsed: String(t.chi_used) })));
      });

      it('condition tests equality on several columns; null means IS NULL', async function () {
        const data = await f.data(`{ a: allTransactions(condition: {sender: "bob", success: true, contract: "currency"}) { totalCount }
          b: allTransactions(condition: {result: null}) { totalCount } }`);
        assert.equal(data.a.totalCount, TXS.filter((t) => t.sender === 'bob' && t.success && t.contract === 'currency').length);
        assert.equal(data.b.totalCount, TXS.filter((t) => t.result === null).length);
      });
    });

    describe('connection-filter operators', function () {
      const count = async (filter: string) => (await f.data(`{ allTransactions(filter: ${filter}) { totalCount } }`)).allTransactions.totalCount;

      it('equalTo, notEqualTo, in, notIn, isNull, distinctFrom', async function () {
        assert.equal(await count(`{sender: {equalTo: "alice"}}`), TXS.filter((t) => t.sender === 'alice').length);
        assert.equal(await count(`{sender: {notEqualTo: "alice"}}`), TXS.filter((t) => t.sender !== 'alice').length);
        assert.equal(await count(`{sender: {in: ["alice", "bob"]}}`), TXS.filter((t) => ['alice', 'bob'].includes(t.sender)).length);
        assert.equal(await count(`{sender: {in: []}}`), 0);
        assert.equal(await count(`{sender: {notIn: ["alice"]}}`), TXS.filter((t) => t.sender !== 'alice').length);
        assert.equal(await count(`{result: {isNull: true}}`), TXS.filter((t) => t.result === null).length);
        assert.equal(await count(`{result: {isNull: false}}`), TXS.filter((t) => t.result !== null).length);
        assert.equal(await count(`{blockHeight: {distinctFrom: "1"}}`), TXS.filter((t) => t.block_height !== 1).length);
      });

      it('greaterThan, lessThanOrEqualTo on BigInt, Int and Datetime', async function () {
        assert.equal(await count(`{blockHeight: {greaterThan: "4"}}`), TXS.filter((t) => t.block_height > 4).length);
        assert.equal(await count(`{chiUsed: {lessThanOrEqualTo: "201"}}`), TXS.filter((t) => t.chi_used <= 201).length);
        assert.equal(await count(`{txIndex: {greaterThanOrEqualTo: 2}}`), TXS.filter((t) => t.tx_index >= 2).length);
        assert.equal(await count(`{createdAt: {lessThan: "${pgIso(2)}"}}`), TXS.filter((t) => t.block_height < 2).length);
        assert.equal(await count(`{blockTime: {greaterThan: "1767225605000000000"}}`), TXS.filter((t) => t.block_height > 5).length, 'BigInt beyond 2^53 compares exactly');
      });

      it('startsWith, endsWith, includes (wildcards escaped), like, and case-insensitive variants', async function () {
        assert.equal(await count(`{contract: {startsWith: "con_"}}`), TXS.filter((t) => t.contract.startsWith('con_')).length);
        assert.equal(await count(`{contract: {startsWith: "con%"}}`), 0, '% is escaped in startsWith');
        assert.equal(await count(`{contract: {like: "con%"}}`), TXS.filter((t) => t.contract.startsWith('con')).length, '% is a wildcard in like');
        assert.equal(await count(`{hash: {endsWith: "2"}}`), TXS.filter((t) => t.hash.endsWith('2')).length);
        assert.equal(await count(`{sender: {includes: "li"}}`), TXS.filter((t) => t.sender.includes('li')).length);
        assert.equal(await count(`{sender: {startsWithInsensitive: "AL"}}`), TXS.filter((t) => t.sender.startsWith('al')).length);
        assert.equal(await count(`{sender: {equalToInsensitive: "BOB"}}`), TXS.filter((t) => t.sender === 'bob').length);
        assert.equal(await count(`{sender: {inInsensitive: ["BOB", "Carol"]}}`), TXS.filter((t) => ['bob', 'carol'].includes(t.sender)).length);
      });

      it('JSON contains, containsKey, containedBy', async function () {
        assert.equal(await count(`{payload: {contains: "{\\"kwargs\\": {\\"to\\": \\"dave\\"}}"}}`), TXS.filter((t) => (t.payload as any).kwargs?.to === 'dave').length, 'JSON operands are JSON text');
        assert.equal(await count(`{result: {containsKey: "status"}}`), 1, 'only the genesis result object has the key');
        assert.equal(await count(`{envelope: {containsAllKeys: ["metadata", "payload"]}}`), TXS.length - 1);
        assert.equal(await count(`{envelope: {containsAnyKeys: ["genesis", "nothing"]}}`), 1);
      });

      it('and, or, not combine', async function () {
        assert.equal(await count(`{and: [{sender: {equalTo: "alice"}}, {success: {equalTo: true}}]}`), TXS.filter((t) => t.sender === 'alice' && t.success).length);
        assert.equal(await count(`{or: [{sender: {equalTo: "alice"}}, {contract: {equalTo: "con_pairs"}}]}`), TXS.filter((t) => t.sender === 'alice' || t.contract === 'con_pairs').length);
        assert.equal(await count(`{not: {sender: {equalTo: "alice"}}}`), TXS.filter((t) => t.sender !== 'alice').length);
        assert.equal(await count(`{sender: {equalTo: "alice"}, blockHeight: {lessThan: "3"}}`), TXS.filter((t) => t.sender === 'alice' && t.block_height < 3).length);
      });

      it('null literals and empty objects fail the connection field with the plugin\'s messages (PostGraphile fails it too)', async function () {
        const nul = await f.run(`{ allTransactions(filter: {sender: {equalTo: null}}) { totalCount } }`);
        assert.match(nul.errors![0]!.message, /Null literals are forbidden in filter argument input\./);
        const empty = await f.run(`{ allTransactions(filter: {sender: {}}) { totalCount } }`);
        assert.match(empty.errors![0]!.message, /Empty objects are forbidden in filter argument input\./);
        assert.deepStrictEqual({ ...nul.data }, { allTransactions: null }, 'the field fails, as in PostGraphile');
        assert.deepStrictEqual(nul.errors![0]!.path, ['allTransactions']);
      });
    });
  });
});
