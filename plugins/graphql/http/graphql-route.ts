import Router from '@koa/router';
import { GraphQLError, type DocumentNode, type GraphQLSchema } from 'graphql';
import { processRequest, renderGraphiQL } from 'graphql-helix';
import type Koa from 'koa';
import { ApiError, type Logger } from 'chainhost/plugin';
import { withinStack, type DocumentCache } from '../execution/document-cache.js';
import { checkQueryLimits, type QueryLimits } from '../execution/query-limits.js';
import type { GraphqlRequestContext } from '../execution/request-context.js';
import { jsonText } from '../json-text.js';
import { readGraphqlParams } from './graphql-request.js';

/**
 * `POST {path}` through graphql-helix: parse (token-capped), validate plus the server's limits
 * with the request's variables, execute. Every refusal is a GraphQL-shaped body
 * (`{"errors":[{"message", "extensions": {"code"}}]}`): 400 for a bad document or arguments,
 * 413 for an oversized body, 405 for the wrong method; execution errors keep GraphQL's 200
 * with `errors`. GraphiQL is served only when enabled.
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
    if (options.graphiql && ctx.accepts('html') === 'html') return graphiql(ctx, options.path);
    sendErrors(ctx, 405, 'METHOD_NOT_ALLOWED', `GraphQL requests must be POSTed to ${options.path} as JSON {"query": "..."}${options.graphiql ? '' : '; GraphiQL is disabled (plugins.graphql.graphiql)'}`, { Allow: 'POST' });
  });
  if (options.graphiql) router.get('/graphiql', (ctx) => graphiql(ctx, options.path));
  return router;
}

function graphiql(ctx: Koa.Context, endpoint: string): void {
  ctx.type = 'text/html';
  ctx.body = renderGraphiQL({ endpoint, headerEditorEnabled: false });
}

async function handle(ctx: Koa.Context, options: GraphqlRouteOptions): Promise<void> {
  let params;
  try {
    params = await readGraphqlParams(ctx, options.bodyLimitBytes);
  } catch (err) {
    if (err instanceof ApiError) {
      sendErrors(ctx, err.status, err.status === 413 ? 'PAYLOAD_TOO_LARGE' : err.status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST', err.message);
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
        return withinStack(() => checkQueryLimits(s, document, params.operationName, params.variables, options.limits));
      } catch (err) {
        if (err instanceof GraphQLError) return [err];
        throw err;
      }
    },
    contextFactory: () => options.context(),
  });
  if (result.type !== 'RESPONSE') {
    sendErrors(ctx, 400, 'BAD_REQUEST', 'streamed results (subscriptions, @defer, @stream) are not supported');
    return;
  }
  const payload = result.payload as { data?: unknown; errors?: readonly GraphQLError[] };
  let status = result.status;
  // A request error (variables that do not coerce, no operation) has errors and no data: 400.
  if (status === 200 && payload.errors?.length && payload.data === undefined) status = 400;
  // GraphQL over HTTP: a client that accepts only `application/json` gets request errors with 200
  // (as PostGraphile answers it); `application/graphql-response+json` or no preference keeps 400.
  if (status === 400 && acceptsOnlyJson(ctx.get('accept'))) status = 200;
  if (status >= 500) {
    options.log.error('GraphQL request failed', { errors: payload.errors?.map((e) => e.message) });
    status = 500;
  }
  ctx.status = status;
  for (const h of result.headers) if (h.name.toLowerCase() !== 'content-type') ctx.set(h.name, h.value);
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = jsonText(payload.errors ? { ...payload, errors: payload.errors.map(withExtensions) } : payload);
}

/** PostGraphile answers `"extensions": {}` on every error; graphql-js leaves an empty one out. */
function withExtensions(error: GraphQLError): unknown {
  const json = typeof error.toJSON === 'function' ? error.toJSON() : (error as unknown as Record<string, unknown>);
  return 'extensions' in json ? json : { ...json, extensions: {} };
}

function acceptsOnlyJson(accept: string): boolean {
  return /\bapplication\/json\b/i.test(accept) && !/application\/graphql-response\+json|\*\/\*/i.test(accept);
}

function sendErrors(ctx: Koa.Context, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  ctx.status = status;
  for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = jsonText({ errors: [{ message, extensions: { code } }] });
}
