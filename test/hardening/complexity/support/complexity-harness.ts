import assert from 'node:assert/strict';
import { percentile, probeStatusWhile, readHostWork, repeatFor, startFullStack, watchHost, type FullStack, type HostWork } from '../../../support/full-stack.js';

export { percentile, probeStatusWhile, readHostWork, repeatFor, watchHost, type FullStack, type HostWork };

/**
 * The complexity fuzzer's shared harness (issues #19 and #30). One full stack, as `npm start`
 * runs it — `chain-host` in a child process with the devnet's node RPC, BDS on PGlite, GraphQL,
 * the dashboard and the HTTP tool server — shared by every surface's test. For each surface a
 * test sends generated worst-case inputs of growing size under that surface's size cap.
 *
 * Everything it asserts is the host's own work, read from inside the host process by
 * test/support/host-work-probe.ts, never wall time: on a busy machine (CI beside other jobs, both
 * cores taken) a request waits for a core far longer than it runs, and a wall-clock bound fails
 * by noise (23 such failures in one busy CI run, issue #30). A test fails when
 * - one request costs the host more than REQUEST_BUDGET_MS of CPU time,
 * - that CPU time grows faster than linearly in the input size (beyond LINEAR_SLACK × the size ratio),
 * - or while the largest input is in flight, the host's event loop runs longer without turning
 *   (its longest CPU burst) than in a same-run baseline by BURST_BUDGET_MS or more: the stall
 *   every other surface of the process would see.
 *
 * Node `/status` is still probed from a worker thread during both phases; its p99 figures are
 * reported (and measured against a same-run baseline in bench/hostile-clients.ts), not asserted.
 */
/** CPU time of the host for one request; a stall of this size is what the fuzzer exists to catch. */
export const REQUEST_BUDGET_MS = 1_000;
/** How much longer the host's longest event-loop burst may get while the hostile input is in flight. */
export const BURST_BUDGET_MS = 50;
/** How much worse than proportional a size step may be (GC, caches shared with a busy machine). */
export const LINEAR_SLACK = 4;
/** CPU times under this are treated as this: the probe's own reads and background timers carry no growth signal. */
const NOISE_FLOOR_MS = 8;
/** How long the largest input is kept in flight (repeated) while the host is watched. */
const ISOLATION_WINDOW_MS = 1_500;

let shared: Promise<FullStack> | null = null;
let cleanup: (() => Promise<void>) | null = null;

/** The full stack (test/support/full-stack.ts), started on first use and stopped after the whole run. */
export function fullStack(): Promise<FullStack> {
  shared ??= startFullStack().then(({ stack, stop }) => {
    cleanup = stop;
    return stack;
  });
  return shared;
}

// A root-level hook: the shared stack outlives every surface's describe and goes with the run.
after(async () => {
  await cleanup?.();
});

/** What one request answered: enough to check it was a bounded, well-formed answer. */
export interface Answer {
  status: number;
  text: string;
}

export interface GrowthCase<I> {
  /** Input sizes, ascending; the last is at (or just under) the surface's cap. */
  sizes: readonly number[];
  input(size: number): I;
  send(input: I): Promise<Answer>;
  /** Checks one answer (e.g. a 4xx with a message, never a 5xx); throws to fail. */
  check?(answer: Answer, size: number): void;
  /** A 5xx this surface documents as a refusal (CometBFT answers JSON-RPC errors with HTTP 500). */
  documentedServerError?(answer: Answer): boolean;
  /** CPU time of the host for one request (default REQUEST_BUDGET_MS). */
  budgetMs?: number;
}

export interface Isolation {
  /** Node /status p99 (wall clock, from a worker thread) while the work ran; a figure, not a verdict. */
  statusP99Ms: number;
  statusSamples: number;
  /** /status p99 during the baseline, measured just before. */
  idleP99Ms: number;
  /** The host's longest CPU burst while the work ran, and during the baseline. */
  burstMs: number;
  idleBurstMs: number;
}

export interface GrowthResult extends Isolation {
  /** Host CPU time of one request per size (best of up to 3). */
  points: Array<{ size: number; ms: number }>;
}

/** The CPU time the host spent while `work` ran (sequential work only: nothing else is in flight). */
export async function hostCpuDuring<T>(stack: FullStack, work: () => Promise<T>): Promise<{ cpuMs: number; value: T }> {
  await readHostWork(stack, true);
  const value = await work();
  return { cpuMs: (await readHostWork(stack)).cpuMs, value };
}

/**
 * Sends each size (best of 3, so one GC pause is not growth), checks every answer, the CPU
 * budget and the growth, then keeps the largest input in flight while the host is watched.
 */
