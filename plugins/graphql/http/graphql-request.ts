import type Koa from 'koa';
import { ApiError, type JsonShapeLimits, readJsonBody } from 'chainhost/plugin';

/**
 * The body of `POST /graphql`: JSON `{query, variables?, operationName?}` or a raw
 * `application/graphql` document, capped in bytes. Anything else is a 4xx with a message
 * saying what to send; batched (array) bodies are refused, as PostGraphile does by default.
 */
export interface GraphqlParams {
  query: string;
  variables: Record<string, unknown> | null;
  operationName: string | null;
}

/**
 * GraphQL checks its variables itself, with codes a GraphQL client reads (INPUT_TOO_DEEP past 100
 * levels, LIST_TOO_LONG past 10,000 items), so the generic pre-parse scan only stops what would
 * make the parse itself slow: parsing 4,096 levels or 100,000 values takes a few milliseconds.
 */
const GRAPHQL_JSON_SHAPE: JsonShapeLimits = { maxDepth: 4_096, maxValues: 100_000 };

export async function readGraphqlParams(ctx: Koa.Context, limitBytes: number): Promise<GraphqlParams> {
  const type = ctx.get('content-type');
  if (/^application\/graphql\b/i.test(type)) {
    const text = await readText(ctx, limitBytes);
    return { query: text, variables: null, operationName: null };
  }
  const body = await readJsonBody(ctx, limitBytes, GRAPHQL_JSON_SHAPE);
  if (Array.isArray(body)) throw new ApiError(400, 'invalid_request', 'batched GraphQL requests are not supported; send one operation per request');
  if (body === null || typeof body !== 'object') throw new ApiError(400, 'invalid_request', 'the request body must be a JSON object {"query": "...", "variables": {...}}');
  const b = body as Record<string, unknown>;
  if (typeof b.query !== 'string' || b.query.trim() === '') throw new ApiError(400, 'invalid_request', 'Must provide query string: the body needs "query" with a GraphQL document');
  let variables = b.variables ?? null;
  if (typeof variables === 'string') {
    try {
      variables = variables.trim() === '' ? null : JSON.parse(variables);
    } catch {
      throw new ApiError(400, 'invalid_request', 'Variables are invalid JSON.');
    }
  }
  if (variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) {
    throw new ApiError(400, 'invalid_request', '"variables" must be a JSON object');
  }
  const operationName = b.operationName ?? null;
  if (operationName !== null && typeof operationName !== 'string') throw new ApiError(400, 'invalid_request', '"operationName" must be a string');
  return { query: b.query, variables: variables as Record<string, unknown> | null, operationName };
}

async function readText(ctx: Koa.Context, limitBytes: number): Promise<string> {
  const declared = Number(ctx.get('content-length') || NaN);
  if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge(limitBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) {
      ctx.req.pause();
      throw tooLarge(limitBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(limitBytes: number): ApiError {
  return new ApiError(413, 'payload_too_large', `request body exceeds ${limitBytes} bytes`, { limit_bytes: limitBytes });
}
