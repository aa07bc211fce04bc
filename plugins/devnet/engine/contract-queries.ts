import { ChainDatetime, compareCodePoints } from 'chainhost/chain';
import { irFromSource, methodsFromIr, varsFromIr, type MethodDescription } from './contract-shape.js';
import type { StateReader } from './types.js';

/**
 * The contract-metadata ABCI query results (abci-query.md §4), computed from node state:
 * `/contract_source`, `/contract_ir`, `/contract_methods`, `/contract_vars`, `/contract_info`,
 * `/contracts`. The node wraps them in its ABCI envelope.
 */

export function contractSource(state: StateReader, name: string): string | null {
  const v = state.get(`${name}.__source__`);
  return typeof v === 'string' ? v : null;
}

/** The persisted IR JSON text (`info str`), or null. */
export function contractIr(state: StateReader, name: string): string | null {
  const v = state.get(`${name}.__xian_ir_v1__`);
  return typeof v === 'string' ? v : null;
}

/** The stored IR, or the IR the stored source compiles to; null when neither exists (or the source does not compile). */
function irOf(state: StateReader, name: string): string | null {
  const ir = contractIr(state, name);
  if (ir !== null) return ir;
  const source = contractSource(state, name);
  return source === null ? null : irFromSource(name, source);
}

/** `{"methods":[…]}` from the IR (abci-query.md §4); null when the contract has neither IR nor source. */
export function contractMethods(state: StateReader, name: string): { methods: MethodDescription[] } | null {
  const ir = irOf(state, name);
  const methods = ir === null ? null : methodsFromIr(ir);
  return methods === null ? null : { methods };
}

/** `{"variables":[…],"hashes":[…]}` from the IR's storage declarations; null when the contract has neither IR nor source. */
export function contractVars(state: StateReader, name: string): { variables: string[]; hashes: string[] } | null {
  const ir = irOf(state, name);
  return ir === null ? null : varsFromIr(ir);
}

/** `"YYYY-MM-DDTHH:MM:SSZ"` from a `__submitted__` value, or null. */
export function submittedAt(state: StateReader, name: string): string | null {
  const v = state.get(`${name}.__submitted__`);
  if (!(v instanceof ChainDatetime)) return null;
  const [y, mo, d, h, mi, s] = v.parts();
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${p(y, 4)}-${p(mo)}-${p(d)}T${p(h)}:${p(mi)}:${p(s)}Z`;
}

export interface ContractInfo {
  name: string;
  owner: string | null;
  developer: string | null;
  deployer: string | null;
  initiator: string | null;
  submitted_at: string | null;
  has_source: boolean;
}

export function contractInfo(state: StateReader, name: string): ContractInfo {
  const str = (key: string): string | null => {
    const v = state.get(`${name}.${key}`);
    return typeof v === 'string' && v !== '' ? v : null;
  };
  return {
    name,
    owner: str('__owner__'),
    developer: str('__developer__'),
    deployer: str('__deployer__'),
    initiator: str('__initiator__'),
    submitted_at: submittedAt(state, name),
    has_source: contractSource(state, name) !== null,
  };
}

export interface ContractListOptions {
  limit?: number;
  offset?: number;
  sort?: string;
  order?: string;
}

export interface ContractList {
  items: Array<{ name: string; submitted_at: string | null; developer: string | null; has_source: boolean }>;
  total: number;
  limit: number;
  offset: number;
  sort: 'submitted_at' | 'name';
  order: 'asc' | 'desc';
}

/** Every contract name in state: keys `<name>.__source__` or `<name>.__xian_ir_v1__`. */
export function contractNames(state: StateReader): string[] {
  const names = new Set<string>();
  for (const key of state.keys('')) {
    const dot = key.indexOf('.');
    if (dot <= 0) continue;
    const rest = key.slice(dot + 1);
    if (rest === '__source__' || rest === '__xian_ir_v1__') names.add(key.slice(0, dot));
  }
  return [...names];
}

/**
 * `/contracts[/limit=/offset=/sort=/order=]`. Sort `submitted_at` (default; `created_at` is an
 * alias) by (submitted_at or "", lower-case name), or `name` by (lower-case name, submitted_at);
 * `order` desc unless `asc`; limit 0…1000 (default 100). Scans all keys: the node may pass a
 * StateReader over an index of contract names instead.
 */
export function listContracts(state: StateReader, options: ContractListOptions = {}): ContractList {
  const limit = Math.max(0, Math.min(1000, Math.floor(options.limit ?? 100)));
  const offset = Math.max(0, Math.floor(options.offset ?? 0));
  const sort = options.sort === 'name' ? 'name' : 'submitted_at';
  const order = options.order === 'asc' ? 'asc' : 'desc';
  const rows = contractNames(state).map((name) => {
    const info = contractInfo(state, name);
    return { name, submitted_at: info.submitted_at, developer: info.developer, has_source: info.has_source };
  });
  const key = (r: (typeof rows)[number]): [string, string] => (sort === 'name'
    ? [r.name.toLowerCase(), r.submitted_at ?? '']
    : [r.submitted_at ?? '', r.name.toLowerCase()]);
  rows.sort((a, b) => {
    const [a1, a2] = key(a);
    const [b1, b2] = key(b);
    const c = compareCodePoints(a1, b1) || compareCodePoints(a2, b2);
    return order === 'asc' ? c : -c;
  });
  return { items: rows.slice(offset, offset + limit), total: rows.length, limit, offset, sort, order };
}
