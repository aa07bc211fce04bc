import assert from 'node:assert/strict';
import { request } from '../../support/test-host.js';
import { devnetConfig, MY_PLUGINS, startHost, tempHome, TOOL_CAPABILITIES, type RunningHost } from './chain-tool-kit.js';
import { everyToolScenarios } from './tool-scenarios.js';


describe('wallet, query, crypto and simulate tools over POST /tools/{name} (in-process devnet)', function () {
  this.timeout(60_000);
  let home: Awaited<ReturnType<typeof tempHome>>;
  let running: RunningHost;

  before(async () => {
    home = await tempHome();
    running = await startHost(devnetConfig(home.dir, { plugins: { ...Object.fromEntries(MY_PLUGINS.map((p) => [p, {}])) } }), { unsafe: true });
  });
  after(async () => {
    await running?.stop();
    await home?.remove();
  });

  describe('GET /tools', () => {
    it('lists every tool with its capability, annotations and object schemas', async () => {
      const res = await request(running.host.url('/tools'), { headers: { authorization: 'Bearer test-token-0123456789abcdef' } });
      assert.equal(res.status, 200);
      const listed = Object.fromEntries(res.json.map((t: { name: string; capability: string }) => [t.name, t]));
      for (const [name, capability] of Object.entries(TOOL_CAPABILITIES)) {
        const tool = listed[name];
        assert.ok(tool, `${name} listed`);
        assert.equal(tool.capability, capability, name);
        assert.equal(tool.annotations.readOnlyHint, capability === 'read', name);
        assert.equal(tool.input_schema.type, 'object', name);
        assert.equal(tool.input_schema.additionalProperties, false, name);
        assert.equal(tool.output_schema.type, 'object', name);
        assert.ok(tool.title && tool.description, name);
      }
      assert.equal(listed.verify_signature.annotations.openWorldHint, false);
      // The signer is account or private_key, exactly one (checked at call time): neither is required by the schema.
      assert.deepEqual(listed.send_tokens.input_schema.required.sort(), ['amount', 'to_address']);
      assert.ok(listed.send_tokens.input_schema.properties.account && listed.send_tokens.input_schema.properties.private_key);
    });
  });

  everyToolScenarios(() => running.call);
});
