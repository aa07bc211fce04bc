import { GraphQLError } from 'graphql';
import type { Knex } from 'knex';
import type { Logger } from 'chainhost/plugin';
import type { Sql } from '../sql/sql-fragment.js';
import { statementName, usePreparedStatement } from './prepared-statements.js';

/**
 * Runs the GraphQL layer's SELECTs on the BDS database, each under the statement timeout: a
 * server-side cancel on PostgreSQL, a client-side deadline on PGlite (which has no timer to
 * cancel with). Database failures become GraphQL errors that say what happened, never a raw
 * driver error or an HTTP 5xx.
 */
export type Row = Record<string, unknown>;

export interface SqlRunner {
  rows(sql: Sql): Promise<Row[]>;
  /** The rows as arrays in column order, with the column names: no object per row (wide joined reads). */
  table(sql: Sql): Promise<RowTable>;
}

export interface RowTable {
  names: string[];
  rows: unknown[][];
}

export interface KnexSqlRunnerOptions {
  timeoutMs: number;
  /** Cancel the statement on the server when it times out (PostgreSQL only). */
  cancelOnTimeout: boolean;
  /** Run statements as named prepared statements (PostgreSQL's node-postgres only; prepared-statements.ts). */
  prepare?: boolean;
  log: Logger;
}

export class KnexSqlRunner implements SqlRunner {
  /** @param knex read per statement: a shared handle may reconnect with a new instance. */
  constructor(private readonly knex: () => Knex, private readonly options: KnexSqlRunnerOptions) {}

  async rows(sql: Sql): Promise<Row[]> {
    return (await this.query(sql, {})).rows as Row[];
  }

  async table(sql: Sql): Promise<RowTable> {
    const result = await this.query(sql, { rowMode: 'array' });
    const names = (result.fields ?? []).map((f) => f.name);
    const first = result.rows[0];
    if (first === undefined || Array.isArray(first)) return { names, rows: result.rows as unknown[][] };
    // A driver that ignored rowMode: the same table from its objects.
    const keys = names.length ? names : Object.keys(first as Row);
    return { names: keys, rows: (result.rows as Row[]).map((r) => keys.map((k) => r[k])) };
  }

  private async query(sql: Sql, options: Record<string, unknown>): Promise<{ rows: unknown[]; fields?: Array<{ name: string }> }> {
    try {
      const knex = this.knex();
      if (!this.options.prepare) return await this.run(knex.raw(sql.text, sql.values as Knex.RawBinding[]).options(options));
      // The statement needs its connection by name, so it is held for the statement.
      const connection: unknown = await knex.client.acquireConnection();
      try {
        const name = statementName(sql.text);
        const named = usePreparedStatement(connection, name) ? { ...options, name } : options;
        return await this.run(knex.raw(sql.text, sql.values as Knex.RawBinding[]).connection(connection as never).options(named));
      } finally {
        await knex.client.releaseConnection(connection);
      }
    } catch (err) {
      throw databaseError(err, this.options.timeoutMs, this.options.log);
    }
  }

  private async run(query: Knex.Raw): Promise<{ rows: unknown[]; fields?: Array<{ name: string }> }> {
    return (await query.timeout(this.options.timeoutMs, { cancel: this.options.cancelOnTimeout })) as { rows: unknown[]; fields?: Array<{ name: string }> };
  }
}

export function databaseError(err: unknown, timeoutMs: number, log: Logger): GraphQLError {
  const e = err as { name?: string; code?: string; message?: string };
  const message = String(e?.message ?? err);
  if (e?.name === 'KnexTimeoutError' && /acquiring a connection/i.test(message)) {
    return new GraphQLError('the BDS database is busy (no free connection); retry shortly', { extensions: { code: 'DATABASE_BUSY' } });
  }
  if (e?.name === 'KnexTimeoutError' || e?.code === '57014') {
    return new GraphQLError(
      `the query was stopped by the ${timeoutMs} ms statement timeout; narrow it with condition or filter, or ask for fewer rows`,
      { extensions: { code: 'STATEMENT_TIMEOUT', timeoutMs } },
    );
  }
  if (typeof e?.code === 'string' && /^22/.test(e.code)) {
    // Data exceptions (a value PostgreSQL cannot convert, an overflow): the caller's input.
    return new GraphQLError(`invalid value: ${firstLine(message)}`, { extensions: { code: 'INVALID_VALUE' } });
  }
  if (typeof e?.code === 'string' && (/^08|^57P/.test(e.code) || /ECONNREFUSED|ECONNRESET|terminat|closed/i.test(message))) {
    return new GraphQLError('the BDS database is unavailable; retry when it is back', { extensions: { code: 'DATABASE_UNAVAILABLE' } });
  }
  if (/ECONNREFUSED|ECONNRESET|connection terminated|PGlite is closed/i.test(message)) {
    return new GraphQLError('the BDS database is unavailable; retry when it is back', { extensions: { code: 'DATABASE_UNAVAILABLE' } });
  }
  if (e?.code === '42P01') {
    return new GraphQLError(`a BDS table is missing (${firstLine(message)}); the database has not been initialised by BDS yet`, { extensions: { code: 'SCHEMA_NOT_READY' } });
  }
  log.error('GraphQL query failed in the database', { error: message, code: e?.code });
  return new GraphQLError('database error; see the server log', { extensions: { code: 'DATABASE_ERROR' } });
}

function firstLine(message: string): string {
  // knex prefixes the statement text; keep only PostgreSQL's own message.
  const text = message.includes(' - ') ? message.slice(message.lastIndexOf(' - ') + 3) : message;
  return text.split('\n')[0]!.slice(0, 300);
}
