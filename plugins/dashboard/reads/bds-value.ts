import type { JsonValue } from 'chainhost/chain';
import { ApiError } from 'chainhost/plugin';
import { nodeError } from '../http/node-errors.js';
import { abciValueAsJson, isUnknownPath } from './abci-source.js';
import type { ReadContext } from './node-targets.js';

/**
 * A read that needs the indexed query layer (spec §4: address, event and history routes require
 * BDS). Served by the local bds plugin's query paths when it is loaded, else by the node's;
 * when neither has the route the answer is a 503 that says so (upstream answered 200 with
 * `available: false`, which looks like an empty chain).
 */
export async function bdsValue(r: ReadContext, path: string, what: string): Promise<JsonValue> {
  let answer;
  try {
    answer = await r.abci.query(path);
  } catch (err) {
    throw nodeError(err, what);
  }
  const d = answer.decoded;
  if (isUnknownPath(d)) throw bdsUnavailable(what, r.peer);
  if (d.code !== 0) {
    throw new ApiError(503, 'bds_unavailable', `${what} requires BDS, which failed to answer ${path}${d.log ? `: ${d.log}` : ' (no reason given; see the node or host log)'}`, { path, abci_code: d.code, source: answer.source });
  }
  return abciValueAsJson(d);
}

export function bdsUnavailable(what: string, peer: string | null): ApiError {
  const where = peer ? `the node at ${peer} does not serve BDS queries` : 'neither this host (bds plugin) nor the node serves BDS queries';
  return new ApiError(503, 'bds_unavailable', `${what} requires BDS (the indexed query layer): ${where}; load the bds plugin or point CHAIN_NODE_URL at a node with BDS enabled`, { requires: 'bds' });
}
