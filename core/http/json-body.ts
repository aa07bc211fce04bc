import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import { ApiError } from '../errors.js';

/**
 * Reads a JSON request body with a hard byte cap. Malformed JSON is a 400, a body over the cap
 * a 413 (the rest is not buffered), a non-JSON content type a 415 — never a 500.
 */
export function readJsonBody(ctx: Koa.Context, limitBytes: number, shape: JsonShapeLimits = DEFAULT_JSON_SHAPE): Promise<unknown> {
  return readJsonRequest(ctx.req, limitBytes, shape);
}

/** readJsonBody on the bare node:http request (for handlers that answer without koa). */
export async function readJsonRequest(req: IncomingMessage, limitBytes: number, shape: JsonShapeLimits = DEFAULT_JSON_SHAPE): Promise<unknown> {
  const declared = Number(req.headers['content-length'] || NaN);
  if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge(limitBytes);
  const type = req.headers['content-type'];
  if (type && !/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    throw new ApiError(415, 'unsupported_media_type', `request body must be application/json, got ${type.slice(0, 60)}`);
  }
  const text = await readText(req, limitBytes, new JsonShapeScan(shape));
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError(400, 'invalid_json', `request body is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * Plain 'data'/'end' listeners rather than `for await`: the async iterator costs several
 * microseconds per request on the hot path of every tool call.
 */
function readText(req: IncomingMessage, limitBytes: number, shape: JsonShapeScan): Promise<string> {
  if (req.readableEnded) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        cleanup();
        // The rest is not buffered; Node discards it once the response is sent.
        req.pause();
        reject(tooLarge(limitBytes));
        return;
      }
      // Scanned as it arrives: a body too deep or too wide is refused at the byte that makes it so,
      // before the rest is buffered or any of it becomes a (1 MiB) string to parse.
      const beyond = shape.feed(chunk);
      if (beyond) {
        cleanup();
        discardRest(req, limitBytes - size);
        reject(new ApiError(400, 'invalid_json', `request body ${beyond}; no argument needs that`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8'));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(new ApiError(400, 'invalid_request', `request body could not be read: ${err.message}`));
    };
    const onClose = () => {
      cleanup();
      reject(new ApiError(400, 'invalid_request', 'the client closed the connection before the request body ended'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/**
 * Reads and drops the rest of a refused body, so the client's upload completes and it reads the
 * answer on a connection that stays usable; past `allowance` more bytes the socket is closed.
 * (A paused request is never drained by Node once it has been read from: the client would stall.)
 */
function discardRest(req: IncomingMessage, allowance: number): void {
  let left = allowance;
  req.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) req.destroy();
  });
  req.on('error', () => undefined);
  req.resume();
}

function tooLarge(limitBytes: number): ApiError {
  return new ApiError(413, 'payload_too_large', `request body exceeds ${limitBytes} bytes`, { limit_bytes: limitBytes });
}

/**
 * No argument nests deeper, or holds more values, than this. A 1 MiB body of `[[[[…` or of
 * 70,000 object keys takes hundreds of milliseconds to parse and validate on the server's one
 * thread (issue #19, complexity fuzzer); a linear scan refuses it before JSON.parse.
 */
export const MAX_JSON_DEPTH = 128;
export const MAX_JSON_VALUES = 20_000;

/** How deep and how wide a request body may be before it is parsed. */
export interface JsonShapeLimits {
  maxDepth: number;
  maxValues: number;
}

export const DEFAULT_JSON_SHAPE: JsonShapeLimits = { maxDepth: MAX_JSON_DEPTH, maxValues: MAX_JSON_VALUES };

/**
 * How deep and how wide a body is so far, outside strings, fed chunk by chunk. Every byte it
 * looks for is ASCII, so scanning UTF-8 bytes is exact (a multi-byte character never contains one).
 */
class JsonShapeScan {
  private depth = 0;
  private commas = 0;
  private inString = false;
  /** A backslash ended the last chunk inside a string: the next byte is escaped. */
  private escaped = false;
  private offset = 0;

  constructor(private readonly limits: JsonShapeLimits) {}

  /** What makes the body too deep or too wide, once a chunk shows it; else null. */
  feed(chunk: Uint8Array): string | null {
    if (chunk.length === 0) return null;
    const { maxDepth, maxValues } = this.limits;
    let i = 0;
    if (this.escaped) {
      this.escaped = false;
      i = 1;
    }
    for (; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (this.inString) {
        if (c === 0x5c) {
          if (++i === chunk.length) this.escaped = true; // a backslash escapes the next byte
        } else if (c === 0x22) this.inString = false;
      } else if (c === 0x22) this.inString = true;
      else if (c === 0x2c) {
        if (++this.commas >= maxValues) return `holds more than ${maxValues} JSON values`;
      } else if (c === 0x5b || c === 0x7b) {
        if (++this.depth > maxDepth) return `nests JSON deeper than ${maxDepth} levels (at byte ${this.offset + i})`;
      } else if (c === 0x5d || c === 0x7d) this.depth--;
    }
    this.offset += chunk.length;
    return null;
  }
}
