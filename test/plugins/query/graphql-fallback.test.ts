import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphqlStates } from '../../../plugins/query/graphql-states.js';
import { GraphqlIndexed } from '../../../plugins/query/indexed/graphql-indexed.js';
import { forEachDatabase } from '../../support/databases.js';
import { freePort } from '../../support/free-port.js';
import { postJson, type TestHost } from '../../support/test-host.js';
import { devAccount, devnetConfig, startHost, tempHome, type RunningHost } from '../wallet/chain-tool-kit.js';

/**
 * CHAIN_GRAPHQL (mcp.md §2): with no BDS query path in the host or on the node, the token
 * reads ask a PostGraphile-compatible GraphQL endpoint before falling back to a state scan.
 * Against chainhost's own GraphQL server (both devnets start from the same genesis, so the
 * indexed answer must equal the scan of current state), and against a stand-in for a foreign
 * endpoint for paging, errors and an endpoint that is down.
 */
describe('query tools: the GraphQL fallback (CHAIN_GRAPHQL)', function () {
  this.timeout(120_000);
  const A = devAccount(0);

  forEachDatabase((target) => {
    let indexer: TestHost;
    let graphqlUrl: string;
    let home: Awaited<ReturnType<typeof tempHome>>;
    let viaGraphql: RunningHost;
    let plain: RunningHost;

    before(async function () {
      const db = target.fresh({ suite: true });
      const { bootTestHost } = await import('../../support/test-host.js');
      indexer = await bootTestHost({
        home: db.home,
        plugins: {
          devnet: { listen: false, printAccounts: false },
          bds: { ...(db.url ? { databaseUrl: db.url } : {}), schema: db.schema },
          graphql: { host: '127.0.0.1', port: 0 },
        },
      });
      graphqlUrl = `${indexer.host.serverUrl('graphql')}/graphql`;
      for (let i = 0; ; i++) {
        const r = await postJson(graphqlUrl, { query: '{ bdsStatus { indexedHeight } }' });
        if (Number(r.json?.data?.bdsStatus?.indexedHeight ?? -1) >= 1) break;
        if (i > 300) throw new Error(`BDS did not index block 1: ${r.text}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      home = await tempHome();
      viaGraphql = await startHost(devnetConfig(`${home.dir}/q`, { plugins: { query: {} }, graphqlUrl }));
      plain = await startHost(devnetConfig(`${home.dir}/p`, { plugins: { query: {} } }));
    });
    after(async () => {
      await viaGraphql?.stop();
      await plain?.stop();
      await indexer?.stop();
      await home?.remove();
    });

    it('get_token_balances reads the indexed balances: the same holdings the state scan finds, with their history', async () => {
      const indexed = await viaGraphql.call('get_token_balances', { address: A.address });
      assert.equal(indexed.error, undefined, JSON.stringify(indexed.error));
      assert.deepEqual([indexed.result.available, indexed.result.source], [true, 'graphql']);
      assert.match(indexed.result.warnings.join(' '), /BDS query paths unavailable .*read from GraphQL at http:\/\/127\.0\.0\.1:\d+\/graphql/);
      const scanned = await plain.call('get_token_balances', { address: A.address, limit: 1000 });
      assert.equal(scanned.result.source, 'state');
      const holdings = (items: Array<{ contract: string; balance: string }>) => items.map(({ contract, balance }) => [contract, balance]).sort();
      assert.deepEqual(holdings(indexed.result.items), holdings(scanned.result.items));
      assert.ok(indexed.result.items.length >= 2, 'the dev account holds the native token and test tokens');
      const currency = indexed.result.items.find((i: { contract: string }) => i.contract === 'currency');
      assert.equal(currency.balance, '1000000');
      assert.equal(currency.last_block_height, '0', 'genesis wrote it');
      // Name and symbol where the index has them, as the BDS path and the state scan give them.
      const labels = (items: Array<Record<string, unknown>>) => items.map((i) => [i.contract, i.name, i.symbol]).sort();
      assert.deepEqual(labels(indexed.result.items), labels(scanned.result.items));
      assert.ok(indexed.result.items.some((i: { symbol: string | null }) => typeof i.symbol === 'string'), JSON.stringify(indexed.result.items));

      const page = await viaGraphql.call('get_token_balances', { address: A.address, offset: 1, limit: 1 });
      assert.deepEqual(page.result.items, [indexed.result.items[1]]);
      assert.equal(page.result.total, indexed.result.total);
    });

    it('the indexed reads upstream lists with a GraphQL fallback ask it when the node has no BDS', async () => {
      const history = await viaGraphql.call('get_state_history', { key: `currency.balances:${A.address}` });
      assert.equal(history.error, undefined, JSON.stringify(history.error));
      assert.ok(history.result.items.length >= 1, JSON.stringify(history.result));
      assert.equal(history.result.items[0].key, `currency.balances:${A.address}`);
      assert.equal(String(history.result.items[0].block_height), '0', 'genesis wrote it');
      const tx = await viaGraphql.call('get_indexed_tx', { tx_hash: 'AB'.repeat(32) });
      assert.deepEqual(tx.result, { found: false, transaction: null });
      const events = await viaGraphql.call('list_events', { contract: 'currency', event: 'Transfer', after_id: 0 });
      assert.equal(events.error, undefined, JSON.stringify(events.error));
      assert.ok(Array.isArray(events.result.items));
      // Without BDS and without a GraphQL endpoint the tool says both, plainly.
      const neither = await plain.call('list_events', { contract: 'currency', event: 'Transfer' });
      assert.equal(neither.error?.code, 'bds_unavailable');
      assert.match(neither.error!.message, /the node has no BDS .*the GraphQL fallback at http:\/\/127\.0\.0\.1:\d+\/graphql did not answer either/);
      // A tool without a fallback in the reference stays BDS-only; the block reads fall back to the node's RPC.
      const tags = await viaGraphql.call('list_shielded_output_tags', { tag_value: 'x' });
      assert.equal(tags.error?.code, 'bds_unavailable');
      const blocks = await viaGraphql.call('list_blocks', {});
      assert.equal(blocks.error, undefined, JSON.stringify(blocks.error));
      assert.equal(blocks.result.items[0].height, (await viaGraphql.call('get_bds_status')).result.current_block_height);
    });

    it('get_token_contract_by_symbol searches the indexed token symbols', async () => {
      const r = await viaGraphql.call('get_token_contract_by_symbol', { token_symbol: 'chain' });
      assert.equal(r.error, undefined, JSON.stringify(r.error));
      assert.deepEqual([r.result.source, r.result.token_contracts], ['graphql', ['currency']]);
      const none = await viaGraphql.call('get_token_contract_by_symbol', { token_symbol: 'NOPE' });
      assert.deepEqual([none.result.count, none.result.message], [0, 'No token found with symbol NOPE']);
    });
  });

  describe('a foreign endpoint', () => {
    let server: http.Server;
    let url: string;
    let requests: Array<{ query: string; variables: Record<string, unknown> }>;
    let answer: (variables: Record<string, unknown>) => { status?: number; body: unknown };

    before(async () => {
      server = http.createServer((req, res) => {
        let text = '';
        req.on('data', (c) => (text += c));
        req.on('end', () => {
          const parsed = JSON.parse(text);
          requests.push(parsed);
          const { status = 200, body } = answer(parsed.variables);
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
    });
    beforeEach(() => {
      requests = [];
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const node = (key: string, value: unknown) => ({ key, value, valueNumeric: typeof value === 'number' ? String(value) : null, lastTxHash: 'AB', lastBlockHeight: '7', updatedAt: '2026-01-01T00:00:00Z' });

    it('pages allStates by cursor, filtered on the key suffix, until the max', async () => {
      answer = (v) => ({ body: { data: { allStates: v.after === null
        ? { nodes: [node('a.balances:x', 1), node('b.balances:x', 2)], pageInfo: { hasNextPage: true, endCursor: 'c1' } }
        : { nodes: [node('c.balances:x', { __fixed__: '3.50' })], pageInfo: { hasNextPage: false, endCursor: 'c2' } } } } });
      const states = new GraphqlStates(url);
      const all = await states.contractStates('.balances:x', 1000);
      assert.ok('rows' in all);
      assert.deepEqual(all.rows.map((r) => r.key), ['a.balances:x', 'b.balances:x', 'c.balances:x']);
      assert.equal(all.truncated, false);
      assert.deepEqual(requests.map((r) => r.variables), [{ suffix: '.balances:x', first: 1000, after: null }, { suffix: '.balances:x', first: 998, after: 'c1' }], 'the second page asks only for what is left');
      assert.match(requests[0]!.query, /allStates\(filter: \{key: \{endsWith: \$suffix\}\}, orderBy: KEY_ASC/);

      requests = [];
      const capped = await states.contractStates('.balances:x', 2);
      assert.ok('rows' in capped);
      assert.deepEqual([capped.rows.length, capped.truncated, requests.length], [2, true, 1]);
      assert.equal(requests[0]!.variables.first, 2);
    });

    it('an endpoint that answers errors or is down is reported, then left alone for a while', async () => {
      let now = 1_000;
      answer = () => ({ status: 400, body: { errors: [{ message: 'Cannot query field "allStates" on type "Query".' }] } });
      const states = new GraphqlStates(url, { now: () => now, retryAfterMs: 30_000 });
      const first = await states.contractStates('.balances:x', 10);
      assert.deepEqual(first, { unavailable: `GraphQL at ${url} did not answer: Cannot query field "allStates" on type "Query".` });
      assert.deepEqual(await states.contractStates('.balances:x', 10), first);
      assert.equal(requests.length, 1, 'not asked again within retryAfterMs');
      now += 30_001;
      answer = () => ({ body: { data: { allStates: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } } } } });
      assert.deepEqual(await states.contractStates('.balances:x', 10), { rows: [], truncated: false });

      const port = await freePort();
      const closed = new GraphqlStates(`http://user:secret@127.0.0.1:${port}/graphql?x=1`);
      const down = await closed.contractStates('.balances:x', 10);
      assert.deepEqual(down, { unavailable: `GraphQL at http://127.0.0.1:${port}/graphql did not answer: ECONNREFUSED` });
    });

    it('credentials in the URL go as Basic auth, never into a message', async () => {
      let authorization: string | undefined;
      const seen = http.createServer((req, res) => {
        authorization = req.headers.authorization;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"errors":[{"message":"no"}]}');
      });
      await new Promise<void>((resolve) => seen.listen(0, '127.0.0.1', resolve));
      try {
        const port = (seen.address() as AddressInfo).port;
        const states = new GraphqlStates(`http://reader:p%40ss@127.0.0.1:${port}/graphql`);
        const r = await states.contractStates('.balances:x', 10);
        assert.equal(authorization, `Basic ${Buffer.from('reader:p@ss').toString('base64')}`);
        assert.deepEqual(r, { unavailable: `GraphQL at http://127.0.0.1:${port}/graphql did not answer: no` });
      } finally {
        await new Promise<void>((resolve) => seen.close(() => resolve()));
      }
    });

    it('a caller that gives up gets its own abort, and the endpoint is not marked down', async () => {
      answer = () => ({ body: { data: { allStates: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } } } } });
      const states = new GraphqlStates(url);
      await assert.rejects(states.contractStates('.balances:x', 10, AbortSignal.abort(new Error('caller gave up'))), /caller gave up/);
      assert.deepEqual(await states.contractStates('.balances:x', 10), { rows: [], truncated: false });
    });

    it('get_token_balances reads an endpoint without valueNumeric by decoding the value, and skips keys that are not a contract\'s', async () => {
      const suffix = `.balances:${A.address}`;
      answer = () => ({ body: { data: { allStates: { nodes: [
        { ...node(`con_a${suffix}`, { __fixed__: '3.50' }), valueNumeric: null },
        { ...node(`con_b${suffix}`, 7), valueNumeric: null },
        { ...node(`con_c.allowances:x${suffix}`, 9), valueNumeric: null },
        { ...node(`con_d${suffix}`, 'not a number'), valueNumeric: null },
      ], pageInfo: { hasNextPage: false, endCursor: null } } } } });
      const home = await tempHome();
      const host = await startHost(devnetConfig(home.dir, { plugins: { query: {} }, graphqlUrl: url }));
      try {
        const r = await host.call('get_token_balances', { address: A.address });
        assert.equal(r.result.source, 'graphql');
        assert.deepEqual(r.result.items.map((i: { contract: string; balance: string }) => [i.contract, i.balance]), [['con_a', '3.5'], ['con_b', '7']]);
        assert.match(r.result.warnings.join(' '), /skipped con_d: its indexed balance is not a number/);
      } finally {
        await host.stop();
        await home.remove();
      }
    });

    it('the indexed fallback pages by cursor, sums rewards exactly, and takes JSON as text or as objects', async () => {
      const reward = (i: number, value: string) => ({ txHash: `T${i % 3}`, sourceContract: i % 2 ? 'con_a' : 'con_b', value, blockHeight: String(10 + i), createdAt: `2026-01-01T00:00:${String(i).padStart(2, '0')}.000000+00:00` });
      answer = (v) => ({ body: { data: { allRewards: v.after === null
        ? { nodes: [reward(1, '0.1'), reward(2, '123456789012345678901234567890.000000000000000001')], pageInfo: { hasNextPage: true, endCursor: 'c1' } }
        : { nodes: [reward(3, '0.2')], pageInfo: { hasNextPage: false, endCursor: 'c2' } } } } });
      const indexed = new GraphqlIndexed(new GraphqlStates(url));
      const ctx = { what: 'get_developer_rewards', noBdsReason: 'Unknown query path: developer_rewards' };
      assert.deepEqual(await indexed.developerRewards('dev', ctx), {
        recipient_key: 'dev', total_rewards: '123456789012345678901234567890.300000000000000001', reward_count: 3, tx_count: 3, contract_count: 2,
        first_block_height: 11, last_block_height: 13, first_reward_at: '2026-01-01T00:00:01+00:00', last_reward_at: '2026-01-01T00:00:03+00:00',
      });
      assert.deepEqual(requests.map((r) => [r.variables.after, r.variables.first]), [[null, 1000], ['c1', 1000]]);
      assert.match(requests[0]!.query, /allRewards\(condition: \{type: "developer_reward", recipientKey: \$k\}, orderBy: ID_ASC, first: \$first, after: \$after\)/);

      // JSON columns as PostGraphile 5 sends them (text) and as a dynamicJson endpoint does (objects); integers beyond 2^53 exact.
      requests = [];
      const change = (newValue: unknown) => ({ key: 'k', newValue, txHash: 'AB', txIndex: 0, writeIndex: 0, originType: 'transaction' });
      answer = () => ({ body: { data: { allStateChanges: { nodes: [change('{"n": 123456789012345678901}'), change({ n: 1 }), change(null)], pageInfo: { hasNextPage: false, endCursor: null } } } } });
      const rows = await indexed.stateForBlock('7', { ...ctx, what: 'get_state_for_block' });
      assert.deepEqual(rows.map((r) => r.value), [{ n: '123456789012345678901' }, { n: 1 }, null]);
      assert.deepEqual(requests[0]!.variables, { ref: '7', first: 1000, after: null });

      // An endpoint that refuses: the error names the node's answer and GraphQL's.
      answer = () => ({ status: 400, body: { errors: [{ message: 'Cannot query field "allRewards" on type "Query".' }] } });
      await assert.rejects(indexed.developerRewards('dev', ctx), (err: Error & { code?: string }) =>
        err.code === 'bds_unavailable' && /it answers "Unknown query path: developer_rewards".*did not answer either \(Cannot query field "allRewards"/.test(err.message));
    });

    it('tools fall back to the state scan and say why GraphQL could not answer', async () => {
      answer = () => ({ status: 500, body: { errors: [{ message: 'relation "states" does not exist' }] } });
      const home = await tempHome();
      const host = await startHost(devnetConfig(home.dir, { plugins: { query: {} }, graphqlUrl: url }));
      try {
        const balances = await host.call('get_token_balances', { address: A.address });
        assert.deepEqual([balances.result.available, balances.result.source], [false, 'state']);
        assert.match(balances.result.warnings.join(' '), /relation "states" does not exist.*read from current state/);
        const bySymbol = await host.call('get_token_contract_by_symbol', { token_symbol: 'CHAIN' });
        assert.deepEqual([bySymbol.result.source, bySymbol.result.token_contracts], ['state', ['currency']]);
        assert.match(bySymbol.result.warnings.join(' '), /BDS token index unavailable \(GraphQL at .* did not answer: relation "states" does not exist\)/);
      } finally {
        await host.stop();
        await home.remove();
      }
    });
  });
});
