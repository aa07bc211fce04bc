import { createHash } from 'node:crypto';
import { compactJson, parseJsonExact, type JsonObject, type JsonValue } from './canonical-json.js';
import { ChainDecimal } from './decimal.js';
import type { ExecTxResult, ResponseQuery, ResultAbciQuery } from './rpc/cometbft-types.js';

export type { JsonObject, JsonValue };

/**
 * Decoding what the node answers: `abci_query` responses (abci-query.md §3), the execution
 * output in `tx_result.data` (cometbft-rpc.md §7) and raw transactions (transactions.md §10).
 * Integers in these JSON texts may exceed 2^53 (encoding.md §4), so JSON is read with the shared
 * exact parser (`parseJsonExact`): integers outside the safe range become `bigint`, other numbers
 * stay numbers, objects are null-prototype records (so `__proto__` is data).
 */

// ---- abci_query ------------------------------------------------------------------------------

export interface AbciQueryValue {
  /** The value bytes as UTF-8 text (`5`, `123.45`, `True`, `{"a":1}`, …). */
  text: string;
  /** Present for `info` `dict` and `list`: the parsed (big-int-safe) JSON. */
  json?: JsonValue;
}

export interface DecodedAbciQuery {
  /** 0 = OK, 1 = error (unknown path, handler failure, refused height/prove). */
  code: number;
  log: string;
  /** The value's type tag: `int`, `decimal`, `bool`, `str`, `dict`, `list`, or `""`. */
  info: string;
  /** The response key as text (for `/get/<key>` the state key). */
  key: string;
  /** The committed height the node answered at (int64 as a string). */
  height: string;
  codespace: string;
  /** null when the node sent no value: `value == null` or the single zero byte `AA==`. */
  value: AbciQueryValue | null;
}

const NO_VALUE = 'AA==';

/** Accepts the `abci_query` result (`{response}`) or the bare `ResponseQuery`. */
export function decodeAbciQuery(input: ResultAbciQuery | ResponseQuery): DecodedAbciQuery {
  const r: Partial<ResponseQuery> = 'response' in input && typeof input.response === 'object' ? input.response : (input as ResponseQuery);
  const hasValue = r.value != null && r.value !== '' && r.value !== NO_VALUE;
  return decodedAbciQuery({
    code: Number(r.code ?? 0),
    log: r.log ?? '',
    info: r.info ?? '',
    key: r.key ? base64ToText(r.key) : '',
    height: String(r.height ?? '0'),
    codespace: r.codespace ?? '',
    valueText: hasValue ? base64ToText(r.value!) : null,
  });
}

/**
 * A decoded query from its texts: the one place that shapes `DecodedAbciQuery`, for the wire
 * (`decodeAbciQuery`) and for a node in this process that answers without encoding
 * (`ChainRpc.abciQueryDecoded`). `valueText` null means no value; dict and list values also
 * carry their parsed JSON.
 */
export function decodedAbciQuery(fields: Omit<DecodedAbciQuery, 'value'> & { valueText: string | null }): DecodedAbciQuery {
  let value: AbciQueryValue | null = null;
  if (fields.valueText !== null) {
    value = { text: fields.valueText };
    if (fields.info === 'dict' || fields.info === 'list') {
      try {
        value.json = parseJsonExact(fields.valueText);
      } catch {
        // left without `json`; the typed readers report the malformed value
      }
    }
  }
  return { code: fields.code, log: fields.log, info: fields.info, key: fields.key, height: fields.height, codespace: fields.codespace, value };
}

/** A nonzero `abci_query` code: unknown path (`log` says which), handler failure, refused height. */
export class AbciQueryError extends Error {
  constructor(readonly path: string, readonly code: number, readonly log: string) {
    super(`abci_query ${path} failed with code ${code}${log ? `: ${log}` : ' (the node gave no reason)'}`);
    this.name = 'AbciQueryError';
  }
}

export function assertAbciOk(query: DecodedAbciQuery, path: string): DecodedAbciQuery {
  if (query.code !== 0) throw new AbciQueryError(path, query.code, query.log);
  return query;
}

/** A value whose `info` tag or text is not what the reader expects. */
export class AbciValueError extends TypeError {
  constructor(message: string) {
    super(message);
    this.name = 'AbciValueError';
  }
}

