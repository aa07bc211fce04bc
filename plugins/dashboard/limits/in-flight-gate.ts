import type Koa from 'koa';
import { ApiError } from 'chainhost/plugin';
import { limitClassOf } from './limit-class.js';

/**
 * A global cap on requests being served at once (dashboard.md §5.2: 32). Every limited route
 * holds a slot until its handler settles; when none is free the answer is 503 with
 * `Retry-After: 1` — a full server sheds load instead of queueing it behind a slow node.
 */
export class InFlightGate {
  private active = 0;
  /** Requests refused since start. */
  refused = 0;

  constructor(readonly max: number) {}

  get inFlight(): number {
    return this.active;
  }

  tryEnter(): boolean {
    if (this.active >= this.max) {
      this.refused++;
      return false;
    }
    this.active++;
    return true;
  }

  leave(): void {
    this.active--;
  }

  middleware(): Koa.Middleware {
    return async (ctx, next) => {
      if (!limitClassOf(ctx.path)) return next();
      if (!this.tryEnter()) {
        throw ApiError.busy(`dashboard busy: ${this.max} requests are already in flight; retry in a second`, 1);
      }
      try {
        await next();
      } finally {
        this.leave();
      }
    };
  }
}
