import type Koa from 'koa';
import { ApiError, type JsonShapeLimits, readJsonBody } from 'chainhost/plugin';

/**
 * The body of `POST /graphql`: JSON `{query, variables?, operationName?, extensions?}` or a raw
 * `application/graphql` document, capped in bytes. Anything else is refused as PostGraphile 5
 * (grafserv) refuses it: the same status and the same message (`GraphqlRequestError`), e.g.
 * 400 "Invalid body; expected object" for a batch, 413 "Too much data".
 */
export interface GraphqlParams {
  query: string;
  variables: Record<string, unknown> | null;
  operationName: string | null;
}

/** A request that is no GraphQL request: answered `{"errors":[{"message","extensions":{"statusCode"}}]}`. */
export class GraphqlRequestError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/**
 * GraphQL checks its variables itself, with codes a GraphQL client reads (INPUT_TOO_DEEP past 100
 * levels, LIST_TOO_LONG past 10,000 items), so the generic pre-parse scan only stops what would
 * make the parse itself slow: parsing 4,096 levels or 100,000 values takes a few milliseconds.
 */
const GRAPHQL_JSON_SHAPE: JsonShapeLimits = { maxDepth: 4_096, maxValues: 100_000 };

export async function readGraphqlParams(ctx: Koa.Context, limitBytes: number): Promise<GraphqlParams> {
  const type = ctx.get('content-type');
  if (!type) throw new GraphqlRequestError(400, 'Could not determine the Content-Type of the request');
  if (/^application\/graphql\b/i.test(type)) {
    const text = await readText(ctx, limitBytes);
    return { query: text, variables: null, operationName: null };
  }
  const body = await readJson(ctx, limitBytes, type);
  if (body === undefined || body === null) throw new GraphqlRequestError(400, 'No body');
  // A batch (array) is refused as PostGraphile refuses it by default.
  if (typeof body !== 'object' || Array.isArray(body)) throw new GraphqlRequestError(400, 'Invalid body; expected object');
  const b = body as Record<string, unknown>;
  if (typeof b.query !== 'string') throw new GraphqlRequestError(400, 'query must be a string');
  const variables = jsonObject(b.variables, 'variables');
  jsonObject(b.extensions, 'extensions');
  const operationName = b.operationName ?? null;
  if (operationName !== null && typeof operationName !== 'string') throw new GraphqlRequestError(400, 'operationName, if given, must be a string');
  return { query: b.query, variables, operationName };
}

/** `variables`/`extensions`: absent, null or an object (JSON text is refused in a POST body, as grafserv does). */
function jsonObject(value: unknown, name: 'variables' | 'extensions'): Record<string, unknown> | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw new GraphqlRequestError(400, `Invalid ${name}; expected JSON-encoded object`);
  return value as Record<string, unknown>;
}

async function readJson(ctx: Koa.Context, limitBytes: number, type: string): Promise<unknown> {
  try {
    return await readJsonBody(ctx, limitBytes, GRAPHQL_JSON_SHAPE);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.status === 413) throw new GraphqlRequestError(413, 'Too much data');
    if (err.status === 415) throw new GraphqlRequestError(415, `Media type '${mediaType(type)}' is not allowed`);
    if (err.code === 'invalid_json') throw new GraphqlRequestError(400, "Parsing failed, please check that the data you're sending to the server is correct");
    throw new GraphqlRequestError(err.status, err.message);
  }
}

function mediaType(contentType: string): string {
  return contentType.split(';')[0]!.trim().slice(0, 100);
}

async function readText(ctx: Koa.Context, limitBytes: number): Promise<string> {
  const declared = Number(ctx.get('content-length') || NaN);
  if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) {
      ctx.req.pause();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(): GraphqlRequestError {
  return new GraphqlRequestError(413, 'Too much data');
}
