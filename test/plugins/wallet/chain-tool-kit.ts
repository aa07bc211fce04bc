import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { deriveFromMnemonic } from '../../../core/chain/hd-wallet.js';
import { createLogger, type Logger } from '../../../core/logger.js';
import { postJson, REPO_ROOT, TEST_TOKEN, writeTempConfig, type TestHost } from '../../support/test-host.js';

/**
 * Shared by the wallet, query, crypto and simulate suites: one way to call a tool over any
 * transport (HTTP POST /tools/{name}, MCP stdio), hosts over the in-process devnet or a
 * standalone devnet over real HTTP, and the dev accounts.
 */

/** What the devnet funds: the official wallets' keys 0..9 of this mnemonic (plugins/devnet). */
export const DEVNET_MNEMONIC = 'test test test test test test test test test test test junk';
export const MY_PLUGINS = ['wallet', 'query', 'crypto', 'simulate'] as const;

/** What each plugin contributes: name → capability. */
export const TOOL_CAPABILITIES: Record<string, 'read' | 'unsafe'> = {
  create_wallet: 'unsafe',
  create_wallet_from_private_key: 'unsafe',
  create_hd_wallet: 'unsafe',
  create_hd_wallet_from_mnemonic: 'unsafe',
  send_transaction: 'unsafe',
  send_tokens: 'unsafe',
  get_account_policy: 'read',
  list_accounts: 'read',
  get_balance: 'read',
  get_token_balances: 'read',
  get_transaction: 'read',
  get_state: 'read',
  list_state_keys: 'read',
  get_next_nonce: 'read',
  get_contract_source: 'read',
  get_contract_methods: 'read',
  get_token_contract_by_symbol: 'read',
  get_token_data_by_contract: 'read',
  get_node_status: 'read',
  // The query plugin's indexed reads (clients of the BDS query paths of the host or the node).
  get_bds_status: 'read',
  list_blocks: 'read',
  get_block: 'read',
  get_block_by_hash: 'read',
  get_indexed_tx: 'read',
  list_txs_for_block: 'read',
  list_txs_by_sender: 'read',
  list_txs_by_contract: 'read',
  get_events_for_tx: 'read',
  list_events: 'read',
  get_state_history: 'read',
  get_state_for_tx: 'read',
  get_state_for_block: 'read',
  get_developer_rewards: 'read',
  list_shielded_output_tags: 'read',
  list_shielded_wallet_history: 'read',
  sign_message: 'unsafe',
  verify_signature: 'read',
  encrypt_message: 'unsafe',
  decrypt_message: 'unsafe',
  simulate_transaction: 'read',
  check_contract: 'read',
  deploy_contract: 'unsafe',
};

export interface DevAccount {
  address: string;
  privateKey: string;
}

export function devAccount(index: number): DevAccount {
  const key = deriveFromMnemonic(DEVNET_MNEMONIC, { index });
  return { address: key.publicKey, privateKey: key.privateKey };
}

export interface ToolError {
  code: string;
  message: string;
  details: Record<string, any> | null;
}

/** A tool call's outcome on any transport: `result` on success, `error` (and HTTP `status`) otherwise. */
export interface ToolOutcome {
  ok: boolean;
  result: any;
  error?: ToolError;
  status?: number;
  /** Everything the transport returned, as text: checked for leaked secrets. */
  text: string;
}

export type ToolCaller = (name: string, args?: Record<string, unknown>) => Promise<ToolOutcome>;

export function httpCaller(host: TestHost, token?: string): ToolCaller {
  return async (name, args = {}) => {
    const res = await postJson(host.url(`/tools/${name}`), args, token ? { authorization: `Bearer ${token}` } : {});
    if (res.status === 200) return { ok: true, result: res.json, status: 200, text: res.text };
    return { ok: false, result: undefined, error: res.json?.error, status: res.status, text: res.text };
  };
}

export function mcpCaller(client: Client): ToolCaller {
  return async (name, args = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const texts = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    if (result.isError) {
      const body = result.content[1]?.type === 'text' ? JSON.parse(result.content[1].text) : null;
      return { ok: false, result: undefined, error: body?.error, text: texts };
    }
    return { ok: true, result: result.structuredContent, text: texts };
  };
}

export interface HostOptions {
  unsafe?: boolean;
  includeRaw?: boolean;
  chainId?: string;
  /** Plugin options by name (default: my four plugins with `{}`). */
  plugins?: Record<string, unknown>;
  /** CHAIN_GRAPHQL (default: a closed port, so no test depends on what listens on 5000 here). */
  graphqlUrl?: string;
}

/** The discard port: nothing answers GraphQL there (fetch refuses it outright as a bad port). */
export const NO_GRAPHQL = 'http://127.0.0.1:9/graphql';

