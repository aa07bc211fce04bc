/**
 * `/perf_status` (abci-query.md §7): per-scope timing statistics of block finalization,
 * collected only when `CHAIN_PERF_ENABLED` is 1/true/yes/on. The devnet times the scopes it
 * has (`finalize_block`, `finalize_decode`, `finalize_tx_loop`, `finalize_execute`,
 * `finalize_result_assembly`, `finalize_state_root`, `finalize_commit_prepare`,
 * `tx_process_total`, `tx_execute`, `tx_process_output`); parallel execution does not exist here.
 */
const SAMPLES = 2048;

interface Stat {
  count: number;
  total: number;
  min: number;
  max: number;
  samples: number[];
}

export interface BlockPerf {
  height: number;
  txCount: number;
  durationMs: number;
  metrics: Record<string, number>;
  metadata: Record<string, number | boolean>;
}

export function perfEnabledFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return ['1', 'true', 'yes', 'on'].includes(String(env.CHAIN_PERF_ENABLED ?? env.XIAN_PERF_ENABLED ?? '').trim().toLowerCase());
}

export class PerfStatus {
  private readonly global = new Map<string, Stat>();
  private readonly recent: Array<{ height: number; tx_count: number; duration_ms: number; metrics: Record<string, unknown>; metadata: Record<string, unknown> }> = [];
  private updatedAt = 0n;

  constructor(
    readonly enabled: boolean,
    private readonly chainId: string,
    private readonly recentBlocks = Number(process.env.CHAIN_PERF_RECENT_BLOCKS ?? 32) || 32,
  ) {}

  record(scope: string, ms: number): void {
    if (!this.enabled) return;
    let s = this.global.get(scope);
    if (!s) this.global.set(scope, (s = { count: 0, total: 0, min: Infinity, max: -Infinity, samples: [] }));
    s.count++;
    s.total += ms;
    s.min = Math.min(s.min, ms);
    s.max = Math.max(s.max, ms);
    s.samples.push(ms);
    if (s.samples.length > SAMPLES) s.samples.shift();
  }

  block(perf: BlockPerf): void {
    if (!this.enabled) return;
    const metrics: Record<string, unknown> = {};
    for (const [scope, ms] of Object.entries(perf.metrics)) {
      metrics[scope] = statJson({ count: 1, total: ms, min: ms, max: ms, samples: [ms] });
    }
    this.recent.push({ height: perf.height, tx_count: perf.txCount, duration_ms: round(perf.durationMs), metrics, metadata: perf.metadata });
    while (this.recent.length > this.recentBlocks) this.recent.shift();
    this.updatedAt = BigInt(Date.now()) * 1_000_000n;
  }

  status(): Record<string, unknown> {
    const global: Record<string, unknown> = {};
    if (this.enabled) for (const [scope, s] of this.global) global[scope] = statJson(s);
    return {
      enabled: this.enabled,
      node_name: this.enabled ? 'devnet' : null,
      chain_id: this.enabled ? this.chainId : null,
      execution_mode: this.enabled ? 'serial' : null,
      pid: process.pid,
      updated_at_unix_ns: this.updatedAt === 0n ? BigInt(Date.now()) * 1_000_000n : this.updatedAt,
      global_metrics: global,
      recent_blocks: this.enabled ? this.recent : [],
      parallel_execution_enabled: false,
      parallel_execution_workers: 0,
      parallel_execution_min_transactions: 8,
      parallel_execution_max_speculative_waves: 4,
      parallel_execution_min_wave_acceptance_ratio: 0.25,
      parallel_execution_low_acceptance_min_wave_size: 8,
      parallel_execution_access_estimates_enabled: true,
    };
  }

  /** The latest block's record, for the metrics endpoint. */
  latest(): { height: number; tx_count: number; duration_ms: number } | undefined {
    return this.recent[this.recent.length - 1];
  }
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function statJson(s: Stat): Record<string, number | null> {
  if (s.count === 0) return { count: 0, total_ms: null, avg_ms: null, min_ms: null, max_ms: null, p95_ms: null, recent_sample_count: 0 };
  const sorted = [...s.samples].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]!;
  return {
    count: s.count,
    total_ms: round(s.total),
    avg_ms: round(s.total / s.count),
    min_ms: round(s.min),
    max_ms: round(s.max),
    p95_ms: round(p95),
    recent_sample_count: s.samples.length,
  };
}
