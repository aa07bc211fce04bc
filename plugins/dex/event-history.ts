import { type JsonObject, type JsonValue, parseJsonExact, QueryPath } from 'chainhost/chain';
import { ApiError, QueryPathError, toolJson } from 'chainhost/plugin';
import { bdsUnavailable } from './dex-errors.js';
import type { EventSource } from './dex-events.js';
import type { DexServices } from './dex-services.js';
import { mapLimit, nodeError } from './state-snapshot.js';

/**
 * `dex_list_events`: indexed DEX history from BDS with the `after_id` cursor (bds.md §6.3:
 * `/events/<contract>/<event>/limit=<n>/after_id=<cursor>` answers `id > cursor` ascending).
 * Several sources are read in parallel and merged by id; since each source returns its first
 * `limit` rows after the cursor, the first `limit` of the merge are exactly the next `limit`
 * DEX events overall, and `next_after_id` (the last id returned) resumes without gaps or
 * repeats — across restarts, because the cursor is the consumer's to keep.
 *
 * Paths are answered by a query path contributed in this host (the BDS plugin) when there is
 * one, else by the node's `abci_query` (a node running its own BDS).
 */

/** Answers an indexed query path; null for "no value". */
export async function indexedQuery(dex: DexServices, path: string, what: string, signal?: AbortSignal): Promise<JsonValue | null> {
  const registry = dex.queryPaths();
  const local = registry?.resolve(path);
  if (local) {
    let answer;
    try {
      answer = await local.definition.handler(local.query, { signal });
    } catch (err) {
      if (err instanceof QueryPathError) throw bdsUnavailable(what, err.message);
      throw err;
    }
    return answer.text === null ? null : parseJsonExact(answer.text);
  }
  let answer;
  try {
    answer = await dex.node.query(path, { signal });
  } catch (err) {
    throw nodeError(err);
  }
  if (answer.code !== 0) {
    if (/^Unknown query path/.test(answer.log)) throw bdsUnavailable(what, 'the node does not serve BDS query paths');
    throw bdsUnavailable(what, answer.log ? `the node answered: ${answer.log}` : 'the node could not answer the indexed query');
  }
  if (!answer.value) return null;
  return answer.value.json ?? parseJsonExact(answer.value.text);
}

export interface IndexedEventItem {
  id: number;
  [key: string]: JsonValue;
}

/** Rows as BDS encodes them (JSONB may arrive as JSON text); ids as numbers. */
function eventItem(row: JsonValue): IndexedEventItem | null {
  if (!row || typeof row !== 'object' || Array.isArray(row)) return null;
  const r = row as JsonObject;
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(r)) out[k] = toolJson(v);
  for (const k of ['data_indexed', 'data']) {
    const v = out[k];
    if (typeof v === 'string') {
      try { out[k] = toolJson(parseJsonExact(v)); } catch { /* keep the text */ }
    }
  }
  const id = Number(r.id);
  if (!Number.isSafeInteger(id)) return null;
  if (out.created === undefined && out.created_at !== undefined) out.created = out.created_at;
  return { ...out, id } as IndexedEventItem;
}

export interface EventPage {
  items: IndexedEventItem[];
  nextAfterId: number;
}

export async function listIndexedEvents(dex: DexServices, sources: readonly EventSource[], limit: number, afterId: number, signal?: AbortSignal): Promise<EventPage> {
  const pages = await mapLimit(sources, 8, async (s) => {
    const path = QueryPath.build('events', [s.contract, s.event], { limit, after_id: afterId });
    const rows = await indexedQuery(dex, path, 'dex_list_events', signal);
    if (rows !== null && !Array.isArray(rows)) throw new ApiError(502, 'node_error', `BDS answered ${path} with a non-list value`);
    return (rows ?? []).map(eventItem).filter((e): e is IndexedEventItem => e !== null && e.id > afterId);
  });
  const merged = pages.flat().sort((a, b) => a.id - b.id);
  const seen = new Set<number>();
  const items = merged.filter((e) => (seen.has(e.id) ? false : (seen.add(e.id), true))).slice(0, limit);
  return { items, nextAfterId: items.length ? items[items.length - 1]!.id : afterId };
}
