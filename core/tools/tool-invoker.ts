import { z } from 'zod';
import { ApiError, toApiError } from '../errors.js';
import type { CapabilityPolicy } from '../capability.js';
import type { Logger } from '../logger.js';
import type { ContributionList } from '../contribution-list.js';
import type { ToolDefinition, ToolTransport } from './tool.js';

export interface ToolInvokerOptions {
  defaultTimeoutMs: number;
  /** Called after every call, for metrics and audit. */
  onCallFinished?: (event: { tool: string; transport: ToolTransport; outcome: 'ok' | 'error'; status: number; durationMs: number }) => void;
}

/**
 * The one tool-call pipeline every transport uses:
 * policy → validate input → run with timeout → validate output.
 */
export class ToolInvoker {
  constructor(
    private readonly tools: ContributionList<ToolDefinition>,
    private readonly policy: CapabilityPolicy,
    private readonly log: Logger,
    private readonly options: ToolInvokerOptions,
  ) {}

  /** Tools visible under the policy, in registration order. */
  visible(): ToolDefinition[] {
    return this.tools.values().filter((t) => this.policy.allows(t.capability));
  }

  async call(name: string, rawArgs: unknown, transport: ToolTransport, outerSignal?: AbortSignal): Promise<Record<string, unknown>> {
    const started = performance.now();
    let status = 200;
    try {
      const result = await this.run(name, rawArgs, transport, outerSignal);
      return result;
    } catch (err) {
      const apiError = toApiError(err);
      status = apiError.status;
      if (apiError.status >= 500 && !(err instanceof ApiError)) {
        this.log.error(`tool ${name} failed`, { error: err instanceof Error ? err.stack ?? err.message : String(err) });
      }
      throw apiError;
    } finally {
      this.options.onCallFinished?.({
        tool: name, transport, outcome: status < 400 ? 'ok' : 'error', status, durationMs: performance.now() - started,
      });
    }
  }

  private async run(name: string, rawArgs: unknown, transport: ToolTransport, outerSignal?: AbortSignal): Promise<Record<string, unknown>> {
    const tool = this.tools.get(name)?.value;
    if (!tool) throw new ApiError(404, 'unknown_tool', `unknown tool "${name}"; GET /tools lists the available tools`, { tool: name });
    if (!this.policy.allows(tool.capability)) {
      throw new ApiError(403, 'unsafe_disabled', `tool "${name}" is unsafe and unsafe tools are disabled; set CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS=1 to enable them`, { tool: name });
    }
    const args = parseArguments(tool, rawArgs ?? {});
    const timeoutMs = tool.timeoutMs ?? this.options.defaultTimeoutMs;
    const controller = new AbortController();
    const onOuterAbort = () => controller.abort(outerSignal?.reason);
    outerSignal?.addEventListener('abort', onOuterAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort(new Error('timeout'));
        reject(ApiError.timeout(`tool "${name}" did not finish within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      const output = await Promise.race([
        tool.run(args as Record<string, unknown>, { signal: controller.signal, transport, log: this.log.child(name) }),
        timeout,
      ]);
      const checked = tool.output.safeParse(output);
      if (!checked.success) {
        this.log.error(`tool ${name} returned output that does not match its schema`, { issues: checked.error.issues.slice(0, 5) });
        throw new ApiError(500, 'invalid_output', `tool "${name}" produced an invalid result; this is a bug, see the server log`);
      }
      return checked.data as Record<string, unknown>;
    } finally {
      clearTimeout(timer);
      outerSignal?.removeEventListener('abort', onOuterAbort);
    }
  }
}

function parseArguments(tool: ToolDefinition, raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw ApiError.badRequest(`arguments of tool "${tool.name}" must be a JSON object`, { expected: 'object' });
  }
  const parsed = tool.input.strict().safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => describeIssue(issue));
  const first = issues[0]!;
  throw ApiError.badRequest(`invalid arguments for tool "${tool.name}": ${issues.map((i) => i.text).join('; ')}`, {
    field: first.field,
    issues: issues.map(({ field, message }) => ({ field, message })),
  });
}

function describeIssue(issue: z.core.$ZodIssue): { field: string; message: string; text: string } {
  if (issue.code === 'unrecognized_keys') {
    const field = issue.keys.join(', ');
    const message = `unknown argument${issue.keys.length > 1 ? 's' : ''}`;
    return { field, message, text: `${field}: ${message}` };
  }
  const field = issue.path.length ? issue.path.map(String).join('.') : '(arguments)';
  const message = issue.message.replace(/^Invalid input: /, '');
  return { field, message, text: `${field}: ${message}` };
}
