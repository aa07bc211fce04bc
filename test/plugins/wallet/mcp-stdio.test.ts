import assert from 'node:assert/strict';
import { devAccount, devnetConfig, expectError, spawnChainMcp, tempHome, TOOL_CAPABILITIES, type McpSession } from './chain-tool-kit.js';
import { everyToolScenarios } from './tool-scenarios.js';

/**
 * Every tool through the MCP SDK client over stdio: the real chain-mcp process with the devnet
 * plugin (not listening) and the wallet, query, crypto and simulate plugins.
 */
describe('wallet, query, crypto and simulate tools over MCP stdio (chain-mcp)', function () {
  this.timeout(90_000);
  let home: Awaited<ReturnType<typeof tempHome>>;

  before(async () => {
    home = await tempHome();
  });
  after(() => home?.remove());

  describe('with CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS=1', () => {
    let session: McpSession;
    before(async () => {
      session = await spawnChainMcp(devnetConfig(`${home.dir}/unsafe`), { CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS: '1' });
    });
    after(() => session?.close());

    it('tools/list shows every tool with annotations following its capability and object output schemas', async () => {
      const { tools } = await session.client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      for (const [name, capability] of Object.entries(TOOL_CAPABILITIES)) {
        const tool = byName.get(name);
        assert.ok(tool, `${name} listed`);
        assert.equal(tool.annotations?.readOnlyHint, capability === 'read', name);
        // Only transaction senders and deployments are destructive (a deployment's fee cannot be undone); local key and crypto tools change no state (README table).
        // A read-only tool lists no destructive hint: MCP defines it only when readOnlyHint is false.
        assert.equal(tool.annotations?.destructiveHint, capability === 'read' ? undefined : ['send_transaction', 'send_tokens', 'deploy_contract'].includes(name), name);
        assert.equal(tool.outputSchema?.type, 'object', name);
      }
    });

    everyToolScenarios(() => session.call);

    it('a validation error is an isError result naming the argument, without echoing the key', async () => {
      const key = 'g' + devAccount(0).privateKey.slice(1);
      const outcome = await session.call('send_tokens', { private_key: key, to_address: devAccount(1).address, amount: '1' });
      expectError(outcome, { code: 'invalid_arguments', field: 'private_key' });
      assert.ok(!outcome.text.includes(key));
    });

    it('logs nothing secret to stderr and nothing but JSON-RPC to stdout', () => {
      assert.ok(!session.stderr().includes(devAccount(0).privateKey));
      assert.match(session.stderr(), /plugins: devnet, wallet, query, crypto, simulate/);
    });
  });

  describe('without the unsafe flag (and with CHAIN_INCLUDE_RAW=1)', () => {
    let session: McpSession;
    before(async () => {
      session = await spawnChainMcp(devnetConfig(`${home.dir}/read`), { CHAIN_INCLUDE_RAW: '1' });
    });
    after(() => session?.close());

    it('tools/list omits every unsafe tool', async () => {
      const { tools } = await session.client.listTools();
      const names = tools.map((t) => t.name).filter((n) => n in TOOL_CAPABILITIES).sort();
      assert.deepEqual(names, Object.keys(TOOL_CAPABILITIES).filter((n) => TOOL_CAPABILITIES[n] === 'read').sort());
    });

    it('an unsafe tool is refused with an isError result naming the flag', async () => {
      for (const name of ['send_tokens', 'create_wallet', 'sign_message', 'decrypt_message']) {
        expectError(await session.call(name, {}), { code: 'unsafe_disabled', match: /CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS=1/ });
      }
    });

    it('read tools work and carry the raw node payload', async () => {
      const outcome = await session.call('get_balance', { address: devAccount(2).address });
      assert.equal(outcome.ok, true);
      assert.equal(outcome.result.balance, '1000000');
      assert.equal(outcome.result.raw.abci_query.info, 'decimal');
    });
  });
});
