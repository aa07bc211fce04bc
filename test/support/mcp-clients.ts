import path from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment as v1Environment, StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioTransport } from '@modelcontextprotocol/client/stdio';
import { REPO_ROOT } from './test-host.js';

/**
 * MCP clients of both SDK lines for tests of the tool server: the v1 SDK
 * (`@modelcontextprotocol/sdk`, a 2025-era client: `initialize` at 2025-11-25, or the version
 * given) and the v2 SDK (`@modelcontextprotocol/client`, pinned to 2026-07-28: `server/discover`
 * and per-request envelopes, never falling back; or, as `v2@2025-06-18`, a 2025-06-18 client
 * through `initialize`, the revision before 2025-11-25). Both expose the same small surface, so one
 * test body runs against each.
 */
export const MODERN = '2026-07-28';

export type Era = 'v2@2026-07-28' | 'v1@2025-11-25' | 'v2@2025-06-18';
export const ERAS: Era[] = ['v2@2026-07-28', 'v1@2025-11-25'];

export interface Elicitation {
  message: string;
}
export type ElicitAnswer = { action: 'accept'; content: Record<string, string | number | boolean | string[]> } | { action: 'decline' } | { action: 'cancel' };

export interface McpTestClient {
  era: Era;
  /** The protocol version the connection speaks. */
  protocolVersion(): string | undefined;
  listTools(): Promise<{ tools: Array<Record<string, unknown> & { name: string }> }>;
  callTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Raw access for the era-specific parts of a test. */
  raw: V1Client | V2Client;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Answer elicitations (declares the form elicitation capability). */
  elicit?: (request: Elicitation) => Promise<ElicitAnswer>;
  headers?: Record<string, string>;
}

const CHAIN_MCP = path.join(REPO_ROOT, 'host/bin/chain-mcp.ts');

function stdioParams(configFile: string, env: Record<string, string>) {
  return {
    command: process.execPath,
    args: ['--import', 'tsx', CHAIN_MCP, '--config', configFile],
    cwd: REPO_ROOT,
    env: { ...v1Environment(), NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', ...env },
    stderr: 'ignore' as const,
  };
}

export async function connectMcp(era: Era, target: { http: string } | { stdio: string; env?: Record<string, string> }, options: ConnectOptions = {}): Promise<McpTestClient> {
  const capabilities = options.elicit ? { elicitation: { form: {} } } : {};
  if (era.startsWith('v2@')) {
    const version = era.slice(3);
    const client = new V2Client({ name: 'chainhost-test-v2', version: '1.0.0' }, version === MODERN
      ? { capabilities, versionNegotiation: { mode: { pin: MODERN } } }
      : { capabilities, supportedProtocolVersions: [version] });
    if (options.elicit) {
      const elicit = options.elicit;
      client.setRequestHandler('elicitation/create', async (request) => elicit({ message: request.params.message }));
    }
    const transport = 'http' in target
      ? new V2HttpTransport(new URL(target.http), { requestInit: { headers: options.headers ?? {} } })
      : new V2StdioTransport(stdioParams(target.stdio, target.env ?? {}));
    await client.connect(transport);
    return {
      era,
      protocolVersion: () => client.getNegotiatedProtocolVersion(),
      listTools: async () => (await client.listTools()) as never,
      callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as never,
      raw: client,
      close: () => client.close(),
    };
  }
  const client = new V1Client({ name: 'chainhost-test-v1', version: '1.0.0' }, { capabilities });
  if (options.elicit) {
    const elicit = options.elicit;
    const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    client.setRequestHandler(ElicitRequestSchema, async (request) => elicit({ message: request.params.message }));
  }
  const transport = 'http' in target
    ? new V1HttpTransport(new URL(target.http), { requestInit: { headers: options.headers ?? {} } })
    : new V1StdioTransport(stdioParams(target.stdio, target.env ?? {}));
  // The version the server answered to initialize, as the client hands it to its transport.
  let negotiated: string | undefined;
  const setProtocolVersion = (transport as { setProtocolVersion?: (v: string) => void }).setProtocolVersion?.bind(transport);
  (transport as { setProtocolVersion?: (v: string) => void }).setProtocolVersion = (v) => {
    negotiated = v;
    setProtocolVersion?.(v);
  };
  await client.connect(transport);
  return {
    era,
    protocolVersion: () => negotiated,
    listTools: async () => (await client.listTools()) as never,
    callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as never,
    raw: client,
    close: () => client.close(),
  };
}
