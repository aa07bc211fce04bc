import type { JsonValue } from 'chainhost/chain';
import { intValue, toolJson } from 'chainhost/plugin';
import { jsonColumn, type GraphqlStates } from '../graphql-states.js';
import { noBds, type FallbackContext } from './bds-reader.js';
import type { Row } from './indexed-schemas.js';

/**
 * Upstream's second source for indexed reads (mcp.md §4.6, "BDS → fallback"): when the node has
 * no BDS, a PostGraphile-compatible GraphQL endpoint at CHAIN_GRAPHQL over a BDS database may
 * still answer. Rows come back as the BDS paths give them (bds.md §6.3): snake_case, the same
 * columns, BIGINT as numbers (digit strings beyond 2^53), JSON columns decoded (PostGraphile 5
 * under upstream's preset, and chainhost's server by default, send them as JSON text), so the
 * tools map them alike. When the endpoint does not answer either, the tool says both: no BDS on
 * the node, and why GraphQL could not stand in.
 */

const EVENT_FIELDS = 'id blockHeight txHash txIndex eventIndex contract event signer caller dataIndexed data createdAt';
const TX_FIELDS = 'hash blockHeight blockHash blockTime txIndex sender nonce contract function success statusCode chiUsed result payload envelope createdAt';
const HISTORY_FIELDS = 'key newValue txHash blockHeight blockHash blockTime txIndex writeIndex previousChangeId previousTxHash originType createdAt';
const TX_STATE_FIELDS = 'key newValue blockHeight writeIndex originType createdAt';
const BLOCK_STATE_FIELDS = 'key newValue txHash txIndex writeIndex originType';

/** Rows asked for in one request when a read pages. */
const PAGE = 1_000;
/** `/txs_for_block` as upstream reads it: at most 1000 transactions. */
const BLOCK_TXS_MAX = 1_000;
/** `/state_for_block` as upstream bounds it: 250 transactions × 1000 changes. */
const BLOCK_CHANGES_MAX = 250 * 1_000;
/** `/state_for_tx`: upstream's 1000 changes per transaction. */
const TX_CHANGES_MAX = 1_000;
/** Developer rewards summed per recipient before the fallback gives up (the BDS path has no bound). */
const REWARDS_MAX = 100 * PAGE;

/** BIGINT columns (BigInt, a digit string in GraphQL) as the BDS rows carry them. */
const BIGINT_COLUMNS = new Set(['id', 'height', 'block_height', 'block_time', 'nonce', 'chi_used', 'change_id', 'previous_change_id']);
/**
 * A Datetime on a whole second: PostGraphile writes `.000000`, the BDS paths (Python's
 * isoformat) no fraction at all.
 */
const WHOLE_SECOND = /\.0{6}(?=[+-]\d{2}:\d{2}$)/;
/** JSONB columns (JSON text in GraphQL under upstream's preset). */
const JSON_COLUMNS = new Set(['result', 'payload', 'envelope', 'data', 'data_indexed', 'new_value']);

export class GraphqlIndexed {
  constructor(private readonly graphql: GraphqlStates) {}

  /** `/events/<c>/<e>/…`: newest first by offset, or oldest first after an id. */
  events(contract: string, event: string, limit: number, offset: number, afterId: number | undefined, ctx: FallbackContext): Promise<Row[]> {
    const query = afterId === undefined
      ? `query ($c: String!, $e: String!, $first: Int!, $offset: Int!) { allEvents(condition: {contract: $c, event: $e}, orderBy: ID_DESC, first: $first, offset: $offset) { nodes { ${EVENT_FIELDS} } } }`
      : `query ($c: String!, $e: String!, $first: Int!, $after: BigInt!) { allEvents(condition: {contract: $c, event: $e}, filter: {id: {greaterThan: $after}}, orderBy: ID_ASC, first: $first) { nodes { ${EVENT_FIELDS} } } }`;
    const variables = afterId === undefined ? { c: contract, e: event, first: limit, offset } : { c: contract, e: event, first: limit, after: String(afterId) };
    return this.nodes(query, variables, 'allEvents', ctx);
  }

  /** `/events_for_tx/<hash>`: in emission order. */
  eventsForTx(hash: string, ctx: FallbackContext): Promise<Row[]> {
    return this.paged('allEvents', 'condition: {txHash: $h}, orderBy: EVENT_INDEX_ASC', '$h: String!', { h: hash.toUpperCase() }, EVENT_FIELDS, TX_CHANGES_MAX, ctx);
  }

  /** `/tx/<hash>`: one transaction or null. */
  async tx(hash: string, ctx: FallbackContext): Promise<Row | null> {
    const data = await this.ask(`query ($h: String!) { transactionByHash(hash: $h) { ${TX_FIELDS} } }`, { h: hash.toUpperCase() }, ctx);
    const row = data?.transactionByHash;
    return row && typeof row === 'object' ? txRow(bdsRow(row as Record<string, unknown>)) : null;
  }

