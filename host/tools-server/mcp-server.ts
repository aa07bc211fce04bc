import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ElicitResultSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolResult,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { toApiError, type ApiError } from '../../core/errors.js';
import { annotationsOf, type AskUser, type ToolDefinition, type ToolTransport } from '../../core/tools/tool.js';
import type { ToolInvoker } from '../../core/tools/tool-invoker.js';
import type { Host } from '../host.js';
import { callProgress, type ProgressExtra } from './mcp-progress.js';
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
 * One McpServer over the host's tools, for one MCP connection (a stdio process or one
 * Streamable HTTP session: an SDK server connects to a single transport).
 *
 * Every VISIBLE tool is registered with registerTool (title, description, schemas,
 * annotations), then both tools/list and tools/call are replaced so that:
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
 * (mcp-progress.ts); a client's `notifications/cancelled` aborts the call's signal.
 *
 * A tool that asks its user (ctx.confirm) does so with `elicitation/create`, sent on the
 * tools/call's own stream, when the client declared the elicitation capability (form mode);
 * otherwise the tool learns that nobody can be asked.
 *
 * A name no plugin contributed is a protocol error (JSON-RPC -32602 "Unknown tool"), as the
 * MCP spec lists unknown tools among protocol errors. An unsafe tool while unsafe tools are
 * disabled exists but is refused: that is an `isError` result naming
 * CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS, so a model (and its user) learns how to enable it.
 */
export function createMcpServer(host: Host, transport: ToolTransport): McpServer {
  const invoker = host.invoker;
  const server = new McpServer(
    { name: SERVER_NAME, title: 'chainhost', version: serverVersion() },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  const visible = invoker.visible();
  for (const tool of visible) {
    server.registerTool(tool.name, {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.input.strict(),
      outputSchema: tool.output,
      annotations: annotationsOf(tool),
    }, ((args: unknown, extra: CallExtra) => callTool(invoker, server.server, tool.name, args, transport, extra)) as never);
  }
  // The tool set is frozen before any server starts: the list never changes.
  server.server.registerCapabilities({ tools: { listChanged: false } });

  const listing: Tool[] = visible.map(toMcpTool);
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing }));
  server.server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callTool(invoker, server.server, request.params.name, request.params.arguments, transport, { ...extra, _meta: request.params._meta ?? extra._meta }));
  return server;
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

type CallExtra = { signal: AbortSignal; sendRequest: RequestSender } & ProgressExtra;
type RequestSender = (request: ServerRequest, schema: typeof ElicitResultSchema, options?: { signal?: AbortSignal; timeout?: number }) => Promise<{ action: string }>;

/** Asks through `elicitation/create` on the call's stream; null when the client cannot be asked (no form elicitation). */
function elicitation(server: Server, extra: CallExtra): AskUser | undefined {
  if (!server.getClientCapabilities()?.elicitation?.form) return undefined;
  return async (request, signal) => {
    try {
      const answer = await extra.sendRequest(
        { method: 'elicitation/create', params: { mode: 'form', message: request.message, requestedSchema: { type: 'object', properties: {} } } },
        ElicitResultSchema,
        { signal, timeout: request.timeoutMs },
      );
      return answer.action === 'accept' ? 'accepted' : answer.action === 'decline' ? 'declined' : 'cancelled';
    } catch (err) {
      // The SDK's request timeout (-32001) or the call's own end: either way nobody accepted.
      if ((err as { code?: unknown }).code === ErrorCode.RequestTimeout) return 'timeout';
      return 'cancelled';
    }
  };
}

/** One tools/call: cancellation through `extra.signal`, progress when the client asked for it. */
async function callTool(invoker: ToolInvoker, server: Server, name: string, args: unknown, transport: ToolTransport, extra: CallExtra): Promise<CallToolResult> {
  const progress = callProgress(extra);
  try {
    const result = await invoker.call(name, args, transport, extra.signal, progress?.report, elicitation(server, extra));
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  } catch (err) {
    const apiError = toApiError(err);
    if (apiError.code === 'unknown_tool') throw unknownTool(name);
    return toolError(apiError);
  } finally {
    progress?.stop();
  }
}

/**
 * JSON-RPC -32602. Not an McpError: its constructor prefixes "MCP error -32602:" to the message,
 * and the client's McpError prefixes it again.
 */
function unknownTool(name: string): Error {
  return Object.assign(new Error(`Unknown tool: ${name}`), { code: ErrorCode.InvalidParams, data: { tool: name } });
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
