import { type JsonValue, parseJsonExact } from 'chainhost/chain';
import { contractNameSchema } from 'chainhost/plugin';

/**
 * CHAIN_GRAPHQL, the anchor's fallback for indexed reads (mcp.md §2, §4.2-4.3): when neither
 * this host nor the node serves a BDS query path, a PostGraphile-compatible GraphQL endpoint
 * over a BDS database (chainhost's graphql plugin, or the upstream stack) may still answer
 * with one query where the state fallback needs a node read per contract.
 *
 * Only the `states` view is used (`allStates` filtered on the key suffix), with the names
 * graphql.md gives. An endpoint that fails is not asked again for a while, so a host without
 * one pays for the refused connection once, not on every call.
 */
export interface IndexedState {
  key: string;
  value: JsonValue;
  /** The numeric projection of `value` (BigFloat text), null when the value is not a number. */
  valueNumeric: string | null;
  lastTxHash: string | null;
  lastBlockHeight: string | null;
  updatedAt: string | null;
}

/** A state of one contract: `<contract><suffix>`. */
export interface ContractState extends IndexedState {
  contract: string;
}

export type StatesAnswer = { rows: ContractState[]; truncated: boolean } | { unavailable: string };

export interface GraphqlStatesOptions {
  timeoutMs?: number;
  /** How long a failed endpoint is left alone. */
  retryAfterMs?: number;
  now?: () => number;
}

const PAGE = 1_000;

const STATES_BY_SUFFIX = `query StatesByKeySuffix($suffix: String!, $first: Int!, $after: Cursor) {
  allStates(filter: {key: {endsWith: $suffix}}, orderBy: KEY_ASC, first: $first, after: $after) {
    nodes { key value valueNumeric lastTxHash lastBlockHeight updatedAt }
    pageInfo { hasNextPage endCursor }
  }
}`;

const STATES_BY_KEYS = `query StatesByKeys($keys: [String!]!, $first: Int!) {
  allStates(filter: {key: {in: $keys}}, first: $first) { nodes { key value } }
}`;

export class GraphqlStates {
  /** The endpoint as warnings show it: no credentials, no query string. */
  readonly shownUrl: string;
  private readonly timeoutMs: number;
  private readonly retryAfterMs: number;
  private readonly now: () => number;
  private down: { until: number; reason: string } | undefined;

