import { Worker } from 'node:worker_threads';

/**
 * The benchmarks' load generator: a fixed number of POSTs over keep-alive sockets, from a worker
 * thread so the client's own work does not share the event loop of an in-process server.
 * Each call starts a fresh worker whose code is not yet optimised: rounds of a few thousand
 * requests measure that client more than the server (both sides of a ratio then look alike),
 * so the HTTP benchmarks send tens of thousands per round.
 */
const LOAD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, headers, body, count, concurrency } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const target = new URL(url);
let sent = 0, failed = 0, firstFailure = null;
function one() {
  return new Promise((resolve) => {
    const req = http.request({ agent, hostname: target.hostname, port: target.port, path: target.pathname + target.search, method: 'POST',
      headers: { 'content-type': 'application/json', ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => { if (res.statusCode !== 200) chunks.push(c); });
      res.on('end', () => {
        if (res.statusCode !== 200) { failed++; firstFailure ??= res.statusCode + ' ' + Buffer.concat(chunks).toString().slice(0, 200); }
        resolve();
      });
    });
    req.on('error', (e) => { failed++; firstFailure ??= e.message; resolve(); });
    req.end(body);
  });
}
async function lane() { while (sent < count) { sent++; await one(); } }
const started = process.hrtime.bigint();
Promise.all(Array.from({ length: concurrency }, lane)).then(() => {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  agent.destroy();
  parentPort.postMessage({ ms, failed, firstFailure });
});
`;

export interface PostLoad {
  url: string;
  body: string;
  count: number;
  concurrency: number;
  headers?: Record<string, string>;
}

/** Sends the load and resolves with requests per second; any non-200 answer fails the benchmark. */
export function postLoad(load: PostLoad): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD_WORKER, { eval: true, workerData: { headers: {}, ...load } });
    worker.once('message', (m: { ms: number; failed: number; firstFailure: string | null }) => {
      if (m.failed) reject(new Error(`${m.failed} of ${load.count} requests to ${load.url} failed; first: ${m.firstFailure}`));
      else resolve(load.count / (m.ms / 1000));
    });
    worker.once('error', reject);
  });
}

/**
 * A timed variant: each request's body is `body` with every `__ID__` replaced by a number unique
 * to that request (JSON-RPC ids must not repeat on one MCP session), and every request's
 * latency is kept, so a benchmark reports the median beside the throughput.
 */
const TIMED_LOAD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, headers, body, count, concurrency } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const target = new URL(url);
const latencies = new Float64Array(count);
let sent = 0, failed = 0, firstFailure = null;
function one(n) {
  const payload = body.split('__ID__').join(String(n + 1));
  const t0 = process.hrtime.bigint();
  return new Promise((resolve) => {
    const req = http.request({ agent, hostname: target.hostname, port: target.port, path: target.pathname + target.search, method: 'POST',
      headers: { 'content-type': 'application/json', ...headers, 'content-length': Buffer.byteLength(payload) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        latencies[n] = Number(process.hrtime.bigint() - t0) / 1e6;
        const text = Buffer.concat(chunks).toString();
        if (res.statusCode !== 200 || text.includes('"isError":true') || text.includes('"error":{')) { failed++; firstFailure ??= res.statusCode + ' ' + text.slice(0, 300); }
        resolve();
      });
    });
    req.on('error', (e) => { failed++; firstFailure ??= e.message; resolve(); });
    req.end(payload);
  });
}
async function lane() { while (sent < count) { await one(sent++); } }
const started = process.hrtime.bigint();
Promise.all(Array.from({ length: concurrency }, lane)).then(() => {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  agent.destroy();
  const sorted = Array.from(latencies).sort((a, b) => a - b);
  parentPort.postMessage({ ms, failed, firstFailure, p50: sorted[Math.floor(sorted.length / 2)] });
});
`;

/** Like postLoad, but numbered bodies (`__ID__`), answers checked for JSON-RPC or tool errors, and the median latency. */
export function postLoadTimed(load: PostLoad): Promise<{ reqPerSec: number; p50Ms: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(TIMED_LOAD_WORKER, { eval: true, workerData: { headers: {}, ...load } });
    worker.once('message', (m: { ms: number; failed: number; firstFailure: string | null; p50: number }) => {
      if (m.failed) reject(new Error(`${m.failed} of ${load.count} requests to ${load.url} failed; first: ${m.firstFailure}`));
      else resolve({ reqPerSec: load.count / (m.ms / 1000), p50Ms: m.p50 });
    });
    worker.once('error', reject);
  });
}
