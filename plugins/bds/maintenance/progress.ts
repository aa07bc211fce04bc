import cliProgress from 'cli-progress';

/**
 * Progress of a long maintenance run: a bar with rate and ETA on a TTY (cli-progress), plain
 * lines on stderr otherwise (logs, CI) — at most one every `intervalMs`, plus the last one.
 * Every figure names what it counts: the run's own unit (`blocks`, `tables`, `rows`) and, for
 * secondary counts, the key they are given under (`{ txs: 120 }` → "120 txs (30 txs/s)").
 */
export interface Progress {
  start(total: number, label: string, unit: string): void;
  update(done: number, counts?: Record<string, number>): void;
  stop(): void;
}

export function createProgress(options: { tty?: boolean; write?: (line: string) => void; intervalMs?: number } = {}): Progress {
  const tty = options.tty ?? Boolean(process.stderr.isTTY);
  return tty ? new BarProgress() : new LineProgress(options.write ?? ((l) => process.stderr.write(l + '\n')), options.intervalMs ?? 2000);
}

/** "120 txs (30 txs/s)" for each secondary count. */
function describeCounts(counts: Record<string, number>, seconds: number): string {
  return Object.entries(counts).map(([unit, n]) => `, ${n} ${unit} (${(n / seconds).toFixed(0)} ${unit}/s)`).join('');
}

class BarProgress implements Progress {
  private bar: cliProgress.SingleBar | null = null;
  private started = Date.now();

  start(total: number, label: string, unit: string): void {
    this.bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {rate} ${unit}/s{counts} | ETA {eta_formatted}`, stream: process.stderr, etaBuffer: 50 },
      cliProgress.Presets.shades_classic,
    );
    this.bar.start(total, 0, { rate: '0', counts: '' });
    this.started = Date.now();
  }

  update(done: number, counts: Record<string, number> = {}): void {
    const seconds = Math.max((Date.now() - this.started) / 1000, 0.001);
    this.bar?.update(done, { rate: (done / seconds).toFixed(1), counts: describeCounts(counts, seconds) });
  }

  stop(): void {
    this.bar?.stop();
  }
}

class LineProgress implements Progress {
  private total = 0;
  private label = '';
  private unit = '';
  private started = Date.now();
  private last = 0;
  private done = 0;
  private counts: Record<string, number> = {};

  constructor(private readonly write: (line: string) => void, private readonly intervalMs: number) {}

  start(total: number, label: string, unit: string): void {
    this.total = total;
    this.label = label;
    this.unit = unit;
    this.started = Date.now();
    this.write(`${label}: ${total} ${unit} to go`);
  }

  update(done: number, counts: Record<string, number> = {}): void {
    this.done = done;
    this.counts = { ...this.counts, ...counts };
    if (Date.now() - this.last >= this.intervalMs) this.print();
  }

  stop(): void {
    this.print();
  }

  private print(): void {
    this.last = Date.now();
    const seconds = Math.max((Date.now() - this.started) / 1000, 0.001);
    const rate = this.done / seconds;
    const eta = rate > 0 ? Math.ceil((this.total - this.done) / rate) : null;
    const pct = this.total ? ((100 * this.done) / this.total).toFixed(1) : '100.0';
    this.write(`${this.label}: ${this.done}/${this.total} ${this.unit} (${pct}%) ${rate.toFixed(1)} ${this.unit}/s${describeCounts(this.counts, seconds)} ETA ${eta === null ? '?' : `${eta}s`}`);
  }
}
