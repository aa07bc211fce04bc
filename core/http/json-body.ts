import type Koa from 'koa';
import { ApiError } from '../errors.js';

/**
 * Reads a JSON request body with a hard byte cap. Malformed JSON is a 400, a body over the cap
 * a 413 (the rest is not buffered), a non-JSON content type a 415 — never a 500.
 */
export async function readJsonBody(ctx: Koa.Context, limitBytes: number): Promise<unknown> {
  const declared = Number(ctx.get('content-length') || NaN);
  if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge(limitBytes);
  const type = ctx.get('content-type');
  if (type && !/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    throw new ApiError(415, 'unsupported_media_type', `request body must be application/json, got ${type.slice(0, 60)}`);
  }
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
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError(400, 'invalid_json', `request body is not valid JSON: ${(err as Error).message}`);
  }
}

function tooLarge(limitBytes: number): ApiError {
  return new ApiError(413, 'payload_too_large', `request body exceeds ${limitBytes} bytes`, { limit_bytes: limitBytes });
}
