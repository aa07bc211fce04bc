import type { Knex } from 'knex';
import { databaseReason, type ParsedQueryPath, type QueryAnswer, type QueryPathDefinition, QueryPathError } from 'chainhost/plugin';
import { answer } from './answer.js';

/** What the BDS query paths read from: the database (resolved per call, it may be reopened). */
export interface BdsQueryContext {
  knex(): Knex;
}

/**
 * A BDS query path: the handler returns a plain value (row, list, envelope or null), encoded
 * here; database failures become a clear `BDS query failed` error instead of a bare code 1. The
 * answer (and so the node's `log`, the dashboard and the tools) never carries the driver's
 * message, which holds the SQL (databaseReason).
 */
export function bdsPath(
  pattern: string,
  description: string,
  run: (query: ParsedQueryPath) => Promise<unknown>,
): QueryPathDefinition {
  return {
    pattern,
    description,
    capability: 'read',
    async handler(query): Promise<QueryAnswer> {
      try {
        return answer(await run(query));
      } catch (err) {
        if (err instanceof QueryPathError) throw err;
        throw new QueryPathError(`BDS query failed: ${databaseReason(err)}`);
      }
    },
  };
}

