import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { mainThreadClock } from './main-thread-clock.js';

/**
 * Loaded into a `chain-host` child (`--import`) by tests that measure the work a request costs
 * the host rather than how long it took: on a busy machine wall time is mostly waiting for a
 * core, CPU time is not. It serves, on its own loopback port (printed to stderr as
 * `host-work-probe: <url>`), `GET /?reset=1` →
 *
 * - `cpuMs`: the process's CPU time (user + system) since the last reset;
 * - `maxBurstMs`: the most CPU the main thread used between two consecutive turns of a 2 ms
 *   timer since the last reset — how long the event loop ran without turning, counted in CPU
 *   time, so a request that blocks the loop shows here whatever the machine's load, and time the
 *   process spent waiting for a core does not. Only the main thread's CPU counts (Linux:
 *   /proc/self/task/<pid>/schedstat, in nanoseconds): the process's CPU also holds worker
 *   threads and V8's GC helpers, which run while the loop turns — and on a busy machine, while
 *   the main thread waits for a core, they piled up into "bursts" of 30–50 ms of a loop that was
 *   idle. Elsewhere it falls back to the process's CPU;
 * - `loopDelayP99Ms`, `loopDelayMaxMs`: Node's event-loop delay histogram (wall clock; for
 *   figures only, it includes the waiting).
 *
 * Reading it costs the host a fraction of a millisecond of CPU.
 */
const TICK_MS = 2;
const mainThreadCpuMs = mainThreadClock();
let last = mainThreadCpuMs();
let base = process.cpuUsage();
let maxBurstMs = 0;
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();

const ticker = setInterval(() => {
  const now = mainThreadCpuMs();
  if (now - last > maxBurstMs) maxBurstMs = now - last;
  last = now;
}, TICK_MS);
ticker.unref();

const server = http.createServer((req, res) => {
  const now = process.cpuUsage();
  const thread = mainThreadCpuMs();
  // The CPU since the last tick counts as a burst too: it ran before this request was read.
  const pending = thread - last;
  const reading = {
    cpuMs: (now.user - base.user + now.system - base.system) / 1_000,
    maxBurstMs: Math.max(maxBurstMs, pending),
    loopDelayP99Ms: delay.percentile(99) / 1e6,
    loopDelayMaxMs: delay.max / 1e6,
  };
  if ((req.url ?? '').includes('reset=1')) {
    base = now;
    last = thread;
    maxBurstMs = 0;
    delay.reset();
  }
  const body = JSON.stringify(reading);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stderr.write(`host-work-probe: http://127.0.0.1:${address.port}\n`);
});
server.unref();
