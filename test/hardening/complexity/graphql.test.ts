import assert from 'node:assert/strict';
import { assertBoundedGrowth, fullStack, post, report, type Answer, type FullStack } from './support/complexity-harness.js';

/**
 * GraphQL (POST /graphql, unauthenticated): fragments spreading the next one twice (issue #19
 * item 1: 2^(k−1) visits), aliased introspection walks (item 5), nested `and` filters and
 * nested inline fragments (item 8: stack overflows answered `{"errors":[{}]}`). Every answer
 * must be bounded in time and, when refused, carry a message. These fail until the GraphQL fixes
 * (helper i15a: memoised fragment costs, costed introspection, depth errors) are merged.
 */
function graphql(stack: FullStack, query: string): Promise<Answer> {
  return post(`${stack.graphqlUrl}/graphql`, JSON.stringify({ query }));
}

/** An answer with errors names them; `{"errors":[{}]}` is not an answer. */
function errorsHaveMessages(answer: Answer): void {
  let body: { errors?: Array<{ message?: unknown }> };
  try {
    body = JSON.parse(answer.text);
  } catch {
    assert.fail(`not JSON: ${answer.text.slice(0, 200)}`);
  }
  for (const e of body.errors ?? []) assert.ok(typeof e.message === 'string' && e.message.length > 0, `an error without a message: ${answer.text.slice(0, 200)}`);
}

export function fragmentChain(k: number): string {
  const fragments = Array.from({ length: k }, (_, i) =>
    i === k - 1 ? `fragment F${i} on Block { height }` : `fragment F${i} on Block { height ...F${i + 1} ...F${i + 1} }`);
  return `query { allBlocks(first: 1) { nodes { ...F0 } } } ${fragments.join(' ')}`;
}

export function aliasedIntrospection(n: number): string {
  return `query { ${Array.from({ length: n }, (_, i) => `s${i}: __schema { types { name fields { name type { name kind ofType { name kind } } } } }`).join(' ')} }`;
}

export function nestedAnd(depth: number): string {
  let filter = '{height: {greaterThan: "0"}}';
  for (let i = 0; i < depth; i++) filter = `{and: [${filter}]}`;
  return `query { allBlocks(first: 1, filter: ${filter}) { totalCount } }`;
}

export function nestedInlineFragments(depth: number): string {
  let inner = 'height';
  for (let i = 0; i < depth; i++) inner = `... on Block { ${inner} }`;
  return `query { allBlocks(first: 1) { nodes { ${inner} } } }`;
}

describe('complexity fuzzer: GraphQL', function () {
  this.timeout(600_000);
  let stack: FullStack;
  before(async function () {
    this.timeout(240_000);
    stack = await fullStack();
  });

  it('fragments that each spread the next twice (1.5 KB at k = 30)', async () => {
    report('graphql fragments', await assertBoundedGrowth(stack, {
      sizes: [4, 8, 12, 16, 20, 24, 30], input: fragmentChain, send: (q) => graphql(stack, q), check: errorsHaveMessages,
    }));
  });

  it('aliased __schema walks (380 aliases were a 21.7 MB answer and a 1.8 s stall)', async () => {
    report('graphql introspection aliases', await assertBoundedGrowth(stack, {
      sizes: [5, 20, 80, 200, 400], input: aliasedIntrospection, send: (q) => graphql(stack, q), check: errorsHaveMessages,
    }));
  });

  it('nested `and` filters up to 2,000 deep', async () => {
    report('graphql nested and', await assertBoundedGrowth(stack, {
      sizes: [10, 100, 500, 1000, 2000], input: nestedAnd, send: (q) => graphql(stack, q), check: errorsHaveMessages,
    }));
  });

  it('nested inline fragments up to 3,000 deep', async () => {
    report('graphql nested inline fragments', await assertBoundedGrowth(stack, {
      sizes: [10, 100, 500, 1500, 3000], input: nestedInlineFragments, send: (q) => graphql(stack, q), check: errorsHaveMessages,
    }));
  });
});
