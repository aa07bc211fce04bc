import { strict as assert } from 'node:assert';
import { buildSchema, graphqlSync, type IntrospectionQuery } from 'graphql';
import { canonicalAnswer, equalButMaskedMessages, valueDifferences } from './support/answer-diff.js';
import { ALLOWED_DIFFERENCES } from './allowed-differences.js';
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

  it('a clearer message is allowed only where PostGraphile masks its own, and nothing else may differ', () => {
    const theirs = { status: 200, body: { data: { a: null }, errors: [{ message: "An error occurred (logged with hash: 'h', id: 'X')", path: ['a'], locations: [{ line: 1, column: 3 }], extensions: { errorId: 'X' } }] } };
    const ours = (patch: Record<string, unknown> = {}, status = 200, data: unknown = { a: null }) => ({
      status, body: { data, errors: [{ message: '`first` must be a non-negative integer, got -1', path: ['a'], locations: [{ line: 1, column: 3 }], extensions: { errorId: 'Y' }, ...patch }] },
    });
    const same = (mine: { status: number; body: unknown }) => equalButMaskedMessages(JSON.parse(canonicalAnswer(theirs)), JSON.parse(canonicalAnswer(mine)));
    assert.equal(same(ours()), true, 'only the message differs');
    assert.equal(same(ours({}, 400)), false, 'the status counts');
    assert.equal(same(ours({}, 200, null)), false, 'data counts');
    assert.equal(same(ours({ path: ['b'] })), false, 'the path counts');
    assert.equal(same(ours({ extensions: { code: 'BAD_USER_INPUT' } })), false, 'extensions count');
    assert.equal(same(ours({ locations: undefined })), false, 'locations count');
    const publicMessage = { status: 200, body: { data: { a: null }, errors: [{ message: 'Invalid cursor, please enter a cursor from a previous request, or null.', path: ['a'], extensions: {} }] } };
    const mine = { status: 200, body: { data: { a: null }, errors: [{ message: 'Invalid cursor (after)', path: ['a'], extensions: {} }] } };
    assert.equal(equalButMaskedMessages(JSON.parse(canonicalAnswer(publicMessage)), JSON.parse(canonicalAnswer(mine))), false, 'a public message must be PostGraphile\'s');
    const entry = ALLOWED_DIFFERENCES.find((e) => String(e.id) === String(/^query\/error\//))!;
    assert.ok(entry.when, 'the entry for clearer messages checks the answers');
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
