import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { canonicalJson, type JsonObject } from 'chainhost/chain';
import { planStateError, planCheckError } from './dex-errors.js';

/**
 * The in-memory store of DEX plans (spec part 3). A plan is issued `active` with an immutable
 * canonical copy; the first submit *claims* it — synchronously, before any await, so among any
 * number of concurrent submits exactly one wins — and it is `consumed` from then on whatever
 * happens next. `expired` (TTL or deadline), `evicted` (oldest first beyond the cap) and `lost`
 * (issued by an earlier process) are terminal too; every non-active claim throws a 4xx ApiError.
 *
 * plan_id = base64url(8-byte process tag ‖ 16 random bytes ‖ 8-byte check): opaque to callers,
 * but lets this process tell "issued before a restart" (`plan_lost`: a valid check, another
 * tag) from "never issued" (`plan_not_found`: a made-up or mistyped id fails the check).
 * Terminal states are remembered (bounded) so replays get the precise reason.
 */

export type PlanState = 'active' | 'consumed' | 'expired' | 'evicted' | 'lost';

export interface PlanRegistryOptions {
  /** CHAIN_MCP_DEX_PLAN_TTL_SECONDS (30..900). */
  ttlSeconds: number;
  /** CHAIN_MCP_DEX_PLAN_MAX_ENTRIES (1..1000). */
  maxEntries: number;
  now?: () => number;
  random?: (n: number) => Buffer;
  /** How many terminal states to remember for precise errors (default max(1024, 4 × maxEntries)). */
  tombstones?: number;
}

export interface IssuedPlan {
  planId: string;
  /** `sha256:` + hex SHA-256 of the canonical bytes. */
  digest: string;
  issuedAt: string;
  expiresAt: string;
  /** The canonical JSON text that was hashed and stored. */
  canonical: string;
  /** Deep-frozen plan body (what the digest covers). */
  plan: Readonly<JsonObject>;
}

interface Entry extends IssuedPlan {
  expiresAtMs: number;
}

export const PLAN_ID_BYTES = 32;
const TAG_BYTES = 8;
const CHECK_BYTES = 8;
export const PLAN_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function planDigest(canonical: string): string {
  return 'sha256:' + createHash('sha256').update(canonical, 'utf8').digest('hex');
}

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as Record<string, unknown>)) deepFreeze(v);
  }
  return value;
}

export class PlanRegistry {
  readonly ttlSeconds: number;
  readonly maxEntries: number;
  private readonly now: () => number;
  private readonly random: (n: number) => Buffer;
  private readonly tag: Buffer;
  /** Insertion order = issue order, so the first entry is the oldest. */
  private readonly active = new Map<string, Entry>();
  private readonly terminal = new Map<string, Exclude<PlanState, 'active' | 'lost'>>();
  private readonly tombstoneCap: number;

  constructor(options: PlanRegistryOptions) {
    if (!Number.isInteger(options.ttlSeconds) || options.ttlSeconds < 30 || options.ttlSeconds > 900) {
      throw new RangeError(`CHAIN_MCP_DEX_PLAN_TTL_SECONDS must be an integer from 30 to 900, got ${options.ttlSeconds}`);
    }
    if (!Number.isInteger(options.maxEntries) || options.maxEntries < 1 || options.maxEntries > 1000) {
      throw new RangeError(`CHAIN_MCP_DEX_PLAN_MAX_ENTRIES must be an integer from 1 to 1000, got ${options.maxEntries}`);
    }
    this.ttlSeconds = options.ttlSeconds;
    this.maxEntries = options.maxEntries;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? randomBytes;
    this.tag = this.random(TAG_BYTES);
    this.tombstoneCap = options.tombstones ?? Math.max(1024, 4 * options.maxEntries);
  }

  /** Active plans right now (expired ones are swept first). */
  get size(): number {
    this.sweep();
    return this.active.size;
  }

