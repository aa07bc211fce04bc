import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ChainDecimal } from '../../../../core/chain/decimal.js';
import { deriveFromMnemonic } from '../../../../core/chain/hd-wallet.js';
import { ChainNode } from '../../../../core/chain/node.js';
import { abciDecimal } from '../../../../core/chain/abci-value.js';
import { Devnet } from '../../../../plugins/devnet/index.js';
import { createLogger } from '../../../../core/logger.js';
import { bootTestHost, postJson, TEST_TOKEN, type TestHost } from '../../../support/test-host.js';

export { ChainDecimal };

/**
 * A standalone devnet listening on a free port (as a remote node would be) and a host whose
 * node.url points at it, with the MCP SDK client on /mcp and plain HTTP tool calls.
 *
 * Load this module with `await import()` from a test: mocha loads test files through tsx's
 * CommonJS hook while the host imports plugins as ES modules, so a statically imported core
 * would be a second copy (its ApiError is not the plugins' ApiError). Importing the support
 * module dynamically keeps the test, the host and the plugins on one ES module graph.
 */

export const DEVNET_MNEMONIC = 'test test test test test test test test test test test junk';

export function devAccount(index: number): { address: string; privateKey: string } {
  const key = deriveFromMnemonic(DEVNET_MNEMONIC, { index });
  return { address: key.publicKey, privateKey: key.privateKey };
}

export interface ToolError {
  code: string;
  message: string;
  details: Record<string, any> | null;
}

export interface Outcome {
  ok: boolean;
  result: any;
  error?: ToolError;
  status?: number;
}

export interface DexChain {
  devnet: Devnet;
  node: ChainNode;
  rpcUrl: string;
  home: string;
  close(): Promise<void>;
}

export async function openDevnet(): Promise<DexChain> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'chainhost-dex-'));
  const devnet = await Devnet.open({ home: path.join(home, 'devnet'), accounts: 4, config: { fsync: false } });
  const { rpcUrl } = await devnet.listen({ host: '127.0.0.1', port: 0, metricsPort: null });
  return {
    devnet, node: new ChainNode(devnet.rpc), rpcUrl, home,
    close: async () => {
      await devnet.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

export interface DexHost {
  host: TestHost;
  client: Client;
  /** Through the MCP SDK client (isError → error body). */
  mcp(name: string, args?: Record<string, unknown>): Promise<Outcome>;
  /** Through POST /tools/{name}. */
  http(name: string, args?: Record<string, unknown>): Promise<Outcome>;
  stop(): Promise<void>;
}

export async function startDexHost(chain: DexChain, options: { plugins?: Record<string, unknown>; env?: Record<string, string>; name?: string; unsafe?: boolean } = {}): Promise<DexHost> {
  const unsafe = options.unsafe ?? true;
  const host = await bootTestHost({
    home: path.join(chain.home, options.name ?? 'host'),
    node: { url: chain.rpcUrl },
    tools: { http: { host: '127.0.0.1', port: 0, token: TEST_TOKEN }, unsafe },
    plugins: options.plugins ?? { wallet: {}, dex: {} },
  }, { env: options.env, ...(process.env.DEX_TEST_LOG ? { log: createLogger({ level: 'debug' }) } : {}) });
  const transport = new StreamableHTTPClientTransport(new URL(host.url('/mcp')), { requestInit: { headers: { authorization: `Bearer ${TEST_TOKEN}` } } });
  const client = new Client({ name: 'dex-agent-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    host,
    client,
    async mcp(name, args = {}) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      if (result.isError) {
        const body = result.content[1]?.type === 'text' ? JSON.parse(result.content[1].text) : null;
        return { ok: false, result: undefined, error: body?.error ?? { code: 'unknown', message: (result.content[0] as { text: string }).text, details: null } };
      }
      return { ok: true, result: result.structuredContent };
    },
    async http(name, args = {}) {
      const res = await postJson(host.url(`/tools/${name}`), args, { authorization: `Bearer ${TEST_TOKEN}` });
      if (res.status === 200) return { ok: true, result: res.json, status: 200 };
      return { ok: false, result: undefined, error: res.json?.error, status: res.status };
    },
    async stop() {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
      await host.stop();
    },
  };
}

/** A decimal state value read straight from the node (missing → 0). */
export async function stateDecimal(node: ChainNode, key: string): Promise<ChainDecimal> {
  return abciDecimal(await node.query(`/get/${key}`)) ?? ChainDecimal.ZERO;
}

export function ok(outcome: Outcome): any {
  if (!outcome.ok) throw new Error(`tool failed: ${outcome.error?.code} ${outcome.error?.message}`);
  return outcome.result;
}
