import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../core/config/load-config.js';
import { configJsonSchemaText } from '../../host/config-json-schema.js';
import { BUILTIN_PLUGINS } from '../../host/builtin-plugins.js';
import { Devnet } from '../../plugins/devnet/index.js';
import { bootTestHost, postJson, request, REPO_ROOT, TEST_TOKEN } from '../support/test-host.js';

const THIRD_PARTY = path.join(REPO_ROOT, 'examples/third-party-plugin');

describe('examples', function () {
  this.timeout(60_000);

  describe('the third-party plugin package, loaded by path', () => {
    it('contributes its read tool and its route on the tool server', async () => {
      const h = await bootTestHost({ plugins: { [THIRD_PARTY]: { greeting: 'hi' } }, tools: { http: { host: '127.0.0.1', port: 0 } } });
      try {
        const listed = await request(h.url('/tools'));
        assert.deepEqual(listed.json.tools.map((t: { name: string }) => t.name), ['example_greet']);
        const called = await postJson(h.url('/tools/example_greet'), { name: 'Ada' });
        assert.equal(called.status, 200);
        assert.deepEqual(called.json, { message: 'hi, Ada' });
        const bad = await postJson(h.url('/tools/example_greet'), { name: 7 });
        assert.equal(bad.status, 400);
        assert.equal(bad.json.error.details.field, 'name');
        const route = await request(h.url('/example/greeting?name=Bob'));
        assert.deepEqual(route.json, { message: 'hi, Bob' });
      } finally {
        await h.stop();
      }
    });

    it('has its options validated by its own schema, naming the key', async () => {
      await assert.rejects(
        bootTestHost({ plugins: { [THIRD_PARTY]: { greeting: '' } } }),
        (err: Error) => /plugins\..*third-party-plugin\.greeting="": /.test(err.message),
      );
    });
  });

  describe('read-only.chainrc.json against a remote node', () => {
    let devnet: Devnet;
    let home: string;
    before(async () => {
      home = await mkdtemp(path.join(os.tmpdir(), 'chain-readonly-'));
      devnet = await Devnet.open({ home });
      await devnet.listen({ port: 0, metricsPort: null });
    });
    after(async () => {
      await devnet?.close();
      await rm(home, { recursive: true, force: true });
    });

    it('loads no wallet or unsafe tools at all, even with the unsafe flag on', async () => {
      const file = JSON.parse(await readFile(path.join(REPO_ROOT, 'examples/read-only.chainrc.json'), 'utf8'));
      const config = { ...file, tools: { http: { host: '127.0.0.1', port: 0 } } };
      const env = { CHAIN_NODE_URL: devnet.listening!.rpcUrl, CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS: '1', CHAIN_MCP_HTTP_TOKEN: TEST_TOKEN };
      const h = await bootTestHost(config, { env });
      try {
        assert.deepEqual(h.host.pluginNames(), ['query', 'simulate']);
        assert.ok(h.host.tools.values().every((t) => t.capability === 'read'), 'every loaded tool is read-only');
        const listed = await request(h.url('/tools'), { headers: { authorization: `Bearer ${TEST_TOKEN}` } });
        const names = listed.json.tools.map((t: { name: string }) => t.name).sort();
        assert.ok(names.includes('get_balance') && names.includes('simulate_transaction'));
        for (const unsafe of ['send_tokens', 'create_wallet', 'sign_message', 'dex_submit_swap']) assert.ok(!names.includes(unsafe), unsafe);
        const balance = await postJson(h.url('/tools/get_balance'), { address: devnet.accounts()[0]!.address }, { authorization: `Bearer ${TEST_TOKEN}` });
        assert.equal(balance.status, 200);
        assert.equal(balance.json.balance, '1000000');
      } finally {
        await h.stop();
      }
    });
  });

  describe('configuration files', () => {
    it('chainrc.schema.json is what the zod schemas generate (npm run schema)', async () => {
      const committed = await readFile(path.join(REPO_ROOT, 'chainrc.schema.json'), 'utf8');
      assert.equal(committed, await configJsonSchemaText());
    });

    it('chainrc.example.json is valid and loads every built-in plugin', async () => {
      const loaded = await loadConfig({ configPath: path.join(REPO_ROOT, 'chainrc.example.json'), env: {} });
      assert.deepEqual(Object.keys(loaded.file.plugins).sort(), Object.keys(BUILTIN_PLUGINS).sort());
      assert.deepEqual(loaded.settings.tools.http && { host: loaded.settings.tools.http.host, port: loaded.settings.tools.http.port }, { host: '127.0.0.1', port: 8100 });
    });
  });
});
