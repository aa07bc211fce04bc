import { getMaxListeners, setMaxListeners } from 'node:events';
import { assertAbciOk, type ChainIdGuard, type ChainNode, type DecodedAbciQuery, type JsonValue, parseJsonExact, QueryPath, readAbciValue } from 'chainhost/chain';
import { ApiError, intValue, nodeApiError, nodeCall, plainDecimalText, type QueryPathRegistry, toolJson } from 'chainhost/plugin';
import type { GraphqlStates } from './graphql-states.js';

/** What the read tools need: the node, the chain-id guard, the contributed query paths, the GraphQL fallback, the raw flag. */
export interface ReadDeps {
  node: ChainNode;
  guard: ChainIdGuard;
  queryPaths: QueryPathRegistry | undefined;
  /** CHAIN_GRAPHQL: indexed reads when no BDS query path answers. */
  graphql: GraphqlStates;
  includeRaw: boolean;
}

/** A node `abci_query`, decoded, code checked; failures become ApiErrors naming `what`. */
export async function abciRead(deps: ReadDeps, path: string, what: string, signal?: AbortSignal): Promise<DecodedAbciQuery> {
  try {
    return assertAbciOk(await deps.node.query(path, { signal }), path);
  } catch (err) {
    throw nodeApiError(err, what);
  }
}

/** A decoded query value as tool JSON: ints (big ones as strings), decimals as plain strings, dict/list as JSON. */
export function valueOf(query: DecodedAbciQuery): JsonValue {
  if (query.info === 'decimal' && query.value) {
    // The hot path of balance reads: plain text by string shifting, no big-number parsing.
    const plain = plainDecimalText(query.value.text);
    if (plain !== null) return plain;
  }
  const typed = readAbciValue(query);
  switch (typed.type) {
    case 'none':
      return null;
    case 'int':
      return intValue(typed.value);
    case 'decimal':
      return typed.value.toString();
    case 'bool':
    case 'str':
      return typed.value;
    case 'dict':
    case 'list':
      return toolJson(typed.value);
    default:
      return typed.value;
  }
}

/** One state key's value (null when unset). */
export async function readState(deps: ReadDeps, key: string, signal?: AbortSignal): Promise<{ value: JsonValue; query: DecodedAbciQuery }> {
  const query = await abciRead(deps, QueryPath.get(key), `reading state ${key}`, signal);
  try {
    return { value: valueOf(query), query };
  } catch (err) {
    throw nodeApiError(err, `reading state ${key}`);
  }
}

/**
 * An indexed (BDS) query path: answered by a query path contributed in this host (a local BDS)
 * when one serves the route, else by the node. `available: false` when nobody answers it (unknown
 * route, BDS not running or not initialised); transport failures still throw.
 */
export async function indexedRead(deps: ReadDeps, path: string, signal?: AbortSignal): Promise<{ available: boolean; json: JsonValue; raw: unknown; reason?: string }> {
  const local = deps.queryPaths?.resolve(path);
  if (local) {
    try {
      const answer = await local.definition.handler(local.query, { signal });
      const json = answer.text === null ? null : answer.info === 'dict' || answer.info === 'list' ? parseJsonExact(answer.text) : answer.text;
      return { available: true, json, raw: { source: 'local query path', info: answer.info, text: answer.text } };
    } catch (err) {
      return { available: false, json: null, raw: null, reason: `the local index could not answer ${path}: ${err instanceof Error ? err.message : String(err)}` };
    }
  }
  const query = await nodeCall(`reading ${path}`, () => deps.node.query(path, { signal }));
  if (query.code !== 0) return { available: false, json: null, raw: query, reason: query.log || `the node does not serve ${path.split('/')[1]} (no BDS)` };
  return { available: true, json: await nodeCall(`reading ${path}`, async () => valueOf(query)), raw: query };
}

/** Runs `limit` tasks at a time. Fan-outs share the call's AbortSignal, so it may carry many listeners. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>, signal?: AbortSignal): Promise<R[]> {
  if (signal) setMaxListeners(Math.max(getMaxListeners(signal), 100), signal);
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

/** Every contract name in node state (`/contracts`, paged), at most `max`. */
export async function listContractNames(deps: ReadDeps, max: number, signal?: AbortSignal): Promise<{ names: string[]; truncated: boolean }> {
  const names: string[] = [];
  const page = 1000;
  for (let offset = 0; offset < max; offset += page) {
    const path = QueryPath.build('contracts', [], { limit: page, offset, sort: 'name', order: 'asc' });
    const query = await abciRead(deps, path, 'listing contracts', signal);
    const json = await nodeCall('listing contracts', async () => valueOf(query));
    const items = isObject(json) && Array.isArray(json['items']) ? json['items'] : [];
    for (const item of items) if (isObject(item) && typeof item['name'] === 'string') names.push(item['name']);
    if (items.length < page) return { names: names.slice(0, max), truncated: false };
  }
  return { names: names.slice(0, max), truncated: true };
}

export function isObject(v: unknown): v is Record<string, JsonValue> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A value read where a decimal is expected, as a plain decimal string. */
export function decimalText(value: JsonValue, what: string): string {
  if (value === null) return '0';
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  const plain = typeof value === 'string' ? plainDecimalText(value) : null;
  if (plain !== null) return plain;
  throw new ApiError(502, 'node_error', `${what} is not a number: ${JSON.stringify(value).slice(0, 80)}`);
}
