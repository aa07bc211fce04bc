import type { Knex } from 'knex';
import { jsonText } from '../block/json-text.js';
import { copyRows } from './copy-rows.js';

/**
 * Multi-row inserts as one statement per table and chunk: every column travels as one array
 * parameter and `unnest` turns them back into rows. A few parameters instead of thousands keeps
 * planning cheap on both PostgreSQL and PGlite and stays far below the bind-parameter limit.
 * Rows may be a lazy iterable: the COPY path builds each row as it streams it, so on the
 * server the rows of one table are serialized while PostgreSQL is still inserting the last.
 */
export type ColumnType = 'text' | 'bigint' | 'integer' | 'boolean' | 'jsonb' | 'timestamptz' | 'numeric';

export interface ColumnSpec {
  name: string;
  /** A BDS column type, or any other SQL type name (contributed tables in snapshots), passed as its array type. */
  type: ColumnType | (string & {});
}

export interface BulkInsertOptions {
  /** The `ON CONFLICT …` clause (every BDS insert is idempotent). */
  onConflict: string;
  /** Write explicit values into `GENERATED ALWAYS` identity columns. */
  overridingSystemValue?: boolean;
  /** Table alias, for upserts that reference the existing row. */
  alias?: string;
  chunkSize?: number;
  /**
   * Rows keyed by block height (directly or through their transaction): in a transaction the
   * writer marked with `vouchFreshHeights`, write them with COPY instead — no row of a height
   * that is not in `blocks` yet can exist (every such table references `blocks`), so
   * ON CONFLICT has nothing to do there. A unique violation (a transaction hash seen at an
   * earlier height) makes the writer redo the batch with the idempotent INSERTs.
   */
  copyWhenFresh?: boolean;
}

const freshTransactions = new WeakSet<object>();

/** The writer checked, under the writer lock and in `trx`, that every height it writes there is new. */
export function vouchFreshHeights(trx: Knex.Transaction, fresh: boolean): void {
  if (fresh) freshTransactions.add(trx);
  else freshTransactions.delete(trx);
}

/** Whether `copyWhenFresh` inserts in `trx` go through COPY right now. */
export function copiesFreshRows(trx: Knex | Knex.Transaction): boolean {
  return freshTransactions.has(trx);
}

const CHUNK = 5000;

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A JSON column value: SQL NULL for JS null/undefined, else the compact JSON text. */
export function jsonParam(value: unknown): string | null {
  return value === null || value === undefined ? null : jsonText(value);
}

function param(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'jsonb' || type === 'json') return typeof value === 'string' ? value : jsonText(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'object' && !(value instanceof Date)) return jsonText(value);
  return value;
}

const ARRAY_TYPE: Record<string, string> = {
  text: 'text[]',
  bigint: 'bigint[]',
  integer: 'integer[]',
  boolean: 'boolean[]',
  jsonb: 'text[]', // cast per element below: a jsonb[] literal would need double escaping
  timestamptz: 'timestamptz[]',
  numeric: 'numeric[]',
};

export async function bulkInsert(
  knex: Knex | Knex.Transaction,
  table: string,
  columns: readonly ColumnSpec[],
  rows: Iterable<readonly unknown[]>,
  options: BulkInsertOptions,
): Promise<void> {
  const names = columns.map((c) => quoteIdent(c.name));
  if (options.copyWhenFresh && !options.alias && copiesFreshRows(knex)) {
    await copyRows(knex as Knex.Transaction, `${quoteIdent(table)} (${names.join(', ')})`, columns, rows);
    return;
  }
  const list = Array.isArray(rows) ? (rows as ReadonlyArray<readonly unknown[]>) : [...rows];
  if (!list.length) return;
  const aliases = columns.map((_, i) => `c${i}`);
  const select = columns.map((c, i) => (c.type === 'jsonb' || c.type === 'json' ? `${aliases[i]}::${c.type}` : aliases[i])).join(', ');
  const unnest = columns.map((c) => `?::${ARRAY_TYPE[c.type] ?? (c.type === 'json' ? 'text[]' : `${c.type}[]`)}`).join(', ');
  const sql =
    `INSERT INTO ${quoteIdent(table)}${options.alias ? ` AS ${options.alias}` : ''} (${names.join(', ')})` +
    `${options.overridingSystemValue ? ' OVERRIDING SYSTEM VALUE' : ''} SELECT ${select} FROM unnest(${unnest}) AS u(${aliases.join(', ')}) ${options.onConflict}`;
  const size = options.chunkSize ?? CHUNK;
  for (let start = 0; start < list.length; start += size) {
    const chunk = list.slice(start, start + size);
    const arrays = columns.map((c, i) => chunk.map((row) => param(row[i], c.type)));
    await knex.raw(sql, arrays as unknown as Knex.RawBinding[]);
  }
}

/**
 * `count` fresh, consecutive values of an identity column's sequence: one `nextval` and one
 * `setval` instead of a `nextval` per row. Safe because BDS has exactly one writer (the writer
 * lock); sequence values of a rolled-back batch are simply skipped, as with any identity.
 */
export async function allocateIds(knex: Knex | Knex.Transaction, table: string, column: string, count: number): Promise<Array<number | bigint>> {
  if (count <= 0) return [];
  const r = await knex.raw(
    `WITH s AS (SELECT pg_get_serial_sequence(?, ?) AS seq), f AS (SELECT nextval((SELECT seq FROM s)) AS first)
     SELECT first, setval((SELECT seq FROM s), first + ? - 1) AS last FROM f`,
    [table, column, count],
  );
  const first = BigInt((r.rows[0] as { first: number | bigint }).first);
  const ids: Array<number | bigint> = new Array(count);
  for (let i = 0; i < count; i++) {
    const id = first + BigInt(i);
    ids[i] = id <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : id;
  }
  return ids;
}
