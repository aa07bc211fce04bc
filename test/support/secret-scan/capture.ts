import { ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import WebSocket from 'ws';
import { isKeyToolRoute, keyToolCallIds, pathOf, StdioKeyToolFilter } from './key-tool-responses.js';
import type { SecretScanner, TokenStream } from './secret-scanner.js';

/**
 * Feeds a SecretScanner with what the test process writes and what its servers and children
 * send: process.stdout/stderr, every in-process HTTP response body (http.ServerResponse),
 * every WebSocket message an in-process server sends, and the stdout/stderr of every child
 * process (taps that never consume: a test that reads a child's output later still gets all
 * of it). `label()` names the test running when a new token is seen.
 */
export interface Capture {
  /** Flushes the streams still open and stops feeding the scanner. */
  stop(): void;
}

type Chunk = string | Uint8Array;

export function installCapture(scanner: SecretScanner, label: () => string): Capture {
  let active = true;
  const open = new Set<TokenStream>();
  const tracked = (source: () => string): TokenStream => {
    const stream = scanner.stream(source);
    open.add(stream);
    return {
      write: (chunk) => { if (active) stream.write(chunk); },
      end: () => {
        if (open.delete(stream) && active) stream.end();
      },
    };
  };

  tapProcessStream(process.stdout, tracked(() => `${label()} › stdout of the test process`));
  tapProcessStream(process.stderr, tracked(() => `${label()} › stderr of the test process`));
  tapServerResponses(tracked, label);
  tapWebSocketSends((text) => { if (active) scanner.scan(text, () => `${label()} › WebSocket message sent by an in-process server`); });
  tapChildProcesses(tracked, label);

  return {
    stop() {
      for (const stream of [...open]) stream.end();
      active = false;
    },
  };
}

function textOf(chunk: unknown, encoding?: unknown): string | undefined {
  if (typeof chunk === 'string') {
    return typeof encoding === 'string' && !/^(utf-?8|latin1|binary|ascii)$/i.test(encoding) && Buffer.isEncoding(encoding)
      ? Buffer.from(chunk, encoding).toString('latin1')
      : chunk;
  }
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
  if (chunk instanceof ArrayBuffer) return Buffer.from(chunk).toString('latin1');
  return undefined;
}

function tapProcessStream(stream: NodeJS.WriteStream, sink: TokenStream): void {
  const write = stream.write;
  stream.write = function (this: NodeJS.WriteStream, chunk: Chunk, ...rest: unknown[]) {
    const text = textOf(chunk, rest[0]);
    if (text !== undefined) sink.write(text);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof stream.write;
}

/**
 * Response bodies of in-process servers, per response; the answers of key-returning tools are
 * left out (by route, or for MCP over HTTP by the tools/call in the request body, which is
 * recorded while the server reads it).
 */
function tapServerResponses(tracked: (source: () => string) => TokenStream, label: () => string): void {
  const mcpBodies = new WeakMap<http.IncomingMessage, string>();
  const incomingPush = http.IncomingMessage.prototype.push;
  http.IncomingMessage.prototype.push = function (this: http.IncomingMessage, chunk: unknown, encoding?: BufferEncoding) {
    // Server-side requests only (a client-side response has no method).
    if (chunk != null && this.method === 'POST' && pathOf(this.url).endsWith('/mcp')) {
      const so = mcpBodies.get(this) ?? '';
      if (so.length < 1_000_000) mcpBodies.set(this, so + (textOf(chunk, encoding) ?? ''));
    }
    return incomingPush.call(this, chunk, encoding);
  };

  const streams = new WeakMap<http.ServerResponse, TokenStream | null>();
  const streamOf = (res: http.ServerResponse): TokenStream | null => {
    let stream = streams.get(res);
    if (stream === undefined) {
      const req = res.req as http.IncomingMessage | undefined;
      const body = req ? mcpBodies.get(req) : undefined;
      const excluded = isKeyToolRoute(req?.method, req?.url) || (body !== undefined && keyToolCallIds(body).length > 0);
      const where = `HTTP response to ${req?.method ?? '?'} ${pathOf(req?.url)} (in-process server on port ${res.socket?.localPort ?? '?'})`;
      const test = label();
      stream = excluded ? null : tracked(() => `${test} › ${where}`);
      streams.set(res, stream);
    }
    return stream;
  };
  const { write, end } = http.ServerResponse.prototype;
  http.ServerResponse.prototype.write = function (this: http.ServerResponse, chunk: unknown, ...rest: unknown[]) {
    const text = textOf(chunk, rest[0]);
    if (text) streamOf(this)?.write(text);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof write;
  http.ServerResponse.prototype.end = function (this: http.ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    const text = typeof chunk === 'function' ? undefined : textOf(chunk, rest[0]);
    const stream = text || streams.has(this) ? streamOf(this) : null;
    if (text) stream?.write(text);
    stream?.end();
    return (end as (...args: unknown[]) => http.ServerResponse).call(this, chunk, ...rest);
  } as typeof end;
}

function tapWebSocketSends(scan: (text: string) => void): void {
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (this: WebSocket & { _isServer?: boolean }, data: unknown, ...rest: unknown[]) {
    if (this._isServer) {
      const text = textOf(data) ?? (Array.isArray(data) ? data.map((d) => textOf(d) ?? '').join('') : undefined);
      if (text) scan(text);
    }
    return (send as (...args: unknown[]) => void).call(this, data, ...rest);
  } as typeof send;
}

/** Every child, whichever API started it (spawn, fork, execFile and cross-spawn all end in ChildProcess#spawn). */
function tapChildProcesses(tracked: (source: () => string) => TokenStream, label: () => string): void {
  // ChildProcess#spawn is public at runtime but missing from @types/node.
  type SpawnOptions = { file?: string; args?: string[] };
  const proto = ChildProcess.prototype as unknown as { spawn(this: ChildProcess, options: SpawnOptions): unknown };
  const spawn = proto.spawn;
  proto.spawn = function (this: ChildProcess, options: SpawnOptions) {
    const result = spawn.call(this, options);
    try {
      const name = childName(options);
      const filter = new StdioKeyToolFilter();
      if (this.stdin) tapWrites(this.stdin, (text) => filter.sent(text));
      if (this.stdout) tapLines(this.stdout, tracked(() => `${label()} › stdout of child ${name}`), filter);
      if (this.stderr) tapLines(this.stderr, tracked(() => `${label()} › stderr of child ${name}`));
    } catch {
      // Never break a test's child over the scan.
    }
    return result;
  };
}

function childName(options: { file?: string; args?: string[] }): string {
  const script = options.args?.slice(1).find((a) => /\.(c|m)?[jt]s$/.test(a));
  return path.basename(script ?? options.file ?? 'process');
}

function tapWrites(stream: Writable, seen: (text: string) => void): void {
  const write = stream.write;
  stream.write = function (this: Writable, chunk: unknown, ...rest: unknown[]) {
    const text = textOf(chunk, rest[0]);
    if (text) seen(text);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof stream.write;
}

/**
 * Observes a child's output as it arrives (wrapping push, so nothing is consumed), line by
 * line so a whole MCP stdio answer of a key-returning tool can be left out.
 */
function tapLines(stream: Readable, sink: TokenStream, filter?: StdioKeyToolFilter): void {
  let partial = '';
  const push = stream.push;
  stream.push = function (this: Readable, chunk: unknown, encoding?: BufferEncoding) {
    if (chunk === null) {
      if (partial) sink.write(partial);
      partial = '';
      sink.end();
    } else {
      const text = textOf(chunk, encoding);
      if (text) {
        const lines = (partial + text).split('\n');
        partial = lines.pop()!;
        for (const line of lines) if (!filter?.answersKeyTool(line)) sink.write(line + '\n');
        if (partial.length > 1_000_000) {
          sink.write(partial);
          partial = '';
        }
      }
    }
    return push.call(this, chunk, encoding);
  };
}
