import assert from 'node:assert/strict';
import { bootTestHost, fixtureConfig, postJson, request, type TestHost } from '../../support/test-host.js';

/**
 * Toolsets (issue #29): config tools.include / tools.exclude name tools or groups (capability,
 * plugin, declared group); GET /tools and MCP tools/list list only the selection, and a tool
 * outside it is refused naming the config; a selector no tool has stops the start.
 */
const listed = async (t: TestHost): Promise<string[]> => ((await request(t.url('/tools'))).json as Array<{ name: string }>).map((x) => x.name).sort();

describe('toolsets: tools.include / tools.exclude', function () {
  this.timeout(30_000);
  const hosts: TestHost[] = [];
  const boot = async (tools: Record<string, unknown>) => {
    const base = fixtureConfig();
    const t = await bootTestHost({ ...base, tools: { ...(base.tools as object), ...tools } });
    hosts.push(t);
    return t;
  };
  after(() => Promise.all(hosts.map((h) => h.stop())));

  it('include by tool name lists only it; the others are refused as tool_not_selected', async () => {
    const t = await boot({ include: ['echo_text'] });
    assert.deepEqual(await listed(t), ['echo_text']);
    const res = await postJson(t.url('/tools/slow_tool'), {});
    assert.equal(res.status, 404);
    assert.equal(res.json.error.code, 'tool_not_selected');
    assert.match(res.json.error.message, /tools\.include \/ tools\.exclude/);
    assert.equal((await postJson(t.url('/tools/echo_text'), { text: 'hi' })).status, 200);
  });

  it('groups: the capability (read) and the plugin name select every tool of it; exclude takes away', async () => {
    const all = await listed(await boot({}));
    assert.deepEqual(await listed(await boot({ include: ['read'] })), all);
    assert.deepEqual(await listed(await boot({ include: ['fixture'], exclude: ['slow_tool'] })), all.filter((n) => n !== 'slow_tool'));
  });

  it('a name or group no tool has is a start-up error naming it and the groups that exist', async () => {
    await assert.rejects(boot({ include: ['walet'] }), (err: Error) => /tools\.include \/ tools\.exclude: no tool or group named "walet"; groups: .*read/.test(err.message));
  });
});
