import { ApiError } from '../../core/errors.js';

/**
 * Caps the tool calls in flight on the HTTP tool server (POST /tools/{name} and POST /mcp). A
 * call beyond the cap is refused at once with 429 and Retry-After instead of queueing: a caller
 * that floods the server learns about it, and the calls already running keep their latency.
 * enter()/leave() rather than a middleware, so the hot path pays no extra promise.
 */
export class CallLimit {
  private inFlight = 0;

  constructor(readonly maxInFlight: number) {}

  /** Takes a slot or throws 429; pair every successful enter() with one leave(). */
  enter(): void {
    if (this.inFlight >= this.maxInFlight) {
      throw new ApiError(429, 'rate_limited', `too many tool calls in flight (at most ${this.maxInFlight}); retry shortly`,
        { max_in_flight: this.maxInFlight }, { 'Retry-After': '1' });
    }
    this.inFlight++;
  }

  leave(): void {
    this.inFlight--;
  }
}