  /** `/txs_for_block/<height-or-hash>`: in tx_index order, at most 1000 (a 64-character reference is a block hash). */
  async txsForBlock(ref: string, ctx: FallbackContext): Promise<Row[]> {
    const byHash = ref.length === 64;
    const rows = await this.paged(
      'allTransactions', `condition: {${byHash ? 'blockHash' : 'blockHeight'}: $ref}, orderBy: TX_INDEX_ASC`, `$ref: ${byHash ? 'String!' : 'BigInt!'}`,
      { ref: byHash ? ref.toUpperCase() : ref }, TX_FIELDS, BLOCK_TXS_MAX, ctx,
    );
    return rows.map(txRow);
  }

  /** `/txs_by_sender/…` and `/txs_by_contract/…`: newest first. */
  async txsBy(column: 'sender' | 'contract', value: string, limit: number, offset: number, ctx: FallbackContext): Promise<Row[]> {
    const rows = await this.nodes(
      `query ($v: String!, $first: Int!, $offset: Int!) { allTransactions(condition: {${column}: $v}, orderBy: [BLOCK_HEIGHT_DESC, TX_INDEX_DESC], first: $first, offset: $offset) { nodes { ${TX_FIELDS} } } }`,
      { v: value, first: limit, offset }, 'allTransactions', ctx,
    );
    return rows.map(txRow);
  }

  /** `/state_history/<key>/…`: changes of one key, newest first. */
  async stateHistory(key: string, limit: number, offset: number, ctx: FallbackContext): Promise<Row[]> {
    const rows = await this.nodes(
      `query ($k: String!, $first: Int!, $offset: Int!) { allStateChanges(condition: {key: $k}, orderBy: CHANGE_ID_DESC, first: $first, offset: $offset) { nodes { ${HISTORY_FIELDS} } } }`,
      { k: key, first: limit, offset }, 'allStateChanges', ctx,
    );
    return rows.map(changeRow);
  }

  /** `/state_for_tx/<hash>`: in write order. */
  async stateForTx(hash: string, ctx: FallbackContext): Promise<Row[]> {
    const rows = await this.paged('allStateChanges', 'condition: {txHash: $h}, orderBy: WRITE_INDEX_ASC', '$h: String!', { h: hash.toUpperCase() }, TX_STATE_FIELDS, TX_CHANGES_MAX, ctx);
    return rows.map(changeRow);
  }

  /** `/state_for_block/<height-or-hash>`: in (tx_index, write_index) order. */
  async stateForBlock(ref: string, ctx: FallbackContext): Promise<Row[]> {
    const byHash = ref.length === 64;
    const rows = await this.paged(
      'allStateChanges', `condition: {${byHash ? 'blockHash' : 'blockHeight'}: $ref}, orderBy: [TX_INDEX_ASC, WRITE_INDEX_ASC]`, `$ref: ${byHash ? 'String!' : 'BigInt!'}`,
      { ref: byHash ? ref.toUpperCase() : ref }, BLOCK_STATE_FIELDS, BLOCK_CHANGES_MAX, ctx,
    );
    return rows.map(changeRow);
  }

  /** `/developer_rewards/<key>`: the recipient's developer rewards (`allRewards`, 1000 a page) aggregated as the BDS path does. */
  async developerRewards(recipientKey: string, ctx: FallbackContext): Promise<Row> {
    const rewards = await this.paged(
      'allRewards', 'condition: {type: "developer_reward", recipientKey: $k}, orderBy: ID_ASC', '$k: String!', { k: recipientKey },
      'txHash sourceContract value blockHeight createdAt', REWARDS_MAX + 1, ctx, ['value'],
    );
    if (rewards.length > REWARDS_MAX) {
      throw fallbackFailed(ctx, `${recipientKey} has more than ${REWARDS_MAX} developer rewards; their sum needs the BDS path`, this.graphql.shownUrl);
    }
    return aggregateRewards(recipientKey, rewards);
  }

  /**
   * Every node of a connection up to `max`, PAGE at a time by cursor (`filter` holds the
   * connection's arguments besides first/after; `params` its variable declarations).
   */
  private async paged(field: string, filter: string, params: string, variables: Record<string, unknown>, fields: string, max: number, ctx: FallbackContext, keep: string[] = []): Promise<Row[]> {
    const query = `query (${params}, $first: Int!, $after: Cursor) { ${field}(${filter}, first: $first, after: $after) { nodes { ${fields} } pageInfo { hasNextPage endCursor } } }`;
    const rows: Row[] = [];
    let after: string | null = null;
    for (;;) {
      const connection = await this.connection(query, { ...variables, first: Math.min(PAGE, max - rows.length), after }, field, ctx);
      rows.push(...connection.nodes.map((n) => bdsRow(n, keep)));
      const info = connection.pageInfo;
      if (rows.length >= max || !info?.hasNextPage || typeof info.endCursor !== 'string') return rows;
      after = info.endCursor;
    }
  }

