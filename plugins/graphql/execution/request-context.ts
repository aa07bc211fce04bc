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
  /** The loader registered under `id` for this request, created on first use. */
  loader<K, V>(id: string, create: () => BatchLoader<K, V>): BatchLoader<K, V>;
}

/** Page sizes: `max` caps `first`/`last`; without either a root connection reads `max` rows, a relation `relation` rows. */
export interface PageSizeLimits {
  max: number;
  relation: number;
}

export function createRequestContext(dbSchema: string, sql: SqlRunner, pageSizes: PageSizeLimits): GraphqlRequestContext {
  const loaders = new Map<string, BatchLoader<unknown, unknown>>();
  return {
    dbSchema,
    sql,
    pageSizes,
    loader<K, V>(id: string, create: () => BatchLoader<K, V>): BatchLoader<K, V> {
      let loader = loaders.get(id) as BatchLoader<K, V> | undefined;
      if (!loader) {
        loader = create();
        loaders.set(id, loader as BatchLoader<unknown, unknown>);
      }
      return loader;
    },
  };
}
