import { strict as assert } from 'node:assert';
import { BootError } from '../../../core/errors.js';
import { forEachDatabase } from '../../support/databases.js';
import { request } from '../../support/test-host.js';
import { bootGraphqlHost, prepareDatabase, type GraphqlHost, type PreparedDatabase } from './support/graphql-host.js';

/**
 * The GraphQL server (spec part 4 "GraphQL", 1.10, 5.6): `POST /graphql` through the host's
 * `graphql` server, with the database opened by the plugin itself. Bad requests are GraphQL
 * errors with a clear message and HTTP 400 or 413, never a 5xx.
 */
const errorsOf = (r: { json: any }) => (r.json?.errors ?? []).map((e: any) => e.message as string);

describe('GraphQL over HTTP (spec §4 GraphQL)', function () {
  forEachDatabase((target) => {
    let db: PreparedDatabase;
    let g: GraphqlHost;
    before(async function () {
      db = await prepareDatabase(target.kind);
      g = await bootGraphqlHost(db);
    });
    after(async function () {
      await g?.stop();
      await db?.remove();
    });

    describe('answers', function () {
      it('POST /graphql with a JSON body: 200 and PostGraphile shapes', async function () {
        const r = await g.post({ query: 'query ($h: BigInt!) { blockByHeight(height: $h) { height blockTime blockTimeIso txCount } }', variables: { h: '6' } });
        assert.equal(r.status, 200);
        assert.match(String(r.headers['content-type']), /^application\/graphql-response\+json/);
        assert.deepStrictEqual(r.json, { data: { blockByHeight: { height: '6', blockTime: '1767225606000000000', blockTimeIso: '2026-01-01T00:00:06.000000+00:00', txCount: 3 } } });
      });

      it('accepts application/graphql bodies and operationName', async function () {
        const raw = await request(g.url, { method: 'POST', headers: { 'content-type': 'application/graphql' }, body: '{ allBlocks { totalCount } }' });
        assert.deepStrictEqual(raw.json, { data: { allBlocks: { totalCount: 7 } } });
        const named = await g.post({ query: 'query A { allBlocks { totalCount } } query B { allEvents { totalCount } }', operationName: 'B' });
        assert.equal(named.status, 200);
        assert.ok(named.json.data.allEvents.totalCount > 0);
      });

      it('bdsStatus exposes the indexed height and says the API is eventually consistent', async function () {
        const r = await g.post({ query: '{ bdsStatus { indexedHeight indexedBlockHash schemaVersion consistency workerRunning } }' });
        assert.deepStrictEqual(r.json.data.bdsStatus, { indexedHeight: '6', indexedBlockHash: `B${'6'.padStart(63, '0')}`, schemaVersion: '7', consistency: 'eventual', workerRunning: null });
      });

      it('serves what another plugin contributed through the extension point', async function () {
        const r = await g.post({ query: `{ testCandleCount
          allTestCandles(condition: {marketId: "1"}, orderBy: BUCKET_START_DESC) { totalCount nodes { bucketStart open close volume tradeCount blockByBlockHeight { height } } aggregates { sum { volume } } }
          testCandleByMarketIdAndIntervalAndBucketStart(marketId: "2", interval: "5m", bucketStart: "2026-01-01T00:00:00Z") { close }
          blockByHeight(height: "1") { testCandlesByBlockHeight { totalCount } } }` });
        assert.equal(r.status, 200, r.text);
        assert.deepStrictEqual(r.json.data, {
          testCandleCount: 3,
          allTestCandles: {
            totalCount: 2,
            nodes: [
              { bucketStart: '2026-01-01T00:05:00.000000+00:00', open: '2.5', close: '2.25', volume: '4', tradeCount: 1, blockByBlockHeight: { height: '2' } },
              { bucketStart: '2026-01-01T00:00:00.000000+00:00', open: '1.5', close: '2.5', volume: '10', tradeCount: 3, blockByBlockHeight: { height: '1' } },
            ],
            aggregates: { sum: { volume: '14' } },
          },
          testCandleByMarketIdAndIntervalAndBucketStart: { close: '7' },
          blockByHeight: { testCandlesByBlockHeight: { totalCount: 2 } },
        });
      });

      it('has no mutations: the API is read-only', async function () {
        const r = await g.post({ query: 'mutation { createBlock(input: {}) { clientMutationId } }' });
        assert.equal(r.status, 400);
        assert.match(errorsOf(r).join(' '), /read-only: mutation operations are not supported/);
        // PostGraphile's shape for it: no location, an error id (PostGraphile masks the message).
        assert.equal(r.json.errors[0].locations, undefined);
        assert.match(r.json.errors[0].extensions.errorId, /^[A-Z0-9]{10}$/);
        const schema = await g.post({ query: '{ __schema { mutationType { name } subscriptionType { name } } }' });
        assert.deepStrictEqual(schema.json.data.__schema, { mutationType: null, subscriptionType: null });
      });
    });

    describe('refuses bad queries with GraphQL errors and 4xx', function () {
      it('a request error with Accept: application/json only is 200 (GraphQL over HTTP, as PostGraphile)', async function () {
        const r = await g.post({ query: '{ allBlocks(' }, { accept: 'application/json' });
        assert.equal(r.status, 200);
        assert.match(errorsOf(r)[0], /Syntax Error/);
        const strict = await g.post({ query: '{ allBlocks(' }, { accept: 'application/graphql-response+json, application/json' });
        assert.equal(strict.status, 400);
      });

      it('a syntax error: 400', async function () {
        const r = await g.post({ query: '{ allBlocks { nodes { height }' });
        assert.equal(r.status, 400);
        assert.match(errorsOf(r)[0], /Syntax Error/);
      });

      it('an unknown field: 400 naming it', async function () {
        const r = await g.post({ query: '{ allBlocks { nodes { heigth } } }' });
        assert.equal(r.status, 400);
        assert.match(errorsOf(r)[0], /Cannot query field "heigth" on type "Block"\. Did you mean "height"\?/);
      });

      it('first: 100000 is served, as upstream (no page cap unless maxPageSize is set)', async function () {
        const literal = await g.post({ query: '{ allTransactions(first: 100000) { nodes { hash } } }' });
        assert.equal(literal.status, 200, literal.text.slice(0, 300));
        assert.ok(literal.json.data.allTransactions.nodes.length > 0);
        const variable = await g.post({ query: 'query ($n: Int) { allBlocks { nodes { transactionsByBlockHeight(last: $n) { totalCount } } } }', variables: { n: 5000 } });
        assert.equal(variable.status, 200, variable.text.slice(0, 300));
      });

      it('offset with last, negative first, a foreign cursor: the field fails (200, data null, path), as in PostGraphile', async function () {
        const cursor = Buffer.from(JSON.stringify(['0123456789', '1'])).toString('base64');
        for (const [query, message, errorId] of [
          ['{ allBlocks(last: 1, offset: 2) { totalCount } }', /^Cannot use 'offset' with 'last'$/, false],
          ['{ allBlocks(first: -1) { totalCount } }', /`first` must be a non-negative integer/, true],
          [`{ allBlocks(after: "${cursor}") { totalCount } }`, /^Invalid cursor, please enter a cursor from a previous request, or null\.$/, false],
          ['{ allBlocks(after: "not a cursor") { totalCount } }', /^Invalid cursor, please enter a cursor/, false],
        ] as const) {
          const r = await g.post({ query });
          assert.equal(r.status, 200, query);
          assert.deepStrictEqual(r.json.data, { allBlocks: null }, query);
          assert.match(errorsOf(r)[0], message, query);
          assert.deepStrictEqual(r.json.errors[0].path, ['allBlocks'], query);
          assert.deepStrictEqual(r.json.errors[0].locations, [{ line: 1, column: 3 }], query);
          // An error id where PostGraphile masks the message; its public errors have none.
          if (errorId) assert.match(r.json.errors[0].extensions.errorId, /^[A-Z0-9]{10}$/, query);
          else assert.deepStrictEqual(r.json.errors[0].extensions, {}, query);
        }
      });

      it('a value a scalar cannot parse fails the field that reads it, naming the argument; the rest of the query is answered', async function () {
        const r = await g.post({ query: '{ blockByHeight(height: "1") { height } allBlocks(condition: {height: "x"}) { totalCount } }' });
        assert.equal(r.status, 200, r.text.slice(0, 300));
        assert.deepStrictEqual(r.json.data, { blockByHeight: { height: '1' }, allBlocks: null });
        assert.match(errorsOf(r)[0], /BigInt cannot represent "x".*\(argument `condition\.height`\)/);
        assert.deepStrictEqual(r.json.errors[0].path, ['allBlocks']);
        const literal = await g.post({ query: '{ blockByHeight(height: 1) { height } }' });
        assert.equal(literal.status, 400, 'PostGraphile takes BigInt only as a string literal');
        assert.match(errorsOf(literal)[0], /BigInt can only parse string values \(kind='IntValue'\)/);
      });

      it('answers application/graphql-response+json, or application/json to a client that accepts only that', async function () {
        const r = await g.post({ query: '{ __typename }' });
        assert.match(r.headers['content-type'] ?? '', /^application\/graphql-response\+json/);
        const legacy = await g.post({ query: '{ __typename }' }, { accept: 'application/json' });
        assert.match(legacy.headers['content-type'] ?? '', /^application\/json/);
      });

      it('a query nested too deep: 400 with the path and the limit', async function () {
        let inner = 'height';
        // Relation levels count, not the connection wrappers between them: 1 + 2 × 9 = 19.
        for (let i = 0; i < 9; i++) inner = `transactionsByBlockHeight(first: 1) { nodes { blockByBlockHeight { ${inner} } } }`;
        const r = await g.post({ query: `{ blockByHeight(height: "1") { ${inner} } }` });
        assert.equal(r.status, 400);
        assert.match(errorsOf(r)[0], /Query is too deep: blockByHeight\.transactionsByBlockHeight\.nodes\..* nests 19 relation levels, 3 above the limit of 16 \(plugins\.graphql\.maxDepth\)/);
        assert.equal(r.json.errors[0].extensions.code, 'QUERY_TOO_DEEP');
      });

      it('a query too big in cost: 400 with the estimate and the limit', async function () {
        // The tables are tiny, so their pages cost their few rows whatever `first` says; schema walks add up.
        const r = await g.post({ query: `{ ${Array.from({ length: 300 }, (_v, i) => `s${i}: __schema { types { fields { type { name } } } }`).join(' ')} }` });
        assert.equal(r.status, 400);
        const m = /Query is too complex: its estimated cost is (\d+), (\d+) above the limit of 250000 \(plugins\.graphql\.maxComplexity\)/.exec(errorsOf(r)[0]);
        assert.ok(m, errorsOf(r)[0]);
        assert.equal(Number(m[1]) - 250_000, Number(m[2]));
        assert.equal(r.json.errors[0].extensions.cost, Number(m[1]));
        assert.equal(r.json.errors[0].extensions.code, 'QUERY_TOO_COMPLEX');
      });

      it('a document with too many tokens: 400', async function () {
        const r = await g.post({ query: `{ ${Array.from({ length: 6000 }, (_v, i) => `a${i}: __typename`).join(' ')} }` });
        assert.equal(r.status, 400);
        assert.match(errorsOf(r)[0], /Document contains more tha[nt] 10000 tokens/);
      });

      it('a body over 1 MiB: 413 with a GraphQL error', async function () {
        const r = await g.post({ query: `{ allBlocks { totalCount } } # ${'x'.repeat(1024 * 1024)}` });
        assert.equal(r.status, 413);
        assert.deepStrictEqual(r.json, { errors: [{ message: 'Too much data', extensions: { statusCode: 413 } }] }, 'grafserv\'s answer');
      });

      it('variables that do not fit their types: 400; a BigInt that does not parse fails its field, as in PostGraphile', async function () {
        const r = await g.post({ query: 'query ($n: Int) { allBlocks(first: $n) { totalCount } }', variables: { n: 'twelve' } });
        assert.equal(r.status, 400);
        assert.match(errorsOf(r)[0], /Variable "\$n" got invalid value "twelve"; Int cannot represent non-integer value/);
        const big = await g.post({ query: 'query ($h: BigInt!) { blockByHeight(height: $h) { height } }', variables: { h: 'twelve' } });
        assert.equal(big.status, 200);
        assert.deepStrictEqual(big.json.data, { blockByHeight: null });
        assert.match(errorsOf(big)[0], /BigInt cannot represent "twelve".*\(argument `height`\)/);
      });

      it('malformed bodies: invalid JSON, no query, a batch, no content type, text: grafserv\'s status and message', async function () {
        const grafserv = (status: number, message: string) => ({ status, json: { errors: [{ message, extensions: { statusCode: status } }] } });
        const answer = (r: { status: number; json: unknown }) => ({ status: r.status, json: r.json });
        const bad = await request(g.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' });
        assert.deepStrictEqual(answer(bad), grafserv(400, "Parsing failed, please check that the data you're sending to the server is correct"));
        assert.deepStrictEqual(answer(await g.post({ variables: {} })), grafserv(400, 'query must be a string'));
        assert.deepStrictEqual(answer(await g.post([{ query: '{ allBlocks { totalCount } }' }])), grafserv(400, 'Invalid body; expected object'));
        assert.deepStrictEqual(answer(await g.post({ query: '{ __typename }', variables: '{}' })), grafserv(400, 'Invalid variables; expected JSON-encoded object'));
        const untyped = await request(g.url, { method: 'POST', headers: {}, body: '{"query":"{ __typename }"}' });
        assert.deepStrictEqual(answer(untyped), grafserv(400, 'Could not determine the Content-Type of the request'));
        const text = await request(g.url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{ __typename }' });
        assert.deepStrictEqual(answer(text), grafserv(415, "Media type 'text/plain' is not allowed"));
      });

      it('GET /graphql from a browser and GET /graphiql serve the IDE (Ruru) with its assets from this server; a non-browser GET: 405', async function () {
        const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
        for (const url of [g.url, g.url.replace(/\/graphql$/, '/graphiql')]) {
          const page = await request(url, { headers: { accept: browserAccept } });
          assert.equal(page.status, 200, url);
          assert.match(String(page.headers['content-type']), /^text\/html/);
          assert.match(page.text, /RURU_CONFIG/);
          assert.match(String(page.headers['content-security-policy']), /connect-src 'self'/);
          // Every script, style and worker the page names is on this server, none on a CDN.
          assert.ok(!/https?:\/\//.test(page.text.replace(/https:\/\/unpkg\.com\/ruru@[^"'\s]*/g, 'CDN')), 'no absolute URL');
          assert.ok(!page.text.includes('CDN'), 'no unpkg fallback');
          for (const asset of ['ruru.js', 'ruru.css']) {
            assert.ok(page.text.includes(`/graphiql/static/${asset}`), asset);
            const file = await request(g.url.replace(/\/graphql$/, `/graphiql/static/${asset}`), { headers: { 'accept-encoding': 'identity' } });
            assert.equal(file.status, 200, asset);
            assert.ok(file.text.length > 1000, `${asset}: ${file.text.length} bytes`);
          }
        }
        assert.equal((await request(g.url.replace(/\/graphql$/, '/graphiql/static/nothing.js'))).status, 404);
        const get = await request(g.url, { headers: { accept: 'application/json' } });
        assert.equal(get.status, 405);
        assert.deepStrictEqual(get.json, { errors: [{ message: 'Method not supported, please use POST', extensions: {} }] });
      });
    });

    if (target.kind === 'postgres') {
      it('a statement over the timeout is cancelled: a GraphQL error with 200, not a 5xx', async function () {
        const slow = await bootGraphqlHost(db, { statementTimeoutMs: 200 });
        try {
          const started = Date.now();
          // A 30 s sleep cut at 200 ms: ending in under 15 s shows the cancel, even on a busy machine.
          const r = await slow.post({ query: '{ testSleep(ms: 30000) }' });
          assert.ok(Date.now() - started < 15_000, 'cancelled early');
          assert.equal(r.status, 200);
          assert.deepStrictEqual(r.json.data, { testSleep: null });
          assert.match(errorsOf(r)[0], /stopped by the 200 ms statement timeout/);
          assert.equal(r.json.errors[0].extensions.code, 'STATEMENT_TIMEOUT');
        } finally {
          await slow.stop();
        }
      });
    }
  });
});

describe('GraphQL server options (spec 5.6)', function () {
  let db: PreparedDatabase;
  before(async function () {
    db = await prepareDatabase('pglite');
  });
  after(async function () {
    await db?.remove();
  });

  it('graphiql: false serves no IDE, as PostGraphile with graphiql off: GET 405, /graphiql 404', async function () {
    const g = await bootGraphqlHost(db, { graphiql: false });
    try {
      const get = await request(g.url, { headers: { accept: 'text/html' } });
      assert.equal(get.status, 405);
      assert.deepStrictEqual(get.json, { errors: [{ message: 'Method not supported, please use POST', extensions: {} }] });
      const graphiql = await request(g.url.replace(/\/graphql$/, '/graphiql'));
      assert.equal(graphiql.status, 404);
      assert.equal(graphiql.text, 'Could not process GET request to /graphiql ─ please POST requests to /graphql');
      assert.equal((await request(g.url.replace(/\/graphql$/, '/graphiql/static/ruru.js'))).status, 404);
    } finally {
      await g.stop();
    }
  });

  it('binds beyond loopback only with --public-query and CHAIN_PUBLIC_QUERY_ENABLED=1', async function () {
    for (const [options, env] of [[{}, {}], [{ publicQuery: true }, {}], [{}, { CHAIN_PUBLIC_QUERY_ENABLED: '1' }]] as const) {
      await assert.rejects(
        bootGraphqlHost(db, { host: '0.0.0.0', ...options }, env),
        (err: unknown) => err instanceof BootError && err.code === 'unsafe_bind' && /graphql binds 0\.0\.0\.0.*needs both its publicQuery option and CHAIN_PUBLIC_QUERY_ENABLED=1: set /.test(err.message),
      );
    }
    const g = await bootGraphqlHost(db, { host: '0.0.0.0', publicQuery: true }, { CHAIN_PUBLIC_QUERY_ENABLED: '1' });
    try {
      const r = await request(`http://127.0.0.1:${new URL(g.url).port}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ allBlocks { totalCount } }"}' });
      assert.equal(r.status, 200);
    } finally {
      await g.stop();
    }
  });

  it('refuses to open a PGlite database another process holds, naming it', async function () {
    const g = await bootGraphqlHost(db);
    try {
      // The running host holds the lock; a second GraphQL on the same directory must not open it.
      await assert.rejects(bootGraphqlHost(db), /in use by process \d+ \(this one\).*PGlite allows one process/);
    } finally {
      await g.stop();
    }
  });
});
