import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Loaded into a `chain-host` child (`--import`) by tests that measure the work a request costs
 * the host rather than how long it took: on a busy machine wall time is mostly waiting for a
 * core, CPU time is not. It serves, on its own loopback port (printed to stderr as
 * `host-work-probe: <url>`), `GET /?reset=1` →
 *
 * - `cpuMs`: the process's CPU time (user + system) since the last reset;
 * - `maxBurstMs`: the most CPU the process used between two consecutive turns of a 2 ms timer
 *   since the last reset — how long the event loop ran without turning, counted in CPU time,
 *   so a request that blocks the loop shows here whatever the machine's load, and time the
 *   process spent waiting for a core does not;
 * - `loopDelayP99Ms`, `loopDelayMaxMs`: Node's event-loop delay histogram (wall clock; for
 *   figures only, it includes the waiting).
 *
 * Reading it costs the host a fraction of a millisecond of CPU.
 */
const TICK_MS = 2;
let last = process.cpuUsage();
let base = last;
let maxBurstMs = 0;
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();

const ticker = setInterval(() => {
  const now = process.cpuUsage();
  const burst = (now.user - last.user + now.system - last.system) / 1_000;
  if (burst > maxBurstMs) maxBurstMs = burst;
  last = now;
}, TICK_MS);
ticker.unref();

const server = http.createServer((req, res) => {
  const now = process.cpuUsage();
  // The CPU since the last tick counts as a burst too: it ran before this request was read.
  const pending = (now.user - last.user + now.system - last.system) / 1_000;
  const reading = {
    cpuMs: (now.user - base.user + now.system - base.system) / 1_000,
    maxBurstMs: Math.max(maxBurstMs, pending),
    loopDelayP99Ms: delay.percentile(99) / 1e6,
    loopDelayMaxMs: delay.max / 1e6,
  };
  if ((req.url ?? '').includes('reset=1')) {
    base = now;
    last = now;
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
