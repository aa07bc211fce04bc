import 'reflect-metadata';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ChainNode } from '../../../core/chain/node.js';
import { encodeTransaction, signTransaction } from '../../../core/chain/transaction.js';
import { CoreTokens } from '../../../core/core-tokens.js';
import { silentLogger } from '../../../core/logger.js';
import type { Host } from '../../../host/host.js';
import { BdsInternalTokens } from '../../../plugins/bds/bds-internal-tokens.js';
import { ALERT_CODES } from '../../../plugins/bds/status/bds-status.js';
import { DEFAULT_MNEMONIC, deriveAccounts } from '../../../plugins/devnet/node/devnet.js';
import { writeNodeConfig } from '../../../plugins/devnet/node/node-config.js';
import { forEachDatabase } from '../../support/databases.js';
import { loadTestConfig, request } from '../../support/test-host.js';
import { waitFor } from '../../plugins/bds/support/bds-harness.js';
import { outageFor, type Outage } from '../../plugins/bds/support/outage.js';
import { parseExposition, presentValue, samplesOf, valueOf, type Sample } from './exposition.js';

/** The node caps every dry run at this much chi, so any real call runs out (a chi_exhausted refusal). */
const TINY_MAX_CHI = 20;
const REFUSALS = 'chainhost_simulate_refusals_total';

