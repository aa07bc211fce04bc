import { strict as assert } from 'node:assert';
import { cpuTimeOf } from '../../support/cpu-time.js';
import { bootGraphqlHost, prepareDatabase, type GraphqlHost, type PreparedDatabase } from './support/graphql-host.js';

/**
 * Issue #19 (items 1, 5, 7, 8): no request, however small, makes the GraphQL server do work
 * beyond linear in its size, and every hostile document is a 4xx with its own code and a
 * message — on the PostgreSQL server, where a public endpoint runs.
 */
const errorsOf = (r: { json: any }) => (r.json?.errors ?? []) as Array<{ message?: string; extensions?: { code?: string } }>;

describe('GraphQL refuses hostile documents cheaply (issue #19)', function () {
  let db: PreparedDatabase;
  let g: GraphqlHost;
  before(async function () {
    this.timeout(60_000);
    db = await prepareDatabase('postgres');
    g = await bootGraphqlHost(db);
  });
  after(async function () {
    await g?.stop();
    await db?.remove();
  });

  it('30 fragments each spreading the next twice: costed once per fragment, answered at once', async function () {
    this.timeout(20_000);
    const k = 30;
    const fragments = [`fragment F${k} on Block { height }`];
    for (let i = k - 1; i >= 1; i--) fragments.push(`fragment F${i} on Block { a: transactionsByBlockHeight(first: 1) { nodes { blockByBlockHeight { ...F${i + 1} } } } b: blockHash ...F${i + 1} }`);
    const query = `{ blockByHeight(height: "1") { ...F1 } } ${fragments.join(' ')}`;
    const { ms, value: r } = await cpuTimeOf(() => g.post({ query }));
    assert.ok(ms < 3000, `answered with ${ms.toFixed(0)} ms of CPU`);
    assert.equal(r.status, 400);
    assert.equal(errorsOf(r)[0]!.extensions!.code, 'QUERY_TOO_DEEP');
    assert.match(errorsOf(r)[0]!.message!, /Query is too deep/);
  });

  it('fragments doubling 40 times over a cheap field: the cost is exact, not a 2^k walk', async function () {
    this.timeout(20_000);
    const k = 40;
    const fragments = [`fragment F${k} on Query { allBlocks(first: 1) { nodes { height } } }`];
    for (let i = k - 1; i >= 1; i--) fragments.push(`fragment F${i} on Query { ...F${i + 1} x${i}: query { ...F${i + 1} } }`);
    const { ms, value: r } = await cpuTimeOf(() => g.post({ query: `{ ...F1 } ${fragments.join(' ')}` }));
    assert.ok(ms < 3000, `answered with ${ms.toFixed(0)} ms of CPU`);
    assert.equal(r.status, 400);
    assert.equal(errorsOf(r)[0]!.extensions!.code, 'QUERY_TOO_DEEP');
  });

  it('380 aliased __schema walks: refused by the cost limit before any is answered', async function () {
    this.timeout(20_000);
    const walks = Array.from({ length: 380 }, (_v, i) => `s${i}: __schema { types { name fields { name type { name } } } }`).join(' ');
    const { ms, value: r } = await cpuTimeOf(() => g.post({ query: `{ ${walks} }` }));
    assert.ok(ms < 3000, `answered with ${ms.toFixed(0)} ms of CPU`);
    assert.equal(r.status, 400);
    assert.equal(errorsOf(r)[0]!.extensions!.code, 'QUERY_TOO_COMPLEX');
    assert.ok(r.text.length < 10_000, `a short answer (${r.text.length} bytes)`);
  });

  it('one full introspection query (GraphiQL\'s) is still served', async function () {
    this.timeout(20_000);
    const { getIntrospectionQuery } = await import('graphql');
    const r = await g.post({ query: getIntrospectionQuery() });
    assert.equal(r.status, 200, JSON.stringify(errorsOf(r)));
    assert.ok(r.json.data.__schema.types.length > 50);
  });

  it('a 70,000-item in: list is an input error with its own code, not DATABASE_UNAVAILABLE', async function () {
    this.timeout(20_000);
    const list = Array.from({ length: 70_000 }, (_v, i) => String(i));
    const r = await g.post({ query: 'query ($l: [BigInt!]) { allBlocks(filter: {height: {in: $l}}) { totalCount } }', variables: { l: list } });
    assert.equal(r.status, 400, r.text.slice(0, 300));
    const [error] = errorsOf(r);
    assert.equal(error!.extensions!.code, 'LIST_TOO_LONG');
    assert.match(error!.message!, /`in` list of 70000 items.*at most 10000/);
  });

  it('in: lists within the bound are served, however many there are (no bind-parameter overflow)', async function () {
    this.timeout(20_000);
    const list = Array.from({ length: 10_000 }, (_v, i) => String(i));
    const filter = Array.from({ length: 8 }, () => '{height: {in: $l}}').join(', ');
    const r = await g.post({ query: `query ($l: [BigInt!]) { allBlocks(filter: {and: [${filter}]}) { totalCount } }`, variables: { l: list } });
    assert.equal(r.status, 200, r.text.slice(0, 300));
    assert.equal(errorsOf(r).length, 0, r.text.slice(0, 300));
    assert.ok(r.json.data.allBlocks.totalCount > 0);
  });

  it('3,000 nested inline fragments: a 400 with a message, not {"errors":[{}]}', async function () {
    this.timeout(20_000);
    const depth = 3000;
    const query = `{ ${'... on Query { '.repeat(depth)}bdsStatus { indexedHeight }${' }'.repeat(depth)} }`;
    const r = await g.post({ query });
    assert.equal(r.status, 400, r.text.slice(0, 300));
    const [error] = errorsOf(r);
    assert.ok(error?.message, `a message: ${r.text.slice(0, 300)}`);
    assert.equal(error!.extensions!.code, 'QUERY_TOO_DEEP');
  });

  it('a 2,000-deep and filter (variables): a 400 with a message, not {"errors":[{}]}', async function () {
    this.timeout(20_000);
    let filter: Record<string, unknown> = { height: { equalTo: '1' } };
    for (let i = 0; i < 2000; i++) filter = { and: [filter] };
    const r = await g.post({ query: 'query ($f: BlockFilter) { allBlocks(filter: $f) { totalCount } }', variables: { f: filter } });
    assert.equal(r.status, 400, r.text.slice(0, 300));
    const [error] = errorsOf(r);
    assert.ok(error?.message, `a message: ${r.text.slice(0, 300)}`);
    assert.equal(error!.extensions!.code, 'INPUT_TOO_DEEP');
  });

  it('a 2,000-deep and filter (literal): a 400 with a message', async function () {
    this.timeout(20_000);
    const filter = `${'{and: ['.repeat(2000)}{height: {equalTo: "1"}}${']}'.repeat(2000)}`;
    const r = await g.post({ query: `{ allBlocks(filter: ${filter}) { totalCount } }` });
    assert.equal(r.status, 400, r.text.slice(0, 300));
    const [error] = errorsOf(r);
    assert.ok(error?.message, `a message: ${r.text.slice(0, 300)}`);
  });
});
