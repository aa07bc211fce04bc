import type { MetricsRegistrar } from 'chainhost/plugin';
import type { BdsService } from '../bds-service.js';
import { BDS_DB_OPERATIONS, type BdsDbOperation } from '../follower/bds-follower.js';
import { ALERT_CODES, heightLag, withinMs } from './bds-status.js';

/**
 * The BDS figures on the host's `/metrics`: the `/bds_status` numbers the worker keeps in
 * memory, read at scrape time (no table is read; only the alert gauge asks the database for a
 * bounded `select 1`, and with a read database the lag gauge asks it for its highest block, also
 * bounded), and the database failures of the worker, counted as they happen.
 */

/** A scrape waits at most this long for the read database's highest block (one index lookup). */
const REPLICA_ASK_MS = 1000;

/** Registers `bds_db_errors_total{operation}`; the returned function is the service's `onDbError`. */
export function bdsDbErrorCounter(metrics: MetricsRegistrar): (operation: BdsDbOperation) => void {
  const counter = metrics.addCounter({
    name: 'bds_db_errors_total',
    help: 'Database failures met by the BDS worker, by what it was doing (prepare: schema, lock and indexed height on (re)connect; write: a block batch)',
    labelNames: ['operation'],
    labelValues: { operation: BDS_DB_OPERATIONS },
  });
  for (const operation of BDS_DB_OPERATIONS) counter.inc({ operation }, 0);
  return (operation) => counter.inc({ operation });
}

/** Registers the gauges; `service` is null while BDS is not open (nothing is reported then). */
export function addBdsGauges(metrics: MetricsRegistrar, service: () => BdsService | null): void {
  const follower = () => service()?.follower ?? null;
  const indexed = () => {
    const h = follower()?.indexedHeight ?? null;
    return h !== null && h >= 0 ? h : null; // -1 = nothing indexed yet: no height to report
  };
  metrics.addGauge({ name: 'bds_indexed_height', help: 'Highest contiguous block height in the BDS index', collect: indexed });
  metrics.addGauge({ name: 'bds_node_height', help: 'Latest block height of the node, as the BDS worker last saw it', collect: () => follower()?.currentHeight ?? null });
  metrics.addGauge({ name: 'bds_height_lag', help: 'Blocks the BDS index is behind the node', collect: () => heightLag(follower()?.currentHeight ?? null, indexed()) });
  metrics.addGauge({ name: 'bds_queue_depth', help: 'Fetched blocks waiting in the in-memory queue for the writer', collect: () => follower()?.queueDepth ?? null });
  metrics.addGauge({ name: 'bds_spool_pending_files', help: 'Block files in the recovery spool not yet committed to the database', collect: () => follower()?.spool.count ?? null });
  metrics.addGauge({ name: 'bds_spool_bytes', help: 'Bytes of the pending spool files', collect: () => follower()?.spool.totalBytes ?? null });
  metrics.addGauge({
    name: 'bds_read_replica_lag_blocks', help: 'Blocks the BDS read database (CHAIN_BDS_READ_DATABASE_URL) is behind the writer; absent without one or while it does not answer',
    collect: async () => {
      const replica = service()?.replica;
      return replica ? (await withinMs(replica.status(), REPLICA_ASK_MS))?.lag_blocks ?? null : null;
    },
  });
  metrics.addGauge({
    name: 'bds_worker_running', help: 'Whether the BDS writer loop is running (1) or not (0)',
    collect: () => {
      const f = follower();
      return f ? Number(f.workerRunning) : null;
    },
  });
  metrics.addGauge({
    name: 'bds_alert', help: 'Alerts of /bds_status by code: 1 while active, 0 otherwise', labelNames: ['code'],
    collect: async () => {
      const s = service();
      if (!s) return [];
      const active = await s.status.activeAlertCodes();
      const codes = new Set<string>([...ALERT_CODES, ...active]);
      return [...codes].map((code) => ({ labels: { code }, value: active.has(code) ? 1 : 0 }));
    },
  });
}
