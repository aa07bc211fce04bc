import { type ChainNode, decodeAbciQuery, type DecodedAbciQuery, type JsonValue, readAbciValue, type ResponseQuery, type RpcCallOptions } from 'chainhost/chain';
import { QueryPathError, type QueryPathRegistry } from 'chainhost/plugin';

/** The indexed (BDS) query routes (abci-query.md §6); they exist only where BDS runs. */
export const BDS_ROUTES: ReadonlySet<string> = new Set([
  'blocks', 'bds_status', 'bds_spool', 'block', 'block_by_hash', 'tx', 'txs_for_block', 'txs_by_sender',
  'txs_by_contract', 'addresses', 'events_for_tx', 'events', 'recent_events', 'state', 'state_previous',
  'state_history', 'state_for_tx', 'state_for_block', 'token_contracts', 'token_balances', 'dex_candles',
  'developer_rewards', 'contract_summary', 'transfers', 'contract_events', 'token_holders', 'contracts_by_creator', 'shielded_output_tags', 'shielded_wallet_history', 'state_patches',
  'state_patches_for_block', 'state_patch', 'state_changes_for_patch',
]);

export interface AbciAnswer {
  /** The `ResponseQuery` as the node renders it (base64 key and value). */
  response: ResponseQuery;
  decoded: DecodedAbciQuery;
  /** `local`: answered by a query path registered in this host (the bds plugin); `node`: by the node. */
  source: 'local' | 'node';
}

/**
 * Where the dashboard's ABCI reads go. BDS routes registered in this host's query-path
 * registry are answered in-process (so a dashboard with a local bds plugin serves them even
 * when the node itself runs without BDS); every other path goes to the node's `abci_query`,
 * never with `height` or `prove` (dashboard.md §4.9). Peer inspection passes no registry.
 */
export class AbciSource {
  constructor(
    private readonly node: ChainNode,
    private readonly registry: QueryPathRegistry | null,
    private readonly call: RpcCallOptions,
  ) {}

  async query(path: string): Promise<AbciAnswer> {
    const local = this.registry && BDS_ROUTES.has(routeOf(path)) ? this.registry.resolve(path) : undefined;
    if (!local) {
      const result = await this.node.abciQuery(path, { signal: this.call.signal, timeoutMs: this.call.timeoutMs });
      return { response: result.response, decoded: decodeAbciQuery(result), source: 'node' };
    }
    // The envelope reports the committed application height, as the node's own abci_query does (spec §1, read rule 5).
    const [response, height] = await Promise.all([answerLocally(local, this.call.signal), this.committedHeight()]);
    if (height !== null) response.height = height;
    return { response, decoded: decodeAbciQuery(response), source: 'local' };
  }

  /** The node's latest committed height, as text; null when the node does not say (the envelope then keeps "0"). */
  private async committedHeight(): Promise<string | null> {
    try {
      const status = await this.node.status({ signal: this.call.signal, timeoutMs: this.call.timeoutMs });
      return String(status.sync_info.latest_block_height);
    } catch {
      return null;
    }
  }

  /** The decoded value (see `abciValueAsJson`), or null for no value or a failed query. */
  async value(path: string): Promise<{ value: JsonValue; answer: AbciAnswer }> {
    const answer = await this.query(path);
    return { value: answer.decoded.code === 0 ? abciValueAsJson(answer.decoded) : null, answer };
  }
}

export function routeOf(path: string): string {
  return path.split('/').find((s) => s.length > 0) ?? '';
}

/** `Unknown query path: <route>` (abci-query.md §3.2): the node has no such route (a BDS route while BDS is off). */
export function isUnknownPath(decoded: DecodedAbciQuery): boolean {
  return decoded.code !== 0 && /^Unknown query path/i.test(decoded.log);
}

/**
 * A query value in JSON terms by its `info` tag: dict/list → JSON, int → integer (bigint when
 * beyond 2^53), bool → boolean, decimal → its exact text, str and anything else → the text.
 * (Upstream JSON-parsed every value, which turned a `str` "5" into a number and lost decimals.)
 */
export function abciValueAsJson(decoded: DecodedAbciQuery): JsonValue {
  if (!decoded.value) return null;
  try {
    const typed = readAbciValue(decoded);
    switch (typed.type) {
      case 'none':
        return null;
      case 'int':
        return Number.isSafeInteger(Number(typed.value)) ? Number(typed.value) : typed.value;
      case 'decimal':
        return decoded.value.text;
      case 'bool':
      case 'str':
      case 'dict':
      case 'list':
        return typed.value;
      case 'unknown':
        return typed.value;
    }
  } catch {
    // a value that does not match its tag is shown as the node sent it
    return decoded.value.text;
  }
}

async function answerLocally(
  local: NonNullable<ReturnType<QueryPathRegistry['resolve']>>,
  signal: AbortSignal | undefined,
): Promise<ResponseQuery> {
  const key = local.query.parts[0] ?? '';
  const base: ResponseQuery = {
    code: 0, log: '', info: '', index: '0', key: b64(key), value: null, proofOps: null, height: '0', codespace: '',
  };
  try {
    const answer = await local.definition.handler(local.query, { signal });
    return {
      ...base,
      info: answer.info,
      key: b64(answer.key ?? key),
      value: answer.text === null ? null : b64(answer.text),
    };
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    // Like the node (abci-query.md §3.2): code 1; chainhost adds the handler's own explanation.
    const log = err instanceof QueryPathError ? err.message : '';
    return { ...base, code: 1, key: null, log };
  }
}

function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}
