import type { Knex } from 'knex';
import { databaseReason, type ParsedQueryPath, type QueryAnswer, type QueryPathDefinition, QueryPathError } from 'chainhost/plugin';
import { answer } from './answer.js';

/** What the BDS query paths read from: the database (resolved per call, it may be reopened). */
export interface BdsQueryContext {
  /** The read pool: the read copy when one is configured, else the writer's database. */
  knex(): Knex;
  /**
   * Before a read that names a height: returns once that height is readable, or at once when
   * nobody has indexed it yet; waits (bounded) only while a read copy lags the writer.
   */
  awaitHeight(height: number): Promise<void>;
}

/** A block named by height or hash, once readable: a height waits for a lagging read copy (a hash names no height). */
export async function readableBlock<R extends { height: number } | { hash: string }>(ctx: BdsQueryContext, ref: R): Promise<R> {
  if ('height' in ref) await ctx.awaitHeight(ref.height);
  return ref;
}

/** A height, once readable (see BdsQueryContext.awaitHeight). */
export async function readableHeight(ctx: BdsQueryContext, height: number): Promise<number> {
  await ctx.awaitHeight(height);
  return height;
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

