import { type QueryAnswer, QueryPathError } from 'chainhost/plugin';
import { jsonAnswer } from './query-answer.js';
import type { TextStateReader } from './state-store.js';

/**
 * `/keys/<prefix>[/limit=N][/after=K]` (abci-query.md §5): committed keys in UTF-8 byte order,
 * strictly after the cursor, while they start with the raw prefix. `after` is a full key or a
 * suffix (joined with `:`); items drop `prefix:`; `next_after` is set only when more remain.
 */
export function keysQuery(state: TextStateReader, prefix: string, params: Record<string, string>): QueryAnswer {
  const rawLimit = params['limit'];
  let limit = 100;
  if (rawLimit !== undefined) {
    if (!/^\s*[+-]?\d+\s*$/.test(rawLimit)) throw new QueryPathError(`limit must be an integer, got '${rawLimit}'`);
    limit = Math.min(200, Math.max(1, Number(rawLimit)));
  }
  const rawAfter = params['after'];
  const after = rawAfter === undefined || rawAfter === '' ? null : rawAfter;
  const cursor = after === null ? undefined : after.startsWith(prefix) ? after : prefix.endsWith(':') ? prefix + after : `${prefix}:${after}`;
  const keys = state.keys(prefix, cursor, limit + 1);
  const hasMore = keys.length > limit;
  const items = keys.slice(0, limit).map((k) => itemOf(k, prefix));
  return jsonAnswer(
    { after, has_more: hasMore, items, limit, next_after: hasMore ? items[items.length - 1] : null, prefix },
    prefix,
  );
}

function itemOf(key: string, prefix: string): string {
  if (key.startsWith(prefix + ':')) return key.slice(prefix.length + 1);
  const rest = key.slice(prefix.length);
  return rest.startsWith(':') ? rest.slice(1) : rest;
}
