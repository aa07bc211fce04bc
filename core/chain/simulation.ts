import { ApiError } from '../errors.js';
import { AbciValueError, assertAbciOk, QueryPath, type DecodedAbciQuery } from './abci-value.js';
import { canonicalJson, compactJson, type JsonObject, type JsonValue } from './canonical-json.js';
import { bytesToHex, utf8Bytes } from './hashes.js';

/**
 * The dry run (`simulate_tx`, simulate.md) on the wire: the request JSON and its hex, the
 * decoded response (spec part 2), the refusals the node answers inside a normal envelope, and
 * the ApiError a submitting tool refuses with. Sending it through the caps is ChainSimulator
 * (chain-simulator.ts).
 */

/** The four request fields (spec §2 "Dry-run request"). kwargs are wire kwargs (wrappers included). */
export interface SimulationRequest {
  sender: string;
  contract: string;
  function: string;
  kwargs: JsonObject;
}

/** Canonical JSON of the four fields (sorted, compact), so the node's `__input_hash` is reproducible. */
export function simulationRequestJson(request: SimulationRequest): string {
  const body = Object.create(null) as JsonObject;
  body['contract'] = request.contract;
  body['function'] = request.function;
  body['kwargs'] = request.kwargs ?? {};
  body['sender'] = request.sender;
  return canonicalJson(body);
}

/** Lowercase hex of the request JSON's UTF-8: the `<hex>` of `/simulate_tx/<hex>`. */
export function simulationRequestHex(request: SimulationRequest): string {
  return bytesToHex(utf8Bytes(simulationRequestJson(request)));
}

/** The `abci_query` path of a dry run. */
export function simulationQueryPath(request: SimulationRequest | string): string {
  return QueryPath.simulateTx(typeof request === 'string' ? request : simulationRequestHex(request));
}

/** Why a node refused to run a dry run at all (simulate.md §3 rows 1-5); null when it ran. */
export type SimulationRefusal = 'disabled' | 'capacity' | 'timeout' | 'error' | null;

export interface SimulationResponse {
  /** The normalised 4-field payload the node echoes (null when it could not decode the request). */
  payload: JsonValue;
  /** 0 success, 1 failure or refusal. */
  status: number;
  success: boolean;
  /** Writes that would happen, in write order, values as the node normalised them (decimals are strings). */
  state: Array<{ key: string; value: JsonValue }>;
  chi_used: bigint;
  /** Safe string form of the return value or of the failure (non-string results rendered as ABCI JSON). */
  result: string;
  refusal: SimulationRefusal;
}

/** Decodes a `simulate_tx` answer; legacy `stamps_used` fills `chi_used`. */
export function decodeSimulationResponse(query: DecodedAbciQuery, path = '/simulate_tx'): SimulationResponse {
  assertAbciOk(query, path);
  const json = query.value?.json;
  if (json === undefined || json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new AbciValueError(`simulate_tx answered ${query.value ? `info "${query.info}"` : 'no value'}, not a JSON object`);
  }
  const obj = json as JsonObject;
  const status = Number(obj['status'] ?? 1);
  const chi = obj['chi_used'] ?? obj['stamps_used'] ?? 0;
  const chiUsed = typeof chi === 'bigint' ? chi : typeof chi === 'number' && Number.isInteger(chi) ? BigInt(chi) : 0n;
  const rawState = Array.isArray(obj['state']) ? obj['state'] : [];
  const state = rawState
    .filter((e): e is JsonObject => e !== null && typeof e === 'object' && !Array.isArray(e))
    .map((e) => ({ key: String(e['key'] ?? ''), value: (e['value'] ?? null) as JsonValue }));
  const result = resultText(obj['result'] ?? null);
  const refusal = status === 0 ? null : refusalOf(result, chiUsed, state.length);
  return { payload: (obj['payload'] ?? null) as JsonValue, status, success: status === 0, state, chi_used: chiUsed, result, refusal };
}

function resultText(value: JsonValue): string {
  if (typeof value === 'string') return value;
  return compactJson(value, { asciiOnly: true, sortKeys: true });
}

function refusalOf(result: string, chi: bigint, writes: number): SimulationRefusal {
  if (chi !== 0n || writes !== 0) return null;
  if (result.startsWith('Simulation is disabled')) return 'disabled';
  if (result.startsWith('Simulation capacity exceeded')) return 'capacity';
  if (result.startsWith('Simulation timed out')) return 'timeout';
  if (result.startsWith('Simulation error')) return 'error';
  return null;
}

/**
 * A dry run that did not succeed as the ApiError a submitting tool refuses with: an execution
 * failure is the caller's (400 `simulation_failed`, with the simulated error); refusals are the
 * node's state (503 busy / unavailable, 504 timeout, 502 error).
 */
export function simulationFailureError(response: SimulationResponse, what: string): ApiError {
  const details = { status: response.status, result: response.result, chi_used: Number(response.chi_used), refusal: response.refusal };
  switch (response.refusal) {
    case 'capacity':
      return new ApiError(503, 'busy', `${what}: the node's dry-run capacity is exhausted; retry shortly (${response.result})`, { ...details, retry_after_seconds: 1 }, { 'Retry-After': '1' });
    case 'disabled':
      return new ApiError(503, 'simulation_unavailable', `${what}: ${response.result}; the dry run is needed to check the call and estimate chi`, details);
    case 'timeout':
      return new ApiError(504, 'simulation_timeout', `${what}: ${response.result}`, details);
    case 'error':
      return new ApiError(502, 'simulation_error', `${what}: ${response.result}`, details);
    default:
      return new ApiError(400, 'simulation_failed', `${what}: the dry run failed: ${response.result}`, details);
  }
}
