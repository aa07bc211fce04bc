import { ApiError } from '../errors.js';
import { nodeCall } from '../tools/chain-schemas.js';
import { QueryPath } from './abci-value.js';
import type { JsonObject, JsonValue } from './canonical-json.js';
import type { ChainNode } from './node.js';
import { kwargsFromUser } from './user-kwargs.js';

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
