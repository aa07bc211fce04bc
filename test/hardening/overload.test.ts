import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { CoreTokens } from '../../core/core-tokens.js';
import { encodeTransaction, signTransaction } from '../../core/chain/transaction.js';
import { DEFAULT_MNEMONIC, deriveAccounts } from '../../plugins/devnet/node/devnet.js';
import { cpuTimeOf } from '../support/cpu-time.js';
import { httpBurst, type BurstRequest, type BurstResult } from '../support/http-burst.js';
import type { TestHost } from '../support/test-host.js';

/**
 * Hardening: the HTTP tool server and the dashboard flooded with far more concurrent requests
 * than their limits (tool calls in flight: 8 here; the dashboard's default buckets, in-flight
 * gate and dry-run caps), cheap and expensive paths mixed. Every answer must be a 200 or a
 * documented refusal — 429 with Retry-After and the error shape, and 503 busy likewise where
 * documented (the dashboard's in-flight gate and dry-run cap, the simulate tool's own caps) —
 * never another 5xx, never a hung socket; both servers answer at once afterwards, and memory
 * does not grow round after round.
 */
const MAX_IN_FLIGHT_CALLS = 8;
const BURST = 300;
const ROUNDS = 3;
/** An answer later than this is a hang (a busy machine stretches a 300-request burst to seconds). */
const DEADLINE_MS = 60_000;
/**
 * "Answers at once after the flood": the host (in this process) spends at most this much CPU
 * on the one request, so no backlog of the flood is still being worked off. CPU, not wall time:
 * the latter also counts the other processes of a busy machine.
 */
const PROMPT_CPU_MS = 2_000;
const [A, B] = deriveAccounts(DEFAULT_MNEMONIC, 2);

let gc: (() => void) | undefined;

/** Memory after a full collection, so heap figures compare live objects only. */
function memory(): { heapMb: number; rssMb: number } {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
  const m = process.memoryUsage();
  return { heapMb: m.heapUsed / 2 ** 20, rssMb: m.rss / 2 ** 20 };
}

function describeResult(r: BurstResult): string {
  return `${r.request.method ?? 'GET'} ${new URL(r.request.url).pathname.slice(0, 80)} → ${r.status || r.error} ${r.text.slice(0, 200)}`;
}

function tally(results: BurstResult[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of results) out[r.status || r.error!] = (out[r.status || r.error!] ?? 0) + 1;
  return out;
}

/** A refusal: Retry-After in whole seconds and, for JSON routes, the one error shape. */
function assertRefusal(r: BurstResult, code: string, json = true): void {
  assert.match(String(r.headers['retry-after']), /^[1-9]\d*$/, `Retry-After on ${describeResult(r)}`);
  if (!json) return;
  const body = JSON.parse(r.text);
  assert.deepEqual(Object.keys(body), ['error'], describeResult(r));
  assert.equal(body.error.code, code, describeResult(r));
  assert.equal(typeof body.error.message, 'string');
  assert.equal(typeof body.error.details, 'object', describeResult(r));
}

function assertNoHang(results: BurstResult[]): void {
  const broken = results.filter((r) => r.error || r.ms > DEADLINE_MS);
  const slowest = Math.max(...results.filter((r) => !r.error).map((r) => r.ms));
  assert.equal(broken.length, 0, `${broken.length} of ${results.length} requests not answered within ${DEADLINE_MS} ms (answers: ${JSON.stringify(tally(results))}, slowest answer ${Math.round(slowest)} ms), e.g.\n${broken.slice(0, 5).map(describeResult).join('\n')}`);
}

