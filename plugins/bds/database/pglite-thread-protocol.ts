/**
 * The messages between the BDS's PGlite thread (pglite-thread-worker.ts) and its client on the
 * host's event loop (pglite-thread.ts). Every value is structured-cloned: rows come back parsed by
 * the worker (pg-types.ts), a COPY payload travels as a Blob (cloned by reference, not copied).
 */
export interface PgliteThreadData {
  /** The data directory, or `memory://` for a throwaway database. */
  dir: string;
  /**
   * How values come back: `bds` — the BDS's parsers (pg-types.ts: BIGINT as number or bigint,
   * JSON exact, …); `text` — BIGINT, NUMERIC and the timestamps as PostgreSQL's text (GraphQL's
   * own handle, which sends them as strings anyway).
   */
  parsers: PgliteParserProfile;
}

export type PgliteParserProfile = 'bds' | 'text';

export interface PgliteQueryOptions {
  rowMode?: 'object' | 'array';
  /** `COPY … FROM '/dev/blob'` input. */
  blob?: Blob;
}

export type PgliteRequest =
  | { id: number; op: 'query'; sql: string; params: unknown[]; options: PgliteQueryOptions }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'close' };

/** A database error's fields (SQLSTATE `code`, `detail`, …), without the statement or its parameters. */
export interface PgliteErrorFields {
  message: string;
  name?: string;
  [field: string]: string | number | undefined;
}

export type PgliteReply =
  | { kind: 'ready' }
  | { kind: 'failed'; error: PgliteErrorFields }
  | { kind: 'result'; id: number; result: unknown }
  | { kind: 'error'; id: number; error: PgliteErrorFields };

/** Fields that may carry SQL text or bound values: they stay in the thread (SQL never reaches a log). */
const NOT_COPIED = new Set(['query', 'params', 'queryOptions', 'stack']);

/** An error as fields that survive a structured clone. */
export function errorFields(err: unknown): PgliteErrorFields {
  if (!(err instanceof Error)) return { message: String(err) };
  const fields: PgliteErrorFields = { message: err.message, name: err.name };
  for (const [key, value] of Object.entries(err)) {
    if (NOT_COPIED.has(key)) continue;
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  return fields;
}

/** The error again on the client's side: same message, name and SQLSTATE fields (`code` …). */
export function errorFromFields(fields: PgliteErrorFields): Error {
  const err = new Error(fields.message);
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'message' || value === undefined) continue;
    Object.defineProperty(err, key, { value, enumerable: key !== 'name', writable: true, configurable: true });
  }
  return err;
}
