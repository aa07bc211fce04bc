import { ApiError } from '../errors.js';
import { nodeCall } from '../tools/chain-schemas.js';
import { AbciValueError, assertAbciOk, QueryPath, type DecodedAbciQuery } from './abci-value.js';
import { canonicalJson, compactJson, type JsonObject, type JsonValue } from './canonical-json.js';
import { bytesToHex, utf8Bytes } from './hashes.js';
import { kwargsFromUser } from './user-kwargs.js';
import type { ChainNode } from './node.js';

/**
 * The dry run (`simulate_tx`, simulate.md): the request JSON and its hex, the decoded response
 * (spec part 2), the refusals the node answers inside a normal envelope, and a client-side cap
 * (concurrency, queue, rate, timeout) in front of the node, as the design's data flow asks:
 * "tool or route → simulate caps → node simulate_tx".
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

// ---- client-side caps ------------------------------------------------------------------------

export interface SimulationLimits {
  /** Dry runs in flight at once (default 4). */
  maxConcurrency: number;
  /** Dry runs waiting for a slot; more are refused with 503 (default 64). */
  maxQueue: number;
  /** Per dry run, waiting included (default 10 s). */
  timeoutMs: number;
  /** Sustained dry runs per second; 0 = no rate cap (default 0). */
  ratePerSecond: number;
  /** Burst allowance of the rate cap (default 2 × rate). */
  burst?: number;
}

/** maxConcurrency 2 = the node's default `simulation_max_concurrency`, so one client does not trip the node's own cap. */
export const DEFAULT_SIMULATION_LIMITS: SimulationLimits = { maxConcurrency: 2, maxQueue: 256, timeoutMs: 10_000, ratePerSecond: 0 };

/** A capacity refusal from the node is retried this many times, with short growing pauses, within the timeout. */
const CAPACITY_RETRIES = 6;

/**
 * Sends dry runs to a node through the caps. Overload answers immediately (503 with
 * Retry-After) instead of queueing without bound; a run past `timeoutMs` is aborted (504).
 */
export class ChainSimulator {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private tokens: number;
  private refilledAt = performance.now();
  readonly limits: SimulationLimits;

  constructor(private readonly node: ChainNode, limits: Partial<SimulationLimits> = {}) {
    this.limits = { ...DEFAULT_SIMULATION_LIMITS, ...limits };
    this.tokens = this.burst;
  }

  private get burst(): number {
    return this.limits.burst ?? Math.max(1, this.limits.ratePerSecond * 2);
  }

  /** Runs one dry run; never throws for status 1 (that is a result), only for caps and node failures. */
  async simulate(request: SimulationRequest | string, options: { signal?: AbortSignal } = {}): Promise<SimulationResponse & { hex: string; query: DecodedAbciQuery }> {
    const hex = typeof request === 'string' ? request : simulationRequestHex(request);
    this.takeRateToken();
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => controller.abort(new Error('simulation timeout')), this.limits.timeoutMs);
    try {
      await this.acquire(controller.signal);
      try {
        const path = simulationQueryPath(hex);
        for (let attempt = 1; ; attempt++) {
          const query = await nodeCall('dry run (simulate_tx)', () => this.node.query(path, { signal: controller.signal, timeoutMs: this.limits.timeoutMs }));
          const response = decodeWithApiErrors(query, path);
          // Other clients share the node's dry-run slots: a capacity refusal is worth a short wait.
          if (response.refusal !== 'capacity' || attempt > CAPACITY_RETRIES) return { ...response, hex, query };
          await sleep(10 * 2 ** attempt, controller.signal);
        }
      } finally {
        this.release();
      }
    } catch (err) {
      if (controller.signal.aborted && !options.signal?.aborted) {
        throw ApiError.timeout(`dry run (simulate_tx) did not finish within ${this.limits.timeoutMs} ms`);
      }
      throw err;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  private takeRateToken(): void {
    const rate = this.limits.ratePerSecond;
    if (rate <= 0) return;
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * rate);
    this.refilledAt = now;
    if (this.tokens < 1) throw ApiError.busy(`too many dry runs (limit ${rate}/s); retry shortly`, Math.max(1, Math.ceil((1 - this.tokens) / rate)));
    this.tokens -= 1;
  }

