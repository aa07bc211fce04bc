import type Router from '@koa/router';
import type { ExecutionResult, GraphQLSchema } from 'graphql';
import type { Logger } from 'chainhost/plugin';
import { BDS_TABLES, POSTGRAPHILE_ROOT_ORDER } from './catalog/bds-tables.js';
import type { BdsSource } from './database/bds-source.js';
import { bdsStatusView, sharedStatus } from './database/bds-status-view.js';
import { TableRowEstimates } from './database/table-row-estimates.js';
import { DocumentCache, withinStack } from './execution/document-cache.js';
import { executeQuery } from './execution/fast-execute.js';
import { checkQueryLimits, type QueryLimits } from './execution/query-limits.js';
import { createRequestContext, type GraphqlRequestContext } from './execution/request-context.js';
import { KnexSqlRunner } from './execution/sql-runner.js';
import type { GraphqlContribution } from './graphql-contributions.js';
import type { GraphqlOptions } from './graphql.config.js';
import { graphqlRouter } from './http/graphql-route.js';
import { buildGraphqlSchema } from './schema/build-schema.js';

/**
 * The GraphQL server minus the plugin wiring: the schema over the BDS tables and the
 * contributions, the per-request context (statement runner with the timeout, batch loaders),
 * the HTTP router, and `execute` for in-process callers and tests (same limits as HTTP).
 */
export interface GraphqlEngine {
  readonly schema: GraphQLSchema;
  readonly source: BdsSource;
  readonly limits: QueryLimits;
  /** Rows per table for the query cost; `refresh()` loads them (the plugin awaits it at start). */
  readonly rowEstimates: TableRowEstimates;
  readonly documents: DocumentCache;
  context(): GraphqlRequestContext;
  execute(query: string, variables?: Record<string, unknown> | null, operationName?: string | null): Promise<ExecutionResult>;
  router(): Router;
}

export type EngineOptions = Pick<GraphqlOptions, 'path' | 'graphiql' | 'bodyLimitBytes' | 'maxTokens' | 'maxPageSize' | 'relationPageSize' | 'maxDepth' | 'maxComplexity' | 'statementTimeoutMs' | 'dynamicJson' | 'maxRowsRead'>;

export function createGraphqlEngine(source: BdsSource, options: EngineOptions, contributions: readonly GraphqlContribution[], log: Logger): GraphqlEngine {
  const tables = [...BDS_TABLES, ...contributions.flatMap((c) => (c.kind === 'table' ? [c.table] : []))];
  const fields = contributions.flatMap((c) => (c.kind === 'fields' ? [c.fields] : []));
  // One status computation shared by concurrent requests and reused briefly: 1,000 aliases of
  // `bdsStatus` (or as many clients polling it) cost one read of the database, not 1,000.
  const status = sharedStatus((ctx: GraphqlRequestContext) => bdsStatusView(ctx, source));
  const schema = buildGraphqlSchema({ tables, fields, status, dbSchema: source.schema, dynamicJson: options.dynamicJson, rootOrder: POSTGRAPHILE_ROOT_ORDER });
  const runner = new KnexSqlRunner(() => source.knex, { timeoutMs: options.statementTimeoutMs, cancelOnTimeout: source.kind === 'postgres', prepare: source.kind === 'postgres', log });
  const rowEstimates = new TableRowEstimates(source, options.maxRowsRead + 1);
  const limits: QueryLimits = { ...queryLimitsOf(options), rowEstimate: (table) => rowEstimates.get(table) };
  const documents = new DocumentCache(schema, options.maxTokens);
  const context = () => createRequestContext(source.schema, runner, { max: options.maxPageSize, relation: options.relationPageSize }, options.maxRowsRead);
  return {
    schema,
    source,
    limits,
    rowEstimates,
    context,
    async execute(query, variables = null, operationName = null) {
      let document;
      try {
        document = documents.parse(query);
      } catch (err) {
        return { errors: [err as never] };
      }
      let limitErrors;
      try {
        const errors = documents.validate(document);
        if (errors.length) return { errors };
        limitErrors = withinStack(() => checkQueryLimits(schema, document, operationName, variables, limits));
      } catch (err) {
        return { errors: [err as never] };
      }
      if (limitErrors.length) return { errors: limitErrors };
      return executeQuery({ schema, document, variableValues: variables, operationName, contextValue: context() }, context);
    },
    documents,
    router: () => graphqlRouter({
      path: options.path, graphiql: options.graphiql, bodyLimitBytes: options.bodyLimitBytes,
      limits, schema: () => schema, documents: () => documents, context, log,
    }),
  };
}

export function queryLimitsOf(options: Pick<GraphqlOptions, 'maxDepth' | 'maxComplexity' | 'maxPageSize' | 'relationPageSize' | 'maxRowsRead'>): QueryLimits {
  return { maxDepth: options.maxDepth, maxComplexity: options.maxComplexity, maxPageSize: options.maxPageSize, relationPageSize: options.relationPageSize, maxRowsRead: options.maxRowsRead };
}
