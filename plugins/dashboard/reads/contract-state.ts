import type { JsonObject, JsonValue } from 'chainhost/chain';
import { isObject } from './contract-reads.js';
import type { ReadContext } from './node-targets.js';
import { optionalAbciValue } from './optional-value.js';

/** Variables whose values a contract page reads (a contract may declare more; the rest are listed by name). */
export const MAX_VARIABLES = 50;

export interface StateEntry {
  /** The key below the hash (`<k1>:<k2>`), as `/keys` lists it. */
  key: string;
  /** The current value; undefined when the key cannot be read by path (it contains `/`). */
  value: JsonValue | undefined;
}

export interface HashPage {
  entries: StateEntry[];
  /** Where the next page starts (`/keys` `next_after`), null on the last page. */
  next_after: string | null;
  /** False when the node has no `/keys` listing (an older or foreign node). */
  listed: boolean;
}

/** The current value of each variable (`/get/<contract>.<variable>`; null when never set), in parallel. */
export async function variableValues(r: ReadContext, contract: string, names: string[]): Promise<Map<string, JsonValue>> {
  const shown = names.slice(0, MAX_VARIABLES);
  const values = await Promise.all(shown.map((v) => optionalAbciValue(r, `/get/${contract}.${v}`)));
  return new Map(shown.map((v, i) => [v, values[i]!]));
}

/**
 * One page of a Hash's entries with their current values: the node's `/keys/<contract>.<hash>:`
 * cursor (abci-query.md §5; committed state, byte order, at most `limit` keys, never the whole
 * hash), then each key's value. The `:` keeps `entries` from matching a hash `entries_old`.
 */
export async function hashPage(r: ReadContext, contract: string, hash: string, page: { limit: number; after?: string }): Promise<HashPage> {
  const after = page.after !== undefined && page.after !== '' ? `/after=${page.after}` : '';
  const listing = await optionalAbciValue(r, `/keys/${contract}.${hash}:/limit=${page.limit}${after}`);
  if (!isObject(listing) || !Array.isArray(listing.items)) return { entries: [], next_after: null, listed: false };
  const keys = listing.items.filter((k): k is string => typeof k === 'string');
  // A key with `/` cannot be named in a query path; it is listed without its value.
  const values = await Promise.all(keys.map((k) => (k.includes('/') ? undefined : optionalAbciValue(r, `/get/${contract}.${hash}:${k}`))));
  const next = (listing as JsonObject).next_after;
  return {
    entries: keys.map((key, i) => ({ key, value: values[i] })),
    // A cursor with `/` cannot be sent back in a path either: the listing stops there.
    next_after: typeof next === 'string' && !next.includes('/') ? next : null,
    listed: true,
  };
}
