import assert from 'node:assert/strict';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectBanner, connectBannerOf, formatJson, mcpHttpUrl, PASSPHRASE_FILE_PLACEHOLDER, stdioSnippet, TOKEN_PLACEHOLDER } from '../../../host/cli/connect-banner.js';
import { jsonBlocks, snippets } from './banner-snippets.js';
import { bootTestHost, fixtureConfig, loadTestConfig, REPO_ROOT, TEST_TOKEN, type TestHost } from '../../support/test-host.js';

async function listToolsOver(url: string, headers: Record<string, string>): Promise<string[]> {
  const client = new Client({ name: 'banner-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((t) => t.name).sort();
  } finally {
    await client.close();
  }
}

const DB_PASSWORD = 'db-password-must-not-show';
const NODE_PASSWORD = 'node-password-must-not-show';
const KEYSTORE_PASSPHRASE = 'keystore-passphrase-must-not-show';

describe('connect banner', function () {
  this.timeout(30_000);

  describe('for a running host with a token, on IPv6 loopback', () => {
    const env = {
      CHAIN_MCP_HTTP_TOKEN: TEST_TOKEN,
      CHAIN_BDS_DATABASE_URL: `postgres://indexer:${DB_PASSWORD}@db.internal:5432/bds`,
      CHAIN_NODE_URL: `http://operator:${NODE_PASSWORD}@node.internal:26657`,
      CHAIN_HOME: 'relative-home',
      CHAIN_FIXTURE_GREETING: 'hello',
      HTTP_PORT: '0',
      CHAIN_KEYSTORE_PASSPHRASE: KEYSTORE_PASSPHRASE,
    };
    let h: TestHost;
    let banner: string;
    before(async () => {
      h = await bootTestHost(fixtureConfig({ host: '::1' }), { env });
      banner = connectBannerOf(h.host, 'chain-host', env);
    });
    after(() => h?.stop());

    it('shows no token, password or credential', () => {
      for (const secret of [TEST_TOKEN, DB_PASSWORD, NODE_PASSWORD, KEYSTORE_PASSPHRASE, 'operator', 'indexer']) assert.ok(!banner.includes(secret), `banner shows ${secret}:\n${banner}`);
    });

    it('gives the real /mcp URL, bracketed, with the token as a placeholder header', () => {
      const { http } = snippets(banner);
      assert.equal(http?.url, h.url('/mcp'));
      assert.match(http!.url, /^http:\/\/\[::1\]:\d+\/mcp$/);
      assert.equal(http!.type, 'http');
      assert.deepEqual(http!.headers, { Authorization: TOKEN_PLACEHOLDER });
    });

    it('is a snippet the MCP SDK client connects with once the token is put in', async () => {
      const { http } = snippets(banner);
      const headers = { Authorization: http!.headers!.Authorization!.replace('<CHAIN_MCP_HTTP_TOKEN>', TEST_TOKEN) };
      const listed = await listToolsOver(http!.url, headers);
      assert.deepEqual(listed, h.host.invoker.visible().map((t) => t.name).sort());
    });

    it('runs chainhost\'s own chain-mcp with the absolute config path and the environment the config needs', () => {
      const { stdio } = snippets(banner);
      assert.equal(stdio.command, 'npx');
      assert.deepEqual(stdio.args, ['--prefix', REPO_ROOT, 'chain-mcp', '--config', h.host.config.source]);
      assert.ok(path.isAbsolute(stdio.args[4]!));
      assert.deepEqual(stdio.env, {
        CHAIN_HOME: h.host.config.settings.home,
        CHAIN_NODE_URL: 'http://<credentials>@node.internal:26657',
        // A loaded plugin's own variable goes along; CHAIN_BDS_DATABASE_URL does not: no loaded plugin reads it.
        CHAIN_FIXTURE_GREETING: 'hello',
        // The stdio server cannot prompt for it, and the client's config must not hold it: a 0600 file does.
        CHAIN_KEYSTORE_PASSPHRASE_FILE: PASSPHRASE_FILE_PLACEHOLDER,
      });
      assert.ok(!JSON.stringify(stdio).includes('CHAIN_KEYSTORE_PASSPHRASE"'), 'no passphrase variable in the client config');
      assert.ok(path.isAbsolute(stdio.env!.CHAIN_HOME!) && stdio.env!.CHAIN_HOME!.endsWith('relative-home'));
    });

    it('a passphrase file the host was started with is named by its absolute path (the passphrase never is)', () => {
      const snippet = stdioSnippet({ configPath: null, settings: h.host.config.settings, env: { CHAIN_KEYSTORE_PASSPHRASE_FILE: 'secrets/passphrase' } });
      assert.deepEqual(snippet.mcpServers.chain!.env, { CHAIN_KEYSTORE_PASSPHRASE_FILE: path.resolve('secrets/passphrase') });
    });

    it('a loaded plugin\'s secret variable goes along as a placeholder', () => {
      const snippet = stdioSnippet({
        configPath: null, settings: h.host.config.settings, env: { ACME_TOKEN: 'acme-secret-value' },
        variables: [{ variable: 'ACME_TOKEN', path: ['plugins', 'acme', 'token'], type: 'string', secret: true }],
      });
      assert.deepEqual(snippet.mcpServers.chain!.env, { ACME_TOKEN: '<ACME_TOKEN>' });
    });

    it('lists every listening server', () => {
      assert.match(banner, new RegExp(`^  tools +${h.url().replace(/[[\]]/g, '\\$&')} +/tools +/tools/\\{name\\} +/mcp +/health$`, 'm'));
    });

    it('says the HTTP tool API answers in upstream\'s shapes', () => {
      assert.ok(banner.includes(`GET ${h.url('/tools')} answers [{name, description, parameters, …}]`), banner);
      assert.ok(banner.includes(`POST ${h.url('/tools')}/{name} with a JSON object of arguments answers {"result": …}`), banner);
    });
  });

  it('a wildcard bind gets a loopback URL the Host check accepts', async () => {
    const h = await bootTestHost(fixtureConfig({ host: '0.0.0.0', token: TEST_TOKEN }));
    try {
      const { http } = snippets(connectBannerOf(h.host, 'chain-mcp-http', {}));
      assert.equal(http?.url, `http://127.0.0.1:${h.port}/mcp`);
      assert.ok((await listToolsOver(http!.url, { Authorization: `Bearer ${TEST_TOKEN}` })).length > 0);
    } finally {
      await h.stop();
    }
  });

  it('a wildcard bind with HTTP_PUBLISH_HOST uses the publish host, bracketed when IPv6', async () => {
    const loaded = await loadTestConfig(fixtureConfig({ host: '::', publishHost: '::1', token: TEST_TOKEN }));
    assert.equal(mcpHttpUrl('http://[::]:8100', loaded.settings), 'http://[::1]:8100/mcp');
    assert.equal(mcpHttpUrl('http://[::]:8100', (await loadTestConfig(fixtureConfig({ host: '::', token: TEST_TOKEN }))).settings), 'http://[::1]:8100/mcp');
    assert.equal(mcpHttpUrl('http://0.0.0.0:8100', (await loadTestConfig(fixtureConfig({ host: '0.0.0.0', publishHost: 'chain.example', token: TEST_TOKEN }))).settings), 'http://chain.example:8100/mcp');
  });

  it('without a token the HTTP snippet has no headers; without a tool server there is only the stdio snippet', async () => {
    const loaded = await loadTestConfig(fixtureConfig({}));
    const base = { command: 'chain-host', settings: loaded.settings, configPath: '/etc/chain/chainrc.json', plugins: ['fixture'], env: {} };
    const both = snippets(connectBanner({ ...base, servers: [{ name: 'tools', url: 'http://127.0.0.1:8100' }] }));
    assert.deepEqual(both.http, { type: 'http', url: 'http://127.0.0.1:8100/mcp' });
    assert.equal(both.stdio.env, undefined);
    const stdioOnly = connectBanner({ ...base, servers: [] });
    assert.equal(jsonBlocks(stdioOnly).length, 1);
    assert.match(stdioOnly, /starts its own chain-mcp from the same config/);
  });

  it('says when a stdio host would collide with this one (devnet, BDS or servers of their own)', async () => {
    const loaded = await loadTestConfig(fixtureConfig({}));
    const base = { command: 'chain-host', settings: loaded.settings, configPath: null, env: {} };
    assert.match(connectBanner({ ...base, plugins: ['devnet'], servers: [] }), /instead of this process, not beside it/);
    assert.match(connectBanner({ ...base, plugins: ['query'], servers: [{ name: 'dashboard', url: 'http://127.0.0.1:8080' }] }), /instead of this process/);
    const alone = connectBanner({ ...base, plugins: ['query'], servers: [{ name: 'tools', url: 'http://127.0.0.1:8100' }] });
    assert.doesNotMatch(alone, /instead of this process/);
    assert.deepEqual(snippets(alone).stdio.args.slice(2), ['chain-mcp'], 'no config file read: no --config');
  });

  it('formatJson keeps the value: arrays of strings on one line, quotes and commas intact', () => {
    const value = { a: ['x, "y"', ']', '\\', 'z\n'], b: [1, 2], c: { d: [] as string[] } };
    const text = formatJson(value);
    assert.deepEqual(JSON.parse(text), value);
    assert.ok(text.includes('["x, \\"y\\"", "]", "\\\\", "z\\n"]'), text);
  });
});
