import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError } from '../../../core/errors.js';
import { MAX_JSON_DEPTH, MAX_JSON_VALUES, readJsonRequest } from '../../../core/http/json-body.js';
import { cpuTimeOf } from '../../support/cpu-time.js';
import { request } from '../../support/test-host.js';

/** Request bodies: a deeply nested or very wide body is refused by a linear scan before JSON.parse (issue #19). */
describe('JSON request bodies', () => {
  let server: http.Server;
  let url: string;
  before(async () => {
    server = http.createServer(async (req, res) => {
      try {
        const value = await readJsonRequest(req, 2 * 1024 * 1024);
        res.writeHead(200).end(JSON.stringify({ ok: true, type: typeof value }));
      } catch (err) {
        const e = err as ApiError;
        res.writeHead(e.status ?? 500).end(JSON.stringify(e.toBody?.() ?? { error: String(err) }));
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  const post = (body: string) => request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it(`accepts nesting up to ${MAX_JSON_DEPTH} levels, brackets inside strings not counted`, async () => {
    const deep = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    assert.equal((await post(deep)).status, 200);
    assert.equal((await post(JSON.stringify({ text: '['.repeat(5000) + '\\"[' }))).status, 200);
  });

  it('refuses a 1 MiB body of nested arrays with 400 invalid_json naming the limit, quickly', async () => {
    const depth = 512 * 1024;
    const body = `{"height":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const { ms, value: r } = await cpuTimeOf(() => post(body));
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.error.code, 'invalid_json');
    assert.match(r.json.error.message, new RegExp(`deeper than ${MAX_JSON_DEPTH} levels`));
    assert.ok(ms < 2_000, `took ${ms.toFixed(0)} ms of CPU (server and client both run here)`);
  });

  it(`accepts ${MAX_JSON_VALUES - 1} values and refuses a 1 MiB object of 70,000 keys with 400 before parsing it`, async () => {
    const within = JSON.stringify(Array.from({ length: MAX_JSON_VALUES - 1 }, (_, i) => i));
    assert.equal((await post(within)).status, 200);
    assert.equal((await post(JSON.stringify({ text: ','.repeat(50_000) }))).status, 200, 'commas inside strings do not count');
    const wide = `{${Array.from({ length: 70_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    const r = await post(wide);
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.error.code, 'invalid_json');
    assert.match(r.json.error.message, new RegExp(`more than ${MAX_JSON_VALUES} JSON values`));
  });

  /** Sends `parts` as separate writes of one request whose body never ends; resolves with the answer. */
  function sendUnended(parts: string[], declared: number): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': declared } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, text });
          req.destroy();
        });
      });
      req.on('error', reject);
      for (const part of parts) req.write(part);
    });
  }

  it('refuses a body too deep at the byte that makes it so, without waiting for (or buffering) the rest', async () => {
    // The object's brace is level 1, so level 129 is bracket 128, byte 137. The body declares
    // 1 MiB and sends only its first 200 brackets: before the scan ran as
    // chunks arrived, the server waited for the rest (this test's timeout caught that hang).
    const answer = await sendUnended(['{"height":' + '['.repeat(200)], 1024 * 1024);
    assert.equal(answer.status, 400, answer.text);
    assert.match(JSON.parse(answer.text).error.message, new RegExp(`deeper than ${MAX_JSON_DEPTH} levels \\(at byte ${9 + MAX_JSON_DEPTH}\\)`));
  });

  it('keeps its place across chunks: an escape split between two chunks, brackets inside the string', async () => {
    const server2 = http.createServer(async (req, res) => {
      const value = await readJsonRequest(req, 1024 * 1024).catch((err: ApiError) => err);
      res.writeHead(value instanceof ApiError ? value.status : 200).end(JSON.stringify(value instanceof ApiError ? value.toBody() : value));
    });
    await new Promise<void>((r) => server2.listen(0, '127.0.0.1', r));
    try {
      const target = `http://127.0.0.1:${(server2.address() as AddressInfo).port}/`;
      const parts = ['{"text":"a\\', '"' + '['.repeat(300) + '"}'];
      const body = parts.join('');
      const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.request(target, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on('error', reject);
        req.write(parts[0]);
        // A separate write after a pause arrives as its own chunk.
        setTimeout(() => req.end(parts[1]), 50);
      });
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(JSON.parse(answer.text), { text: 'a"' + '['.repeat(300) });
    } finally {
      await new Promise<void>((r) => server2.close(() => r()));
    }
  });
});
