import knexFactory, { type Knex } from 'knex';
import ClientPGLite from 'knex-pglite';
import { existsSync, readdirSync } from 'node:fs';
import { DirectoryLock, redactUrl, type Logger } from 'chainhost/plugin';
import { PgliteThread } from '../../bds/index.js';
import pg from 'pg';
import type { BdsSource } from './bds-source.js';

/**
 * The BDS database opened by GraphQL itself (standalone `chain-graphql`, or a host without the
 * `bds` plugin). PostgreSQL: a small pool whose sessions are read-only, in UTC, with the
 * statement timeout set on the server. PGlite: the existing data directory, taken with the
 * same `.lock` file protocol the BDS worker uses, so the two never open it at once, and run in a
 * thread of its own as the BDS runs it (no statement holds this process's event loop).
 *
 * Type parsers keep BIGINT, NUMERIC and TIMESTAMPTZ as text: GraphQL sends them as strings
 * anyway, and text keeps every digit and microsecond.
 */
export interface OwnDatabaseOptions {
  url: string | null;
  pgliteDir: string;
  schema: string;
  poolMax: number;
  statementTimeoutMs: number;
  /** Where knex's connection warnings go (at debug level: a failing query already reports them); default nowhere. */
  log?: Logger;
}

const TEXT_OIDS = [20 /* int8 */, 1700 /* numeric */, 1114 /* timestamp */, 1184 /* timestamptz */];
const identity = (text: string) => text;


export async function openOwnDatabase(options: OwnDatabaseOptions): Promise<BdsSource> {
  return options.url ? openPostgres(options) : openPglite(options);
}

function openPostgres(options: OwnDatabaseOptions): BdsSource {
  const url = options.url!;
  const knex = knexFactory({
    client: 'pg',
    connection: {
      connectionString: url,
      application_name: 'chain-graphql',
      options: `-c TimeZone=UTC -c statement_timeout=${options.statementTimeoutMs} -c default_transaction_read_only=on`,
      types: {
        getTypeParser: (oid: number, format?: string) =>
          TEXT_OIDS.includes(oid) && format !== 'binary' ? identity : pg.types.getTypeParser(oid, (format ?? 'text') as 'text'),
      },
    } as Knex.PgConnectionConfig,
    // A refused connection fails the request at once (DATABASE_UNAVAILABLE) instead of holding it
    // for the acquire timeout: a replica that is down answers like one, not like a busy pool.
    pool: { min: 0, max: options.poolMax, propagateCreateError: true },
    acquireConnectionTimeout: 10_000,
    // knex's default logger writes every dropped or refused connection to the console.
    log: knexLog(options.log),
  });
  return {
    knex,
    schema: options.schema,
    kind: 'postgres',
    describe: () => `PostgreSQL ${redactUrl(url)} (schema ${options.schema})`,
    close: () => knex.destroy(),
  };
}

async function openPglite(options: OwnDatabaseOptions): Promise<BdsSource> {
  const dir = options.pgliteDir;
  if (!existsSync(dir) || readdirSync(dir).filter((f) => f !== '.lock').length === 0) {
    throw new Error(`no BDS database at ${dir}: run the bds plugin first to create it, or set CHAIN_BDS_DATABASE_URL to a PostgreSQL server`);
  }
  const lock = DirectoryLock.acquire(dir, 'the BDS PGlite database', {
    advice: 'PGlite allows one process: run GraphQL in that host (add "graphql" to its plugins) or put BDS on a PostgreSQL server (CHAIN_BDS_DATABASE_URL)',
  });
  const release = () => lock.release();
  let pglite: PgliteThread | null = null;
  try {
    // The same text parsers as the server path's TEXT_OIDS; the thread sets the session to UTC.
    pglite = new PgliteThread(dir, 'text');
    await pglite.waitReady;
    const thread = pglite;
    const knex = knexFactory({
      client: ClientPGLite as unknown as typeof Knex.Client,
      connection: { pglite } as unknown as Knex.StaticConnectionConfig,
      useNullAsDefault: true,
    });
    return {
      knex,
      schema: options.schema,
      kind: 'pglite',
      describe: () => `PGlite at ${dir} (schema ${options.schema})`,
      close: async () => {
        await knex.destroy().catch(() => undefined);
        if (!thread.closed) await thread.close().catch(() => undefined);
        release();
      },
    };
  } catch (err) {
    await pglite?.close().catch(() => undefined);
    release();
    throw err;
  }
}

function knexLog(log: Logger | undefined): Knex.Logger {
  const debug = (message: unknown) => log?.debug(`knex: ${message instanceof Error ? message.message : String(message)}`);
  return { warn: debug, error: debug, deprecate: debug, debug: () => undefined };
}