export async function assertBoundedGrowth<I>(stack: FullStack, c: GrowthCase<I>): Promise<GrowthResult> {
  const budget = c.budgetMs ?? REQUEST_BUDGET_MS;
  const points: Array<{ size: number; ms: number }> = [];
  for (const size of c.sizes) {
    const input = c.input(size);
    let best = Infinity;
    for (let run = 0; run < 3; run++) {
      const { cpuMs: ms, value: answer } = await hostCpuDuring(stack, () => c.send(input));
      assert.ok(answer.status < 500 || c.documentedServerError?.(answer), `size ${size}: answered ${answer.status} ${answer.text.slice(0, 300)}`);
      c.check?.(answer, size);
      assert.ok(ms <= budget, `size ${size}: one request cost the host ${ms.toFixed(0)} ms of CPU, budget ${budget} ms (so far: ${describePoints(points)})`);
      best = Math.min(best, ms);
      if (best < NOISE_FLOOR_MS) break;
    }
    points.push({ size, ms: best });
  }
  assertLinear(points);
  const largest = c.input(c.sizes[c.sizes.length - 1]!);
  const isolation = await assertIsolated(stack, () => repeatFor(ISOLATION_WINDOW_MS, () => c.send(largest)));
  return { points, ...isolation };
}

/**
 * Watches the host during `baseline` (by default: nothing in flight for a second), then while
 * `work` runs; fails when the host's longest CPU burst during the work is BURST_BUDGET_MS or
 * more above the baseline's. /status is probed in both phases for the figures.
 */
export async function assertIsolated(stack: FullStack, work: () => Promise<void>, baseline: () => Promise<void> = () => new Promise((r) => setTimeout(r, 1_000))): Promise<Isolation> {
  const idle = await watchHost(stack, baseline);
  const busy = await watchHost(stack, work);
  const isolation: Isolation = {
    statusP99Ms: percentile(busy.samples, 0.99), statusSamples: busy.samples.length, idleP99Ms: percentile(idle.samples, 0.99),
    burstMs: busy.work.maxBurstMs, idleBurstMs: idle.work.maxBurstMs,
  };
  assert.ok(isolation.burstMs < BURST_BUDGET_MS + isolation.idleBurstMs,
    `the host's event loop ran ${isolation.burstMs.toFixed(1)} ms of CPU without turning while the input was in flight; baseline ${isolation.idleBurstMs.toFixed(1)} ms (bound: baseline + ${BURST_BUDGET_MS} ms). /status p99 ${isolation.statusP99Ms.toFixed(1)} ms (baseline ${isolation.idleP99Ms.toFixed(1)} ms)`);
  return isolation;
}

/** Fails when some size step costs more than LINEAR_SLACK × proportionally. */
export function assertLinear(points: ReadonlyArray<{ size: number; ms: number }>): void {
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const a = points[i]!;
      const b = points[j]!;
      const timeRatio = Math.max(b.ms, NOISE_FLOOR_MS) / Math.max(a.ms, NOISE_FLOOR_MS);
      const sizeRatio = b.size / a.size;
      assert.ok(timeRatio <= sizeRatio * LINEAR_SLACK,
        `time grows faster than linearly: size ${a.size} → ${b.size} (×${sizeRatio.toFixed(1)}) took ×${timeRatio.toFixed(1)} (${describePoints(points)})`);
    }
  }
}

function describePoints(points: ReadonlyArray<{ size: number; ms: number }>): string {
  return points.map((p) => `${p.size}: ${p.ms.toFixed(1)} ms`).join(', ') || 'none';
}

/**
 * A plain POST, answered as text. A server that refuses an oversized body by closing the
 * connection mid-upload answers status 0 (a refusal, not a crash: the probe shows the rest).
 */
export async function post(url: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<Answer> {
  try {
    const res = await fetch(url, { method: 'POST', headers, body });
    return { status: res.status, text: await res.text() };
  } catch (err) {
    return { status: 0, text: `connection closed: ${(err as Error).message}` };
  }
}

export async function get(url: string): Promise<Answer> {
  const res = await fetch(url);
  return { status: res.status, text: await res.text() };
}

/** Figures of each surface, printed for docs/operations.md. */
export function report(surface: string, r: GrowthResult): void {
  const growth = r.points.length ? `host CPU ${r.points.map((p) => `${p.size}→${p.ms.toFixed(1)}ms`).join(' ')}; ` : '';
  process.stderr.write(`complexity ${surface}: ${growth}longest loop burst ${r.burstMs.toFixed(1)} ms (baseline ${r.idleBurstMs.toFixed(1)} ms); /status p99 ${r.statusP99Ms.toFixed(1)} ms over ${r.statusSamples} (baseline ${r.idleP99Ms.toFixed(1)} ms)\n`);
}