  private async nodes(query: string, variables: Record<string, unknown>, field: string, ctx: FallbackContext): Promise<Row[]> {
    return (await this.connection(query, variables, field, ctx)).nodes.map((n) => bdsRow(n));
  }

  private async connection(query: string, variables: Record<string, unknown>, field: string, ctx: FallbackContext) {
    const connection = (await this.ask(query, variables, ctx))?.[field] as { nodes?: unknown; pageInfo?: { hasNextPage?: unknown; endCursor?: unknown } } | undefined;
    if (!connection || !Array.isArray(connection.nodes)) throw fallbackFailed(ctx, `the answer has no ${field}.nodes`, this.graphql.shownUrl);
    const nodes = (connection.nodes as unknown[]).filter((n): n is Record<string, unknown> => typeof n === 'object' && n !== null);
    return { nodes, pageInfo: connection.pageInfo };
  }

  private async ask(query: string, variables: Record<string, unknown>, ctx: FallbackContext) {
    try {
      return await this.graphql.request(query, variables, ctx.signal);
    } catch (err) {
      ctx.signal?.throwIfAborted();
      throw fallbackFailed(ctx, err instanceof Error ? err.message : String(err), this.graphql.shownUrl);
    }
  }
}

function fallbackFailed(ctx: FallbackContext, reason: string, url: string) {
  const err = noBds(ctx.what, ctx.noBdsReason);
  return Object.assign(err, { message: `${err.message}; the GraphQL fallback at ${url} did not answer either (${reason})` });
}

/**
 * A PostGraphile node as the BDS row: camelCase fields snake_case (`createdAt` is `created_at`),
 * BIGINT digit strings as exact integers, JSON text decoded; `keep` names fields left as they came.
 */
function bdsRow(node: Record<string, unknown>, keep: string[] = []): Row {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    const key = k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (keep.includes(key)) out[key] = v;
    else if (BIGINT_COLUMNS.has(key) && typeof v === 'string' && /^-?\d+$/.test(v)) out[key] = BigInt(v);
    else if (JSON_COLUMNS.has(key)) out[key] = jsonColumn(v);
    else if (key.endsWith('_at') && typeof v === 'string') out[key] = v.replace(WHOLE_SECOND, '');
    else out[key] = v;
  }
  return toolJson(out) as Row;
}

/** The transactions table's `hash` is the BDS rows' `tx_hash` (upstream's repair: a missing tx_hash comes from `hash`). */
function txRow({ hash, ...rest }: Row): Row {
  return { tx_hash: rest.tx_hash ?? hash ?? null, ...rest };
}

/** A state change's `new_value` is the BDS rows' `value`. */
function changeRow({ new_value, ...rest }: Row): Row {
  return { ...rest, value: new_value ?? null };
}

/** The BDS path's aggregate (always one row): an exact sum, distinct transactions and contracts, first and last reward. */
function aggregateRewards(recipientKey: string, rewards: Row[]): Row {
  const present = (column: string) => rewards.map((r) => r[column]).filter((v): v is JsonValue => v !== null && v !== undefined);
  const heights = present('block_height').map(Number);
  const times = present('created_at').map(String).sort();
  return {
    recipient_key: recipientKey,
    total_rewards: sumDecimals(present('value').map(String)),
    reward_count: rewards.length,
    tx_count: new Set(present('tx_hash')).size,
    contract_count: new Set(present('source_contract')).size,
    first_block_height: heights.length ? intValue(Math.min(...heights)) : null,
    last_block_height: heights.length ? intValue(Math.max(...heights)) : null,
    first_reward_at: times[0] ?? null,
    last_reward_at: times[times.length - 1] ?? null,
  };
}

/** The exact sum of NUMERIC texts ("1.326" + "1.36" = "2.686"), as digits: no float on the way. */
export function sumDecimals(values: readonly string[]): string {
  const parts = values.map((v) => {
    const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(v.trim());
    if (!m) throw new Error(`not a decimal: ${v.slice(0, 40)}`);
    return { sign: m[1] ? -1n : 1n, whole: m[2]!, fraction: m[3] ?? '' };
  });
  const scale = Math.max(0, ...parts.map((p) => p.fraction.length));
  const total = parts.reduce((sum, p) => sum + p.sign * BigInt(p.whole + p.fraction.padEnd(scale, '0')), 0n);
  const negative = total < 0n;
  const digits = (negative ? -total : total).toString().padStart(scale + 1, '0');
  const text = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return negative ? `-${text}` : text;
}
