import { getEventListeners, setMaxListeners } from 'node:events';
import { z } from 'zod';
import { ApiError, toApiError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ContributionList } from '../contribution-list.js';
import type { AskUser, ConfirmOutcome, ConfirmRequest, ToolCallContext, ToolDefinition, ToolTransport } from './tool.js';
import { ToolSelection } from './tool-selection.js';

export interface ToolInvokerOptions {
  defaultTimeoutMs: number;
  /**
   * The address of a keystore account named by alias, or null: a read tool's argument that fails
   * validation and is an alias is read as that account's address (the one alias resolver of every
   * read tool, e.g. get_balance {address: "alice"}).
   */
  addressOfAlias?: (text: string) => string | null;
  /** Which tools this deployment lists and serves (tools.include / tools.exclude); default all. */
  selection?: ToolSelection;
  /** Called after every call, for metrics and audit. */
  onCallFinished?: (event: { tool: string; transport: ToolTransport; outcome: 'ok' | 'error'; status: number; durationMs: number }) => void;
}

/**
 * The one tool-call pipeline every transport uses:
 * policy → validate input → run with timeout → validate output.
 * The policy was applied once, when the host froze the tool list: a tool it refused is withheld
 * from the list and answered here as 403 instead of 404.
 */
export class ToolInvoker {
  constructor(
    private readonly tools: ContributionList<ToolDefinition>,
    private readonly log: Logger,
    private readonly options: ToolInvokerOptions,
  ) {}

  private readonly toolLogs = new Map<string, Logger>();

  private toolLog(name: string): Logger {
    let log = this.toolLogs.get(name);
    if (!log) this.toolLogs.set(name, (log = this.log.child(name)));
    return log;
  }

  /** Tools visible under the policy and the deployment's selection, in registration order. */
  visible(): ToolDefinition[] {
    const selection = this.options.selection ?? ToolSelection.ALL;
    if (selection.selectsAll) return this.tools.values();
    return this.tools.list().filter((entry) => selection.selects(entry)).map((entry) => entry.value);
  }

  /** One async function for the whole call: each nested async layer costs a promise and a turn on the hottest path. */
  /** `askUser`: how this transport asks its user (MCP elicitation); without it ctx.confirm answers 'unavailable'. */
  async call(
    name: string, rawArgs: unknown, transport: ToolTransport, outerSignal?: AbortSignal, onProgress?: (message: string) => void, askUser?: AskUser,
  ): Promise<Record<string, unknown>> {
    const started = performance.now();
    let status = 200;
    let deadline: Deadline | undefined;
    let cancel: CallSignal | undefined;
    try {
      const tool = this.permitted(name);
      // Only a missing body/arguments means "no arguments"; an explicit JSON null is not an object.
      const args = parseArguments(tool, rawArgs === undefined ? {} : rawArgs, tool.capability === 'read' ? this.options.addressOfAlias : undefined);
      const timeoutMs = tool.timeoutMs ?? this.options.defaultTimeoutMs;
      const signal = (cancel = new CallSignal(outerSignal));
      // One promise settled by whichever comes first, the tool or its deadline (cheaper than a race).
      const output = await new Promise<unknown>((resolve, reject) => {
        deadline = new Deadline(timeoutMs, () => {
          signal.abort(new Error('timeout'));
          reject(ApiError.timeout(`tool "${name}" did not finish within ${timeoutMs} ms`));
        });
        const ctx = new CallContext(transport, this.toolLog(name), signal, deadline, onProgress, askUser);
        tool.run(args as Record<string, unknown>, ctx).then(resolve, reject);
      });
      return this.checkedOutput(tool, output);
    } catch (err) {
      const apiError = toApiError(err);
      status = apiError.status;
      if (apiError.status >= 500 && !(err instanceof ApiError)) {
        this.log.error(`tool ${name} failed`, { error: err instanceof Error ? err.stack ?? err.message : String(err) });
      }
      throw apiError;
    } finally {
      deadline?.clear();
      cancel?.dispose();
      this.options.onCallFinished?.({
        tool: name, transport, outcome: status < 400 ? 'ok' : 'error', status, durationMs: performance.now() - started,
      });
    }
  }

