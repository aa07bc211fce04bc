import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../core/config/load-config.js';
import { configJsonSchemaText } from '../../host/config-json-schema.js';
import { BUILTIN_PLUGINS } from '../../host/builtin-plugins.js';
import { Devnet } from '../../plugins/devnet/index.js';
import { pgliteTemplateDir } from '../support/databases.js';
import { bootTestHost, postJson, request, REPO_ROOT, TEST_TOKEN, type TestHost } from '../support/test-host.js';

const BDS_TOOLS = ['get_bds_status', 'list_blocks', 'get_block', 'get_block_by_hash', 'get_indexed_tx', 'list_txs_for_block', 'list_txs_by_sender',
  'list_txs_by_contract', 'get_events_for_tx', 'list_events', 'get_state_history', 'get_state_for_tx', 'get_state_for_block', 'get_developer_rewards',
  'list_shielded_output_tags', 'list_shielded_wallet_history'];
const WALLET_TOOLS = ['create_wallet', 'create_wallet_from_private_key', 'create_hd_wallet', 'create_hd_wallet_from_mnemonic', 'send_transaction', 'send_tokens', 'get_account_policy', 'list_accounts', 'check_contract', 'deploy_contract'];
const QUERY_TOOLS = ['get_balance', 'get_token_balances', 'get_token_contract_by_symbol', 'get_token_data_by_contract', 'get_transaction', 'get_node_status',
  'get_state', 'list_state_keys', 'get_next_nonce', 'get_contract_source', 'get_contract_methods'];
const CRYPTO_TOOLS = ['sign_message', 'verify_signature', 'encrypt_message', 'decrypt_message'];
const DEX_TOOLS = ['get_dex_price', 'dex_list_pairs', 'dex_get_pair', 'dex_quote_exact_in', 'dex_quote_exact_out', 'dex_plan_swap', 'dex_submit_swap',
  'dex_plan_add_liquidity', 'dex_submit_add_liquidity', 'dex_plan_remove_liquidity', 'dex_submit_remove_liquidity', 'buy_on_dex', 'sell_on_dex',
  'dex_wait_live_event', 'dex_list_events'];
const SIMULATE_TOOLS = ['simulate_transaction'];

/**
 * An example plugin set as a test runs it: every port 0, the devnet's metrics off, `home` a
 * fresh folder whose BDS PGlite directory starts as a copy of an initialised empty cluster.
 */
async function exampleSet(file: string, home: string): Promise<Record<string, any>> {
  const config = JSON.parse(await readFile(path.join(REPO_ROOT, 'examples', file), 'utf8'));
  config.home = home;
  if (config.tools?.http) config.tools.http.port = 0;
  if (config.metrics) config.metrics.port = 0;
  for (const name of ['devnet', 'dashboard', 'graphql']) if (config.plugins[name]) config.plugins[name].port = 0;
  if (config.plugins.devnet) Object.assign(config.plugins.devnet, { metricsPort: null, printAccounts: false });
  if (config.plugins.bds) await cp(await pgliteTemplateDir(), path.join(home, 'bds'), { recursive: true });
  return config;
}

/** What a booted host contributes, sorted, so a test states its plugin set exactly. */
function inventory(h: TestHost) {
  return {
    plugins: h.host.pluginNames().sort(),
    tools: h.host.tools.values().map((t) => t.name).sort(),
    servers: h.host.servers.values().map((s) => s.name).sort(),
    routes: h.host.routes.values().map((r) => `${r.server} ${r.id}`).sort(),
    webSockets: h.host.webSockets.values().map((w) => `${w.server} ${w.path}`).sort(),
  };
}

const FULL_SERVERS = ['dashboard', 'graphql', 'metrics', 'tools'];
const FULL_ROUTES = ['dashboard dashboard:api', 'dashboard dashboard:explorer', 'graphql graphql:http', 'metrics host:metrics', 'tools host:tools'];
const INDEXER_SERVERS = ['graphql'];
const INDEXER_ROUTES = ['graphql graphql:http'];
const TOOLS_SERVERS = ['tools'];
const TOOLS_ROUTES = ['tools host:tools'];

