/** The sample at rank ⌊p% × n⌋ of ascending latencies (the last one for p = 100): p50 and p99 of the latency benchmarks. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