  /** The tool, if it exists and the policy allows it. */
  private permitted(name: string): ToolDefinition {
    const entry = this.tools.get(name);
    if (entry) {
      if (this.options.selection?.selects(entry) === false) {
        throw new ApiError(404, 'tool_not_selected', `tool "${name}" is not among this deployment's tools (config tools.include / tools.exclude); GET /tools lists them`, { tool: name });
      }
      return entry.value;
    }
    if (this.tools.withheldEntry(name)) {
      throw new ApiError(403, 'unsafe_disabled', `tool "${name}" is unsafe and unsafe tools are disabled; set CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS=1 to enable them`, { tool: name });
    }
    throw new ApiError(404, 'unknown_tool', `unknown tool "${name}"; GET /tools lists the available tools`, { tool: name });
  }

  private checkedOutput(tool: ToolDefinition, output: unknown): Record<string, unknown> {
    const checked = tool.output.safeParse(output);
    if (!checked.success) {
      this.log.error(`tool ${tool.name} returned output that does not match its schema`, { issues: checked.error.issues.slice(0, 5) });
      throw new ApiError(500, 'invalid_output', `tool "${tool.name}" produced an invalid result; this is a bug, see the server log`);
    }
    return checked.data as Record<string, unknown>;
  }
}

/** What a tool's run() gets; a class so the lazy `signal` getter lives on the prototype, not on every call's object. */
class CallContext implements ToolCallContext {
  constructor(
    readonly transport: ToolTransport,
    readonly log: Logger,
    private readonly cancel: CallSignal,
    private readonly deadline: Deadline,
    private readonly onProgress?: (message: string) => void,
    private readonly askUser?: AskUser,
  ) {}

  progress(message: string): void {
    this.onProgress?.(message);
  }

  /** The deadline stands still while a person decides: a tool's timeout is for its own work. */
  async confirm(request: ConfirmRequest): Promise<ConfirmOutcome> {
    if (!this.askUser) return 'unavailable';
    this.deadline.pause();
    try {
      return await this.askUser(request, this.signal);
    } finally {
      this.deadline.resume();
    }
  }

  get signal(): AbortSignal {
    return this.cancel.signal;
  }
}

/** A call's timeout that can stand still (while its user is asked something). */
class Deadline {
  private timer: NodeJS.Timeout | undefined;
  private remainingMs: number;
  private armedAt = 0;
  private pauses = 0;
  private cleared = false;

  constructor(ms: number, private readonly onExpire: () => void) {
    this.remainingMs = ms;
    this.arm();
  }

  private arm(): void {
    this.armedAt = performance.now();
    this.timer = setTimeout(this.onExpire, this.remainingMs);
  }

  pause(): void {
    if (this.pauses++ > 0 || this.cleared) return;
    clearTimeout(this.timer);
    this.remainingMs = Math.max(0, this.remainingMs - (performance.now() - this.armedAt));
  }

  resume(): void {
    if (--this.pauses === 0 && !this.cleared) this.arm();
  }

  clear(): void {
    this.cleared = true;
    clearTimeout(this.timer);
  }
}

/**
 * The AbortSignal a tool sees (aborted on timeout or when the caller's signal aborts), created
 * only when the tool reads `ctx.signal`. Node 20 takes ~6 µs to build an AbortSignal (more than
 * a whole in-process state read), so a call that ends with its signal unaborted and with no
 * listener left hands it on to a later call instead of dropping it.
 */
class CallSignal {
  private controller: AbortController | undefined;
  private abortedWith: { reason: unknown } | undefined;
  private disposed = false;
  /** Made only when the tool reads its signal and the caller passed one (most calls do neither). */
  private onOuterAbort: (() => void) | undefined;

