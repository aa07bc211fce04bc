import type { JsonObject, JsonValue } from 'chainhost/chain';
import { ApiError } from 'chainhost/plugin';
import { nodeError } from '../http/node-errors.js';
import { abciValueAsJson } from './abci-source.js';
import { bdsValue } from './bds-value.js';
import type { ReadContext } from './node-targets.js';
import { optionalAbciValue } from './optional-value.js';

export interface ContractRecord {
  name: string;
  source: string | null;
  has_original_source: boolean;
  metadata: JsonObject;
  summary: JsonValue;
  methods: JsonValue[];
  variables: JsonValue;
}

export const CONTRACT_SORTS = ['submitted_at', 'name'] as const;
export const SORT_ORDERS = ['desc', 'asc'] as const;

/**
 * `/api/contract/{name}` (dashboard.md §4.6): source, methods, variables, metadata and the BDS
 * summary, read in parallel (upstream: one after another). A name with none of them is a 404
 * (upstream: 200 with `source: null`). No `code`/`runtime_code` keys; the IR is served by
 * `/api/abci_query/contract_ir/<name>`.
 */
export async function contract(r: ReadContext, name: string): Promise<ContractRecord> {
  const [source, methods, variables, info, summary] = await Promise.all([
    optionalAbciValue(r, `/contract_source/${name}`),
    optionalAbciValue(r, `/contract_methods/${name}`),
    optionalAbciValue(r, `/contract_vars/${name}`),
    optionalAbciValue(r, `/contract_info/${name}`),
    optionalAbciValue(r, `/contract_summary/${name}`),
  ]);
  const metadata = isObject(info) ? info : {};
  const methodList = isObject(methods) && Array.isArray(methods.methods) ? methods.methods : [];
  const exists =
    typeof source === 'string' ||
    methodList.length > 0 ||
    isObject(variables) ||
    isObject(summary) ||
    hasContractMetadata(metadata);
  if (!exists) {
    throw ApiError.notFound(`contract ${name} not found: the node has no source, code or metadata under that name`, { name });
  }
  return {
    name,
    source: typeof source === 'string' ? source : null,
    has_original_source: typeof source === 'string' || metadata.has_source === true,
    metadata,
    summary: isObject(summary) ? summary : null,
    methods: methodList,
    variables: isObject(variables) ? variables : { variables: [], hashes: [] },
  };
}

/** `contract_info` of a deployed contract: it has source, or a deployer, developer, owner, time or initiator. */
export function hasContractMetadata(metadata: JsonValue): boolean {
  if (!isObject(metadata)) return false;
  return metadata.has_source === true || ['deployer', 'developer', 'owner', 'submitted_at', 'initiator'].some((k) => metadata[k] != null && metadata[k] !== '');
}

/**
 * Which of `names` are deployed contracts (`/contract_info/<name>`, one read per distinct name):
 * a transaction may call a name that holds no contract (it fails), and a page must not link
 * such a name to a contract page that would answer 404.
 */
export async function existingContracts(r: ReadContext, names: Iterable<string>): Promise<Set<string>> {
  const distinct = [...new Set(names)].filter((n) => /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(n));
  const infos = await Promise.all(distinct.map((n) => optionalAbciValue(r, `/contract_info/${n}`)));
  return new Set(distinct.filter((_, i) => hasContractMetadata(infos[i]!)));
}

/** `/api/contracts`: every deployed contract from node state (core path, no BDS needed). */
export async function contracts(
  r: ReadContext,
  page: { limit: number; offset: number; sort: (typeof CONTRACT_SORTS)[number]; order: (typeof SORT_ORDERS)[number] },
): Promise<JsonValue> {
  const path = `/contracts/limit=${page.limit}/offset=${page.offset}/sort=${page.sort}/order=${page.order}`;
  let answer;
  try {
    answer = await r.abci.query(path);
  } catch (err) {
    throw nodeError(err, 'the contract list');
  }
  if (answer.decoded.code !== 0) {
    throw new ApiError(502, 'node_error', `the node failed to list contracts (${path}): ${answer.decoded.log || 'no reason given'}`, { path });
  }
  const value = abciValueAsJson(answer.decoded);
  if (isObject(value)) return value;
  return { items: Array.isArray(value) ? value : [], limit: page.limit, offset: page.offset, sort: page.sort, order: page.order };
}

/** `/api/recent_events` (BDS): the newest contract events. */
export async function recentEvents(r: ReadContext, page: { limit: number; offset: number }): Promise<JsonValue> {
  const value = await bdsValue(r, `/recent_events/limit=${page.limit}/offset=${page.offset}`, 'recent events');
  if (isObject(value)) return value;
  return { available: true, items: Array.isArray(value) ? value : [], limit: page.limit, offset: page.offset };
}

export function isObject(value: JsonValue | undefined): value is JsonObject {
  return value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value);
}