/** The query plugin's `graphqlUrl` (CHAIN_GRAPHQL), when it is loaded: the given one, else NO_GRAPHQL. */
function withGraphqlUrl(plugins: Record<string, unknown>, graphqlUrl: string | undefined): Record<string, unknown> {
  if (!('query' in plugins)) return plugins;
  return { ...plugins, query: { graphqlUrl: graphqlUrl ?? NO_GRAPHQL, ...(plugins.query as Record<string, unknown>) } };
}

/** A config whose node is the in-process devnet (plugin `devnet`, not listening). */
export function devnetConfig(home: string, options: HostOptions = {}): Record<string, unknown> {
  return {
    home,
    ...(options.chainId ? { chainId: options.chainId } : {}),
    ...(options.includeRaw ? { includeRaw: true } : {}),
    plugins: { devnet: { listen: false, printAccounts: false }, ...withGraphqlUrl(options.plugins ?? Object.fromEntries(MY_PLUGINS.map((p) => [p, {}])), options.graphqlUrl) },
  };
}

export interface RunningHost {
  host: TestHost;
  call: ToolCaller;
  stop(): Promise<void>;
}

/** A real Host with the HTTP tool server on port 0; unsafe hosts get a bearer token (required then). */
export async function startHost(config: Record<string, unknown>, options: { unsafe?: boolean; env?: Record<string, string>; log?: Logger } = {}): Promise<RunningHost> {
  const http = options.unsafe ? { host: '127.0.0.1', port: 0, token: TEST_TOKEN } : { host: '127.0.0.1', port: 0 };
  // mocha loads test files as CommonJS (tsx's require hook) while the host imports built-in
  // plugins with import(): booting the host from this CommonJS graph would give the plugins
  // their own copy of core/ (ApiError instanceof checks fail). Importing the host here keeps
  // host, plugins and core in one ESM graph, as in production.
  const { bootTestHost } = await import('../../support/test-host.js');
  const log = process.env.TOOL_TEST_LOG ? createLogger({ level: 'debug' }) : undefined;
  const host = await bootTestHost({ ...config, tools: { http, ...(options.unsafe ? { unsafe: true } : {}) } }, { env: options.env, log: options.log ?? log });
  return { host, call: httpCaller(host, options.unsafe ? TEST_TOKEN : undefined), stop: () => host.stop() };
}

export async function tempHome(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'chainhost-tools-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

const CHAIN_MCP = path.join(REPO_ROOT, 'host/bin/chain-mcp.ts');

export interface McpSession {
  client: Client;
  call: ToolCaller;
  stderr(): string;
  close(): Promise<void>;
}

/** The real chain-mcp process (through tsx) with the SDK's stdio client. */
export async function spawnChainMcp(config: unknown, env: Record<string, string> = {}): Promise<McpSession> {
  const file = await writeTempConfig(config);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', CHAIN_MCP, '--config', file.file],
    cwd: REPO_ROOT,
    env: { ...getDefaultEnvironment(), NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: 'chainhost-tool-tests', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (err) {
    await file.remove();
    throw new Error(`chain-mcp did not start: ${(err as Error).message}\n${stderr}`);
  }
  return {
    client,
    call: mcpCaller(client),
    stderr: () => stderr,
    close: async () => {
      await client.close();
      await file.remove();
    },
  };
}

/** Asserts an error outcome: its code, that its message (or field) names `field`, and the HTTP status when known. */
export function expectError(outcome: ToolOutcome, expected: { code: string; status?: number; field?: string; match?: RegExp }): ToolError {
  if (outcome.ok) throw new Error(`expected error ${expected.code}, got a result: ${outcome.text.slice(0, 300)}`);
  const error = outcome.error;
  if (!error) throw new Error(`expected error ${expected.code}, got no error body: ${outcome.text.slice(0, 300)}`);
  if (error.code !== expected.code) throw new Error(`expected error ${expected.code}, got ${error.code}: ${error.message}`);
  if (expected.status !== undefined && outcome.status !== undefined && outcome.status !== expected.status) {
    throw new Error(`expected HTTP ${expected.status}, got ${outcome.status}: ${error.message}`);
  }
  if (expected.field !== undefined) {
    const fields = [error.details?.field, ...(error.details?.issues ?? []).map((i: { field: string }) => i.field)];
    if (!fields.includes(expected.field) && !error.message.includes(expected.field)) {
      throw new Error(`expected the error to name ${expected.field}: ${error.message}`);
    }
  }
  if (expected.match && !expected.match.test(error.message)) throw new Error(`expected the message to match ${expected.match}: ${error.message}`);
  return error;
}

/** Every JSON number in a result is an integer: decimals travel as strings. */
export function assertNoFloats(value: unknown, where = '$'): void {
  if (typeof value === 'number' && !Number.isInteger(value)) throw new Error(`float ${value} at ${where}`);
  if (Array.isArray(value)) value.forEach((v, i) => assertNoFloats(v, `${where}[${i}]`));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) assertNoFloats(v, `${where}.${k}`);
}
