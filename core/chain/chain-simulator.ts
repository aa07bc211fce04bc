import { ApiError } from '../errors.js';
import { nodeCall } from '../tools/chain-schemas.js';
import { AbciValueError, type DecodedAbciQuery } from './abci-value.js';
import type { ChainNode } from './node.js';
import type { CountRefusal } from './simulation-refusals.js';
import { decodeSimulationResponse, simulationQueryPath, simulationRequestHex, type SimulationRequest, type SimulationResponse } from './simulation.js';

/**
 * The client-side cap (concurrency, queue, rate, timeout) in front of the node's dry run, as
 * the design's data flow asks: "tool or route → simulate caps → node simulate_tx".
 */

export interface SimulationLimits {
  /** Dry runs in flight at once (default 4). */
  maxConcurrency: number;
  /** Dry runs waiting for a slot; more are refused with 503 (default 64). */
  maxQueue: number;
  /** Per dry run, waiting included (default 10 s). */
  timeoutMs: number;
  /** Sustained dry runs per second; 0 = no rate cap (default 0). */
  ratePerSecond: number;
  /** Burst allowance of the rate cap (default 2 × rate). */
  burst?: number;
}

/** maxConcurrency 2 = the node's default `simulation_max_concurrency`, so one client does not trip the node's own cap. */
export const DEFAULT_SIMULATION_LIMITS: SimulationLimits = { maxConcurrency: 2, maxQueue: 256, timeoutMs: 10_000, ratePerSecond: 0 };

/** A capacity refusal from the node is retried this many times, with short growing pauses, within the timeout. */
const CAPACITY_RETRIES = 6;

/**
 * Sends dry runs to a node through the caps. Overload answers immediately (503 with
 * Retry-After) instead of queueing without bound; a run past `timeoutMs` is aborted (504).
 */
export class ChainSimulator {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private tokens: number;
  private refilledAt = performance.now();
  readonly limits: SimulationLimits;

  /** `onRefusal` is told of each dry run these caps refuse (the host's refusal counter). */
  constructor(
    private readonly node: ChainNode,
    limits: Partial<SimulationLimits> = {},
    private readonly onRefusal: CountRefusal<'rate_limited' | 'capacity' | 'timeout'> = () => undefined,
  ) {
    this.limits = { ...DEFAULT_SIMULATION_LIMITS, ...limits };
    this.tokens = this.burst;
  }

  private get burst(): number {
    return this.limits.burst ?? Math.max(1, this.limits.ratePerSecond * 2);
  }

  /** Runs one dry run; never throws for status 1 (that is a result), only for caps and node failures. */
  async simulate(request: SimulationRequest | string, options: { signal?: AbortSignal } = {}): Promise<SimulationResponse & { hex: string; query: DecodedAbciQuery }> {
    const hex = typeof request === 'string' ? request : simulationRequestHex(request);
    this.takeRateToken();
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => controller.abort(new Error('simulation timeout')), this.limits.timeoutMs);
    try {
      await this.acquire(controller.signal);
      try {
        const path = simulationQueryPath(hex);
        for (let attempt = 1; ; attempt++) {
          const query = await nodeCall('dry run (simulate_tx)', () => this.node.query(path, { signal: controller.signal, timeoutMs: this.limits.timeoutMs }));
          const response = decodeWithApiErrors(query, path);
          // Other clients share the node's dry-run slots: a capacity refusal is worth a short wait.
          if (response.refusal !== 'capacity' || attempt > CAPACITY_RETRIES) return { ...response, hex, query };
          await sleep(10 * 2 ** attempt, controller.signal);
        }
      } finally {
        this.release();
      }
    } catch (err) {
      if (controller.signal.aborted && !options.signal?.aborted) {
        this.onRefusal('timeout');
        throw ApiError.timeout(`dry run (simulate_tx) did not finish within ${this.limits.timeoutMs} ms`);
      }
      throw err;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  private takeRateToken(): void {
    const rate = this.limits.ratePerSecond;
    if (rate <= 0) return;
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * rate);
    this.refilledAt = now;
    if (this.tokens < 1) {
      this.onRefusal('rate_limited');
      throw ApiError.busy(`too many dry runs (limit ${rate}/s); retry shortly`, Math.max(1, Math.ceil((1 - this.tokens) / rate)));
    }
    this.tokens -= 1;
  }

  private acquire(signal: AbortSignal): Promise<void> {
    if (this.active < this.limits.maxConcurrency) {
      this.active++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.limits.maxQueue) {
      this.onRefusal('capacity');
      return Promise.reject(ApiError.busy(`too many dry runs in flight (${this.limits.maxConcurrency} running, ${this.waiting.length} waiting); retry shortly`, 1));
    }
    return new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(grant);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(grant);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next(); // the slot passes straight to the next waiter
    else this.active--;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function decodeWithApiErrors(query: DecodedAbciQuery, path: string): SimulationResponse {
  try {
    return decodeSimulationResponse(query, path);
  } catch (err) {
    if (err instanceof AbciValueError) throw new ApiError(502, 'node_error', `dry run (simulate_tx): ${err.message}`);
    throw new ApiError(502, 'node_error', `dry run (simulate_tx): ${(err as Error).message}`);
  }
}

/** One simulator per node, so every plugin's dry runs share the same caps. */
const simulators = new WeakMap<ChainNode, ChainSimulator>();

/** The first caller's limits and refusal counter make the node's simulator; later callers share it. */
export function chainSimulatorFor(node: ChainNode, limits: Partial<SimulationLimits> = {}, onRefusal?: CountRefusal<'rate_limited' | 'capacity' | 'timeout'>): ChainSimulator {
  let simulator = simulators.get(node);
  if (!simulator) simulators.set(node, (simulator = new ChainSimulator(node, limits, onRefusal)));
  return simulator;
}
