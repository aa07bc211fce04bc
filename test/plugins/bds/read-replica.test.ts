import { strict as assert } from 'node:assert';
import { CoreTokens } from '../../../core/core-tokens.js';
import type { Host } from '../../../host/host.js';
import { replicationUnavailableReason, startReplicationPair, type ReplicationPair } from '../../support/pg-replication.js';
import type { DashboardHost } from '../dashboard/support/dashboard-host.js';

/**
 * BDS with a read replica (CHAIN_BDS_READ_DATABASE_URL) over REAL PostgreSQL streaming
 * replication: the test makes its own primary and hot standby (initdb + pg_basebackup -R, see
 * test/support/pg-replication.ts), so the lag is the replica's own; pausing WAL replay on the
 * standby makes it lag on demand. One host runs the devnet, the BDS writer (primary), GraphQL and
 * the dashboard (reading the replica); two standalone GraphQL hosts read the primary and the
 * replica for comparison.
 */
/** Long enough that "did not wait" (under half of it) holds for a plain read on a busy machine. */
const READ_WAIT_MS = 8_000;
const SCHEMA = `bds_replica_${process.pid}`;

describe('BDS with a read replica (PostgreSQL streaming replication)', function () {
  this.timeout(90_000);
  let pair: ReplicationPair | null = null;
  let writer: DashboardHost | null = null;
  /** A read-surface replica: dashboard + bds with `writer: false`, on the standby alone, the node over RPC. */
  let reader: DashboardHost | null = null;
  const graphqlHosts: Host[] = [];
  let gqlPrimary = '';
  let gqlReplica = '';
  let gqlWriterHost = '';
  let transfer: (to: string, amount: number, from?: number) => Promise<{ hash: string; height: string }>;

  before(async function () {
    const reason = replicationUnavailableReason();
    if (reason) {
      if (process.env.CHAIN_TEST_REQUIRE_POSTGRES === '1') throw new Error(`CHAIN_TEST_REQUIRE_POSTGRES=1 but a replication pair cannot be made: ${reason}`);
      console.log(`read-replica tests SKIPPED: ${reason}`);
      this.skip();
    }
    pair = await startReplicationPair();
    const dash = await import('../dashboard/support/dashboard-host.js');
    writer = await dash.bootDashboardHost({
      devnet: { listen: true },
      plugins: {
        bds: { schema: SCHEMA, readWaitMs: READ_WAIT_MS, catchupPollMs: 200 },
        graphql: { host: '127.0.0.1', port: 0 },
      },
      dashboard: dash.RELAXED_LIMITS,
      config: { metrics: { host: '127.0.0.1', port: 0 } },
      // Both URLs through the environment, as an operator sets them.
      env: { CHAIN_BDS_DATABASE_URL: pair.primaryUrl, CHAIN_BDS_READ_DATABASE_URL: pair.standbyUrl },
    });
    const w = writer;
    transfer = (to, amount, from = 0) => dash.transfer(w, to, amount, from);
    const rpcUrl = (await w.node.status()).node_info.other.rpc_address.replace('tcp://', 'http://');
    // Boots while the writer holds the writer lock (a second writer would be refused), knowing only the standby.
    reader = await dash.bootDashboardHost({
      devnet: false,
      config: { node: { url: rpcUrl } },
      plugins: { bds: { schema: SCHEMA, writer: false } },
      dashboard: dash.RELAXED_LIMITS,
      env: { CHAIN_BDS_READ_DATABASE_URL: pair.standbyUrl },
    });
    gqlWriterHost = `${writer.host.serverUrl('graphql')}/graphql`;
    // Standalone GraphQL (no bds plugin): on the primary alone, and with the replica set, which it must prefer.
    gqlPrimary = await bootGraphql({ CHAIN_BDS_DATABASE_URL: pair.primaryUrl });
    gqlReplica = await bootGraphql({ CHAIN_BDS_DATABASE_URL: pair.primaryUrl, CHAIN_BDS_READ_DATABASE_URL: pair.standbyUrl });
  });

  after(async function () {
    this.timeout(60_000);
    for (const h of graphqlHosts.splice(0)) await h.stop().catch(() => undefined);
    await reader?.stop().catch(() => undefined);
    await writer?.stop().catch(() => undefined);
    await pair?.stop();
  });

  async function bootGraphql(env: Record<string, string>): Promise<string> {
    const { loadTestConfig } = await import('../../support/test-host.js');
    const { loadHostModule } = await import('../dashboard/support/dashboard-host.js');
    const loaded = await loadTestConfig({ plugins: { graphql: { host: '127.0.0.1', port: 0, schema: SCHEMA } } }, env);
    const { Host } = await loadHostModule();
    const { silentLogger } = await import('../../../core/logger.js');
    const host = await Host.create(loaded, { log: silentLogger });
    graphqlHosts.push(host);
    await host.start();
    return `${host.serverUrl('graphql')}/graphql`;
  }

  const get = async (path: string, host = writer!) => {
    const { request } = await import('../../support/test-host.js');
    return request(host.url(path));
  };
  const abciValue = async (path: string, host = writer!) => {
    const res = await get(`/api/abci_query/${path}`, host);
    assert.equal(res.status, 200, res.text);
    return res.json.response.value;
  };
  const graphql = async (url: string, query: string) => {
    const { postJson } = await import('../../support/test-host.js');
    const r = await postJson(url, { query });
    assert.equal(r.status, 200, r.text);
    return r;
  };
  const primaryHeight = async () => Number((await pair!.sql('primary', `SELECT coalesce(max(height), -1) AS h FROM "${SCHEMA}".blocks`))[0]!.h);
  const standbyHeight = async () => Number((await pair!.sql('standby', `SELECT coalesce(max(height), -1) AS h FROM "${SCHEMA}".blocks`))[0]!.h);
  async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  /** `/bds_status` through the dashboard once the replica has every block the writer has. */
  async function caughtUp(height: number): Promise<any> {
    let status: any;
    await until(`replica at ${height}`, async () => {
      status = await abciValue('bds_status');
      return status.read_replica?.lag_blocks === 0 && Number(status.indexed.indexed_height) >= height;
    });
    return status;
  }

  it('the writer writes the primary, every read pool reads the standby, and no write reaches it', async () => {
    const sent = await transfer('replica_friend', 5);
    const status = await caughtUp(Number(sent.height));
    assert.equal((await abciValue(`tx/${sent.hash}`, reader!)).block_height, Number(sent.height), 'the read-only host serves the replica\'s rows');
    assert.equal((await get(`/api/address/${writer!.accounts[0]!.address}?limit=5`, reader!)).json.transactions[0].tx_hash, sent.hash);
    assert.equal(status.db_status, 'ok');
    assert.equal(status.read_replica.status, 'ok');
    assert.equal(status.read_replica.writer_indexed_height, status.indexed.indexed_height);
    assert.deepEqual(status.alerts, []);
    assert.deepEqual((await pair!.sql('standby', 'SELECT pg_is_in_recovery() AS r'))[0], { r: true }, 'the standby is a real hot standby');
    // Also read through the devnet's own abci_query (the node path) and the dashboard's address page, so the pools are in use.
    const node = writer!.host.resolve(CoreTokens.chainNode);
    assert.equal((await node.abciQuery(`/tx/${sent.hash}`)).response.code, 0);
    assert.equal((await get(`/api/address/${writer!.accounts[0]!.address}?limit=5`)).status, 200);
    await graphql(gqlWriterHost, '{ allBlocks(first: 1) { nodes { height } } }');
    await graphql(gqlReplica, '{ allBlocks(first: 1) { nodes { height } } }');
    const apps = async (server: 'primary' | 'standby') =>
      (await pair!.sql(server, `SELECT DISTINCT application_name AS a FROM pg_stat_activity WHERE datname = 'postgres' AND backend_type = 'client backend' AND pid <> pg_backend_pid()`))
        .map((r) => String(r.a)).sort();
    const [onPrimary, onStandby] = [await apps('primary'), await apps('standby')];
    assert.ok(onPrimary.includes('chain-bds'), `the writer pool is on the primary: ${onPrimary}`);
    assert.ok(onPrimary.includes('chain-bds-writer-lock'), `the writer lock is on the primary: ${onPrimary}`);
    assert.ok(!onPrimary.includes('chain-bds-read'), `no read pool on the primary: ${onPrimary}`);
    assert.ok(onStandby.includes('chain-bds-read'), `the read pool is on the standby: ${onStandby}`);
    assert.ok(!onStandby.includes('chain-bds') && !onStandby.includes('chain-bds-writer-lock'), `no writer session on the standby: ${onStandby}`);
    // The read pool's sessions are read-only even on a writable copy; on the standby a write is refused by the server too.
    const handle = writer!.host.resolve((await import('../../../plugins/bds/index.js')).BdsTokens.database);
    await assert.rejects(handle.knex.raw(`INSERT INTO "${SCHEMA}".bds_meta (key, value) VALUES ('replica_probe', 'x')`), (err: any) => err.code === '25006');
  });

  it('GraphQL on the replica answers byte for byte as GraphQL on the primary once caught up', async () => {
    const a = await transfer('replica_friend', 7);
    const b = await transfer('replica_other', 3, 1);
    await caughtUp(Number(b.height));
    const queries = [
      '{ allBlocks(orderBy: HEIGHT_ASC) { totalCount nodes { height blockHash appHash txCount blockTime } } }',
      `{ transactionByHash(hash: "${a.hash}") { hash blockHeight sender contract function success chiUsed payload } }`,
      '{ allTransactions(orderBy: [BLOCK_HEIGHT_DESC, TX_INDEX_DESC], first: 10) { totalCount pageInfo { hasNextPage endCursor } nodes { hash sender nonce } } }',
      '{ allEvents(orderBy: ID_ASC) { nodes { id contract event txHash data } } }',
      '{ allStateChanges(orderBy: CHANGE_ID_ASC, first: 50) { nodes { changeId key newValue txHash } } }',
      '{ allStates(orderBy: KEY_ASC) { totalCount nodes { key value lastBlockHeight } } }',
    ];
    for (const q of queries) {
      const fromPrimary = await graphql(gqlPrimary, q);
      assert.equal(fromPrimary.json.errors, undefined, fromPrimary.text);
      assert.equal((await graphql(gqlReplica, q)).text, fromPrimary.text, `standalone GraphQL on the replica: ${q}`);
      assert.equal((await graphql(gqlWriterHost, q)).text, fromPrimary.text, `GraphQL beside the writer (reads the replica): ${q}`);
    }
  });

  it('a read of a height the writer has waits for the replica to replay it; status, dashboard and GraphQL show the lag', async () => {
    await pair!.pauseReplay();
    let resumed = false;
    try {
      const before = await standbyHeight();
      const sent = await transfer('replica_friend', 1);
      const h = Number(sent.height);
      await until('the writer indexed the block on the primary', async () => (await primaryHeight()) >= h);
      assert.equal(await standbyHeight(), before, 'replay is paused: the standby still has the old height');

      const status = await abciValue('bds_status');
      assert.equal(Number(status.indexed.indexed_height), before, 'indexed = what reads can see (the replica)');
      assert.ok(status.read_replica.writer_indexed_height >= h, JSON.stringify(status.read_replica));
      assert.ok(status.read_replica.lag_blocks >= h - before, JSON.stringify(status.read_replica));
      const lagGauge = async () => {
        const text = await (await fetch(`${writer!.host.serverUrl('metrics')}/metrics`)).text();
        return Number(/^bds_read_replica_lag_blocks (\d+)$/m.exec(text)?.[1] ?? NaN);
      };
      assert.ok(await lagGauge() >= h - before, 'bds_read_replica_lag_blocks shows the lag');
      const gql = (await graphql(gqlWriterHost, '{ bdsStatus { indexedHeight readReplicaLag } }')).json.data.bdsStatus;
      assert.equal(Number(gql.indexedHeight), before);
      assert.ok(Number(gql.readReplicaLag) >= h - before, JSON.stringify(gql));
      // Reads that name no height answer at once with the replica's data (the dashboard, the node path, standalone GraphQL).
      assert.equal((await abciValue('blocks/limit=1/offset=0'))[0].height, before);
      const node = writer!.host.resolve(CoreTokens.chainNode);
      assert.equal(JSON.parse(Buffer.from((await node.abciQuery('/blocks/limit=1/offset=0')).response.value!, 'base64').toString())[0].height, before);
      assert.equal((await graphql(gqlReplica, '{ allBlocks(first: 1, orderBy: HEIGHT_DESC) { nodes { height } } }')).json.data.allBlocks.nodes[0].height, String(before));
      // The read-only bds host answers from the standby too, and its status says what it can read and that no worker runs there.
      assert.equal((await abciValue('blocks/limit=1/offset=0', reader!))[0].height, before);
      const readerStatus = await abciValue('bds_status', reader!);
      assert.equal(Number(readerStatus.indexed.indexed_height), before);
      assert.equal(readerStatus.worker_running, false);
      assert.equal(readerStatus.db_status, 'ok');
      assert.equal((await abciValue(`block/${h}`, reader!)), null, 'a reader with no writer beside it does not wait: the height is not readable here yet');

      // A read of height h waits; resuming replay 400 ms later lets it answer with the block.
      const started = Date.now();
      const pending = get(`/api/abci_query/block/${h}`);
      await new Promise((r) => setTimeout(r, 400));
      await pair!.resumeReplay();
      resumed = true;
      const res = await pending;
      const waited = Date.now() - started;
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.response.value.height, h, res.text);
      // It answered with the block, so the replay, not readWaitMs, ended the wait; the upper bound only catches a hang.
      assert.ok(waited >= 400 && waited < READ_WAIT_MS + 30_000, `waited ${waited} ms for the replica`);
      await until('the lag gauge back to 0', async () => (await lagGauge()) === 0);
    } finally {
      if (!resumed) await pair!.resumeReplay().catch(() => undefined);
    }
  });

  it('the wait is bounded: past readWaitMs the read answers what the replica has (not indexed yet: null)', async () => {
    await pair!.pauseReplay();
    try {
      const sent = await transfer('replica_friend', 2);
      const h = Number(sent.height);
      await until('the writer indexed the block on the primary', async () => (await primaryHeight()) >= h);
      const started = Date.now();
      const value = await abciValue(`block/${h}`);
      const waited = Date.now() - started;
      assert.equal(value, null);
      // At least readWaitMs; the upper bound only catches a read that never gives up (a busy machine adds seconds).
      assert.ok(waited >= READ_WAIT_MS - 50 && waited < READ_WAIT_MS + 30_000, `waited ${waited} ms (readWaitMs ${READ_WAIT_MS})`);
      // A height nobody has indexed is not waited for.
      const t = Date.now();
      assert.equal(await abciValue(`block/${h + 1000}`), null);
      assert.ok(Date.now() - t < READ_WAIT_MS / 2, 'no wait for a height the writer has not indexed');
    } finally {
      await pair!.resumeReplay();
    }
    await caughtUp(await primaryHeight());
  });

  it('replica down: reads fail fast with the database reason, the writer keeps indexing, /bds_status says so; back up, reads resume', async () => {
    await pair!.stopStandby();
    try {
      const sent = await transfer('replica_friend', 1);
      await until('the writer indexed on the primary', async () => (await primaryHeight()) >= Number(sent.height));
      const started = Date.now();
      const res = await get('/api/abci_query/blocks/limit=1/offset=0');
      assert.equal(res.status, 400, res.text);
      assert.match(res.json.error?.message ?? res.text, /BDS query failed: database unreachable/);
      assert.ok(Date.now() - started < 5000, 'fails fast');
      assert.doesNotMatch(res.text, /SELECT|postgres:\/\//i, 'no SQL or URL in the answer');
      const status = await abciValue('bds_status');
      assert.equal(status.db_status, 'ok', 'the writer\'s database is fine');
      assert.equal(status.read_replica.status, 'error');
      assert.ok(status.alerts.some((a: any) => a.code === 'read_replica_unavailable'), JSON.stringify(status.alerts));
      const metrics = await (await fetch(`${writer!.host.serverUrl('metrics')}/metrics`)).text();
      assert.match(metrics, /^bds_alert\{code="read_replica_unavailable"\} 1$/m, 'the alert on /metrics too');
      assert.match(metrics, /^bds_alert\{code="db_unavailable"\} 0$/m);
      assert.equal(status.indexed.indexed_height, null);
      for (const url of [gqlWriterHost, gqlReplica]) {
        const t = Date.now();
        const r = await graphql(url, '{ allBlocks(first: 1) { nodes { height } } }');
        assert.equal(r.json.errors?.[0]?.extensions?.code, 'DATABASE_UNAVAILABLE', `${url}: ${r.text}`);
        assert.ok(Date.now() - t < 5000, `GraphQL answered after ${Date.now() - t} ms`);
      }
      assert.equal((await graphql(gqlPrimary, '{ allBlocks(first: 1) { nodes { height } } }')).json.errors, undefined, 'GraphQL on the primary is unaffected');
    } finally {
      await pair!.startStandby();
    }
    const latest = await primaryHeight();
    const status = await caughtUp(latest);
    assert.deepEqual(status.alerts, []);
    assert.equal((await abciValue('blocks/limit=1/offset=0'))[0].height, latest);
    const back = await graphql(gqlReplica, '{ allBlocks(first: 1, orderBy: HEIGHT_DESC) { nodes { height } } }');
    assert.equal(back.json.data?.allBlocks.nodes[0].height, String(latest), back.text);
  });
});
