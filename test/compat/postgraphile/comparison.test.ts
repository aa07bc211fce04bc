import { strict as assert } from 'node:assert';
import { buildSchema, graphqlSync, type IntrospectionQuery } from 'graphql';
import { canonicalAnswer, valueDifferences } from './support/answer-diff.js';
import { diffSchemas, flattenSchema, INTROSPECTION_QUERY } from './support/schema-diff.js';

/**
 * The differential test's own comparison, without servers: what counts as equal, what is
 * blanked, and how a difference is named (a comparison that saw nothing would pass anything).
 */
function introspect(sdl: string): Map<string, string> {
  const result = graphqlSync({ schema: buildSchema(sdl), source: INTROSPECTION_QUERY });
  assert.equal(result.errors, undefined);
  return flattenSchema(result.data as unknown as IntrospectionQuery);
}

describe('compat comparison (PostGraphile differential test)', () => {
  it('answers: equal after sorting keys; only a masked error\'s hash and random id are blanked', () => {
    const masked = (hash: string, id: string) => ({
      status: 200,
      body: { data: { a: null }, errors: [{ message: `An error occurred (logged with hash: '${hash}', id: '${id}')`, path: ['a'], extensions: { errorId: id } }] },
    });
    assert.equal(canonicalAnswer(masked('h1', 'ID1')), canonicalAnswer(masked('h2', 'ID2')));
    assert.equal(canonicalAnswer({ status: 200, body: { data: { b: 1, a: [1, 2] } } }), canonicalAnswer({ status: 200, body: { data: { a: [1, 2], b: 1 } } }));
    assert.notEqual(canonicalAnswer({ status: 200, body: { data: { a: [1, 2] } } }), canonicalAnswer({ status: 200, body: { data: { a: [2, 1] } } }), 'array order counts');
    assert.notEqual(canonicalAnswer({ status: 200, body: { data: { a: '1' } } }), canonicalAnswer({ status: 200, body: { data: { a: 1 } } }), 'a string is not a number');
    assert.notEqual(canonicalAnswer({ status: 200, body: {} }), canonicalAnswer({ status: 400, body: {} }), 'the status counts');
    assert.notEqual(
      canonicalAnswer({ status: 200, body: { errors: [{ message: 'Invalid cursor' }] } }),
      canonicalAnswer({ status: 200, body: { errors: [{ message: 'Bad cursor' }] } }),
      'an unmasked message counts',
    );
  });

  it('answers: differences are listed by JSON path with both sides', () => {
    const lines = valueDifferences(
      { status: 200, body: { data: { nodes: [{ h: '1' }, { h: '2' }], only: 1 } } },
      { status: 400, body: { data: { nodes: [{ h: '1' }, { h: 'x' }, { h: '3' }] } } },
    );
    assert.deepEqual(lines, [
      '$.body.data.nodes: 2 items  ≠  3 items',
      '$.body.data.nodes[1].h: PostGraphile "2"  ≠  chainhost "x"',
      '$.body.data.only: only in PostGraphile: 1',
      '$.status: PostGraphile 200  ≠  chainhost 400',
    ]);
  });

  it('schemas: every field, argument, input field and enum value is an item; a missing type is one difference', () => {
    const reference = introspect(`
      type Query { allBlocks(first: Int, orderBy: [BlocksOrderBy!] = [PRIMARY_KEY_ASC]): [Block] block(id: ID!): Block }
      type Block { height: String! txCount: Int }
      enum BlocksOrderBy { PRIMARY_KEY_ASC HEIGHT_DESC }
      input BlockFilter { height: String and: [BlockFilter!] }
      type Extra { a: Int b: Int }`);
    const ours = introspect(`
      type Query { allBlocks(first: Int, orderBy: [BlocksOrderBy!]): [Block] block(id: ID): Block bdsStatus: Int }
      type Block { height: String txCount: Int }
      enum BlocksOrderBy { PRIMARY_KEY_ASC }
      input BlockFilter { height: String and: [BlockFilter!] or: [BlockFilter!] }`);
    assert.deepEqual(diffSchemas(reference, ours), [
      { id: 'schema/arg/Query.allBlocks(orderBy)', detail: 'PostGraphile [BlocksOrderBy!] = [PRIMARY_KEY_ASC]  ≠  chainhost [BlocksOrderBy!]' },
      { id: 'schema/arg/Query.block(id)', detail: 'PostGraphile ID!  ≠  chainhost ID' },
      { id: 'schema/enum/BlocksOrderBy.HEIGHT_DESC', detail: 'only in PostGraphile: value' },
      { id: 'schema/field/Block.height', detail: 'PostGraphile String!  ≠  chainhost String' },
      { id: 'schema/field/Query.bdsStatus', detail: 'only in chainhost: Int' },
      { id: 'schema/input/BlockFilter.or', detail: 'only in chainhost: [BlockFilter!]' },
      { id: 'schema/type/Extra', detail: 'only in PostGraphile: OBJECT' },
    ]);
    assert.deepEqual(diffSchemas(reference, reference), []);
  });
});
