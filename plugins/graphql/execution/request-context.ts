import { GraphQLError, type ASTNode } from 'graphql';
import { BatchLoader } from './batch-loader.js';
import type { SqlRunner } from './sql-runner.js';

/**
 * What every resolver receives as the GraphQL context: the statement runner for this request,
 * the BDS schema name, and per-request batch loaders (so one execution level costs one
 * statement per relation, and a loader never serves another request's cache).
 */
export interface GraphqlRequestContext {
  /** Schema holding the BDS tables (`public` unless configured). */
  readonly dbSchema: string;
  readonly sql: SqlRunner;
  readonly pageSizes: PageSizeLimits;
  /** Rows this request may still read (maxRowsRead); `take` refuses past it. */
  readonly rowBudget: RowBudget;
  /** The loader registered under `id` for this request, created on first use. */
  loader<K, V>(id: string, create: () => BatchLoader<K, V>): BatchLoader<K, V>;
  /**
   * A value computed once per request for `key` (an object: the field nodes of a selection,
   * shared by every parent row a resolver runs for), e.g. the columns a connection reads.
   */
  memo<T>(key: object, create: () => T): T;
}

/** Page sizes: `max` caps `first`/`last`; without either a root connection reads `max` rows, a relation `relation` rows (null: no cap, every row). */
export interface PageSizeLimits {
  max: number | null;
  relation: number | null;
}

/**
 * The rows a request may read. Every page statement asks for at most `remaining + 1` rows, so
 * reading past the budget is seen (and refused) without ever holding more than that in memory.
 */
export class RowBudget {
  constructor(readonly max: number, private used = 0) {}

  get remaining(): number {
    return Math.max(0, this.max - this.used);
  }

  take(rows: number): void {
    this.used += rows;
    if (this.used > this.max) throw rowsReadError(this.max, this.used, null, 'ask for fewer rows with first/last, or narrow it with condition or filter');
  }
}

/** The one refusal of `maxRowsRead`, at execution (RowBudget) and up front (query-limits.ts: counts and aggregates). */
export function rowsReadError(max: number, used: number, node: ASTNode | null, advice: string): GraphQLError {
  return new GraphQLError(
    `the query reads more than ${max} rows (plugins.graphql.maxRowsRead): at least ${used}, ${used - max} over; ${advice}`,
    { nodes: node ?? undefined, extensions: { code: 'RESULT_TOO_LARGE', maxRowsRead: max, rowsRead: used } },
  );
}

export function createRequestContext(dbSchema: string, sql: SqlRunner, pageSizes: PageSizeLimits, maxRowsRead = Number.MAX_SAFE_INTEGER): GraphqlRequestContext {
  const loaders = new Map<string, BatchLoader<unknown, unknown>>();
  const memos = new WeakMap<object, unknown>();
  return {
    dbSchema,
    sql,
    pageSizes,
    rowBudget: new RowBudget(maxRowsRead),
    loader<K, V>(id: string, create: () => BatchLoader<K, V>): BatchLoader<K, V> {
      let loader = loaders.get(id) as BatchLoader<K, V> | undefined;
      if (!loader) {
        loader = create();
        loaders.set(id, loader as BatchLoader<unknown, unknown>);
      }
      return loader;
    },
    memo<T>(key: object, create: () => T): T {
      if (memos.has(key)) return memos.get(key) as T;
      const value = create();
      memos.set(key, value);
      return value;
    },
  };
}