describe('host /metrics with devnet + bds + simulate + dashboard (issue 9 figures)', function () {
  this.timeout(120_000);

  forEachDatabase((target) => {
    let outage: Outage;
    let host: Host;
    let node: ChainNode;
    let metricsUrl: string;
    let dashboardUrl: string;
    let spoolDir: string;
    const [alice, bob] = deriveAccounts(DEFAULT_MNEMONIC, 2);

    const scrape = async (): Promise<Sample[]> => {
      const res = await request(metricsUrl);
      assert.equal(res.status, 200);
      return parseExposition(res.text);
    };
    const nodeHeight = async () => Number((await node.status()).sync_info.latest_block_height);
    const spoolFiles = () => readdirSync(spoolDir).filter((f) => f.endsWith('.json')).length;
    /** One committed block: a transfer from alice (blocks are cut on demand, blockTimeMs 0). */
    const transfer = async () => {
      const nonce = Number((await node.query(`/get_next_nonce/${alice!.address}`)).value?.text ?? '0');
      const signed = signTransaction({ chain_id: 'chain-local-1', chi_supplied: 5000, contract: 'currency', function: 'transfer', kwargs: { amount: 1, to: bob!.address }, nonce, sender: alice!.address }, alice!.privateKey);
      const sent = await node.broadcastTxCommit(encodeTransaction(signed).hex);
      assert.equal(sent.check_tx.code, 0, sent.check_tx.log);
    };

    before(async () => {
      outage = await outageFor(target.fresh({ suite: true }));
      const db = outage.db;
      const devnetHome = join(db.home, 'devnet');
      writeNodeConfig(devnetHome, { simulation_max_chi: TINY_MAX_CHI, fsync: false });
      const config = {
        home: db.home,
        plugins: {
          devnet: { home: devnetHome, listen: false, printAccounts: false },
          bds: { databaseUrl: db.url, schema: db.schema, pgliteDir: db.pgliteDir, catchupPollMs: 50, retryDelayMs: 100, acquireTimeoutMs: 500, diskFreeWarnBytes: 0 },
          simulate: { ratePerSecond: 0.01, burst: 1 },
          wallet: {},
          dashboard: { port: 0, limits: { enabled: false }, simulate: { maxPayloadHexChars: 64 } },
        },
        metrics: { host: '127.0.0.1', port: 0 },
      };
      const loaded = await loadTestConfig(config);
      // Imported dynamically like the plugins it loads, so both share one copy of core (see dashboard-host.ts).
      const { Host } = await import('../../../host/host.js');
      host = await Host.create(loaded, { log: silentLogger });
      await host.start();
      node = host.resolve(CoreTokens.chainNode);
      metricsUrl = `${host.serverUrl('metrics')}/metrics`;
      dashboardUrl = host.serverUrl('dashboard')!;
      spoolDir = join(db.home, 'bds-spool');
    });
    after(async () => {
      await host?.stop();
      await outage?.close();
    });

    it('reports the indexed height equal to the node height after catch-up, lag 0, nothing pending, no alert', async () => {
      await transfer();
      const height = await nodeHeight();
      await waitFor(async () => valueOf(await scrape(), 'bds_indexed_height') === height, 30_000, 'bds_indexed_height to reach the node height');
      const samples = await scrape();
      assert.equal(presentValue(samples, 'bds_node_height'), height);
      assert.equal(presentValue(samples, 'bds_height_lag'), 0);
      assert.equal(presentValue(samples, 'bds_queue_depth'), 0);
      assert.equal(presentValue(samples, 'bds_spool_pending_files'), 0);
      assert.equal(spoolFiles(), 0);
      assert.equal(presentValue(samples, 'bds_spool_bytes'), 0);
      assert.equal(presentValue(samples, 'bds_worker_running'), 1);
      for (const code of ALERT_CODES) assert.equal(presentValue(samples, 'bds_alert', { code }), 0, code);
      assert.equal(presentValue(samples, 'bds_db_errors_total', { operation: 'write' }), 0);
      assert.equal(presentValue(samples, 'bds_db_errors_total', { operation: 'prepare' }), 0);
    });

    it('counts dry-run refusals by the layer that refused and the reason', async () => {
      const before = await scrape();
      const call = (name: string, args: unknown) => host.invoker.call(name, args, 'in-process') as Promise<any>;
      const args = { address: alice!.address, contract: 'currency', function: 'transfer', kwargs: { amount: 1, to: bob!.address } };
      // The simulate plugin's rate cap lets one through; the node stops it at simulation_max_chi.
      const ran = await call('simulate_transaction', args);
      assert.equal(ran.status, 1);
      assert.match(ran.result, /chi budget exceeded during readonly execution/);
      // The second within the rate window is refused by the simulate plugin (503).
      await assert.rejects(call('simulate_transaction', args), (err: { status?: number }) => err.status === 503);
      // The dashboard refuses an over-large (413) and a malformed payload (400) itself ...
      assert.equal((await request(`${dashboardUrl}/api/abci_query/simulate_tx/${'ab'.repeat(40)}`)).status, 413);
      assert.equal((await request(`${dashboardUrl}/api/abci_query/simulate_tx/zz`)).status, 400);
      // ... and passes well-formed hex of `{}` on, which the node refuses (no sender).
      const passed = await request(`${dashboardUrl}/api/abci_query/simulate_tx/7b7d`);
      assert.equal(passed.status, 200);
      assert.match(passed.text, /simulation payload missing sender/);

      const after = await scrape();
      const expected: Record<string, number> = {
        'node/chi_exhausted': 1, 'node/invalid_payload': 1, 'simulate/rate_limited': 1, 'dashboard/payload_too_large': 1, 'dashboard/invalid_payload': 1,
      };
      const series = samplesOf(after, REFUSALS);
      for (const s of series) {
        const key = `${s.labels.source}/${s.labels.reason}`;
        assert.equal(s.value - valueOf(before, REFUSALS, s.labels), expected[key] ?? 0, key);
      }
      // Every layer shows the reasons it can refuse for, even those that did not happen yet.
      for (const key of [...Object.keys(expected), 'node/timeout', 'node/capacity', 'node/disabled', 'simulate/capacity', 'simulate/timeout', 'dashboard/capacity', 'dashboard/timeout', 'dashboard/rate_limited', 'dashboard/disabled', 'submit/capacity', 'submit/timeout', 'submit/rate_limited']) {
        const [source, reason] = key.split('/');
        assert.equal(samplesOf(after, REFUSALS, { source: source!, reason: reason! }).length, 1, `${key} series exposed`);
      }
    });

    it('shows a database outage: spool files pending, lag, the alert and DB errors; all clear once it drains', async () => {
      const service = host.resolve(BdsInternalTokens.service).service();
      const before = await scrape();
      await outage.down(service);
      for (let i = 0; i < 3; i++) await transfer();
      const height = await nodeHeight();
      await waitFor(() => service.spool.count === 3, 20_000, 'three blocks spooled');
      await waitFor(async () => {
        const s = await scrape();
        return valueOf(s, 'bds_alert', { code: 'db_unavailable' }) === 1 && valueOf(s, 'bds_db_errors_total', { operation: 'prepare' }) > valueOf(before, 'bds_db_errors_total', { operation: 'prepare' });
      }, 20_000, 'the db_unavailable alert and a failed reconnect');
      const down = await scrape();
      assert.equal(presentValue(down, 'bds_spool_pending_files'), 3);
      assert.equal(spoolFiles(), 3);
      assert.ok(presentValue(down, 'bds_spool_bytes') > 0);
      assert.equal(presentValue(down, 'bds_node_height'), height);
      assert.equal(presentValue(down, 'bds_indexed_height'), height - 3);
      assert.equal(presentValue(down, 'bds_height_lag'), 3);
      assert.ok(presentValue(down, 'bds_queue_depth') <= 3);
      assert.equal(presentValue(down, 'bds_worker_running'), 1, 'the worker keeps running and retrying');
      // The cut meets the follower either in a block write or, when the pool notices the dropped
      // connection before the next block arrives (blocks now execute in the node's worker, later
      // than before), in its reconnect: each failure is counted under its own operation.
      const failed = (s: Sample[]) => valueOf(s, 'bds_db_errors_total', { operation: 'write' }) + valueOf(s, 'bds_db_errors_total', { operation: 'prepare' });
      assert.ok(failed(down) - failed(before) >= 1, 'the failed write or reconnect is counted');

      await outage.up(service);
      await waitFor(async () => valueOf(await scrape(), 'bds_indexed_height') === height, 30_000, 'the spool to drain');
      await waitFor(async () => valueOf(await scrape(), 'bds_alert', { code: 'db_unavailable' }) === 0, 30_000, 'the alert to clear');
      const up = await scrape();
      assert.equal(presentValue(up, 'bds_spool_pending_files'), 0);
      assert.equal(spoolFiles(), 0);
      assert.equal(presentValue(up, 'bds_height_lag'), 0);
      for (const code of ALERT_CODES) assert.equal(presentValue(up, 'bds_alert', { code }), 0, code);
      const status = await service.status.status();
      assert.equal(status.spool_pending_count, 0, '/bds_status agrees');
      assert.deepEqual(status.alerts, []);
    });
  });
});
