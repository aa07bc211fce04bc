import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { heldSessions, slowUploads } from '../../support/hostile-clients.js';
import { assertIsolated, fullStack, post, repeatFor, report, type FullStack } from './support/complexity-harness.js';

/**
 * Hostile clients that hold resources instead of sending big inputs (issue #30): uploads that
 * never finish, MCP sessions that only hold a GET stream. While they hold on, every tool call
 * and every new MCP client must be served, and the host's event loop must not run longer
 * without turning than while the same calls run alone (the harness's busy-safe measure).
 */
const SLOW_UPLOADS = 256;
const HELD_SESSIONS = 32;

describe('complexity fuzzer: slow and holding clients on the tool server', function () {
  this.timeout(600_000);
  let stack: FullStack;
  before(async function () {
    this.timeout(240_000);
    stack = await fullStack();
  });

  /** One tool call and one MCP client's whole life (SDK client: initialize, list, close). */
  async function ordinaryTraffic(): Promise<void> {
    const call = await post(`${stack.toolsUrl}/tools/get_block`, '{"height":1}');
    assert.equal(call.status, 200, `a tool call while hostile clients hold on: ${call.status} ${call.text.slice(0, 200)}`);
    const transport = new StreamableHTTPClientTransport(new URL(`${stack.toolsUrl}/mcp`));
    const client = new Client({ name: 'ordinary', version: '1' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'get_block'));
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  }

  it(`${SLOW_UPLOADS} uploads trickling one byte a second take no slot: calls and new MCP clients are served`, async () => {
    const isolation = await assertIsolated(stack, async () => {
      const slow = await slowUploads(stack.toolsUrl, SLOW_UPLOADS);
      try {
        await repeatFor(1_500, ordinaryTraffic);
      } finally {
        slow.close();
      }
    }, () => repeatFor(1_500, ordinaryTraffic));
    report('tools slow uploads', { points: [], ...isolation });
  });

  it(`${HELD_SESSIONS} MCP sessions holding GET /mcp open: every new client still gets a session`, async () => {
    const isolation = await assertIsolated(stack, async () => {
      const held = await heldSessions(stack.toolsUrl, HELD_SESSIONS);
      try {
        await repeatFor(1_500, ordinaryTraffic);
      } finally {
        held.close();
      }
    }, () => repeatFor(1_500, ordinaryTraffic));
    report('tools held sessions', { points: [], ...isolation });
  });
});
