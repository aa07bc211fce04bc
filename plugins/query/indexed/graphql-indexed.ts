import type { GraphqlStates } from '../graphql-states.js';
import { noBds } from './bds-reader.js';

/**
 * Upstream's second source for indexed reads (mcp.md §4.6, "BDS → fallback"): when the node has
 * no BDS, a PostGraphile-compatible GraphQL endpoint at CHAIN_GRAPHQL over a BDS database may
 * still answer. Rows come back in the BDS paths' snake_case shape, so the tools map them alike.
 * When that endpoint does not answer either, the tool says both: no BDS on the node, and why
 * GraphQL could not stand in.
 */
type GqlRow = Record<string, unknown>;

const EVENT_FIELDS = 'id txHash blockHeight txIndex eventIndex contract event signer caller dataIndexed data createdAt';
const TX_FIELDS = 'hash blockHeight blockHash txIndex sender nonce contract function success statusCode chiUsed result payload envelope createdAt';
const CHANGE_FIELDS = 'key newValue txHash blockHeight txIndex writeIndex originType createdAt';

export class GraphqlIndexed {
  constructor(private readonly graphql: GraphqlStates) {}

  /** `/events/<c>/<e>/…`: newest first by offset, or oldest first after an id. */
  events(contract: string, event: string, limit: number, offset: number, afterId: number | undefined, what: string, noBdsReason: string, signal?: AbortSignal) {
    const query = afterId === undefined
      ? `query ($c: String!, $e: String!, $first: Int!, $offset: Int!) { allEvents(condition: {contract: $c, event: $e}, orderBy: ID_DESC, first: $first, offset: $offset) { nodes { ${EVENT_FIELDS} } } }`
      : `query ($c: String!, $e: String!, $first: Int!, $after: BigInt!) { allEvents(condition: {contract: $c, event: $e}, filter: {id: {greaterThan: $after}}, orderBy: ID_ASC, first: $first) { nodes { ${EVENT_FIELDS} } } }`;
    const variables = afterId === undefined ? { c: contract, e: event, first: limit, offset } : { c: contract, e: event, first: limit, after: String(afterId) };
    return this.nodes(query, variables, 'allEvents', what, noBdsReason, signal);
  }

  /** `/tx/<hash>`: one transaction or null. */
  async tx(hash: string, what: string, noBdsReason: string, signal?: AbortSignal): Promise<GqlRow | null> {
    const data = await this.ask(`query ($h: String!) { transactionByHash(hash: $h) { ${TX_FIELDS} } }`, { h: hash.toUpperCase() }, what, noBdsReason, signal);
    const row = data?.transactionByHash;
    if (!row || typeof row !== 'object') return null;
    const { hash: txHash, ...rest } = snake(row as GqlRow);
    return { tx_hash: txHash, ...rest };
  }

  /** `/state_history/<key>/…`: changes of one key, newest first. */
  async stateHistory(key: string, limit: number, offset: number, what: string, noBdsReason: string, signal?: AbortSignal): Promise<GqlRow[]> {
    const rows = await this.nodes(
      `query ($k: String!, $first: Int!, $offset: Int!) { allStateChanges(condition: {key: $k}, orderBy: CHANGE_ID_DESC, first: $first, offset: $offset) { nodes { ${CHANGE_FIELDS} } } }`,
      { k: key, first: limit, offset }, 'allStateChanges', what, noBdsReason, signal,
    );
    return rows.map(({ new_value, ...rest }) => ({ ...rest, value: new_value }));
  }

  private async nodes(query: string, variables: Record<string, unknown>, field: string, what: string, noBdsReason: string, signal?: AbortSignal): Promise<GqlRow[]> {
    const connection = (await this.ask(query, variables, what, noBdsReason, signal))?.[field] as { nodes?: unknown } | undefined;
    if (!connection || !Array.isArray(connection.nodes)) throw fallbackFailed(what, noBdsReason, `the answer has no ${field}.nodes`, this.graphql.shownUrl);
    return (connection.nodes as GqlRow[]).filter((n) => n && typeof n === 'object').map(snake);
  }

  private async ask(query: string, variables: Record<string, unknown>, what: string, noBdsReason: string, signal?: AbortSignal) {
    try {
      return await this.graphql.request(query, variables, signal);
    } catch (err) {
      signal?.throwIfAborted();
      throw fallbackFailed(what, noBdsReason, err instanceof Error ? err.message : String(err), this.graphql.shownUrl);
    }
  }
}

function fallbackFailed(what: string, noBdsReason: string, reason: string, url: string) {
  const err = noBds(what, noBdsReason);
  return Object.assign(err, { message: `${err.message}; the GraphQL fallback at ${url} did not answer either (${reason})` });
}

/** PostGraphile's camelCase fields as the BDS rows' snake_case; BigInt strings stay strings, `createdAt` is `created_at`. */
function snake(row: GqlRow): GqlRow {
  const out: GqlRow = {};
  for (const [k, v] of Object.entries(row)) out[k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = v;
  return out;
}
