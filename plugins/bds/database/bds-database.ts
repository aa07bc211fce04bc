import knexFactory, { type Knex } from 'knex';
import ClientPGLite from 'knex-pglite';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pgCustomTypes } from './pg-types.js';
import { PgliteThread } from './pglite-thread.js';
import { DirectoryLock, redactUrl, type Logger } from 'chainhost/plugin';

/**
 * The BDS database behind one setting: a PostgreSQL server by URL (through `pg`), or PGlite,
 * the embedded PostgreSQL, file-backed in a directory (the default, `<home>/bds`), running in a
 * thread of its own (pglite-thread.ts) so that nothing it does holds the host's event loop. Both
 * are driven through knex with the same type parsers, the same session time zone (UTC) and a
 * search path of the configured schema, so every query and row shape is identical.
 */
export type BdsDatabaseKind = 'pglite' | 'postgres';

export interface BdsDatabaseOptions {
  /** `postgres://…`; null selects PGlite in `pgliteDir`. */
  url: string | null;
  /** PGlite data directory (created if missing), or `memory://` for a throwaway database. */
  pgliteDir?: string | null;
  /** Schema holding every BDS table (`public` by default, as upstream). */
  schema?: string;
  poolMin?: number;
  poolMax?: number;
  /** > 0 sets the server `statement_timeout` (ms). */
  statementTimeoutMs?: number;
  /** How long to wait for a pooled connection (ms); 0 waits forever. */
  acquireTimeoutMs?: number;
  applicationName?: string;
  /**
   * Every session read-only (`default_transaction_read_only`): the pool of a read copy, so no
   * write can reach it even when the copy is a writable database.
   */
  readOnly?: boolean;
  /** Where knex and the pool report connection trouble (default: nowhere; the worker reports it in /bds_status). */
  logger?: Logger;
  /**
   * PGlite: return at once and let PGlite start in its thread; `ready` settles when queries
   * can run. A fresh data directory runs initdb first (tens of seconds on a busy machine), which
   * the host's other surfaces need not wait for.
   */
  background?: boolean;
}

