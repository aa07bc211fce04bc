/** One measured figure, optionally against a baseline measured in the same run. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  baseline?: { name: string; value: number };
  /** How many times slower than the baseline (for throughput: baseline ÷ value; for latency: value ÷ baseline). */
  ratio?: number;
  /** The goal in words, e.g. `ratio ≤ 1.3`. */
  target?: string;
}

function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 100) return n.toFixed(0);
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

/** Renders results as an aligned text table. */
export function formatTable(results: readonly BenchResult[]): string {
  const header = ['benchmark', 'value', 'baseline', 'ratio', 'target'];
  const rows = results.map((r) => [
    r.name,
    `${fmt(r.value)} ${r.unit}`,
    r.baseline ? `${fmt(r.baseline.value)} ${r.unit} (${r.baseline.name})` : '',
    r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}×`,
    r.target ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export function printTable(results: readonly BenchResult[]): void {
  process.stdout.write(formatTable(results) + '\n');
}
