import { RpcError } from 'chainhost/chain';

/**
 * Parameter lists of the CometBFT 0.38 RPC methods the devnet serves, and the two ways
 * arguments arrive (cometbft-rpc.md §2): JSON-RPC bodies (int64 as JSON strings, `[]byte` as
 * base64, `HexBytes` as hex) and URI query strings (bare digits for ints, quoted JSON strings or
 * `0x` hex for strings and bytes — a quoted string for bytes is taken literally). Conversion
 * failures are JSON-RPC -32602 errors with CometBFT's wording.
 */
export type ParamKind = 'int' | 'bool' | 'string' | 'bytes' | 'hexbytes' | 'json';

export interface ParamSpec {
  name: string;
  kind: ParamKind;
}

const p = (name: string, kind: ParamKind): ParamSpec => ({ name, kind });

export const RPC_METHODS: Readonly<Record<string, readonly ParamSpec[]>> = {
  health: [],
  status: [],
  net_info: [],
  genesis: [],
  abci_info: [],
  num_unconfirmed_txs: [],
  consensus_state: [],
  dump_consensus_state: [],
  blockchain: [p('minHeight', 'int'), p('maxHeight', 'int')],
  block: [p('height', 'int')],
  block_by_hash: [p('hash', 'bytes')],
  header: [p('height', 'int')],
  header_by_hash: [p('hash', 'bytes')],
  block_results: [p('height', 'int')],
  commit: [p('height', 'int')],
  consensus_params: [p('height', 'int')],
  validators: [p('height', 'int'), p('page', 'int'), p('per_page', 'int')],
  tx: [p('hash', 'bytes'), p('prove', 'bool')],
  tx_search: [p('query', 'string'), p('prove', 'bool'), p('page', 'int'), p('per_page', 'int'), p('order_by', 'string')],
  block_search: [p('query', 'string'), p('page', 'int'), p('per_page', 'int'), p('order_by', 'string')],
  genesis_chunked: [p('chunk', 'int')],
  broadcast_evidence: [p('evidence', 'json')],
  unconfirmed_txs: [p('limit', 'int')],
  check_tx: [p('tx', 'bytes')],
  broadcast_tx_async: [p('tx', 'bytes')],
  broadcast_tx_sync: [p('tx', 'bytes')],
  broadcast_tx_commit: [p('tx', 'bytes')],
  abci_query: [p('path', 'string'), p('data', 'hexbytes'), p('height', 'int'), p('prove', 'bool')],
};

/** Methods only served on the WebSocket. */
export const WEBSOCKET_METHODS: Readonly<Record<string, readonly ParamSpec[]>> = {
  subscribe: [p('query', 'string')],
  unsubscribe: [p('query', 'string')],
  unsubscribe_all: [],
};

export type RpcArgs = Record<string, bigint | boolean | string | Buffer | undefined>;

function invalid(form: 'json' | 'http', detail: string): RpcError {
  return new RpcError(-32602, 'Invalid params', `error converting ${form} params to arguments: ${detail}`);
}

/** JSON-RPC params: a named object or a positional array. */
export function argsFromJson(specs: readonly ParamSpec[], params: unknown): RpcArgs {
  const args: RpcArgs = {};
  if (params === undefined || params === null) return args;
  let named: Record<string, unknown>;
  if (Array.isArray(params)) {
    if (params.length > specs.length) throw invalid('json', `expected ${specs.length} parameters (${specs.map((s) => s.name).join(', ')}), got ${params.length}`);
    named = Object.fromEntries(params.map((v, i) => [specs[i]!.name, v]));
  } else if (typeof params === 'object') {
    named = params as Record<string, unknown>;
  } else {
    throw invalid('json', 'params must be an object or an array');
  }
  for (const spec of specs) {
    const v = named[spec.name];
    if (v === undefined || v === null) continue;
    args[spec.name] = fromJsonValue(spec, v);
  }
  return args;
}

