import { strict as assert } from 'node:assert';
import { GraphQLInt, execute, type ExecutionResult } from 'graphql';
import { executeQuery, type ExecutedBy } from '../../../plugins/graphql/execution/fast-execute.js';
import { forEachFixture, type GraphqlFixture } from './support/graphql-fixture.js';

/**
 * Plain queries run on a compiled plan (execution/fast-execute.ts) and answer exactly what
 * graphql-js's `execute` answers on the same data: same keys in the same order, same values,
 * same result objects. What the plan does not cover (directives, interfaces, introspection, a
 * key asked twice, contributed fields) and any request meeting an error are graphql-js's own.
 */
const PLAIN: Record<string, { query: string; variables?: Record<string, unknown> }> = {
  'blocks → transactions → events': {
    query: `{ allBlocks(first: 3, orderBy: HEIGHT_DESC) { nodes { height blockHash txCount blockTimeIso
      transactionsByBlockHeight { nodes { hash sender contract function success chiUsed eventsByTxHash { nodes { event contract data dataIndexed } } } } } } }`,
  },
  'aliases, __typename, nodeId, edges, cursors, pageInfo, totalCount': {
    query: `{ a: allTransactions(first: 2, orderBy: [BLOCK_HEIGHT_DESC, TX_INDEX_DESC]) { __typename totalCount
      edges { cursor node { __typename nodeId h: hash blockByBlockHeight { height hash: blockHash } } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }
      b: allBlocks(last: 1) { nodes { height } } }`,
  },
  'fragments and variables': {
    query: `query Q($n: Int, $c: String) { allEvents(first: $n, condition: {contract: $c}) { nodes { ...E ... on Event { txHash } } } }
      fragment E on Event { id event eventIndex }`,
    variables: { n: 3, c: 'currency' },
  },
  'aggregates and lookups': {
    query: `{ allTransactions { aggregates { sum { chiUsed } max { blockHeight } distinctCount { contract } } }
      blockByHeight(height: "1") { height txCount } transactionByHash(hash: "nope") { hash } }`,
  },
};

const OUTSIDE: Record<string, string> = {
  directive: '{ allBlocks(first: 1) { nodes { height @include(if: true) } } }',
  interface: '{ node(nodeId: "WyJibG9ja3MiLCIxIl0=") { nodeId } }',
  introspection: '{ __type(name: "Block") { name } }',
  'a key asked twice': '{ allBlocks(first: 1) { nodes { height } nodes { blockHash } } }',
  'a __proto__ alias': '{ __proto__: allBlocks(first: 1) { nodes { height } } }',
  'a contributed field': '{ contributedAnswer }',
};

describe('GraphQL: plain queries run on a compiled plan, with graphql-js\'s answers', function () {
  forEachFixture((fixture) => {
    let f: GraphqlFixture;
    beforeEach(function () {
      f = fixture();
    });

    /** The plan's answer (and who gave it) beside graphql-js's on a fresh context. */
    const both = async (query: string, variables?: Record<string, unknown>) => {
      const document = f.engine.documents.parse(query);
      assert.deepStrictEqual(f.engine.documents.validate(document), []);
      let by: ExecutedBy | null = null;
      const args = { schema: f.engine.schema, document, variableValues: variables ?? null, rootValue: {} };
      const mine = await executeQuery({ ...args, contextValue: f.engine.context() }, () => f.engine.context(), (b) => (by = b));
      const theirs = (await execute({ ...args, contextValue: f.engine.context() })) as ExecutionResult;
      return { mine, theirs, by: by as ExecutedBy | null };
    };

    for (const [name, { query, variables }] of Object.entries(PLAIN)) {
      it(`${name}: the plan answers, as graphql-js does`, async function () {
        const { mine, theirs, by } = await both(query, variables);
        assert.equal(by, 'plan');
        assert.equal(theirs.errors, undefined);
        // The same keys in the same order with the same values.
        assert.equal(JSON.stringify(mine), JSON.stringify(theirs));
      });
    }

    for (const [name, query] of Object.entries(OUTSIDE)) {
      it(`${name}: left to graphql-js`, async function () {
        const { mine, theirs, by } = await both(query);
        assert.equal(by, 'graphql-js');
        assert.equal(JSON.stringify(mine), JSON.stringify(theirs));
      });
    }

    it('a field error mid-page: graphql-js runs the request from the start and answers its errors and partial data', async function () {
      // `first: -1` on the relation fails that field under every block (PostGraphile's behaviour, input-errors.ts).
      const query = '{ allBlocks(first: 2) { nodes { height transactionsByBlockHeight(first: -1) { nodes { hash } } } } }';
      const { mine, theirs, by } = await both(query);
      assert.equal(by, 'graphql-js after leaving the plan');
      assert.ok(theirs.errors?.length, 'the query has field errors');
      // Each refusal carries a fresh errorId (logged with it); everything else is the same.
      const sameIds = (r: ExecutionResult) => JSON.stringify(r).replace(/"errorId":"\w+"/g, '"errorId":"…"');
      assert.equal(sameIds(mine), sameIds(theirs));
    });

    it('a request past maxRowsRead leaves the plan and is refused as graphql-js refuses it, with no unhandled rejection', async function () {
      const rejections: unknown[] = [];
      const onRejection = (reason: unknown) => rejections.push(reason);
      process.on('unhandledRejection', onRejection);
      try {
        const ctx = () => {
          const c = f.engine.context();
          // A budget of one row: the second page statement is refused while others are in flight.
          (c.rowBudget as { max: number }).max = 1;
          return c;
        };
        const document = f.engine.documents.parse('{ a: allBlocks(first: 3) { nodes { height } } b: allTransactions(first: 3) { nodes { hash } } }');
        let by: ExecutedBy | null = null;
        const mine = await executeQuery({ schema: f.engine.schema, document, contextValue: ctx() }, ctx, (b) => (by = b));
        const theirs = await execute({ schema: f.engine.schema, document, contextValue: ctx() });
        assert.equal(by, 'graphql-js after leaving the plan');
        // The two statements race, so which one the budget refuses first (and how many rows it
        // counts by then) varies from run to run for graphql-js as well: compared without that.
        const shape = (r: ExecutionResult) => ({
          data: JSON.stringify(r.data),
          errors: (r.errors ?? []).map((e) => `${e.path?.join('.')} ${String(e.extensions.code)}`).sort(),
        });
        assert.deepStrictEqual(shape(mine), shape(theirs));
        assert.deepStrictEqual(shape(mine).errors, ['a.nodes RESULT_TOO_LARGE', 'b.nodes RESULT_TOO_LARGE']);
        await new Promise((r) => setTimeout(r, 20));
        assert.deepStrictEqual(rejections, []);
      } finally {
        process.off('unhandledRejection', onRejection);
      }
    });

    it('engine.execute: the relation chain under the plan is still one statement', async function () {
      f.resetStatements();
      const result = await f.engine.execute(PLAIN['blocks → transactions → events']!.query);
      assert.equal(result.errors, undefined);
      assert.equal(f.statements.filter((s) => /^\s*select/i.test(s)).length, 1);
    });
  }, {
    contributions: [{ kind: 'fields', fields: { name: 'test:answer', fields: () => ({ contributedAnswer: { type: GraphQLInt, resolve: () => 42 } }) } }],
  });
});
