import {
  McpServer,
  type McpServerOptions,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type InputRequiredResult,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { toApiError, type ApiError } from '../../core/errors.js';
import { annotationsOf, type AskUser, type ToolDefinition, type ToolTransport } from '../../core/tools/tool.js';
import type { ToolInvoker } from '../../core/tools/tool-invoker.js';
import type { Host } from '../host.js';
import { callProgress } from './mcp-progress.js';
import { SERVER_NAME, serverVersion } from './server-info.js';
import { toolSchemas } from './tool-listing.js';

const INSTRUCTIONS =
  'chainhost exposes chain tools. Read tools are always available; wallet, signing and submitting tools exist only when the ' +
  'operator sets CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS=1. Show the user every value-moving call before making it. ' +
  // Shared definitions, said once here instead of in every tool's schema.
  'Signers: `account` is a keystore account of this host by alias or 64-hex address (list_accounts shows them, with their spending policy and what is left today); ' +
  'give it or `private_key`, exactly one; the key never leaves the host. Amounts are exact decimal strings such as "12.5". ' +
  'A spending policy or the person at the client may refuse a value-moving call before it is signed; limits count the fee and approvals.';

/**
 * How long a 2026-07-28 client may reuse tools/list (`ttlMs`; 2025-era answers carry no hint).
 * The list is fixed for the life of a process (listChanged: false); five minutes bounds how
 * long a client keeps a list from before a restart with other settings (unsafe tools, toolsets).
 */
export const TOOL_LIST_TTL_MS = 300_000;

/** The protocol era an McpServer instance serves (SDK v2): 2025-era `initialize` connections, or 2026-07-28 per-request envelopes. */
export type McpEra = 'legacy' | 'modern';

/**
 * How a tools/call asks its person on this era: given the call's SDK context, an AskUser for
 * the ToolInvoker (or undefined: nobody can be asked), plus what to answer instead of the
 * tool's own result when the ask could not be completed inside this request (2026-07-28:
 * an `input_required` result the client answers by retrying). Set by mcp-confirmations.ts.
 */
export interface CallAsker {
  begin(call: { name: string; args: unknown; server: McpServer; ctx: ServerContext; era: McpEra }): {
    ask: AskUser | undefined;
    /** After the invoker settled: an input_required result to return instead, or null. */
    pending(): InputRequiredResult | null;
  };
}

/** What one era's instances get: how a call asks its person, and SDK server options (e.g. the requestState verifier). */
export interface EraSetup {
  asker?: CallAsker;
  options?: McpServerOptions;
}

/** No way to ask: ctx.confirm answers 'unavailable' and the tool applies its fallback. */
export const NOBODY_TO_ASK: CallAsker = { begin: () => ({ ask: undefined, pending: () => null }) };

/** Legacy-era asking: `elicitation/create` pushed on the call's own stream, as the 2025 protocol does (form mode only). */
export const pushElicitation: CallAsker = {
  begin({ server, ctx }) {
    if (!server.server.getClientCapabilities()?.elicitation?.form) return { ask: undefined, pending: () => null };
    const ask: AskUser = async (request, signal) => {
      try {
        const answer = await ctx.mcpReq.elicitInput(
          { mode: 'form', message: request.message, requestedSchema: { type: 'object', properties: {} } },
          { signal, timeout: request.timeoutMs },
        );
        return answer.action === 'accept' ? 'accepted' : answer.action === 'decline' ? 'declined' : 'cancelled';
      } catch (err) {
        // The SDK's request timeout or the call's own end: either way nobody accepted.
        return /timed out|timeout/i.test((err as Error).message ?? '') ? 'timeout' : 'cancelled';
      }
    };
    return { ask, pending: () => null };
  },
};

/**
 * Builds McpServer instances (SDK v2, `@modelcontextprotocol/server`) over the host's tools.
 * The listing is computed once; an instance is cheap, because the v2 serving entries make one
 * per HTTP request (createMcpHandler) or per stdio connection (serveStdio).
 *
 * Both tools/list and tools/call are low-level handlers so that:
 * - calls run through the host's ToolInvoker — the same policy, strict validation, timeout
 *   and output check as HTTP — and its messages (which argument, why) reach the model;
 * - the listed JSON Schemas are the very documents GET /tools serves.
 *
 * Results: success → `structuredContent` plus the same JSON as one text item (MCP 2025-11-25
 * "should also return the serialised JSON"). Tool execution failures → `isError: true` with
 * the ApiError message as text, then its `{"error":{…}}` body as a second text item; never
 * structuredContent, which the client would validate against the output schema.
 *
 * Long calls send MCP progress notifications when the client passed a progressToken
 * (mcp-progress.ts); the request's abort signal (a 2025 `notifications/cancelled`, or the
 * 2026 client closing the request's stream) aborts the call.
 *
 * A tool that asks its user (ctx.confirm) does so through the era's CallAsker: on 2025-era
 * connections `elicitation/create` on the call's own stream when the client declared form
 * elicitation; on 2026-07-28 an `input_required` result (mcp-confirmations.ts).
 *
 * A name no plugin contributed is a protocol error (JSON-RPC -32602 "Unknown tool"), as the
 * MCP spec lists unknown tools among protocol errors. An unsafe tool while unsafe tools are
 * disabled exists but is refused: that is an `isError` result naming
 * CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS, so a model (and its user) learns how to enable it.
 */
export class McpServerFactory {
  /** Computed at the first instance: surfaces are declared before plugins contribute their tools. */
  private listing: Tool[] | undefined;

  constructor(
    private readonly host: Host,
    private readonly transport: ToolTransport,
    private readonly eras: Partial<Record<McpEra, EraSetup>> = {},
    private readonly extend?: (server: McpServer, era: McpEra) => void,
  ) {}

  create(era: McpEra = 'legacy'): McpServer {
    const invoker = this.host.invoker;
    const setup = this.eras[era];
    const asker = setup?.asker ?? (era === 'legacy' ? pushElicitation : NOBODY_TO_ASK);
    const server = new McpServer(
      { name: SERVER_NAME, title: 'chainhost', version: serverVersion() },
      { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS, cacheHints: { 'tools/list': { ttlMs: TOOL_LIST_TTL_MS } }, ...setup?.options },
    );
    const listing = (this.listing ??= this.host.invoker.visible().map(toMcpTool));
    server.server.setRequestHandler('tools/list', () => ({ tools: listing }));
    server.server.setRequestHandler('tools/call', (request, ctx) =>
      callTool(invoker, asker, { name: request.params.name, args: request.params.arguments, server, ctx, era }, this.transport));
    this.extend?.(server, era);
    return server;
  }
}

/** One McpServer for one 2025-era connection (stdio tests and in-process clients connect it to a transport themselves). */
export function createMcpServer(host: Host, transport: ToolTransport): McpServer {
  return new McpServerFactory(host, transport).create('legacy');
}

/**
 * A tool as a model reads it on every session (issue #29: the list must fit a model's context).
 * Two things a client does not use are left out of the MCP listing only (`GET /tools` keeps
 * them, and the invoker still enforces them, answering a clear error that names the argument):
 * `maxLength` bounds, which guard the host against oversized strings and say nothing a model
 * needs to form a call; and the destructive/idempotent hints of a read-only tool, which the MCP
 * specification declares meaningful only when `readOnlyHint` is false.
 */
function toMcpTool(tool: ToolDefinition): Tool {
  const schemas = toolSchemas(tool);
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: withoutLengthBounds(schemas.input) as Tool['inputSchema'],
    outputSchema: schemas.output as Tool['outputSchema'],
    // The hints only: the title is the tool's own (`title` above), not repeated in every listing.
    annotations: hintsOf(tool),
  };
}

