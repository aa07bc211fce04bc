import 'reflect-metadata';
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { printTable, type BenchResult } from './bench-result.js';

/**
 * Answer bytes an agent pays for in the standard flow — fund an account, swap through a plan,
 * add liquidity through a plan, then indexed reads — driven over MCP (Streamable HTTP, the SDK
 * client) against a devnet. The figure per call is the UTF-8 size of the tools/call result as
 * the client receives it (text content plus structuredContent). Bytes, not timings: the figures
 * do not depend on the machine's load.
 *
 * The baseline is the same flow on the code before compact answers (commit 7b705c4), measured
 * by this script with `--write-baseline` and kept in tool-answer-bytes.baseline.json.
 * `--verbose` passes `verbose: true` where a tool takes it (the full detail, for comparison).
 */

const BASELINE_FILE = new URL('./tool-answer-bytes.baseline.json', import.meta.url);

interface Measured {
  step: string;
  tool: string;
  bytes: number;
}

export async function measureFlow(options: { verbose?: boolean } = {}): Promise<Measured[]> {
  const kit = await import('../test/plugins/dex/support/dex-host.js');
  const { BUILTIN_PLUGINS } = await import('../host/builtin-plugins.js');
  const hasBds = Boolean(BUILTIN_PLUGINS.bds);
  const chain = await kit.openDevnet();
  const h = await kit.startDexHost(chain, { plugins: { wallet: {}, query: {}, dex: {}, ...(hasBds ? { bds: {} } : {}) }, name: 'bytes' });
  const measured: Measured[] = [];
  const listed = new Map((await h.client.listTools()).tools.map((t) => [t.name, t]));
  const takesVerbose = (name: string) => Boolean(options.verbose && listed.get(name)?.inputSchema.properties?.verbose);
  const call = async (step: string, name: string, args: Record<string, unknown>): Promise<any> => {
    const full = takesVerbose(name) ? { ...args, verbose: true } : args;
    const result = (await h.client.callTool({ name, arguments: full })) as CallToolResult;
    measured.push({ step, tool: name, bytes: Buffer.byteLength(JSON.stringify(result)) });
    if (process.env.ANSWER_BYTES_DUMP) process.stderr.write(`\n== ${name}\n${JSON.stringify(result.structuredContent ?? result.content)}\n`);
    if (result.isError) throw new Error(`${name} failed: ${(result.content[0] as { text: string }).text}`);
    return result.structuredContent;
  };
  try {
    const funder = kit.devAccount(0);
    const trader = kit.devAccount(3);
    // fund
    await call('fund', 'send_tokens', { private_key: funder.privateKey, to_address: trader.address, amount: '1000' });
    await call('fund', 'get_balance', { address: trader.address });
    // swap
    await call('swap', 'dex_quote_exact_in', { token_in: 'currency', token_out: 'con_test_token', amount_in: '25', account: trader.address });
    const swapPlan = await call('swap', 'dex_plan_swap', { token_in: 'currency', token_out: 'con_test_token', amount: '25', account: trader.address, recipient: trader.address });
    const swap = await call('swap', 'dex_submit_swap', { private_key: trader.privateKey, plan_id: swapPlan.plan_id });
    // add liquidity
    const lpPlan = await call('add liquidity', 'dex_plan_add_liquidity', {
      token_a: 'currency', token_b: 'con_test_token', amount_a_desired: '50', amount_b_desired: '50', account: trader.address, recipient: trader.address,
    });
    await call('add liquidity', 'dex_submit_add_liquidity', { private_key: trader.privateKey, plan_id: lpPlan.plan_id });
    // indexed reads
    const swapHash = swap.final_transaction?.tx_hash ?? swap.tx_hash ?? swap.calls?.[swap.calls.length - 1]?.tx_hash;
    await call('indexed reads', 'get_transaction', { tx_hash: swapHash });
    if (hasBds) {
      await waitIndexed(h, swapHash);
      await call('indexed reads', 'get_token_balances', { address: trader.address });
      await call('indexed reads', 'dex_list_events', { contract: 'con_pairs', event: 'Swap', limit: 10 });
    }
    return measured;
  } finally {
    await h.stop();
    await chain.close();
  }
}

/** Waits until BDS has indexed the swap (not measured). */
async function waitIndexed(h: { mcp(name: string, args?: Record<string, unknown>): Promise<{ ok: boolean; result: any }> }, txHash: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const page = await h.mcp('dex_list_events', { contract: 'con_pairs', event: 'Swap', limit: 500 });
    if (page.ok && page.result.items.some((e: { tx_hash: string }) => e.tx_hash === txHash)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the swap was not indexed in time');
}

function byTool(measured: readonly Measured[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of measured) out.set(`${m.step}: ${m.tool}`, (out.get(`${m.step}: ${m.tool}`) ?? 0) + m.bytes);
  return out;
}

export async function run(): Promise<BenchResult[]> {
  const measured = await measureFlow();
  let baseline: Measured[] | null = null;
  try {
    baseline = JSON.parse(await readFile(BASELINE_FILE, 'utf8')).measured as Measured[];
  } catch {
    baseline = null;
  }
  const now = byTool(measured);
  const before = baseline ? byTool(baseline) : new Map<string, number>();
  const results: BenchResult[] = [...now].map(([name, value]) => {
    const base = before.get(name);
    return {
      name, value, unit: 'B',
      ...(base !== undefined ? { baseline: { name: '7b705c4', value: base }, ratio: value / base } : {}),
    };
  });
  const total = measured.reduce((s, m) => s + m.bytes, 0);
  const baseTotal = baseline?.reduce((s, m) => s + m.bytes, 0);
  results.push({
    name: 'standard flow, total', value: total, unit: 'B',
    ...(baseTotal !== undefined ? { baseline: { name: '7b705c4', value: baseTotal }, ratio: total / baseTotal } : {}),
    target: 'ratio ≤ 0.25',
  });
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--write-baseline')) {
    const measured = await measureFlow();
    await writeFile(BASELINE_FILE, JSON.stringify({ commit: process.env.BASELINE_COMMIT ?? 'unknown', measured }, null, 2) + '\n');
    for (const m of measured) process.stdout.write(`${m.step}: ${m.tool} ${m.bytes} B\n`);
  } else if (process.argv.includes('--verbose')) {
    for (const m of await measureFlow({ verbose: true })) process.stdout.write(`${m.step}: ${m.tool} ${m.bytes} B\n`);
  } else {
    printTable(await run());
  }
  process.exit(0);
}
