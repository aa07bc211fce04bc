import { createHash, randomUUID } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  createRequestStateCodec,
  type ClientCapabilities,
  type Implementation,
  inputRequired,
  inputResponse,
  type InputRequiredResult,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { ApiError } from '../../core/errors.js';
import type { AskUser } from '../../core/tools/tool.js';
import type { CallAsker } from './mcp-server.js';

/** What the client echoes back with its answer (signed, not secret: the client can read it). */
export interface ConfirmationState {
  /** The binding of the confirmed thing: for a send, the digest of its exact payload, nonce included. */
  b: string;
  /** Tool and arguments digest of the call that asked. */
  t: string;
  a: string;
  /** One-use id. */
  j: string;
  /** Until when the answer counts (ms since the epoch): the asking tool's own timeout. */
  x: number;
}

const KEY = 'confirm';
/** The outer bound on any minted state; each confirmation's own timeout (state.x) is usually shorter. */
const STATE_TTL_SECONDS = 3600;

/**
 * Confirmations on MCP 2026-07-28 (no server→client requests): a tool that asks its person
 * (ctx.confirm) ends this request with an `input_required` result — one form elicitation, the
 * same plain message — and a `requestState` sealed with the host's key (mcp-state-key.ts). The
 * client shows the question, then retries the same call with the answer and the state; the
 * tool runs again from the start (dry run included) and, when it reaches the same question, the
 * answer counts only if:
 *
 * - the state's seal holds and it has not expired (the SDK refuses anything else with -32602
 *   before the handler runs), and it was minted for this client and this method (codec `bind`);
 * - it was minted for this very tool call (tool name and a digest of the arguments) and this
 *   very transaction: the binding the submitter computes over the exact payload, nonce
 *   included — so a changed spend, a changed argument or a transaction sent meanwhile (its
 *   nonce is used up) refuses the answer with `confirmation_mismatch`, nothing sent;
 * - its one-use id was not taken before on this process (`confirmation_replayed`); across
 *   processes the nonce in the binding does the same once the first use was sent.
 *
 * Nothing of this lives in one process's memory except the replay guard's shortcut, so any
 * `chain-mcp-http` process of the same CHAIN_HOME can serve any round. A client that declared
 * no elicitation cannot be asked: the tool's fallback applies, as on the HTTP tool API.
 */
export class InputRequiredConfirmations implements CallAsker {
  readonly codec: RequestStateCodec<ConfirmationState>;
  private readonly used = new Map<string, number>();

  constructor(key: Uint8Array, private readonly now: () => number = Date.now) {
    this.codec = createRequestStateCodec<ConfirmationState>({
      key,
      ttlSeconds: STATE_TTL_SECONDS,
      // Stored as an HMAC tag, never raw: the bearer token does not reach the wire.
      bind: (ctx) => [ctx.mcpReq.method, clientInfoOf(ctx)?.name ?? '', ctx.http?.req?.headers.get('authorization') ?? ''].join('\0'),
    });
  }

  begin({ name, args, ctx }: Parameters<CallAsker['begin']>[0]): ReturnType<CallAsker['begin']> {
    if (!clientCapabilitiesOf(ctx)?.elicitation) return { ask: undefined, pending: () => null };
    const state = ctx.mcpReq.requestState<ConfirmationState>();
    const answer = inputResponse(ctx.mcpReq.inputResponses, KEY);
    const argsDigest = digest(args ?? {});
    let pending: InputRequiredResult | null = null;
    const ask: AskUser = async (request) => {
      // Only a bound question can be answered in a later request.
      if (!request.binding) return 'unavailable';
      if (typeof state === 'object' && state !== null && answer.kind === 'elicit') {
        const refusal = { tool: name, sent: false };
        if (state.b !== request.binding || state.t !== name || state.a !== argsDigest) {
          throw new ApiError(403, 'confirmation_mismatch', 'the confirmation answered a different call or transaction than this one (the arguments, the spend or the account\'s nonce changed since it was asked); nothing was sent. Make the call again to be asked anew', refusal);
        }
        if (state.x < this.now()) return 'timeout';
        if (!this.take(state.j, state.x)) {
          throw new ApiError(403, 'confirmation_replayed', 'this confirmation was already used; nothing was sent. Make the call again to be asked anew', refusal);
        }
        return answer.action === 'accept' ? 'accepted' : answer.action === 'decline' ? 'declined' : 'cancelled';
      }
      const minted: ConfirmationState = { b: request.binding, t: name, a: argsDigest, j: randomUUID(), x: this.now() + request.timeoutMs };
      pending = inputRequired({
        inputRequests: { [KEY]: inputRequired.elicit({ message: request.message, requestedSchema: { type: 'object', properties: {} } }) },
        requestState: await this.codec.mint(minted, ctx as ServerContext),
      });
      // The tool stops here and sends nothing; the call answers `pending` instead of this refusal.
      return 'cancelled';
    };
    return { ask, pending: () => pending };
  }

  /** Marks a one-use id as used; false when it already was. Expired ids are forgotten. */
  private take(id: string, until: number): boolean {
    const now = this.now();
    for (const [j, x] of this.used) if (x < now) this.used.delete(j);
    if (this.used.has(id)) return false;
    this.used.set(id, until);
    return true;
  }
}

/** The per-request envelope (2026-07-28) is keyed by the reserved `_meta` names. */
function envelopeOf(ctx: ServerContext): Record<string, unknown> {
  return (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
}

function clientCapabilitiesOf(ctx: ServerContext): ClientCapabilities | undefined {
  return envelopeOf(ctx)[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}

function clientInfoOf(ctx: ServerContext): Implementation | undefined {
  return envelopeOf(ctx)[CLIENT_INFO_META_KEY] as Implementation | undefined;
}

function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value, Object.keys(flatKeys(value)).sort())).digest('base64url');
}

/** Every key at any depth, so JSON.stringify's replacer list keeps them all in sorted order. */
function flatKeys(value: unknown, into: Record<string, true> = {}): Record<string, true> {
  if (Array.isArray(value)) for (const v of value) flatKeys(v, into);
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) { into[k] = true; flatKeys(v, into); }
  return into;
}