describe('examples', function () {
  this.timeout(60_000);

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
        const names = listed.json.map((t: { name: string }) => t.name).sort();
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

  describe('plugin sets', () => {
    let devnet: Devnet;
    let home: string;
    const env = () => ({ CHAIN_NODE_URL: devnet.listening!.rpcUrl, CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS: '1', CHAIN_MCP_HTTP_TOKEN: TEST_TOKEN });
    const auth = { authorization: `Bearer ${TEST_TOKEN}` };
    before(async () => {
      home = await mkdtemp(path.join(os.tmpdir(), 'chain-sets-'));
      devnet = await Devnet.open({ home: path.join(home, 'remote-node') });
      await devnet.listen({ port: 0, metricsPort: null });
    });
    after(async () => {
      await devnet?.close();
      await rm(home, { recursive: true, force: true });
    });

    it('full.chainrc.json is chainrc.example.json\'s plugin set, in-process devnet, every surface', async () => {
      const example = JSON.parse(await readFile(path.join(REPO_ROOT, 'chainrc.example.json'), 'utf8'));
      const full = JSON.parse(await readFile(path.join(REPO_ROOT, 'examples/full.chainrc.json'), 'utf8'));
      assert.deepEqual(full.plugins, example.plugins);
      assert.deepEqual({ ...full, $schema: null }, { ...example, $schema: null });
      const h = await bootTestHost(await exampleSet('full.chainrc.json', path.join(home, 'full')), { env: env() });
      try {
        const found = inventory(h);
        assert.deepEqual(found.plugins, Object.keys(BUILTIN_PLUGINS).sort());
        assert.deepEqual(found.tools, [...BDS_TOOLS, ...WALLET_TOOLS, ...QUERY_TOOLS, ...CRYPTO_TOOLS, ...DEX_TOOLS, ...SIMULATE_TOOLS].sort());
        assert.deepEqual(found.servers, FULL_SERVERS);
        assert.deepEqual(found.routes, FULL_ROUTES);
        assert.deepEqual(found.webSockets, ['dashboard /ws']);
        // The in-process devnet is the node (same default mnemonic, so the same funded accounts).
        assert.ok(h.host.describe().some((line) => /^node: in-process \(plugin devnet\)/.test(line)), h.host.describe().join('\n'));
        const balance = await postJson(h.url('/tools/get_balance'), { address: devnet.accounts()[0]!.address }, auth);
        assert.equal(balance.status, 200);
        assert.equal(balance.json.balance, '1000000');
        for (const server of FULL_SERVERS) assert.ok(h.host.serverUrl(server), `${server} listens`);
        const scraped = await request(`${h.host.serverUrl('metrics')}/metrics`);
        assert.equal(scraped.status, 200);
        assert.match(scraped.text, /^chainhost_tool_calls_total\{tool="get_balance",transport="http",outcome="ok"\} 1$/m);
      } finally {
        await h.stop();
      }
    });

    it('indexer-only.chainrc.json: bds and graphql against a remote node, no tool server', async () => {
      const h = await bootTestHost(await exampleSet('indexer-only.chainrc.json', path.join(home, 'indexer')), { env: env() });
      try {
        const found = inventory(h);
        assert.deepEqual(found.plugins, ['bds', 'graphql']);
        assert.deepEqual(found.tools, [], 'the indexed-read tools are the query plugin\'s; this set serves no tools');
        assert.deepEqual(found.servers, INDEXER_SERVERS);
        assert.deepEqual(found.routes, INDEXER_ROUTES);
        assert.deepEqual(found.webSockets, []);
        assert.equal(h.host.serverUrl('tools'), undefined);
        assert.equal(h.host.config.settings.nodeUrl, devnet.listening!.rpcUrl);
        const graphql = await postJson(`${h.host.serverUrl('graphql')}/graphql`, { query: '{ __typename }' });
        assert.equal(graphql.status, 200);
        assert.deepEqual(graphql.json.data, { __typename: 'Query' });
      } finally {
        await h.stop();
      }
    });

    it('tools-only.chainrc.json: wallet, query (with the indexed reads), crypto, dex and simulate tools over HTTP against a remote node', async () => {
      const h = await bootTestHost(await exampleSet('tools-only.chainrc.json', path.join(home, 'tools')), { env: env() });
      try {
        const found = inventory(h);
        assert.deepEqual(found.plugins, ['crypto', 'dex', 'query', 'simulate', 'wallet']);
        assert.deepEqual(found.tools, [...BDS_TOOLS, ...WALLET_TOOLS, ...QUERY_TOOLS, ...CRYPTO_TOOLS, ...DEX_TOOLS, ...SIMULATE_TOOLS].sort());
        assert.deepEqual(found.servers, TOOLS_SERVERS);
        assert.deepEqual(found.routes, TOOLS_ROUTES);
        assert.deepEqual(found.webSockets, []);
        const listed = await request(h.url('/tools'), { headers: auth });
        assert.equal(listed.json.length, found.tools.length);
        const balance = await postJson(h.url('/tools/get_balance'), { address: devnet.accounts()[0]!.address }, auth);
        assert.equal(balance.status, 200);
        assert.equal(balance.json.balance, '1000000');
        // This remote devnet runs without BDS: an indexed read without a fallback says so plainly;
        // the block reads fall back to the node's RPC (mcp.md §4.6).
        const tags = await postJson(h.url('/tools/list_shielded_output_tags'), { tag_value: 'x' }, auth);
        assert.equal(tags.status, 503, tags.text);
        assert.equal(tags.json.error.code, 'bds_unavailable');
        assert.match(tags.json.error.message, /the node has no BDS \(it answers "Unknown query path: shielded_output_tags"\)/);
        const blocks = await postJson(h.url('/tools/list_blocks'), { limit: 1 }, auth);
        assert.equal(blocks.status, 200, blocks.text);
        assert.equal(blocks.json.items.length, 1);
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
