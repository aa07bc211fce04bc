import { Worker } from 'node:worker_threads';

/**
 * Fires a batch of HTTP requests all at once (one connection each, no agent queue) from a
 * worker thread, so the load does not share the event loop of the in-process servers it hits,
 * and reports every answer. A request with no complete answer by `deadlineMs` is destroyed and
 * reported as hung: an overloaded server must refuse, never leave a socket hanging.
 */
export interface BurstRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface BurstResult {
  request: BurstRequest;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The first 4 KB of the body. */
  text: string;
  ms: number;
  /** A socket error, or `hung` past the deadline (status 0 then). */
  error?: string;
}

const BURST_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { requests, deadlineMs } = workerData;
function one(spec) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
    let settled = false;
    const finish = (result) => { if (!settled) { settled = true; clearTimeout(timer); resolve({ ms: ms(), ...result }); } };
    const headers = { ...(spec.headers || {}) };
    if (spec.body !== undefined) headers['content-length'] = Buffer.byteLength(spec.body);
    const req = http.request(spec.url, { method: spec.method || 'GET', headers, agent: false }, (res) => {
      const chunks = [];
      let size = 0;
      res.on('data', (c) => { if (size < 4096) { chunks.push(c); size += c.length; } });
      res.on('end', () => finish({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8').slice(0, 4096) }));
      res.on('error', (e) => finish({ status: 0, headers: {}, text: '', error: e.message }));
    });
    const timer = setTimeout(() => { finish({ status: 0, headers: {}, text: '', error: 'hung' }); req.destroy(); }, deadlineMs);
    req.on('error', (e) => finish({ status: 0, headers: {}, text: '', error: e.message }));
    req.end(spec.body);
  });
}
Promise.all(requests.map(one)).then((results) => parentPort.postMessage(results));
`;

export function httpBurst(requests: BurstRequest[], deadlineMs: number): Promise<BurstResult[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(BURST_WORKER, { eval: true, workerData: { requests, deadlineMs } });
    worker.once('message', (results: Array<Omit<BurstResult, 'request'>>) => {
      void worker.terminate();
      resolve(results.map((r, i) => ({ request: requests[i]!, ...r })));
    });
    worker.once('error', reject);
  });
}