export type AbciTypedValue =
  | { type: 'none' }
  | { type: 'int'; value: bigint }
  | { type: 'decimal'; value: ChainDecimal }
  | { type: 'bool'; value: boolean }
  | { type: 'str'; value: string }
  | { type: 'dict'; value: JsonObject }
  | { type: 'list'; value: JsonValue[] }
  /** An `info` tag this client does not know; the raw text. */
  | { type: 'unknown'; info: string; value: string };

/** Reads the value by its `info` tag (abci-query.md §3.1). */
export function readAbciValue(query: DecodedAbciQuery): AbciTypedValue {
  const v = query.value;
  if (!v) return { type: 'none' };
  switch (query.info) {
    case 'int':
      return { type: 'int', value: parseIntText(v.text) };
    case 'decimal':
      return { type: 'decimal', value: parseDecimalText(v.text) };
    case 'bool':
      return { type: 'bool', value: parseBoolText(v.text) };
    case 'str':
      return { type: 'str', value: v.text };
    case 'dict': {
      const json = requireJson(query);
      if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new AbciValueError(`info "dict" value is not a JSON object: ${preview(v.text)}`);
      return { type: 'dict', value: json as JsonObject };
    }
    case 'list': {
      const json = requireJson(query);
      if (!Array.isArray(json)) throw new AbciValueError(`info "list" value is not a JSON array: ${preview(v.text)}`);
      return { type: 'list', value: json };
    }
    default:
      return { type: 'unknown', info: query.info, value: v.text };
  }
}

/** `info int` → bigint; null when there is no value. */
export function abciInt(query: DecodedAbciQuery): bigint | null {
  return typedValue(query, ['int'], (q) => parseIntText(q.value!.text));
}

/** `info decimal` (any string form, `1E+3`, `100E-9`) or `int` → ChainDecimal; null when no value. */
export function abciDecimal(query: DecodedAbciQuery): ChainDecimal | null {
  return typedValue(query, ['decimal', 'int'], (q) => parseDecimalText(q.value!.text));
}

/** `info bool` (`True`/`False`) → boolean; null when no value. */
export function abciBool(query: DecodedAbciQuery): boolean | null {
  return typedValue(query, ['bool'], (q) => parseBoolText(q.value!.text));
}

/** `info str` → the text; null when no value. */
export function abciString(query: DecodedAbciQuery): string | null {
  return typedValue(query, ['str'], (q) => q.value!.text);
}

/** `info dict`/`list` → big-int-safe JSON; null when no value. */
export function abciJson(query: DecodedAbciQuery): JsonValue | null {
  return typedValue(query, ['dict', 'list'], requireJson);
}

/** No value is null; a value of another info is an AbciValueError; else `read` converts it. */
function typedValue<T>(query: DecodedAbciQuery, allowed: string[], read: (query: DecodedAbciQuery) => T): T | null {
  if (!query.value) return null;
  expectInfo(query, allowed);
  return read(query);
}

function expectInfo(query: DecodedAbciQuery, allowed: string[]): void {
  if (!allowed.includes(query.info)) {
    throw new AbciValueError(`expected an abci value of info ${allowed.map((a) => `"${a}"`).join(' or ')}, got info "${query.info}" (${preview(query.value?.text ?? '')})`);
  }
}

function requireJson(query: DecodedAbciQuery): JsonValue {
  const v = query.value!;
  if (v.json !== undefined) return v.json;
  try {
    return parseJsonExact(v.text);
  } catch (err) {
    throw new AbciValueError(`info "${query.info}" value is not valid JSON (${(err as Error).message}): ${preview(v.text)}`);
  }
}

function parseIntText(text: string): bigint {
  if (!/^-?[0-9]+$/.test(text.trim())) throw new AbciValueError(`not an integer: ${preview(text)}`);
  return BigInt(text.trim());
}

function parseDecimalText(text: string): ChainDecimal {
  if (!ChainDecimal.isDecimalText(text)) throw new AbciValueError(`not a decimal: ${preview(text)}`);
  return ChainDecimal.parse(text);
}

