import type Koa from 'koa';
import ratelimit from 'koa-ratelimit';
import type { CountRefusal } from 'chainhost/chain';
import { ApiError } from 'chainhost/plugin';
import type { DashboardOptions } from '../dashboard.config.js';
import { BoundedClientMap } from './bounded-client-map.js';
import type { SharedLimitStore } from './rate-limit.js';

/**
 * Spec 5.7: `simulate_tx` must not be an unrestricted public endpoint. On top of the expensive
 * class and the node's own simulation caps, dry runs through the dashboard get:
 * - a per-client fixed window (koa-ratelimit's memory driver; its `db` is a BoundedClientMap,
 *   because the driver alone never forgets a client; with Redis, its redis driver, shared by
 *   every replica and falling back to the memory window while Redis does not answer),
 * - a concurrency cap over all clients (503 + Retry-After when full),
 * - a wall-clock deadline per dry run (504).
 */
export class SimulateGuard {
  private running = 0;
  /** This process's window: the only one without Redis, the fallback while Redis does not answer. */
  private readonly localWindow: Koa.Middleware;
  /** The window every replica shares through Redis (koa-ratelimit's redis driver), when configured. */
  private readonly sharedWindow: Koa.Middleware | null;
  private degraded = false;

  constructor(
    private readonly options: DashboardOptions['simulate'],
    maxTrackedClients: number,
    private readonly onRefusal: CountRefusal<'rate_limited' | 'capacity' | 'timeout'> = () => undefined,
    private readonly shared: SharedLimitStore | null = null,
  ) {
    const common = {
      duration: options.windowMs,
      max: options.maxPerWindow,
      id: (ctx: Koa.Context) => String(ctx.state.clientKey ?? 'unknown'),
      headers: { remaining: 'X-Simulate-Limit-Remaining', reset: 'X-Simulate-Limit-Reset', total: 'X-Simulate-Limit-Total' },
    };
    this.localWindow = ratelimit({ ...common, driver: 'memory', db: new BoundedClientMap<unknown>(maxTrackedClients, options.windowMs), namespace: 'simulate' });
    this.sharedWindow = shared ? ratelimit({ ...common, driver: 'redis', db: shared.redis, namespace: `${shared.prefix}simulate` }) : null;
  }

  get inFlight(): number {
    return this.running;
  }

  private sharedFailed(err: unknown): void {
    if (this.degraded) return;
    this.degraded = true;
    this.shared?.log?.warn('Redis does not answer: the dry-run window is per process until it is back', { reason: err instanceof Error ? err.message : String(err) });
  }

  private sharedAnswered(): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.shared?.log?.info('Redis answers again: the dry-run window is shared again');
  }

  /** Checks the per-client window; throws the 429 in the dashboard's error shape. */
  async checkWindow(ctx: Koa.Context): Promise<void> {
    let passed = false;
    const pass = async () => {
      passed = true;
    };
    if (this.sharedWindow) {
      try {
        await this.sharedWindow(ctx, pass);
        this.sharedAnswered();
      } catch (err) {
        this.sharedFailed(err);
        await this.localWindow(ctx, pass);
      }
    } else {
      await this.localWindow(ctx, pass);
    }
    if (passed) return;
    this.onRefusal('rate_limited');
    const state = ctx.state.rateLimit as { after?: number } | undefined;
    const retryAfter = Math.max(1, Math.ceil(state?.after ?? 1));
    throw new ApiError(
      429,
      'rate_limited',
      `dry-run limit exceeded: at most ${this.options.maxPerWindow} simulate_tx calls per ${this.options.windowMs / 1000} s per client; retry in ${retryAfter} s`,
      { limit_class: 'simulate', retry_after: retryAfter, max_per_window: this.options.maxPerWindow, window_ms: this.options.windowMs },
      { 'Retry-After': String(retryAfter) },
    );
  }

  /**
   * Runs one dry run under the concurrency cap and the deadline. The signal aborts the node
   * call at the deadline; the slot is held until the call really settles, so a node that
   * ignores the abort still counts against the cap.
   */
  async run<T>(dryRun: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.running >= this.options.maxConcurrent) {
      this.onRefusal('capacity');
      throw ApiError.busy(`dry-run capacity exceeded: ${this.options.maxConcurrent} simulate_tx calls are already running; retry in a second`, 1);
    }
    this.running++;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort(new DOMException('dry run deadline passed', 'TimeoutError'));
        reject(new ApiError(504, 'timeout', `the dry run did not finish within ${this.options.timeoutMs} ms; simplify the call or retry later`, { timeout_ms: this.options.timeoutMs }));
      }, this.options.timeoutMs);
    });
    const work = Promise.resolve()
      .then(() => dryRun(controller.signal))
      .finally(() => {
        this.running--;
      });
    work.catch(() => undefined); // settled after the deadline: nobody is waiting any more
    try {
      return await Promise.race([work, timeout]);
    } catch (err) {
      // The deadline, or the node call's own timeout reached first: either way the run timed out.
      if (err instanceof ApiError && err.status === 504) this.onRefusal('timeout');
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }
}