  /**
   * Stores a plan body and returns its id, digest and timestamps. `expires_at` = min(deadline,
   * issue + TTL); the timestamps are written into the body before hashing, so the digest covers
   * them. A deadline that is not in the future is refused.
   */
  issue(body: JsonObject, deadlineMs: number): IssuedPlan {
    const nowMs = this.now();
    if (!(deadlineMs > nowMs)) throw new RangeError('the plan deadline must be in the future');
    const expiresAtMs = Math.min(deadlineMs, nowMs + this.ttlSeconds * 1000);
    const issuedAt = new Date(nowMs).toISOString();
    const expiresAt = new Date(expiresAtMs).toISOString();
    const plan = { ...body, issued_at: issuedAt, expires_at: expiresAt } as JsonObject;
    const canonical = canonicalJson(plan);
    const idBody = Buffer.concat([this.tag, this.random(PLAN_ID_BYTES - TAG_BYTES - CHECK_BYTES)]);
    const planId = Buffer.concat([idBody, planIdCheck(idBody)]).toString('base64url');
    const entry: Entry = {
      planId, digest: planDigest(canonical), issuedAt, expiresAt, canonical,
      plan: deepFreeze(JSON.parse(canonical) as JsonObject), expiresAtMs,
    };
    this.sweep();
    this.active.set(planId, entry);
    while (this.active.size > this.maxEntries) {
      const oldest = this.active.keys().next().value as string;
      this.active.delete(oldest);
      this.remember(oldest, 'evicted');
    }
    return publicView(entry);
  }

  /** The state of a plan id without changing it. */
  state(planId: string): PlanState | 'unknown' {
    this.sweep();
    if (this.active.has(planId)) return 'active';
    const t = this.terminal.get(planId);
    if (t) return t;
    return this.issuedElsewhere(planId) ? 'lost' : 'unknown';
  }

  /** The active plan, or null; never changes state (for read-only inspection). */
  peek(planId: string): IssuedPlan | null {
    this.sweep();
    const e = this.active.get(planId);
    return e ? publicView(e) : null;
  }

  /**
   * Consumes the plan and returns it; throws the 4xx ApiError of its state otherwise. Runs to
   * completion synchronously: of concurrent claims exactly one succeeds.
   */
  claim(planId: string): IssuedPlan {
    const nowMs = this.now();
    const entry = this.active.get(planId);
    if (entry && entry.expiresAtMs <= nowMs) {
      this.active.delete(planId);
      this.remember(planId, 'expired');
    } else if (entry) {
      this.active.delete(planId);
      this.remember(planId, 'consumed');
      // Integrity: the stored bytes still hash to the digest handed out at issue.
      const again = Buffer.from(planDigest(entry.canonical));
      const expected = Buffer.from(entry.digest);
      if (again.length !== expected.length || !timingSafeEqual(again, expected)) {
        throw planCheckError(409, 'plan_invalid', 'the stored plan no longer matches its digest', { plan_id: planId });
      }
      return publicView(entry);
    }
    const state = this.state(planId);
    throw planStateError(state === 'active' ? 'consumed' : state, planId);
  }

  /** Expired plans leave lazily: on every issue, claim and state read. */
  private sweep(): void {
    const nowMs = this.now();
    for (const [id, e] of this.active) {
      if (e.expiresAtMs <= nowMs) {
        this.active.delete(id);
        this.remember(id, 'expired');
      }
    }
  }

  private remember(planId: string, state: Exclude<PlanState, 'active' | 'lost'>): void {
    this.terminal.delete(planId);
    this.terminal.set(planId, state);
    while (this.terminal.size > this.tombstoneCap) this.terminal.delete(this.terminal.keys().next().value as string);
  }

  /** An id with a valid check carrying another process's tag: issued before a restart. */
  private issuedElsewhere(planId: string): boolean {
    if (!PLAN_ID_PATTERN.test(planId)) return false;
    const bytes = Buffer.from(planId, 'base64url');
    if (bytes.length !== PLAN_ID_BYTES) return false;
    const body = bytes.subarray(0, PLAN_ID_BYTES - CHECK_BYTES);
    return planIdCheck(body).equals(bytes.subarray(PLAN_ID_BYTES - CHECK_BYTES)) && !bytes.subarray(0, TAG_BYTES).equals(this.tag);
  }
}

/** The id's last 8 bytes: a hash of the rest, so ids nobody issued are recognised as such (not a secret). */
function planIdCheck(body: Buffer): Buffer {
  return createHash('sha256').update('chainhost-plan-id\0').update(body).digest().subarray(0, CHECK_BYTES);
}

function publicView(e: Entry): IssuedPlan {
  return { planId: e.planId, digest: e.digest, issuedAt: e.issuedAt, expiresAt: e.expiresAt, canonical: e.canonical, plan: e.plan };
}