  private acquire(signal: AbortSignal): Promise<void> {
    if (this.active < this.limits.maxConcurrency) {
      this.active++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.limits.maxQueue) {
      return Promise.reject(ApiError.busy(`too many dry runs in flight (${this.limits.maxConcurrency} running, ${this.waiting.length} waiting); retry shortly`, 1));
    }
    return new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(grant);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(grant);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next(); // the slot passes straight to the next waiter
    else this.active--;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function decodeWithApiErrors(query: DecodedAbciQuery, path: string): SimulationResponse {
  try {
    return decodeSimulationResponse(query, path);
  } catch (err) {
    if (err instanceof AbciValueError) throw new ApiError(502, 'node_error', `dry run (simulate_tx): ${err.message}`);
    throw new ApiError(502, 'node_error', `dry run (simulate_tx): ${(err as Error).message}`);
  }
}

/** One simulator per node, so every plugin's dry runs share the same caps. */
const simulators = new WeakMap<ChainNode, ChainSimulator>();

export function chainSimulatorFor(node: ChainNode, limits: Partial<SimulationLimits> = {}): ChainSimulator {
  let simulator = simulators.get(node);
  if (!simulator) simulators.set(node, (simulator = new ChainSimulator(node, limits)));
  return simulator;
}

// ---- kwargs by the function's signature ------------------------------------------------------

type Signature = Map<string, string | null>;
const NUMERIC_TEXT = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;
const signatures = new WeakMap<ChainNode, Map<string, Map<string, Signature> | null>>();

/**
 * Agents often send amounts as text ("1.5") where the contract declares `float`; sent as is,
 * the call would fail on a str. Using the node's `/contract_methods/<contract>`, top-level
 * kwargs declared `float` that hold decimal text become exact `{"__fixed__"}` decimals, and
 * kwargs declared `int` that hold integer text become integers. Anything else is left alone;
 * an unknown contract or function leaves the kwargs unchanged (the dry run reports it).
 * Signatures are cached per node and contract (deployed code does not change). Text with more
 * decimal places than the chain keeps is a 400 naming the argument.
 */
export async function coerceKwargsBySignature(node: ChainNode, contract: string, fn: string, kwargs: JsonObject, signal?: AbortSignal): Promise<JsonObject> {
  const numericText = Object.values(kwargs).some((v) => typeof v === 'string' && NUMERIC_TEXT.test(v));
  if (!numericText) return kwargs;
  const signature = (await contractSignatures(node, contract, signal))?.get(fn);
  if (!signature) return kwargs;
  const out = Object.create(null) as JsonObject;
  for (const [name, value] of Object.entries(kwargs)) {
    out[name] = typeof value === 'string' ? bySignature(name, value, signature.get(name)) : value;
  }
  return out;
}

function bySignature(name: string, text: string, type: string | null | undefined): JsonValue {
  if (!NUMERIC_TEXT.test(text)) return text;
  const isInt = /^\s*[+-]?\d+\s*$/.test(text);
  if (type !== 'float' && !(type === 'int' && isInt)) return text;
  try {
    return kwargsFromUser({ [name]: type === 'float' ? { __fixed__: text.trim() } : BigInt(text.trim()) })[name]!;
  } catch (err) {
    throw ApiError.badRequest(`kwargs: ${(err as Error).message}`, { field: `kwargs.${name}` });
  }
}

async function contractSignatures(node: ChainNode, contract: string, signal?: AbortSignal): Promise<Map<string, Signature> | null> {
  let byContract = signatures.get(node);
  if (!byContract) signatures.set(node, (byContract = new Map()));
  if (byContract.has(contract)) return byContract.get(contract)!;
  const path = QueryPath.contractMethods(contract);
  const query = await nodeCall(`reading the methods of ${contract}`, () => node.query(path, { signal }));
  const json = query.code === 0 ? query.value?.json : undefined;
  const methods = json && typeof json === 'object' && !Array.isArray(json) ? (json as JsonObject)['methods'] : undefined;
  if (!Array.isArray(methods)) return null; // not cached: the contract may be deployed later
  const result = new Map<string, Signature>();
  for (const m of methods) {
    if (!m || typeof m !== 'object' || Array.isArray(m)) continue;
    const args = new Map<string, string | null>();
    for (const a of Array.isArray(m['arguments']) ? m['arguments'] : []) {
      if (a && typeof a === 'object' && !Array.isArray(a) && typeof a['name'] === 'string') args.set(a['name'], typeof a['type'] === 'string' ? a['type'] : null);
    }
    if (typeof m['name'] === 'string') result.set(m['name'], args);
  }
  byContract.set(contract, result);
  return result;
}