function parseBoolText(text: string): boolean {
  if (text === 'True' || text === 'true') return true;
  if (text === 'False' || text === 'false') return false;
  throw new AbciValueError(`not a boolean (expected True or False): ${preview(text)}`);
}

// ---- tx_result.data --------------------------------------------------------------------------

export interface ContractEventOutput {
  caller: string;
  contract: string;
  data: JsonObject;
  data_indexed: JsonObject;
  /** The event name (`Transfer`, `Swap`, …). */
  event: string;
  signer: string;
  [key: string]: JsonValue;
}

/**
 * The execution output JSON of one transaction. Named fields are normalised (legacy
 * `stamps_used` fills `chi_used`; missing lists are empty); every field the node sent is kept.
 */
export interface ExecutionOutput {
  /** 0 success, 1 failure. */
  status: number;
  chi_used: number | bigint | null;
  /** State writes, sorted by key; decimals are plain strings. */
  state: Array<{ key: string; value: JsonValue }>;
  events: ContractEventOutput[];
  /** Python repr of the return value (`"None"`, `"5"`, `"'abc'"`), or the exception repr. */
  result: string | null;
  /** The execution hash (SHA3-256, lowercase) — not the CometBFT tx hash. */
  hash: string | null;
  rewards: JsonObject | null;
  reward_records: JsonObject[] | null;
  [key: string]: unknown;
}

export type TxResultData =
  | { kind: 'execution'; output: ExecutionOutput }
  /** Rejected inside the block (code 1): the node wrote `{"error": "<message>"}`. */
  | { kind: 'rejected'; error: string }
  /** No data (e.g. CheckTx/broadcast results). */
  | { kind: 'empty' }
  /** Data this client does not recognise; kept for display. */
  | { kind: 'unrecognized'; text: string; json?: JsonValue };

