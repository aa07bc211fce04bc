import { ApiError } from '../errors.js';
import { nodeCall } from '../tools/chain-schemas.js';
import { QueryPath } from './abci-value.js';
import type { JsonObject, JsonValue } from './canonical-json.js';
import type { ChainNode } from './node.js';
import { kwargsFromUser } from './user-kwargs.js';

const NUMERIC_TEXT = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;
const signatures = new WeakMap<ChainNode, Map<string, Map<string, Signature> | null>>();

/** A function's parameters: name → annotation text (`int`, `float`, `str`, …) or null when unannotated. */
export type Signature = ReadonlyMap<string, string | null>;

/**
 * Agents often send amounts as text ("1.5") where the contract declares `float`; sent as is,
 * the call would fail on a str. Using the node's `/contract_methods/<contract>`, top-level
 * kwargs are coerced by `coerceToSignature`; an unknown contract or function leaves the kwargs
 * unchanged (the dry run reports it). Signatures are cached per node and contract (deployed
 * code does not change).
 */
export async function coerceKwargsBySignature(node: ChainNode, contract: string, fn: string, kwargs: JsonObject, signal?: AbortSignal): Promise<JsonObject> {
  if (!Object.values(kwargs).some(mayNeedCoercion)) return kwargs;
  const signature = (await contractSignatures(node, contract, signal))?.get(fn);
  if (!signature) return kwargs;
  return coerceToSignature(kwargs, signature, 'kwargs');
}

/** Whether a value is one `coerceToSignature` may change or refuse: text, or a decimal. */
function mayNeedCoercion(value: JsonValue): boolean {
  return typeof value === 'string' || isFixed(value) || (typeof value === 'number' && !Number.isInteger(value));
}

function isFixed(value: JsonValue): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 1 && typeof value['__fixed__'] === 'string';
}

/**
 * The one coercion of named arguments by a signature, for sends (`kwargs`) and constructors
 * (`constructor_args`): text holding a number becomes an exact `{"__fixed__"}` decimal where
 * the parameter is declared `float`, and an integer where it is declared `int`. What cannot be
 * the declared number — text that is no number, a fraction for an `int`, more decimal places
 * than the chain keeps — is a 400 naming the argument (`<field>.<name>`), before anything is
 * signed. Other parameters and unannotated ones are left alone.
 */
export function coerceToSignature(kwargs: JsonObject, signature: Signature, field: string): JsonObject {
  const out = Object.create(null) as JsonObject;
  for (const [name, value] of Object.entries(kwargs)) out[name] = bySignature(name, value, signature.get(name), field);
  return out;
}

function bySignature(name: string, value: JsonValue, type: string | null | undefined, field: string): JsonValue {
  if (type !== 'float' && type !== 'int') return value;
  const refuse = (why: string): never => {
    throw ApiError.badRequest(`${field}.${name}: ${why}`, { field: `${field}.${name}` });
  };
  const shown = (v: JsonValue) => JSON.stringify(v).slice(0, 60);
  if (typeof value === 'string') {
    if (!NUMERIC_TEXT.test(value)) return refuse(`the function declares ${name}: ${type}, and ${shown(value)} is not a number`);
    const isInt = /^\s*[+-]?\d+\s*$/.test(value);
    if (type === 'int' && !isInt) return refuse(`the function declares ${name}: int, and ${shown(value)} is not a whole number`);
    try {
      return kwargsFromUser({ [name]: type === 'float' ? { __fixed__: value.trim() } : BigInt(value.trim()) })[name]!;
    } catch (err) {
      return refuse((err as Error).message);
    }
  }
  if (type === 'int' && (isFixed(value) || (typeof value === 'number' && !Number.isInteger(value)))) {
    return refuse(`the function declares ${name}: int, and ${shown(value)} is not a whole number`);
  }
  return value;
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