  /** Where requests go: the URL without credentials (fetch refuses them, and they must never reach a message). */
  private readonly target: string;
  private readonly headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };

  constructor(url: string, options: GraphqlStatesOptions = {}) {
    const parsed = new URL(url);
    this.shownUrl = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
    if (parsed.username || parsed.password) {
      const user = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
      this.headers.authorization = `Basic ${Buffer.from(user, 'utf8').toString('base64')}`;
      parsed.username = '';
      parsed.password = '';
    }
    this.target = parsed.href;
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.retryAfterMs = options.retryAfterMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * The indexed state `<contract><suffix>` of every contract that has it (key order), e.g.
   * suffix `.balances:<address>`; at most `max` keys are read. Keys whose prefix is not a
   * contract name (a longer key that merely ends the same way) are left out.
   */
  async contractStates(suffix: string, max: number, signal?: AbortSignal): Promise<StatesAnswer> {
    if (this.down && this.now() < this.down.until) return { unavailable: this.down.reason };
    const rows: ContractState[] = [];
    let read = 0;
    let after: string | null = null;
    try {
      for (;;) {
        const page = await this.page(suffix, Math.min(PAGE, max - read), after, signal);
        read += page.nodes.length;
        for (const node of page.nodes) {
          const contract = node.key.slice(0, -suffix.length);
          if (node.key.endsWith(suffix) && contractNameSchema.safeParse(contract).success) rows.push({ ...node, contract });
        }
        if (!page.hasNextPage || page.endCursor === null) return { rows, truncated: false };
        if (read >= max) return { rows, truncated: true };
        after = page.endCursor;
      }
    } catch (err) {
      signal?.throwIfAborted();
      const reason = `GraphQL at ${this.shownUrl} did not answer: ${err instanceof Error ? err.message : String(err)}`;
      this.down = { until: this.now() + this.retryAfterMs, reason };
      return { unavailable: reason };
    }
  }

  /**
   * The current values of the given keys (at most PAGE), e.g. the token metadata of the contracts
   * a balance listing found: one query. Keys the index does not have are absent from the map; an
   * endpoint that fails answers `unavailable` (and is left alone for a while, as above).
   */
  async statesByKeys(keys: readonly string[], signal?: AbortSignal): Promise<{ values: Map<string, JsonValue> } | { unavailable: string }> {
    if (keys.length === 0) return { values: new Map() };
    if (this.down && this.now() < this.down.until) return { unavailable: this.down.reason };
    try {
      const data = await this.request(STATES_BY_KEYS, { keys: keys.slice(0, PAGE), first: PAGE }, signal);
      return { values: new Map(statesPage(data?.allStates).nodes.map((n) => [n.key, n.value])) };
    } catch (err) {
      signal?.throwIfAborted();
      const reason = `GraphQL at ${this.shownUrl} did not answer: ${err instanceof Error ? err.message : String(err)}`;
      this.down = { until: this.now() + this.retryAfterMs, reason };
      return { unavailable: reason };
    }
  }

  private async page(suffix: string, first: number, after: string | null, signal?: AbortSignal) {
    return statesPage((await this.request(STATES_BY_SUFFIX, { suffix, first, after }, signal))?.allStates);
  }

  /**
   * One GraphQL POST to CHAIN_GRAPHQL (credentials as Basic auth, never in a message); resolves
   * with `data`, throws with a short reason otherwise. Also the indexed-read tools' fallback.
   */
  async request(query: string, variables: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown> | undefined> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const res = await fetch(this.target, {
      method: 'POST',
      headers: this.headers,
      body: JSON.stringify({ query, variables }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    }).catch((err: unknown) => {
      throw new Error(timeout.aborted ? `no answer within ${this.timeoutMs} ms` : networkReason(err));
    });
    const text = await res.text();
    let body: { data?: Record<string, unknown>; errors?: Array<{ message?: unknown }> };
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`HTTP ${res.status}, not a GraphQL answer: ${text.slice(0, 80)}`);
    }
    if (body.errors?.length) throw new Error(String(body.errors[0]?.message ?? 'unknown error').slice(0, 200));
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return body.data;
  }
}

function statesPage(connection: unknown): { nodes: IndexedState[]; hasNextPage: boolean; endCursor: string | null } {
  const c = connection as { nodes?: unknown; pageInfo?: { hasNextPage?: unknown; endCursor?: unknown } } | null | undefined;
  if (!c || !Array.isArray(c.nodes)) throw new Error('the answer has no allStates.nodes');
  const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
  const nodes: IndexedState[] = [];
  for (const n of c.nodes as Array<Record<string, unknown>>) {
    if (!n || typeof n.key !== 'string') continue;
    nodes.push({
      key: n.key,
      value: jsonColumn(n.value),
      valueNumeric: text(n.valueNumeric),
      lastTxHash: text(n.lastTxHash),
      lastBlockHeight: text(n.lastBlockHeight),
      updatedAt: text(n.updatedAt),
    });
  }
  return { nodes, hasNextPage: c.pageInfo?.hasNextPage === true, endCursor: text(c.pageInfo?.endCursor) };
}

/** fetch's "fetch failed" hides the reason in `cause` (ECONNREFUSED, ENOTFOUND…). */
function networkReason(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}

/**
 * A JSON column as PostGraphile 5 under upstream's preset sends it (and chainhost by default):
 * JSON text, decoded here. A value that is not JSON text is taken as it came (an endpoint with
 * `dynamicJson` sends objects; its string values that happen to parse as JSON are the one
 * ambiguity, and `valueNumeric` carries numbers anyway).
 */
export function jsonColumn(value: unknown): JsonValue {
  if (typeof value !== 'string') return (value ?? null) as JsonValue;
  try {
    return parseJsonExact(value);
  } catch {
    return value;
  }
}
