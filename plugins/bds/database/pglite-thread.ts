import type { Results } from '@electric-sql/pglite';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from 'chainhost/plugin';
import { errorFromFields, type PgliteParserProfile, type PgliteQueryOptions, type PgliteReply, type PgliteRequest, type PgliteThreadData } from './pglite-thread-protocol.js';

type Request = PgliteRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

/**
 * The BDS's PGlite seen from the event loop: the part of PGlite's interface that knex-pglite and
 * the COPY path use (`waitReady`, `query`, `exec`, `close`, `closed`), each call a message to the
 * database's own thread (pglite-thread-worker.ts), so nothing PGlite does — initdb, migrations,
 * a reindex, a COPY, a whole-table aggregate — runs on the loop that serves RPC, tools and
 * GraphQL. The loop's share of a statement is posting it and taking its parsed rows.
 *
 * The thread keeps the process alive only while it starts or a statement is pending, as an
 * in-thread PGlite did; it ends with the process (a worker thread cannot outlive it). If the
 * thread dies, every pending and later statement fails with "PGlite is closed".
 */
/** How long a close waits for the queued statements and PGlite's own shutdown before ending the thread. */
const CLOSE_GRACE_MS = 4_000;

export class PgliteThread {
  readonly waitReady: Promise<void>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private starting = true;
  private ended: Error | null = null;
  private closing: Promise<void> | null = null;

  /** @param dir the data directory, or `memory://`; `parsers` see PgliteThreadData. */
  constructor(dir: string, parsers: PgliteParserProfile = 'bds') {
    const data: PgliteThreadData = { dir, parsers };
    this.worker = startModuleWorker(import.meta.url, './pglite-thread-worker', { workerData: data });
    this.waitReady = new Promise<void>((resolve, reject) => {
      this.worker.on('message', (reply: PgliteReply) => {
        if (reply.kind === 'ready') {
          this.started();
          resolve();
        } else if (reply.kind === 'failed') {
          this.started();
          reject(errorFromFields(reply.error));
        } else {
          this.settle(reply);
        }
      });
      this.worker.on('error', (err) => this.end(err, reject));
      this.worker.on('exit', (code) => this.end(new Error(`exited with code ${code}`), reject));
    });
    this.waitReady.catch(() => undefined);
  }

  get closed(): boolean {
    return this.ended !== null || this.closing !== null;
  }

  query<T = Record<string, unknown>>(sql: string, params: unknown[] = [], options?: PgliteQueryOptions): Promise<Results<T>> {
    const sent: PgliteQueryOptions = {};
    if (options?.rowMode) sent.rowMode = options.rowMode;
    if (options?.blob) sent.blob = options.blob;
    return this.request({ op: 'query', sql, params, options: sent }) as Promise<Results<T>>;
  }

  exec(sql: string): Promise<Array<Results>> {
    return this.request({ op: 'exec', sql }) as Promise<Array<Results>>;
  }

  /**
   * Closes the database (after what is queued) and ends its thread. While PGlite is still
   * starting (a fresh home's initdb), the graceful close waits at most `CLOSE_GRACE_MS`: a host
   * that fails to start then must not wait for initdb past its stop deadline; the thread is ended
   * as a killed process would end it (the next start initialises or recovers the directory).
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (!this.ended) {
        let timer: NodeJS.Timeout | undefined;
        const grace = new Promise<void>((resolve) => { timer = setTimeout(resolve, CLOSE_GRACE_MS); });
        const closed = this.send({ op: 'close' }).catch(() => undefined);
        // Past start-up the close waits for what is queued (the host's stop deadline bounds it).
        await (this.starting ? Promise.race([closed, grace]) : closed);
        clearTimeout(timer);
      }
      await this.worker.terminate();
    })();
    return this.closing;
  }

  private request(request: Request): Promise<unknown> {
    if (this.closing && !this.ended) return Promise.reject(new Error('PGlite is closed'));
    return this.send(request);
  }

  private send(request: Request): Promise<unknown> {
    if (this.ended) return Promise.reject(new Error(`PGlite is closed (its thread ended: ${this.ended.message})`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ ...request, id } as PgliteRequest);
    });
  }

  private settle(reply: Extract<PgliteReply, { id: number }>): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (!this.pending.size && !this.starting) this.worker.unref();
    if (reply.kind === 'result') waiting.resolve(reply.result);
    else waiting.reject(errorFromFields(reply.error));
  }

  private started(): void {
    this.starting = false;
    if (!this.pending.size) this.worker.unref();
  }

  private end(cause: Error, rejectStart: (err: Error) => void): void {
    if (this.ended) return;
    this.ended = cause;
    const err = new Error(`PGlite is closed (its thread ended: ${cause.message})`);
    rejectStart(err);
    for (const waiting of this.pending.values()) waiting.reject(err);
    this.pending.clear();
  }
}
