import cliProgress from 'cli-progress';

/**
 * Progress of a long maintenance run: a bar with rate and ETA on a TTY (cli-progress), plain
 * lines on stderr otherwise (logs, CI) — at most one every `intervalMs`, plus the last one.
 */
export interface Progress {
  start(total: number, label: string): void;
  update(done: number, extra?: { txs?: number }): void;
  stop(): void;
}

export function createProgress(options: { tty?: boolean; write?: (line: string) => void; intervalMs?: number } = {}): Progress {
  const tty = options.tty ?? Boolean(process.stderr.isTTY);
  return tty ? new BarProgress() : new LineProgress(options.write ?? ((l) => process.stderr.write(l + '\n')), options.intervalMs ?? 2000);
}

class BarProgress implements Progress {
  private bar: cliProgress.SingleBar | null = null;

  start(total: number, label: string): void {
    this.bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {percentage}% | {value}/{total} | {rate}/s | {txs} txs | ETA {eta_formatted}`, stream: process.stderr, etaBuffer: 50 },
      cliProgress.Presets.shades_classic,
    );
    this.bar.start(total, 0, { rate: '0', txs: 0 });
    this.started = Date.now();
  }

  private started = Date.now();

  update(done: number, extra: { txs?: number } = {}): void {
    const seconds = Math.max((Date.now() - this.started) / 1000, 0.001);
    this.bar?.update(done, { rate: (done / seconds).toFixed(1), txs: extra.txs ?? 0 });
  }

  stop(): void {
    this.bar?.stop();
  }
}

class LineProgress implements Progress {
  private total = 0;
  private label = '';
  private started = Date.now();
  private last = 0;
  private done = 0;
  private txs = 0;

  constructor(private readonly write: (line: string) => void, private readonly intervalMs: number) {}

  start(total: number, label: string): void {
    this.total = total;
    this.label = label;
    this.started = Date.now();
    this.write(`${label}: ${total} to go`);
  }

  update(done: number, extra: { txs?: number } = {}): void {
    this.done = done;
    this.txs = extra.txs ?? this.txs;
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
    this.write(`${this.label}: ${this.done}/${this.total} (${pct}%) ${rate.toFixed(1)}/s ${(this.txs / seconds).toFixed(0)} tx/s ETA ${eta === null ? '?' : `${eta}s`}`);
  }
}