describe('hardening: overload of the tool server and the dashboard', function () {
  this.timeout(600_000);
  let h: TestHost;
  let dashboard: string;
  let txHash: string;
  const afterRound: { heapMb: number; rssMb: number }[] = [];

  before(async () => {
    // Imported here so the host and its plugins share one module graph (see test/plugins/wallet/chain-tool-kit.ts).
    const { bootTestHost } = await import('../support/test-host.js');
    h = await bootTestHost(
      {
        plugins: {
          devnet: { listen: false, printAccounts: false },
          query: {},
          simulate: {},
          // Default limits; the loopback proxy is trusted so X-Forwarded-For can play many clients.
          dashboard: { port: 0, trustedProxies: ['127.0.0.1'] },
        },
        tools: { http: { host: '127.0.0.1', port: 0 } },
      },
      { surfaces: { maxInFlightCalls: MAX_IN_FLIGHT_CALLS } },
    );
    dashboard = h.host.serverUrl('dashboard')!;
    const signed = signTransaction({ chain_id: 'chain-local-1', chi_supplied: 1000, contract: 'currency', function: 'transfer', kwargs: { amount: 1, to: B!.address }, nonce: 0, sender: A!.address }, A!.privateKey);
    const committed = await h.host.resolve(CoreTokens.chainNode).broadcastTxCommit(encodeTransaction(signed).hex);
    assert.equal(committed.tx_result.code, 0);
    txHash = committed.hash;
  });
  after(async () => h?.stop());

  function toolRequests(n: number): BurstRequest[] {
    const calls: Array<[string, unknown]> = [
      ['get_balance', { address: A!.address }],
      ['get_node_status', {}],
      ['get_contract_source', { contract_name: 'con_dex' }],
      ['get_contract_methods', { contract_name: 'con_pairs' }],
      ['list_state_keys', { prefix: 'currency.balances', limit: 200 }],
      ['get_token_balances', { address: A!.address, limit: 1000 }],
      ['get_transaction', { tx_hash: txHash }],
      // The slow path: a dry run in a worker thread, behind the node's own concurrency cap.
      ['simulate_transaction', { address: A!.address, contract: 'currency', function: 'transfer', kwargs: { amount: 1, to: B!.address } }],
    ];
    return Array.from({ length: n }, (_, i) => {
      const [name, args] = calls[i % calls.length]!;
      return { url: h.url(`/tools/${name}`), method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(args) };
    });
  }

  function dashboardRequests(n: number, round: number): BurstRequest[] {
    const dryRun = Buffer.from(JSON.stringify({ sender: A!.address, contract: 'currency', function: 'transfer', kwargs: { amount: 1, to: B!.address } })).toString('hex');
    const paths = [
      '/api/status', '/api/config', '/api/block/1', `/api/tx/${txHash}`, '/api/contract/con_dex', '/api/contracts?limit=500',
      `/api/abci_query/simulate_tx/${dryRun}`, '/explorer', '/explorer/block/2', `/explorer/tx/${txHash}`,
    ];
    // Half from one client (its buckets run dry: 429), half from distinct clients behind the
    // trusted proxy, each with a full bucket, so the in-flight gate and the dry-run
    // concurrency cap decide (503); every other one of those is a dry run.
    return Array.from({ length: n }, (_, i) => {
      if (i % 2 === 0) return { url: dashboard + paths[(i / 2) % paths.length]! };
      const path = i % 4 === 1 ? paths[6]! : paths[Math.floor(i / 4) % paths.length]!;
      return { url: dashboard + path, headers: { 'x-forwarded-for': `10.${round}.${(i >> 8) & 255}.${i & 255}` } };
    });
  }

  function checkTools(results: BurstResult[]): void {
    assertNoHang(results);
    for (const r of results) {
      // Dry runs have caps of their own (rate, concurrency, queue) that answer 503 busy.
      const dryRun = r.request.url.endsWith('/tools/simulate_transaction');
      assert.ok(r.status === 200 || r.status === 429 || (dryRun && r.status === 503), `unexpected status: ${describeResult(r)}`);
      if (r.status === 429) assertRefusal(r, 'rate_limited');
      if (r.status === 503) assertRefusal(r, 'busy');
    }
  }

  function checkDashboard(results: BurstResult[]): void {
    assertNoHang(results);
    for (const r of results) {
      assert.ok([200, 429, 503].includes(r.status), `unexpected status: ${describeResult(r)}`);
      const page = new URL(r.request.url).pathname.startsWith('/explorer');
      if (r.status === 429) assertRefusal(r, 'rate_limited', !page);
      if (r.status === 503) assertRefusal(r, 'busy', !page);
    }
  }

  async function assertPrompt(url: string, headers: Record<string, string> = {}): Promise<void> {
    const { ms, value: [r] } = await cpuTimeOf(() => httpBurst([{ url, headers }], DEADLINE_MS));
    assert.equal(r!.status, 200, describeResult(r!));
    assert.ok(ms < PROMPT_CPU_MS, `${url} cost ${Math.round(ms)} ms of CPU right after the flood (${Math.round(r!.ms)} ms wall)`);
  }

  it(`rounds of ${BURST} concurrent requests at each server: only 200, 429 and documented 503, no hang, prompt health, flat memory`, async () => {
    // A small warm-up first, so the figures before the floods hold what every path loads once (modules, caches).
    checkTools(await httpBurst(toolRequests(40), DEADLINE_MS));
    checkDashboard(await httpBurst(dashboardRequests(40, 0), DEADLINE_MS));
    const before = memory();
    const seen = { tools: {} as Record<string, number>, dashboard: {} as Record<string, number> };
    for (let round = 1; round <= ROUNDS; round++) {
      const started = performance.now();
      const tools = await httpBurst(toolRequests(BURST), DEADLINE_MS);
      checkTools(tools);
      const dash = await httpBurst(dashboardRequests(BURST, round), DEADLINE_MS);
      checkDashboard(dash);
      for (const [k, v] of Object.entries(tally(tools))) seen.tools[k] = (seen.tools[k] ?? 0) + v;
      for (const [k, v] of Object.entries(tally(dash))) seen.dashboard[k] = (seen.dashboard[k] ?? 0) + v;

      await assertPrompt(h.url('/health'));
      await assertPrompt(`${dashboard}/api/status`, { 'x-forwarded-for': `192.0.2.${round}` });
      afterRound.push(memory());
      process.stderr.write(`      round ${round}: ${Math.round(performance.now() - started)} ms; tools ${JSON.stringify(tally(tools))}, dashboard ${JSON.stringify(tally(dash))}, heap ${afterRound.at(-1)!.heapMb.toFixed(0)} MB, rss ${afterRound.at(-1)!.rssMb.toFixed(0)} MB\n`);
    }
    // The floods really went past the limits: both servers refused some and served some.
    assert.ok(seen.tools[429]! > 0 && seen.tools[200]! > 0, `tool server: ${JSON.stringify(seen.tools)}`);
    assert.ok(seen.dashboard[429]! > 0 && seen.dashboard[200]! > 0, `dashboard: ${JSON.stringify(seen.dashboard)}`);
    assert.ok(seen.dashboard[503]! > 0, `the dashboard's in-flight gate or dry-run cap answered 503: ${JSON.stringify(seen.dashboard)}`);

    const last = afterRound.at(-1)!;
    assert.ok(last.heapMb - before.heapMb < 48, `heap ${before.heapMb.toFixed(0)} → ${last.heapMb.toFixed(0)} MB`);
    assert.ok(last.heapMb - afterRound[0]!.heapMb < 24, `heap grows round after round: ${afterRound.map((m) => m.heapMb.toFixed(0)).join(' → ')} MB`);
    assert.ok(last.rssMb - before.rssMb < 256, `rss ${before.rssMb.toFixed(0)} → ${last.rssMb.toFixed(0)} MB`);
  });
});
