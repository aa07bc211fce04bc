import type { Capability } from '../capability.js';

/**
 * ABCI-style query paths (abci-query.md §2): the path is split on `/` with empty segments
 * dropped; the first segment is the route; every segment containing `=` is also a named
 * parameter (later duplicates win) while still counting as a positional part.
 */
export interface ParsedQueryPath {
  route: string;
  /** All segments after the route, named-parameter segments included. */
  parts: string[];
  params: Record<string, string>;
}

export function parseQueryPath(path: string): ParsedQueryPath {
  const segments = path.split('/').filter((s) => s.length > 0);
  const params: Record<string, string> = Object.create(null);
  for (const segment of segments) {
    const eq = segment.indexOf('=');
    if (eq > 0) params[segment.slice(0, eq)] = segment.slice(eq + 1);
  }
  return { route: segments[0] ?? '', parts: segments.slice(1), params };
}

/**
 * What a handler answers, already in the node's value encoding (abci-query.md §3.1):
 * `info` is the type tag (`str`, `int`, `decimal`, `bool`, `dict`, `list`, or `""` for none)
 * and `text` the UTF-8 value text, null when there is no value.
 */
export interface QueryAnswer {
  info: string;
  text: string | null;
  /** Overrides the response `key` (default: the first part after the route). */
  key?: string;
}

/** A failure the handler explains; answered as code 1 with the message in `log`. */
export class QueryPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryPathError';
  }
}

export interface QueryPathContext {
  signal?: AbortSignal;
}

export interface QueryPathDefinition {
  /** Documentation pattern, e.g. `/txs_by_sender/<address>/limit=<n>/offset=<n>`; its first segment is the route. */
  pattern: string;
  description: string;
  capability: Capability;
  handler(query: ParsedQueryPath, ctx: QueryPathContext): Promise<QueryAnswer> | QueryAnswer;
}

export function queryRouteOf(pattern: string): string {
  return parseQueryPath(pattern).route;
}
