import assert from 'node:assert/strict';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type * as Kit from './support/dex-host.js';
import type { DexChain, DexHost } from './support/dex-host.js';

/**
 * Issue #18 item 3: a long wait must not lose the client. The MCP SDK client gives up after its
 * request timeout (60 s by default) unless progress notifications arrive and it was asked to
 * reset the timeout on progress; the server then keeps waiting for nobody. Here the client's
 * timeout is shorter than the wait, so only progress keeps the call alive.
 */
describe('dex_wait_live_event: MCP progress and cancellation', function () {
  this.timeout(60_000);
  let kit: typeof Kit;
  let chain: DexChain;
  let h: DexHost;

  before(async () => {
    kit = await import('./support/dex-host.js');
    chain = await kit.openDevnet();
    h = await kit.startDexHost(chain, { plugins: { dex: {} }, unsafe: false });
  });
  after(async () => {
    await h?.stop();
    await chain?.close();
  });

  it('sends progress while waiting, so a client with resetTimeoutOnProgress outlasts its own request timeout', async () => {
    const updates: Array<{ progress: number; message?: string }> = [];
    const result = await h.client.callTool(
      // Progress comes once a second; a 4 s client timeout leaves room for a busy machine's delays
      // and is still well short of the 10 s wait it must outlast.
      { name: 'dex_wait_live_event', arguments: { contract: 'con_pairs', event: 'Swap', timeout_seconds: 10 } },
      CallToolResultSchema,
      { timeout: 4_000, resetTimeoutOnProgress: true, onprogress: (p) => updates.push(p) },
    );
    assert.equal(result.isError, undefined);
    assert.equal((result.structuredContent as { timed_out: boolean }).timed_out, true);
    assert.ok(updates.length >= 3, `${updates.length} progress notifications`);
    for (let i = 1; i < updates.length; i++) assert.ok(updates[i]!.progress > updates[i - 1]!.progress, 'progress grows');
    assert.match(updates[updates.length - 1]!.message ?? '', /con_pairs\.Swap/);
  });

  it('cancelling the request ends the wait on the server at once', async () => {
    const finished: Array<{ tool: string; durationMs: number }> = [];
    const original = h.host.host.invoker.call.bind(h.host.host.invoker);
    h.host.host.invoker.call = (async (...a: Parameters<typeof original>) => {
      const started = performance.now();
      try {
        return await original(...a);
      } finally {
        finished.push({ tool: a[0], durationMs: performance.now() - started });
      }
    }) as typeof original;
    try {
      const controller = new AbortController();
      const call = h.client.callTool(
        { name: 'dex_wait_live_event', arguments: { contract: 'con_pairs', event: 'Swap', timeout_seconds: 30 } },
        CallToolResultSchema, { signal: controller.signal },
      );
      setTimeout(() => controller.abort(new Error('user cancelled')), 500);
      await assert.rejects(call, /cancelled/);
      for (let i = 0; i < 150 && finished.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(finished.length, 1, 'the server-side call ended');
      assert.ok(finished[0]!.durationMs < 15_000, `ended after ${Math.round(finished[0]!.durationMs)} ms, not at the 30 s timeout`);
    } finally {
      h.host.host.invoker.call = original;
    }
  });
});
