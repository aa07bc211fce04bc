import type { JsonValue, ResponseQuery } from 'chainhost/chain';
import { ApiError } from 'chainhost/plugin';
import { nodeError } from '../http/node-errors.js';
import { abciValueAsJson, BDS_ROUTES, isUnknownPath, routeOf, type AbciAnswer } from './abci-source.js';
import { bdsUnavailable } from './bds-value.js';
import type { ReadContext } from './node-targets.js';

export type PassThroughResponse = Omit<ResponseQuery, 'key' | 'value'> & { key: string; value: JsonValue };

/** Routes are words (`get`, `txs_by_sender`); anything else cannot be a query path. */
const ROUTE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_PATH_CHARS = 4096;

/**
 * Normalises the `{path}` of `/api/abci_query/{path}` to the ABCI form `/route/part/…`. The text
 * is percent-decoded once (browsers encode spaces and some punctuation in state keys).
 */
export function passThroughPath(raw: string, maxChars = MAX_PATH_CHARS): string {
  let text: string;
  try {
    text = decodeURIComponent(raw);
  } catch {
    throw ApiError.badRequest(`path is not valid percent-encoding: ${JSON.stringify(raw.slice(0, 80))}`, { parameter: 'path' });
  }
  if (text.length > maxChars) throw ApiError.badRequest(`path is ${text.length} characters; at most ${maxChars} are accepted`, { parameter: 'path' });
  const path = `/${text.replace(/^\/+/, '')}`;
  const route = routeOf(path);
  if (!route) throw ApiError.badRequest('path is empty; give a query path such as get/<key> or keys/<prefix>/limit=100', { parameter: 'path' });
  if (!ROUTE.test(route)) throw ApiError.badRequest(`path must start with a query route such as get or keys, got ${JSON.stringify(route.slice(0, 64))}`, { parameter: 'path' });
  return path;
}

/**
 * `/api/abci_query/{path}` (dashboard.md §4.9): the `abci_query` result with `key` and `value`
 * decoded. A route the node does not know is a 404 (a BDS route: with a "requires BDS" message);
 * a query the node refuses (code ≠ 0) is a 400 carrying the node's log and the decoded response.
 */
export async function passThrough(r: ReadContext, path: string): Promise<{ response: PassThroughResponse }> {
  let answer: AbciAnswer;
  try {
    answer = await r.abci.query(path);
  } catch (err) {
    throw nodeError(err, `abci_query ${path}`);
  }
  const d = answer.decoded;
  const response: PassThroughResponse = { ...answer.response, key: d.key, value: d.code === 0 ? abciValueAsJson(d) : null };
  const route = routeOf(path);
  if (isUnknownPath(d)) {
    if (BDS_ROUTES.has(route)) {
      const e = bdsUnavailable(`abci_query /${route}`, r.peer);
      throw new ApiError(404, 'unknown_query_path', e.message, { path, route, requires: 'bds' });
    }
    throw new ApiError(404, 'unknown_query_path', `the node has no query path /${route} (${d.log})`, { path, route });
  }
  if (d.code !== 0) {
    throw new ApiError(400, 'query_failed', `the node refused ${path} with code ${d.code}: ${d.log || 'no reason given; check the path parts and parameters'}`, { path, response });
  }
  return { response };
}
