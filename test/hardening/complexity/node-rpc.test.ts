import assert from 'node:assert/strict';
import { assertBoundedGrowth, fullStack, post, report, type FullStack } from './support/complexity-harness.js';

/**
 * The devnet's node RPC (issue #19 item 4): JSON-RPC batches of growing length and bodies of
 * growing size, up to past CometBFT's `max_body_bytes` (1,000,000). A batch or body beyond the
 * caps must be refused at once, and no request may stall `/status`. These fail until the node
 * RPC caps (helper i14) are merged: today a 10k batch stalls /health for a second and 8 MiB
 * bodies are parsed.
 */
const MAX_BODY_BYTES = 1_000_000;

/** CometBFT answers a refused JSON-RPC request with HTTP 500 and the error envelope. */
const jsonRpcError = (answer: { text: string }) => /"error"\s*:\s*\{/.test(answer.text);

function batch(n: number): string {
  return JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'health' })));
}

/** One abci_query whose `data` makes the body `bytes` long. */
function body(bytes: number): string {
  const head = '{"jsonrpc":"2.0","id":1,"method":"abci_query","params":{"path":"/get/currency.balances:x","data":"';
  const tail = '"}}';
  return head + 'ab'.repeat(Math.max(0, Math.floor((bytes - head.length - tail.length) / 2))) + tail;
}

describe('complexity fuzzer: node RPC', function () {
  this.timeout(600_000);
  let stack: FullStack;
  before(async function () {
    this.timeout(240_000);
    stack = await fullStack();
  });

  it('JSON-RPC batches of growing length (10k calls stalled /health for a second)', async () => {
    report('node rpc batches', await assertBoundedGrowth(stack, {
      sizes: [10, 100, 1_000, 5_000, 15_000], input: batch, send: (b) => post(`${stack.rpcUrl}/`, b), documentedServerError: jsonRpcError,
    }));
  });

  it('bodies of growing size; beyond max_body_bytes (1,000,000) refused, never parsed', async () => {
    report('node rpc bodies', await assertBoundedGrowth(stack, {
      sizes: [10_000, 100_000, 500_000, 2_000_000, 8_000_000],
      input: body,
      send: (b) => post(`${stack.rpcUrl}/`, b),
      documentedServerError: jsonRpcError,
      check: (answer, size) => {
        if (size <= MAX_BODY_BYTES) return;
        const refused = answer.status !== 200 || /"error"/.test(answer.text);
        assert.ok(refused, `a ${size}-byte body was served (${answer.status}), not refused past max_body_bytes ${MAX_BODY_BYTES}`);
      },
    }));
  });
});
