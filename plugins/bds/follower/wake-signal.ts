/** A sleep that a `wake()` cuts short: loops wait on it between passes and are nudged when work arrives. */
export class WakeSignal {
  private waiters: Array<() => void> = [];
  private pending = false;

  /** Resolves after `ms`, or at the next `wake()` (or at once if woken since the last wait). */
  wait(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.push(done);
    });
  }

  wake(): void {
    if (!this.waiters.length) {
      this.pending = true;
      return;
    }
    for (const w of [...this.waiters]) w();
  }
}
