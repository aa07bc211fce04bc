import { openSync, readSync } from 'node:fs';

/**
 * The main thread's CPU time in ms: the first field of its schedstat (Linux:
 * /proc/self/task/<pid>/schedstat, nanoseconds; one pread of an fd kept open, ~15 µs), or the
 * process's CPU time where /proc has no schedstat. Only the main thread counts: worker threads
 * and V8's GC helpers run while the event loop turns.
 */
export function mainThreadClock(): () => number {
  let fd: number;
  try {
    fd = openSync(`/proc/self/task/${process.pid}/schedstat`, 'r');
  } catch {
    return () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1_000;
    };
  }
  const buffer = Buffer.alloc(96);
  return () => {
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.toString('latin1', 0, n);
    return Number(text.slice(0, text.indexOf(' '))) / 1e6;
  };
}

/**
 * The longest the event loop ran without turning, counted in the main thread's CPU: the most CPU
 * it used between two consecutive turns of a 2 ms timer. Waiting for a core does not count, so
 * the reading is the same on a busy machine; a synchronous block of the loop shows whole.
 */
export class LoopBurstWatch {
  private readonly clock = mainThreadClock();
  private last = this.clock();
  private max = 0;
  private readonly ticker = setInterval(() => this.tick(), 2);

  /** The longest burst since the last reset, including the one running now. */
  get maxBurstMs(): number {
    return Math.max(this.max, this.clock() - this.last);
  }

  reset(): void {
    this.last = this.clock();
    this.max = 0;
  }

  stop(): void {
    clearInterval(this.ticker);
  }

  private tick(): void {
    const now = this.clock();
    if (now - this.last > this.max) this.max = now - this.last;
    this.last = now;
  }
}
