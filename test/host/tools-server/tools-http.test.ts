import assert from 'node:assert/strict';
import http from 'node:http';
import { bootTestHost, FIXTURE_PLUGIN, fixtureConfig, postJson, request, TEST_TOKEN, type TestHost } from '../../support/test-host.js';

/** Every error leaves in the one shape: {"error":{"code","message","details"}}. */
function assertErrorShape(body: any, code: string): void {
  assert.ok(body && typeof body === 'object' && body.error, `error body, got ${JSON.stringify(body)}`);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'details', 'message']);
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, 'string');
}

describe('HTTP tool API (spec part 4)', () => {
  let t: TestHost;
  before(async () => {
    t = await bootTestHost(fixtureConfig({ bodyLimitBytes: 4096 }));
  });
  after(() => t.stop());

  describe('GET /tools', () => {
    it('answers an array in upstream\'s shape: name, description, parameters, plus title, capability, annotations and JSON Schemas', async () => {
      const res = await request(t.url('/tools'));
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-type']), /application\/json/);
      const tools = res.json as any[];
      assert.deepEqual(tools.map((x) => x.name), ['echo_text', 'slow_tool']);
      const echo = tools[0];
      assert.deepEqual(Object.keys(echo).sort(), ['annotations', 'capability', 'description', 'input_schema', 'name', 'output_schema', 'parameters', 'title']);
      assert.ok(Array.isArray(res.json), 'an array, as upstream answers (mcp.md §7.1)');
      assert.deepEqual(echo.parameters, echo.input_schema);
      assert.equal(echo.capability, 'read');
      assert.deepEqual(echo.input_schema.properties.text, { type: 'string', maxLength: 10000, description: 'any text' });
      assert.deepEqual(echo.input_schema.required, ['text']);
      assert.equal(echo.input_schema.additionalProperties, false);
      assert.deepEqual(echo.output_schema, { type: 'object', required: ['text'] });
      assert.deepEqual(echo.annotations, { title: 'Echo text', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    });

    it('omits unsafe tools while they are disabled', async () => {
      const res = await request(t.url('/tools'));
      assert.ok(!res.json.some((x: { name: string }) => x.name === 'unsafe_probe'));
    });
  });

  describe('GET /health', () => {
    it('reports status, name and the package version', async () => {
      const res = await request(t.url('/health'));
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, { status: 'ok', name: 'chainhost', version: '0.1.0', tools: 2, unsafe_tools_enabled: false });
    });
  });

  describe('POST /tools/{name}', () => {
    it('answers 200 with {"result": <the tool\'s structured result>}, as upstream does', async () => {
      const raw = await request(t.url('/tools/echo_text'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'héllo  \n' }) });
      assert.equal(raw.status, 200);
      assert.deepEqual(raw.json, { result: { text: 'héllo  \n' } });
      const res = await postJson(t.url('/tools/echo_text'), { text: 'héllo  \n' });
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, { text: 'héllo  \n' }, 'the test helper unwraps the envelope');
      assert.equal(res.headers['cache-control'], 'no-store');
    });

    it('accepts a JSON media type with parameters (application/json; charset=utf-8)', async () => {
      const res = await postJson(t.url('/tools/echo_text'), { text: 'x' }, { 'content-type': 'application/json; charset=utf-8' });
      assert.equal(res.status, 200);
    });

    it('treats an empty body as no arguments', async () => {
      const res = await request(t.url('/tools/slow_tool'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' });
      // slow_tool has only optional arguments; with none it sleeps past its timeout
      assert.equal(res.status, 504);
    });

    const failures: Array<{ what: string; tool: string; body: string | Buffer; headers?: Record<string, string>; status: number; code: string; field?: string }> = [
      { what: 'malformed JSON', tool: 'echo_text', body: '{"text": ', status: 400, code: 'invalid_json' },
      { what: 'a wrong argument type (names the field)', tool: 'echo_text', body: '{"text": 5}', status: 422, code: 'invalid_arguments', field: 'text' },
      { what: 'a missing required argument', tool: 'echo_text', body: '{}', status: 422, code: 'invalid_arguments', field: 'text' },
      { what: 'an unknown argument', tool: 'echo_text', body: '{"text": "a", "txet": "b"}', status: 422, code: 'invalid_arguments', field: 'txet' },
      { what: 'a JSON array body', tool: 'echo_text', body: '["a"]', status: 422, code: 'invalid_arguments', field: '(arguments)' },
      { what: 'a JSON string body', tool: 'echo_text', body: '"a"', status: 422, code: 'invalid_arguments', field: '(arguments)' },
      { what: 'a JSON null body', tool: 'echo_text', body: 'null', status: 422, code: 'invalid_arguments', field: '(arguments)' },
      { what: 'a body over the limit', tool: 'echo_text', body: JSON.stringify({ text: 'x'.repeat(64 * 1024) }), status: 413, code: 'payload_too_large' },
      { what: 'a non-JSON content type', tool: 'echo_text', body: 'text=a', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415, code: 'unsupported_media_type' },
      { what: 'an unknown tool', tool: 'no_such_tool', body: '{}', status: 404, code: 'unknown_tool' },
      { what: 'an unsafe tool while unsafe tools are disabled', tool: 'unsafe_probe', body: '{}', status: 403, code: 'unsafe_disabled' },
      { what: 'a tool that outlives its timeout', tool: 'slow_tool', body: '{}', status: 504, code: 'timeout' },
    ];
    for (const f of failures) {
      it(`${f.what} → ${f.status} ${f.code}`, async () => {
        const res = await request(t.url(`/tools/${f.tool}`), { method: 'POST', headers: { 'content-type': 'application/json', ...f.headers }, body: f.body });
        assert.equal(res.status, f.status, res.text);
        assertErrorShape(res.json, f.code);
        if (f.field) assert.equal(res.json.error.details.field, f.field);
      });
    }

    it('a huge body without Content-Length is cut off at the limit with 413', async () => {
      const res = await new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = http.request(t.url('/tools/echo_text'), { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (r) => {
          let text = '';
          r.on('data', (c: Buffer) => (text += c));
          r.on('end', () => resolve({ status: r.statusCode!, body: JSON.parse(text) }));
        });
        req.on('error', reject);
        req.write('{"text":"');
        for (let i = 0; i < 10; i++) req.write('y'.repeat(1024));
        req.end('"}');
      });
      assert.equal(res.status, 413);
      assertErrorShape(res.body, 'payload_too_large');
    });

    it('error messages say which argument was wrong and why', async () => {
      const res = await postJson(t.url('/tools/echo_text'), { text: 5 });
      assert.match(res.json.error.message, /invalid arguments for tool "echo_text": text: expected string, received number/);
      assert.deepEqual(res.json.error.details.issues, [{ field: 'text', message: 'expected string, received number' }]);
    });

    it('answers alike on every form of the tool path (direct handler and koa route)', async () => {
      const post = (path: string) => request(t.url(path), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'hi' }) });
      const plain = await post('/tools/echo_text');
      assert.equal(plain.status, 200, plain.text);
      assert.deepEqual(plain.json, { result: { text: 'hi' } });
      for (const path of ['/tools/echo%5Ftext', '/tools/echo_text?x=1', '/tools/echo_text/']) {
        const res = await post(path);
        assert.equal(res.status, 200, `${path}: ${res.text}`);
        assert.deepEqual(res.json, plain.json, path);
        assert.equal(res.headers['content-type'], plain.headers['content-type'], path);
        assert.equal(res.headers['cache-control'], 'no-store', path);
      }
      const bad = await post('/tools/%E0%A4%A');
      assert.equal(bad.status, 404, bad.text);
      assertErrorShape(bad.json, 'unknown_tool');
      const nested = await post('/tools/echo_text/more');
      assert.equal(nested.status, 404, nested.text);
    });

    it('a wrong method on a tool path is 405 in the error shape', async () => {
      const res = await request(t.url('/tools/echo_text'), { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(res.status, 405);
      assertErrorShape(res.json, 'method_not_allowed');
    });

    it('an unknown path is 404 in the error shape', async () => {
      const res = await request(t.url('/nowhere'));
      assert.equal(res.status, 404);
      assertErrorShape(res.json, 'not_found');
    });

    it('no bad request ever produces a 5xx other than the tool timeout', async () => {
      const bodies = ['', '{', '[]', '0', 'true', '{"text":null}', '{"text":{"a":1}}', '{"__proto__":{"x":1}}', '{"text":"\\ud800"}', '\u0000', '{"text":"a"}'.repeat(3)];
      for (const body of bodies) {
        const res = await postJson(t.url('/tools/echo_text'), body);
        assert.ok(res.status < 500, `${JSON.stringify(body)} → ${res.status} ${res.text}`);
      }
    });
  });

  describe('routes contributed by plugins', () => {
    it('serves a plugin route on the tools server behind the same guards', async () => {
      assert.deepEqual((await request(t.url('/fixture/ping'))).json, { pong: true });
      assert.equal((await request(t.url('/fixture/ping'), { headers: { origin: 'https://evil.example' } })).status, 403);
    });
  });

  describe('too many calls in flight', () => {
    let limited: TestHost;
    before(async () => {
      limited = await bootTestHost({ ...fixtureConfig(), plugins: { [FIXTURE_PLUGIN]: { slowTimeoutMs: 10_000 } } }, { surfaces: { maxInFlightCalls: 1 } });
    });
    after(() => limited.stop());

    it('refuses a call beyond the cap with 429 and Retry-After', async () => {
      const slow = postJson(limited.url('/tools/slow_tool'), { ms: 1500 });
      await new Promise((r) => setTimeout(r, 400));
      const res = await postJson(limited.url('/tools/echo_text'), { text: 'a' });
      assert.equal(res.status, 429);
      assert.equal(res.headers['retry-after'], '1');
      assertErrorShape(res.json, 'rate_limited');
      assert.equal((await slow).status, 200);
      assert.equal((await postJson(limited.url('/tools/echo_text'), { text: 'a' })).status, 200, 'the slot is free again');
    });
  });

  describe('with unsafe tools enabled (token required)', () => {
    let unsafe: TestHost;
    before(async () => {
      unsafe = await bootTestHost(fixtureConfig({ token: TEST_TOKEN }), { env: { CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS: '1' } });
    });
    after(() => unsafe.stop());
    const auth = { authorization: `Bearer ${TEST_TOKEN}` };

    it('lists and runs the unsafe tool', async () => {
      const list = await request(unsafe.url('/tools'), { headers: auth });
      const probe = list.json.find((x: { name: string }) => x.name === 'unsafe_probe');
      assert.equal(probe.capability, 'unsafe');
      assert.deepEqual(probe.annotations, { title: 'Unsafe probe', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
      const res = await postJson(unsafe.url('/tools/unsafe_probe'), {}, auth);
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, { reached: true });
    });
  });
});
