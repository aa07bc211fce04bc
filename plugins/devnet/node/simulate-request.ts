import { abciJsonText, type ChainValue, compactJson, type JsonObject, type JsonValue, parseJsonExact, pythonFromHex, pythonUtf8Decode, safeRepr } from 'chainhost/chain';
import type { ExecutionOutcome } from '../engine/types.js';

/**
 * The dry-run request and response of `simulate_tx` (simulate.md §1-3): hex → UTF-8 → JSON
 * (a bare 4-field object or anything with a `payload` member), validation with upstream's
 * messages, and the response text — keys sorted, compact, ASCII-escaped, decimals plain,
 * `result` a string (spec §2) and `state` in write order.
 */
export interface SimulationPayload {
  sender: string;
  contract: string;
  function: string;
  /** As received (wire JSON, wrappers undecoded). */
  kwargs: JsonObject;
}

export class SimulationRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SimulationRequestError';
  }
}

export function decodeSimulationRequest(hex: string): SimulationPayload {
  const text = pythonUtf8Decode(pythonFromHex(hex));
  const json = parseJsonExact(text);
  const root = isObject(json) && 'payload' in json ? json['payload'] : json;
  if (!isObject(root)) throw new SimulationRequestError('simulation payload must be a JSON object');
  for (const field of ['sender', 'contract', 'function'] as const) {
    const v = root[field];
    if (typeof v !== 'string' || v === '') throw new SimulationRequestError(`simulation payload missing ${field}`);
  }
  const kwargs = root['kwargs'] ?? Object.create(null);
  if (!isObject(kwargs)) throw new SimulationRequestError('simulation payload kwargs must be a JSON object');
  return { sender: root['sender'] as string, contract: root['contract'] as string, function: root['function'] as string, kwargs };
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function payloadText(payload: SimulationPayload | null): string {
  if (payload === null) return 'null';
  const p = Object.create(null) as JsonObject;
  p['contract'] = payload.contract;
  p['function'] = payload.function;
  p['kwargs'] = payload.kwargs as JsonValue;
  p['sender'] = payload.sender;
  try {
    return compactJson(p, { asciiOnly: true, sortKeys: true });
  } catch {
    // Floats in the echoed kwargs: Python would print them; keep the echo, numbers as JS writes them.
    return JSON.stringify(sortDeep(p)).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
  }
}

function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (!isObject(v)) return typeof v === 'bigint' ? Number(v) : v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortDeep(v[k])]));
}

/** A refusal or decode failure: status 1, no chi, no state, the message as `result`. */
export function refusalText(payload: SimulationPayload | null, message: string): string {
  return responseText({ chiUsed: 0, payload, result: message, state: [], status: 1 });
}

/** The response of an executed dry run. */
export function outcomeText(payload: SimulationPayload, outcome: ExecutionOutcome): string {
  const state = outcome.writes.filter((w) => !w.key.startsWith('__n.'));
  const result = outcome.status === 0 ? safeRepr(outcome.result ?? null) : (outcome.error ?? String(outcome.result ?? ''));
  return responseText({ chiUsed: outcome.chiUsed, payload, result, state, status: outcome.status });
}

function responseText(r: {
  chiUsed: number;
  payload: SimulationPayload | null;
  result: string;
  state: Array<{ key: string; value: ChainValue | null }>;
  status: number;
}): string {
  const state = r.state.map((w) => abciJsonText(Object.assign(Object.create(null), { key: w.key, value: w.value }))).join(',');
  return `{"chi_used":${r.chiUsed},"payload":${payloadText(r.payload)},"result":${abciJsonText(r.result)},"state":[${state}],"status":${r.status}}`;
}