function hintsOf(tool: ToolDefinition): Tool['annotations'] {
  const { title: _title, destructiveHint, idempotentHint, ...hints } = annotationsOf(tool);
  return hints.readOnlyHint ? hints : { ...hints, destructiveHint, idempotentHint };
}

function withoutLengthBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutLengthBounds);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(Object.entries(node).filter(([k, v]) => !(k === 'maxLength' && typeof v === 'number')).map(([k, v]) => [k, withoutLengthBounds(v)]));
}

type Call = Parameters<CallAsker['begin']>[0];

/** One tools/call: cancellation through the request's signal, progress when the client asked for it. */
async function callTool(invoker: ToolInvoker, asker: CallAsker, call: Call, transport: ToolTransport): Promise<CallToolResult | InputRequiredResult> {
  const { ctx, name } = call;
  const progress = callProgress({ progressToken: ctx.mcpReq._meta?.progressToken, notify: ctx.mcpReq.notify });
  const asking = asker.begin(call);
  try {
    const result = await invoker.call(name, call.args, transport, ctx.mcpReq.signal, progress?.report, asking.ask);
    return asking.pending() ?? { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  } catch (err) {
    const apiError = toApiError(err);
    if (apiError.code === 'unknown_tool') throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`, { tool: name });
    return asking.pending() ?? toolError(apiError);
  } finally {
    progress?.stop();
  }
}

export function toolError(error: ApiError): CallToolResult {
  return {
    isError: true,
    content: [
      { type: 'text', text: error.message },
      { type: 'text', text: JSON.stringify(error.toBody()) },
    ],
  };
}