function fromJsonValue(spec: ParamSpec, v: unknown): bigint | boolean | string | Buffer {
  switch (spec.kind) {
    case 'int':
      // cmtjson decodes Go int/int64 only from JSON strings.
      if (typeof v === 'string' && /^-?[0-9]+$/.test(v)) return BigInt(v);
      throw invalid('json', `invalid 64-bit integer encoding ${JSON.stringify(JSON.stringify(v))}, expected string`);
    case 'bool':
      if (typeof v === 'boolean') return v;
      throw invalid('json', `json: cannot unmarshal ${typeof v} into Go value of type bool`);
    case 'string':
      if (typeof v === 'string') return v;
      throw invalid('json', `json: cannot unmarshal ${typeof v} into Go value of type string`);
    case 'bytes':
      if (typeof v === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(v) && v.length % 4 === 0) return Buffer.from(v, 'base64');
      throw invalid('json', `illegal base64 data for ${spec.name}`);
    case 'hexbytes':
      if (typeof v === 'string' && /^([0-9A-Fa-f]{2})*$/.test(v)) return Buffer.from(v, 'hex');
      throw invalid('json', `encoding/hex: invalid byte in ${spec.name}`);
    case 'json':
      // An amino-JSON object (evidence): kept as text for the method to decode.
      return JSON.stringify(v);
  }
}

/** URI query parameters (`GET /abci_query?path="/get/x"&height=0`). */
export function argsFromUri(specs: readonly ParamSpec[], query: URLSearchParams): RpcArgs {
  const args: RpcArgs = {};
  for (const spec of specs) {
    const raw = query.get(spec.name);
    if (raw === null || raw === '') continue;
    args[spec.name] = fromUriValue(spec, raw);
  }
  return args;
}

function fromUriValue(spec: ParamSpec, raw: string): bigint | boolean | string | Buffer {
  const isInt = /^-?[0-9]+$/.test(raw);
  const isQuoted = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"');
  const isHex = raw.toLowerCase().startsWith('0x');
  const expectsBytes = spec.kind === 'bytes' || spec.kind === 'hexbytes';
  if (spec.kind === 'int' && isInt) return BigInt(raw);
  if (spec.kind === 'json') return raw;
  if (isHex) {
    if (spec.kind !== 'string' && !expectsBytes) throw invalid('http', `got a hex string arg, but expected '${spec.kind === 'int' ? 'int64' : spec.kind}'`);
    const hex = raw.slice(2);
    if (!/^([0-9A-Fa-f]{2})*$/.test(hex)) throw invalid('http', 'encoding/hex: invalid byte');
    const bytes = Buffer.from(hex, 'hex');
    return spec.kind === 'string' ? bytes.toString('utf8') : bytes;
  }
  if (isQuoted && expectsBytes) return Buffer.from(parseJsonString(raw), 'utf8');
  switch (spec.kind) {
    case 'string':
      return parseJsonString(raw);
    case 'bool':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw invalid('http', `invalid character '${raw[0]}' looking for beginning of value`);
    case 'int':
      if (isQuoted && /^"-?[0-9]+"$/.test(raw)) return BigInt(raw.slice(1, -1));
      throw invalid('http', `invalid 64-bit integer encoding ${JSON.stringify(raw)}, expected string`);
    default:
      throw invalid('http', `invalid character '${raw[0]}' looking for beginning of value`);
  }
}

function parseJsonString(raw: string): string {
  try {
    const v = JSON.parse(raw) as unknown;
    if (typeof v === 'string') return v;
    throw invalid('http', `json: cannot unmarshal ${typeof v} into Go value of type string`);
  } catch (err) {
    if (err instanceof RpcError) throw err;
    throw invalid('http', `invalid character '${raw[0]}' looking for beginning of value`);
  }
}

export function intArg(args: RpcArgs, name: string): number | undefined {
  const v = args[name];
  if (v === undefined) return undefined;
  const n = Number(v as bigint);
  return Number.isSafeInteger(n) ? n : n > 0 ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
}
