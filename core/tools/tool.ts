import type { z } from 'zod';
import type { Capability } from '../capability.js';
import type { Logger } from '../logger.js';

export type ToolTransport = 'stdio' | 'http' | 'mcp-http' | 'in-process';

export interface ToolCallContext {
  /**
   * Aborted when the call times out or the client goes away. It belongs to this call only:
   * once run() has settled the host may hand the same signal to a later call (see
   * tool-invoker.ts), so work that outlives the call must not keep listening to it.
   */
  signal: AbortSignal;
  transport: ToolTransport;
  log: Logger;
  /**
   * Tells the caller the call is alive and what it is doing (MCP `notifications/progress` when
   * the client sent a progressToken, so clients with resetTimeoutOnProgress keep waiting; a no-op
   * otherwise). Long waits call it at least every few seconds.
   */
  progress(message: string): void;
  /**
   * Asks the person at the client to accept or refuse something (MCP `elicitation/create` when
   * the connected client declares elicitation; 'unavailable' on every other transport, so the
   * caller applies its own fallback). The call's deadline does not run while the person decides;
   * `timeoutMs` bounds the wait instead.
   */
  confirm(request: ConfirmRequest): Promise<ConfirmOutcome>;
}

/** What to ask: one plain message the client shows as it is. */
export interface ConfirmRequest {
  message: string;
  /** How long to wait for the answer; then the outcome is 'timeout'. */
  timeoutMs: number;
  /**
   * A digest of exactly what is being confirmed (a send: its whole payload, nonce included; see
   * TransactionSubmitter). A transport that asks in one request and hears the answer in a later
   * one (MCP 2026-07-28 `input_required`) accepts the answer only for the same binding, so a
   * yes can never carry over to a different or changed transaction.
   */
  binding?: string;
}

/** 'unavailable': no way to ask on this transport or client (nobody was asked). */
export type ConfirmOutcome = 'accepted' | 'declined' | 'cancelled' | 'timeout' | 'unavailable';

/** How a transport asks its user; the ToolInvoker gives it to each call as `ctx.confirm`. */
export type AskUser = (request: ConfirmRequest, signal: AbortSignal) => Promise<ConfirmOutcome>;

/**
 * Hints a tool may add. readOnlyHint always follows from the capability; destructiveHint
 * defaults to "not read-only" and is set false for unsafe tools that change no state (local key
 * and crypto tools, mcp.md §9.1), so clients do not ask for needless confirmations.
 */
export interface ToolHints {
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export type ToolInput = z.ZodObject<z.ZodRawShape>;
export type ToolOutput = z.ZodObject<z.ZodRawShape>;

export interface ToolDefinition<I extends ToolInput = ToolInput, O extends ToolOutput = ToolOutput> {
  /** snake_case, unique across all plugins. */
  name: string;
  title: string;
  description: string;
  capability: Capability;
  input: I;
  output: O;
  hints?: ToolHints;
  /** Per-call timeout; the host default applies when absent. */
  timeoutMs?: number;
  /**
   * Arguments this deployment switched off (absent from the schema), each with why and what to
   * send instead: a call that sends one is refused with that reason rather than "unknown argument".
   */
  refusedArguments?: Readonly<Record<string, string>>;
  /**
   * Groups the tool belongs to besides its capability and its plugin's name, e.g. `indexed` for
   * reads served by the BDS index: what `tools.include` / `tools.exclude` can name.
   */
  groups?: readonly string[];
  run(args: z.output<I>, ctx: ToolCallContext): Promise<z.input<O>>;
}

/** Keeps the generic types of one tool while storing many side by side. */
export function defineTool<I extends ToolInput, O extends ToolOutput>(def: ToolDefinition<I, O>): ToolDefinition {
  return def as unknown as ToolDefinition;
}

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export function annotationsOf(tool: ToolDefinition): ToolAnnotations {
  const read = tool.capability === 'read';
  return {
    title: tool.title,
    readOnlyHint: read,
    destructiveHint: read ? false : tool.hints?.destructiveHint ?? true,
    idempotentHint: tool.hints?.idempotentHint ?? read,
    openWorldHint: tool.hints?.openWorldHint ?? true,
  };
}