export interface PoolStats {
  idle: number;
  in_use: number;
  max_size: number;
  min_size: number;
  size: number;
  utilization: number;
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export class BdsDatabase {
  private current: Knex;
  private pglite: PgliteThread | null;
  private lock: DirectoryLock | null;
  private closed = false;
  private started = false;

  private constructor(
    readonly options: Required<Pick<BdsDatabaseOptions, 'schema'>> & BdsDatabaseOptions,
    readonly kind: BdsDatabaseKind,
    knex: Knex,
    pglite: PgliteThread | null,
    lock: DirectoryLock | null,
    /** Settles when the database takes queries: at once on a server, when PGlite has started in the background. */
    readonly ready: Promise<void> = Promise.resolve(),
    startedAlready = true,
  ) {
    this.current = knex;
    this.started = startedAlready;
    if (!startedAlready) ready.then(() => (this.started = true), () => undefined);
    this.pglite = pglite;
    this.lock = lock;
  }

  static async open(options: BdsDatabaseOptions): Promise<BdsDatabase> {
    const schema = options.schema ?? 'public';
    if (!SCHEMA_NAME.test(schema)) throw new Error(`BDS schema name ${JSON.stringify(schema)} is not a plain SQL identifier ([A-Za-z_][A-Za-z0-9_]*)`);
    const resolved = { ...options, schema };
    if (options.url) {
      const db = new BdsDatabase(resolved, 'postgres', createPgKnex(resolved), null, null);
      return db;
    }
    const dir = options.pgliteDir;
    if (!dir) throw new Error('BDS on PGlite needs a data directory (pgliteDir), or set a PostgreSQL URL');
    const lock = dir.startsWith('memory://') ? null : DirectoryLock.acquire(dir, 'BDS PGlite database', { advice: "stop that process (the host's BDS worker, a reindex or a snapshot import) first" });
    let started: ReturnType<typeof createPgliteKnex> | null = null;
    try {
      started = createPgliteKnex(dir, schema);
      started.ready.catch(() => undefined);
      if (!options.background) await started.ready;
      return new BdsDatabase(resolved, 'pglite', started.knex, started.pglite, lock, started.ready, !options.background);
    } catch (err) {
      // The thread of a PGlite that could not start ends too (a failed start must not keep the process alive).
      await started?.knex.destroy().catch(() => undefined);
      await started?.pglite.close().catch(() => undefined);
      lock?.release();
      throw err;
    }
  }

  get knex(): Knex {
    return this.current;
  }

  get schema(): string {
    return this.options.schema;
  }

  /** The embedded PGlite, through its thread (benchmarks use it for a raw COPY baseline); null on the server. */
  get pgliteInstance(): PgliteThread | null {
    return this.pglite;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Whether it takes queries yet (false while a background PGlite start runs). */
  get isReady(): boolean {
    return this.kind === 'postgres' || this.started;
  }

  /** A PGlite data directory nobody initialised yet: opening it runs initdb. */
  static isFreshPgliteDir(dir: string): boolean {
    return !dir.startsWith('memory://') && !existsSync(path.join(dir, 'PG_VERSION'));
  }

  /** Where the data lives, without credentials. */
  describe(): string {
    if (this.kind === 'pglite') return `PGlite at ${this.options.pgliteDir} (schema ${this.schema})`;
    return `PostgreSQL ${redactUrl(this.options.url!)} (schema ${this.schema})`;
  }

  /** Quoted schema name for DDL. */
  get quotedSchema(): string {
    return `"${this.schema}"`;
  }

  async ping(): Promise<void> {
    await this.current.raw('select 1');
  }

  poolStats(): PoolStats | null {
    if (this.kind !== 'postgres') return null;
    const pool = (this.current.client as { pool?: TarnLikePool }).pool;
    if (!pool) return null;
    const used = pool.numUsed();
    const free = pool.numFree();
    const max = this.options.poolMax ?? 10;
    return { idle: free, in_use: used, max_size: max, min_size: this.options.poolMin ?? 1, size: used + free, utilization: max ? used / max : 0 };
  }

  /**
   * Closes the connections and opens them again (tests use it to simulate an outage: while
   * closed every query fails, as with a stopped server).
   */
  async reopen(): Promise<void> {
    await this.disconnect();
    if (this.kind === 'postgres') {
      this.current = createPgKnex(this.options);
    } else {
      const { knex, pglite, ready } = createPgliteKnex(this.options.pgliteDir!, this.schema);
      await ready;
      this.current = knex;
      this.pglite = pglite;
    }
  }

  /** Ends the connections but keeps the directory lock (for `reopen`). */
  async disconnect(): Promise<void> {
    await this.current.destroy().catch(() => undefined);
    // A PGlite still starting is closed once it has started (closing it half-way is not supported).
    await this.ready.catch(() => undefined);
    if (this.pglite && !this.pglite.closed) await this.pglite.close().catch(() => undefined);
    this.pglite = null;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.disconnect();
    this.lock?.release();
    this.lock = null;
  }
}

interface TarnLikePool {
  numUsed(): number;
  numFree(): number;
}

function createPgKnex(options: BdsDatabaseOptions & { schema: string }): Knex {
  const timeout = options.statementTimeoutMs ?? 0;
  const sessionOptions = [
    '-c TimeZone=UTC',
    timeout > 0 ? `-c statement_timeout=${timeout}` : null,
    options.readOnly ? '-c default_transaction_read_only=on' : null,
  ].filter(Boolean).join(' ');
  return knexFactory({
    client: 'pg',
    connection: {
      connectionString: options.url!,
      types: pgCustomTypes(),
      application_name: options.applicationName ?? 'chain-bds',
      options: sessionOptions,
    } as Knex.PgConnectionConfig,
    searchPath: [options.schema],
    // The writer's pool keeps retrying a connection for acquireTimeoutMs (its worker retries anyway);
    // a read pool answers at once that its server is unreachable instead of holding the request.
    pool: { min: options.poolMin ?? 1, max: options.poolMax ?? 10, propagateCreateError: options.readOnly === true },
    acquireConnectionTimeout: options.acquireTimeoutMs === 0 ? 2_147_483_647 : options.acquireTimeoutMs ?? 10_000,
    log: knexLog(options.logger),
  });
}

/**
 * PGlite starts at once in its thread; `ready` settles when it has (initdb on a fresh directory)
 * and the session is set to UTC. knex-pglite drives it as it would an in-thread PGlite: one
 * connection, so knex runs one statement (or one transaction's) at a time.
 */
function createPgliteKnex(dir: string, schema: string): { knex: Knex; pglite: PgliteThread; ready: Promise<void> } {
  const pglite = new PgliteThread(dir);
  const ready = pglite.waitReady;
  const knex = knexFactory({
    client: ClientPGLite as unknown as typeof Knex.Client,
    connection: { pglite } as unknown as Knex.StaticConnectionConfig,
    searchPath: [schema],
    useNullAsDefault: true,
    log: knexLog(undefined),
  });
  return { knex, pglite, ready };
}

function knexLog(logger: Logger | undefined): Knex.Logger {
  const debug = (message: unknown) => logger?.debug(`knex: ${message instanceof Error ? message.message : String(message)}`);
  return { warn: debug, error: debug, deprecate: debug, debug: () => undefined };
}

