import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { BenchResult } from './bench-result.js';

/**
 * MCP stdio cold start to the first `tools/list` answer: `chain-mcp` (from source, through tsx)
 * with unsafe tools on and CHAIN_KEYSTORE_PASSPHRASE set, over a keystore of 10 accounts sealed
 * with the default scrypt cost (N = 2^17) against the same with no keystore — alternated, so both
 * see the same machine load; the median of the rounds. Issue #29: the start must not grow with
 * the number of accounts (target ≤ 1.2×); before, every account was decrypted first.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHAIN_MCP = path.join(ROOT, 'host/bin/chain-mcp.ts');
const PASS = 'bench passphrase of the keystore';
const ACCOUNTS = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

async function makeHome(accounts: number): Promise<{ dir: string; config: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-keystore-'));
  if (accounts > 0) {
    const { Keystore } = await import('../core/keystore/keystore.js');
    const { Wallet } = await import('../core/chain/keys.js');
    const keystore = new Keystore(dir);
    for (let i = 0; i < accounts; i++) await keystore.add(`account${i}`, Wallet.generate(), PASS);
  }
  const config = path.join(dir, 'chainrc.json');
  // A node nobody answers at: the start must not depend on it.
  await writeFile(config, JSON.stringify({ home: dir, node: { url: 'http://127.0.0.1:9' }, plugins: { wallet: {}, crypto: {}, query: { graphqlUrl: 'http://127.0.0.1:9/graphql' } } }));
  return { dir, config };
}

/** Milliseconds from spawning chain-mcp to its first tools/list answer. */
async function coldStart(config: string): Promise<number> {
  const started = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--conditions=chainhost-source', '--import', 'tsx', CHAIN_MCP, '--config', config],
    cwd: ROOT,
    env: { ...getDefaultEnvironment(), CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS: '1', CHAIN_KEYSTORE_PASSPHRASE: PASS },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: 'bench-cold-start', version: '1.0.0' });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    if (!tools.some((t) => t.name === 'send_tokens')) throw new Error('send_tokens is not listed');
    return performance.now() - started;
  } catch (err) {
    throw new Error(`chain-mcp did not answer: ${(err as Error).message}\n${stderr}`);
  } finally {
    await client.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function run(): Promise<BenchResult[]> {
  const none = await makeHome(0);
  const ten = await makeHome(ACCOUNTS);
  try {
    await coldStart(none.config); // warm tsx's cache and the disk cache for both
    const times = { none: [] as number[], ten: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      times.none.push(await coldStart(none.config));
      times.ten.push(await coldStart(ten.config));
    }
    const baseline = median(times.none);
    const value = median(times.ten);
    return [{
      name: `MCP stdio cold start to tools/list, ${ACCOUNTS} keystore accounts (median of ${ROUNDS})`,
      value, unit: 'ms', baseline: { name: 'no keystore', value: baseline }, ratio: value / baseline, target: 'ratio ≤ 1.2',
    }];
  } finally {
    await rm(none.dir, { recursive: true, force: true });
    await rm(ten.dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('./bench-result.js');
  printTable(await run());
}