/** Decodes `tx_result.data` / `txs_results[i].data` (base64 of the execution output JSON). */
export function decodeTxResultData(data: string | null | undefined): TxResultData {
  if (data == null || data === '') return { kind: 'empty' };
  const text = base64ToText(data);
  if (text.trim() === '') return { kind: 'empty' };
  let json: JsonValue;
  try {
    json = parseJsonExact(text);
  } catch {
    return { kind: 'unrecognized', text };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return { kind: 'unrecognized', text, json };
  const obj = json as JsonObject;
  if (!('status' in obj) && typeof obj.error === 'string') return { kind: 'rejected', error: obj.error };
  if (!('status' in obj) && !('chi_used' in obj) && !('stamps_used' in obj)) return { kind: 'unrecognized', text, json };
  const chi = obj.chi_used ?? obj.stamps_used ?? null;
  const output: ExecutionOutput = {
    ...obj,
    status: Number(obj.status ?? (typeof obj.error === 'string' ? 1 : 0)),
    chi_used: typeof chi === 'number' || typeof chi === 'bigint' ? chi : null,
    state: Array.isArray(obj.state) ? (obj.state as Array<{ key: string; value: JsonValue }>) : [],
    events: Array.isArray(obj.events) ? (obj.events as ContractEventOutput[]) : [],
    result: obj.result == null ? null : typeof obj.result === 'string' ? obj.result : jsonText(obj.result),
    hash: typeof obj.hash === 'string' ? obj.hash : null,
    rewards: isObject(obj.rewards) ? obj.rewards : null,
    reward_records: Array.isArray(obj.reward_records) ? (obj.reward_records as JsonObject[]) : null,
  };
  return { kind: 'execution', output };
}

/** The decoded output of an `ExecTxResult` together with its code and log. */
export function decodeExecTxResult(result: ExecTxResult): { code: number; log: string; data: TxResultData } {
  return { code: result.code, log: result.log, data: decodeTxResultData(result.data) };
}

// ---- raw transactions ------------------------------------------------------------------------

export interface DecodedRawTx {
  /** CometBFT tx hash: uppercase SHA-256 of the raw bytes (transactions.md §5). */
  hash: string;
  /** The raw bytes as text: the lowercase hex of the canonical JSON (or the JSON itself on legacy chains). */
  raw: string;
  /** `hex` (current format) or `json` (raw bytes were the JSON itself). */
  encoding: 'hex' | 'json';
  /** The signed transaction `{metadata, payload}`, big-int-safe. */
  tx: JsonValue;
}

/** Decodes `block.data.txs[i]`, `tx.tx`, `TxResult.tx`, `unconfirmed_txs.txs[i]`: base64 → hex text → JSON. */
export function decodeRawTx(base64: string): DecodedRawTx {
  const bytes = Buffer.from(base64, 'base64');
  const hash = createHash('sha256').update(bytes).digest('hex').toUpperCase();
  const raw = bytes.toString('utf8');
  const trimmed = raw.trim();
  if (/^([0-9a-fA-F]{2})+$/.test(trimmed)) {
    const json = Buffer.from(trimmed, 'hex').toString('utf8');
    return { hash, raw, encoding: 'hex', tx: parseJsonExact(json) };
  }
  if (trimmed.startsWith('{')) return { hash, raw, encoding: 'json', tx: parseJsonExact(trimmed) };
  throw new AbciValueError(`raw transaction is neither hex nor JSON: ${preview(raw)}`);
}

// ---- query paths -----------------------------------------------------------------------------

type PathPart = string | number | bigint;
type PathParam = string | number | bigint | boolean | null | undefined;

/**
 * Builds ABCI query paths (abci-query.md §2): `/route/part/…/name=value…`. Parts and values may
 * not contain `/` (the node splits on it) and parts may not be empty (empty segments are dropped,
 * which would shift every later part).
 */
export const QueryPath = {
  build(route: string, parts: readonly PathPart[] = [], params: Readonly<Record<string, PathParam>> = {}): string {
    // Plain concatenation: this runs on every state read, where array spreads and maps showed.
    let path = `/${checkSegment(route, 'route')}`;
    for (const part of parts) path += `/${checkSegment(String(part), 'path part')}`;
    for (const name of Object.keys(params)) {
      const value = params[name];
      if (value === undefined || value === null) continue;
      path += `/${checkSegment(name, 'parameter name')}=${checkSegment(String(value), 'value of', true, name)}`;
    }
    return path;
  },
  get: (key: string): string => QueryPath.build('get', [key]),
  nextNonce: (address: string): string => QueryPath.build('get_next_nonce', [address]),
  contractSource: (name: string): string => QueryPath.build('contract_source', [name]),
  contractMethods: (name: string): string => QueryPath.build('contract_methods', [name]),
  contractInfo: (name: string): string => QueryPath.build('contract_info', [name]),
  keys: (prefix: string, options: { limit?: number; after?: string } = {}): string =>
    QueryPath.build('keys', [prefix], { limit: options.limit, after: options.after }),
  simulateTx: (payloadHex: string): string => QueryPath.build('simulate_tx', [payloadHex]),
  /**
   * The URI-form query parameter: `path="<path>"` as a quoted JSON string (an unquoted path is a
   * CometBFT parameter error), percent-encoded so `+`, spaces and `&` survive the query string.
   */
  uriParam: (path: string): string => `path=${encodeURIComponent(JSON.stringify(path))}`,
  /** `GET {rpcUrl}/abci_query?path="…"` (height/prove left out: the spec only allows 0/false). */
  uri: (rpcUrl: string, path: string): string => `${rpcUrl.replace(/\/+$/, '')}/abci_query?${QueryPath.uriParam(path)}`,
} as const;

/** `name` completes `what` in the message (`value of limit`), built only when it fails. */
function checkSegment(text: string, what: string, allowEmpty = false, name?: string): string {
  if ((allowEmpty || text.length > 0) && !text.includes('/')) return text;
  const described = name === undefined ? what : `${what} ${name}`;
  if (text.length === 0) throw new TypeError(`query ${described} must not be empty`);
  throw new TypeError(`query ${described} must not contain "/": ${JSON.stringify(text)}`);
}

// ---- small codecs ----------------------------------------------------------------------------

export function base64ToText(base64: string): string {
  return Buffer.from(base64, 'base64').toString('utf8');
}

/** Legacy outputs may carry a structured `result`; show it as JSON text. */
function jsonText(value: JsonValue): string {
  try {
    return compactJson(value, { asciiOnly: false, sortKeys: false });
  } catch {
    return String(value); // floats are refused by the writer; legacy-only, display is enough
  }
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function preview(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}
