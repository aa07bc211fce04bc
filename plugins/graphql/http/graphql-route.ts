import Router from '@koa/router';
import { GraphQLError, Kind, type DocumentNode, type ExecutionArgs, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { processRequest } from 'graphql-helix';
import type Koa from 'koa';
import type { Logger } from 'chainhost/plugin';
import { withinStack, type DocumentCache } from '../execution/document-cache.js';
import { executeQuery } from '../execution/fast-execute.js';
import { checkQueryLimits, type QueryLimits } from '../execution/query-limits.js';
import type { GraphqlRequestContext } from '../execution/request-context.js';
import { jsonText } from '../json-text.js';
import { GraphqlRequestError, readGraphqlParams } from './graphql-request.js';
import { ideRouter, sendIdePage } from './graphql-ide.js';

/**
 * `POST {path}` through graphql-helix: parse (token-capped), validate plus the server's limits
 * with the request's variables, execute — answering as PostGraphile 5 (grafserv) answers, per
 * GraphQL over HTTP: `application/graphql-response+json` unless the client accepts only
 * `application/json`; a request error (no data: a bad document, variables that do not coerce,
 * a bound of this server) is 400 under the former and 200 under the latter; a field error keeps
 * 200 with `data`. Malformed HTTP requests get grafserv's status and message
 * (`{"errors":[{"message","extensions":{"statusCode"}}]}`). The IDE (Ruru) is served unless turned off.
 */
export interface GraphqlRouteOptions {
  path: string;
  graphiql: boolean;
  bodyLimitBytes: number;
  limits: QueryLimits;
  schema(): GraphQLSchema;
  /** Parsed and validated documents of that schema. */
  documents(): DocumentCache;
  context(): GraphqlRequestContext;
  log: Logger;
}

export function graphqlRouter(options: GraphqlRouteOptions): Router {
  const router = new Router();
  router.post(options.path, (ctx) => handle(ctx, options));
  router.get(options.path, (ctx) => {
    // A browser (HTML preferred over JSON) gets the IDE, as PostGraphile's grafserv answers.
    if (options.graphiql && ctx.accepts('json', 'html') === 'html') return sendIdePage(ctx, options.path);
    ctx.status = 405;
    ctx.type = 'application/json';
    ctx.body = jsonText({ errors: [{ message: 'Method not supported, please use POST', extensions: {} }] });
  });
  if (options.graphiql) {
    const ide = ideRouter(options.path);
    router.use(ide.routes(), ide.allowedMethods());
  } else {
    router.get('/graphiql', (ctx) => {
      ctx.status = 404;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = `Could not process GET request to /graphiql ─ please POST requests to ${options.path}`;
    });
  }
  return router;
}

async function handle(ctx: Koa.Context, options: GraphqlRouteOptions): Promise<void> {
  let params;
  try {
    params = await readGraphqlParams(ctx, options.bodyLimitBytes);
  } catch (err) {
    if (err instanceof GraphqlRequestError) {
      ctx.status = err.status;
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = jsonText({ errors: [{ message: err.message, extensions: { statusCode: err.status } }] });
      return;
    }
    throw err;
  }
  const schema = options.schema();
  const documents = options.documents();
  const request = { body: params, headers: ctx.req.headers as Record<string, string>, method: 'POST', query: {} };
  const result = await processRequest<GraphqlRequestContext, unknown>({
    schema,
    request,
    query: params.query,
    variables: params.variables ?? undefined,
    operationName: params.operationName ?? undefined,
    parse: (source: string) => documents.parse(source),
    validate: (s: GraphQLSchema, document: DocumentNode) => {
      try {
        const errors = documents.validate(document);
        if (errors.length) return errors;
        const unselectable = operationError(document, params.operationName);
        if (unselectable) return [unselectable];
        return withinStack(() => checkQueryLimits(s, document, params.operationName, params.variables, options.limits));
      } catch (err) {
        if (err instanceof GraphQLError) return [err];
        throw err;
      }
    },
    contextFactory: () => options.context(),
    execute: (args: ExecutionArgs) => executeQuery(args, () => options.context()),
  });
  if (result.type !== 'RESPONSE') {
    sendErrors(ctx, 400, 'streamed results (subscriptions, @defer, @stream) are not supported');
    return;
  }
  const payload = result.payload as { data?: unknown; errors?: readonly GraphQLError[] };
  const legacy = acceptsOnlyJson(ctx.get('accept'));
  let status = result.status;
  // A request error (no data: a bad document, variables that do not coerce) is 400 under
  // application/graphql-response+json and 200 for a client that accepts only application/json.
  if (status < 500 && payload.data === undefined && payload.errors?.length) status = legacy ? 200 : 400;
  if (status >= 500) {
    options.log.error('GraphQL request failed', { errors: payload.errors?.map((e) => e.message) });
    status = 500;
  }
  logIdentifiedErrors(payload.errors, options.log);
  ctx.status = status;
  for (const h of result.headers) if (h.name.toLowerCase() !== 'content-type') ctx.set(h.name, h.value);
  ctx.type = legacy ? 'application/json; charset=utf-8' : 'application/graphql-response+json; charset=utf-8';
  ctx.body = jsonText(payload.errors ? { ...payload, errors: payload.errors.map(withExtensions) } : payload);
}

/** graphql-js's wording for an operation that cannot be chosen (graphql-helix words it otherwise). */
function operationError(document: DocumentNode, operationName: string | null): GraphQLError | null {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operationName !== null) {
    return operations.some((o) => o.name?.value === operationName) ? null : new GraphQLError(`Unknown operation named "${operationName}".`);
  }
  if (operations.length > 1) return new GraphQLError('Must provide operation name if query contains multiple operations.');
  return null;
}

/**
 * Errors that carry an `errorId` (answered where PostGraphile masks its message) are logged with
 * it, so the id in an answer finds its line in the log, as upstream's do.
 */
function logIdentifiedErrors(errors: readonly GraphQLError[] | undefined, log: Logger): void {
  for (const e of errors ?? []) {
    const errorId = e.extensions?.errorId;
    if (typeof errorId === 'string') log.info('GraphQL argument refused', { errorId, message: e.message, path: e.path?.join('.') ?? null });
  }
}

/** PostGraphile answers `"extensions": {}` on every error; graphql-js leaves an empty one out. */
function withExtensions(error: GraphQLError): unknown {
  const json = typeof error.toJSON === 'function' ? error.toJSON() : (error as unknown as Record<string, unknown>);
  return 'extensions' in json ? json : { ...json, extensions: {} };
}

function acceptsOnlyJson(accept: string): boolean {
  return /\bapplication\/json\b/i.test(accept) && !/application\/graphql-response\+json|\*\/\*/i.test(accept);
}

function sendErrors(ctx: Koa.Context, status: number, message: string): void {
  ctx.status = status;
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = jsonText({ errors: [{ message, extensions: {} }] });
}
