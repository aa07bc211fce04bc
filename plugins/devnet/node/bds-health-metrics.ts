import { Gauge, type Registry } from 'prom-client';

/**
 * BDS health on the node's metrics port (abci-query.md §8, bds.md §10: upstream's `xian_bds_info`,
 * `xian_bds_metric`, `xian_bds_alert` under our `chain_` prefix). The node reads its own
 * `/bds_status` query path — served when the bds plugin runs in the same process — so the devnet
 * knows nothing of BDS internals. The status is read at most once per refresh interval, however
 * many families a scrape collects; a node without BDS reports `enabled="false"`, `db_status="disabled"`.
 */
export type BdsStatusReader = () => Promise<Record<string, unknown> | null>;

/** `xian_bds_metric` fields, read from `/bds_status` (nested `indexed`, `storage`, `pool` included). */
const FIELDS: Array<[field: string, read: (s: Record<string, any>) => unknown]> = [
  ['catchup_running', (s) => s.catchup_running],
  ['worker_running', (s) => s.worker_running],
  ['queue_depth', (s) => s.queue_depth],
  ['queue_capacity', (s) => s.queue_capacity],
  ['queue_utilization', (s) => s.queue_utilization],
  ['spool_pending_count', (s) => s.spool_pending_count],
  ['spool_total_bytes', (s) => s.spool_total_bytes],
  ['storage_total_bytes', (s) => s.storage?.filesystem_total_bytes],
  ['storage_used_bytes', (s) => s.storage?.filesystem_used_bytes],
  ['storage_free_bytes', (s) => s.storage?.filesystem_free_bytes],
  ['current_block_height', (s) => s.current_block_height],
  ['height_lag', (s) => s.height_lag],
  ['catching_up', (s) => s.catching_up],
  ['db_ok', (s) => s.db_status === 'ok'],
  ['alert_count', (s) => (Array.isArray(s.alerts) ? s.alerts.length : undefined)],
  ['last_enqueue_error_present', (s) => s.last_enqueue_error != null],
  ['indexed_block_count', (s) => s.indexed?.indexed_block_count],
  ['indexed_height', (s) => s.indexed?.indexed_height],
  ['indexed_tx_count', (s) => s.indexed?.indexed_tx_count],
  ['pool_size', (s) => s.pool?.size],
  ['pool_idle', (s) => s.pool?.idle],
  ['pool_in_use', (s) => s.pool?.in_use],
  ['pool_max_size', (s) => s.pool?.max_size],
  ['pool_min_size', (s) => s.pool?.min_size],
  ['pool_utilization', (s) => s.pool?.utilization],
];

export class BdsHealth {
  private last: { at: number; status: Promise<Record<string, unknown> | null>; ok: boolean } | null = null;

  constructor(private readonly read: BdsStatusReader, private readonly refreshMs = 1_000, private readonly now: () => number = Date.now) {}

  /** The `/bds_status` answer (null: no BDS), refreshed at most every refreshMs. */
  status(): Promise<Record<string, unknown> | null> {
    const t = this.now();
    if (!this.last || t - this.last.at >= this.refreshMs) {
      const entry = { at: t, ok: true, status: Promise.resolve(null) as Promise<Record<string, unknown> | null> };
      entry.status = this.read().catch(() => {
        entry.ok = false;
        return null;
      });
      this.last = entry;
    }
    return this.last.status;
  }

  /** Whether the last refresh could read the status (false also while BDS is not loaded). */
  get refreshOk(): boolean {
    return this.last?.ok ?? false;
  }

  get refreshAgeSeconds(): number {
    return this.last ? (this.now() - this.last.at) / 1000 : 0;
  }
}

/** The BDS families on `registry`; `health` is shared with node_info's `block_service_mode`. */
export function addBdsHealthMetrics(registry: Registry, health: BdsHealth): void {
  new Gauge({
    name: 'chain_bds_info', help: 'BDS presence and database status (always 1).', registers: [registry], labelNames: ['enabled', 'db_status'] as const,
    async collect() {
      this.reset();
      const s = await health.status();
      if (!s) this.set({ enabled: 'false', db_status: 'disabled' }, 1);
      else this.set({ enabled: 'true', db_status: s.db_status === 'ok' || s.db_status === 'error' ? String(s.db_status) : 'unknown' }, 1);
    },
  });
  new Gauge({
    name: 'chain_bds_metric', help: 'BDS worker, queue, spool, storage, index and pool figures (absent values are skipped).', registers: [registry],
    labelNames: ['field'] as const,
    async collect() {
      this.reset();
      const s = await health.status();
      this.set({ field: 'enabled' }, s ? 1 : 0);
      this.set({ field: 'refresh_success' }, s && health.refreshOk ? 1 : 0);
      this.set({ field: 'refresh_age_seconds' }, health.refreshAgeSeconds);
      if (!s) return;
      for (const [field, read] of FIELDS) {
        const value = numberOf(read(s));
        if (value !== null) this.set({ field }, value);
      }
    },
  });
  new Gauge({
    name: 'chain_bds_alert', help: 'Active BDS alerts (1 each), by severity and code.', registers: [registry], labelNames: ['severity', 'kind'] as const,
    async collect() {
      this.reset();
      const s = await health.status();
      const alerts = Array.isArray(s?.alerts) ? (s.alerts as Array<Record<string, unknown>>) : [];
      for (const a of alerts) this.set({ severity: String(a.level ?? 'unknown'), kind: String(a.code ?? 'unknown') }, 1);
    },
  });
}

function numberOf(value: unknown): number | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return null;
}
