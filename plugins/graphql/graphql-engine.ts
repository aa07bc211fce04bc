import type Router from '@koa/router';
import { execute, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { Logger } from 'chainhost/plugin';
import { BDS_TABLES, POSTGRAPHILE_ROOT_ORDER } from './catalog/bds-tables.js';
import type { BdsSource } from './database/bds-source.js';
import { bdsStatusView } from './database/bds-status-view.js';
import { DocumentCache, withinStack } from './execution/document-cache.js';
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
  readonly documents: DocumentCache;
  context(): GraphqlRequestContext;
  execute(query: string, variables?: Record<string, unknown> | null, operationName?: string | null): Promise<ExecutionResult>;
  router(): Router;
}

export type EngineOptions = Pick<GraphqlOptions, 'path' | 'graphiql' | 'bodyLimitBytes' | 'maxTokens' | 'maxPageSize' | 'relationPageSize' | 'maxDepth' | 'maxComplexity' | 'statementTimeoutMs' | 'dynamicJson' | 'maxRowsRead'>;

export function createGraphqlEngine(source: BdsSource, options: EngineOptions, contributions: readonly GraphqlContribution[], log: Logger): GraphqlEngine {
  const tables = [...BDS_TABLES, ...contributions.flatMap((c) => (c.kind === 'table' ? [c.table] : []))];
  const fields = contributions.flatMap((c) => (c.kind === 'fields' ? [c.fields] : []));
  const schema = buildGraphqlSchema({ tables, fields, status: (ctx) => bdsStatusView(ctx, source), dbSchema: source.schema, dynamicJson: options.dynamicJson, rootOrder: POSTGRAPHILE_ROOT_ORDER });
  const runner = new KnexSqlRunner(() => source.knex, { timeoutMs: options.statementTimeoutMs, cancelOnTimeout: source.kind === 'postgres', prepare: source.kind === 'postgres', log });
  const limits = queryLimitsOf(options);
  const documents = new DocumentCache(schema, options.maxTokens);
  const context = () => createRequestContext(source.schema, runner, { max: options.maxPageSize, relation: options.relationPageSize }, options.maxRowsRead);
  return {
    schema,
    source,
    limits,
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
      return execute({ schema, document, variableValues: variables, operationName, contextValue: context() });
    },
    documents,
    router: () => graphqlRouter({
      path: options.path, graphiql: options.graphiql, bodyLimitBytes: options.bodyLimitBytes,
      limits, schema: () => schema, documents: () => documents, context, log,
    }),
  };
}

export function queryLimitsOf(options: Pick<GraphqlOptions, 'maxDepth' | 'maxComplexity' | 'maxPageSize' | 'relationPageSize'>): QueryLimits {
  return { maxDepth: options.maxDepth, maxComplexity: options.maxComplexity, maxPageSize: options.maxPageSize, relationPageSize: options.relationPageSize };
}