  constructor(private readonly outer: AbortSignal | undefined) {}

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = idleControllers.pop() ?? newController();
      if (this.abortedWith) this.controller.abort(this.abortedWith.reason);
      else if (this.outer?.aborted) this.abort(this.outer.reason);
      else if (!this.disposed && this.outer) {
        const outer = this.outer;
        this.onOuterAbort = () => this.abort(outer.reason);
        outer.addEventListener('abort', this.onOuterAbort, { once: true });
      }
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.abortedWith) return;
    this.abortedWith = { reason };
    this.controller?.abort(reason);
  }

  dispose(): void {
    this.disposed = true;
    const controller = this.controller;
    if (!controller) return;
    if (this.onOuterAbort) this.outer?.removeEventListener('abort', this.onOuterAbort);
    // A listener still attached means some work of this call is still running: let it keep
    // the signal to itself.
    if (!controller.signal.aborted && getEventListeners(controller.signal, 'abort').length === 0 && idleControllers.length < MAX_IDLE_CONTROLLERS) {
      idleControllers.push(controller);
    }
  }
}

const MAX_IDLE_CONTROLLERS = 1024;
const idleControllers: AbortController[] = [];

function newController(): AbortController {
  const controller = new AbortController();
  // A tool may fan one call out into many concurrent node reads, each listening on this signal.
  setMaxListeners(256, controller.signal);
  return controller;
}

/** `.strict()` builds a new schema; build it once per tool, not once per call. */
const strictInputs = new WeakMap<ToolDefinition, z.ZodType>();

function strictInputOf(tool: ToolDefinition): z.ZodType {
  let schema = strictInputs.get(tool);
  if (!schema) {
    schema = tool.input.strict();
    strictInputs.set(tool, schema);
  }
  return schema;
}

function parseArguments(tool: ToolDefinition, raw: unknown, addressOfAlias?: (text: string) => string | null): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw ApiError.badRequest(`arguments of tool "${tool.name}" must be a JSON object`, { expected: 'object', field: '(arguments)' });
  }
  let parsed = strictInputOf(tool).safeParse(raw);
  if (parsed.success) return parsed.data;
  const withAddresses = addressOfAlias ? aliasesAsAddresses(raw as Record<string, unknown>, parsed.error.issues, addressOfAlias) : null;
  if (withAddresses) {
    const again = strictInputOf(tool).safeParse(withAddresses);
    if (again.success) return again.data;
    parsed = again;
  }
  const issues = parsed.error.issues.flatMap((issue) => describeIssue(issue, tool.refusedArguments));
  const first = issues[0]!;
  throw ApiError.badRequest(`invalid arguments for tool "${tool.name}": ${issues.map((i) => i.text).join('; ')}`, {
    field: first.field,
    issues: issues.map(({ field, message }) => ({ field, message })),
  });
}

/** `raw` with each refused top-level string that is a keystore alias replaced by its address; null when none is. */
function aliasesAsAddresses(raw: Record<string, unknown>, issues: readonly z.core.$ZodIssue[], addressOfAlias: (text: string) => string | null): Record<string, unknown> | null {
  let out: Record<string, unknown> | null = null;
  for (const issue of issues) {
    const field = issue.path.length === 1 ? String(issue.path[0]) : null;
    const value = field === null ? undefined : raw[field];
    const address = typeof value === 'string' ? addressOfAlias(value) : null;
    if (field === null || address === null) continue;
    out ??= { ...raw };
    out[field] = address;
  }
  return out;
}

type Issue = { field: string; message: string; text: string };

function describeIssue(issue: z.core.$ZodIssue, refused: Readonly<Record<string, string>> = {}): Issue[] {
  if (issue.code === 'unrecognized_keys') {
    // A switched-off argument first, with its reason: the caller learns what to send instead.
    const isRefused = (key: string) => Object.hasOwn(refused, key);
    const out: Issue[] = issue.keys.filter(isRefused).map((key) => ({ field: key, message: refused[key]!, text: `${key}: ${refused[key]!}` }));
    const unknown = issue.keys.filter((key) => !isRefused(key));
    if (unknown.length > 0) {
      const field = unknown.join(', ');
      const message = `unknown argument${unknown.length > 1 ? 's' : ''}`;
      out.push({ field, message, text: `${field}: ${message}` });
    }
    return out;
  }
  const field = issue.path.length ? issue.path.map(String).join('.') : '(arguments)';
  const message = issue.message.replace(/^Invalid input: /, '');
  return [{ field, message, text: `${field}: ${message}` }];
}
