import type { Knex } from 'knex';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { jsonText } from '../block/json-text.js';
import type { ColumnSpec } from './bulk-insert.js';

/**
 * `COPY … FROM STDIN` of rows into a table, inside the caller's transaction: the rows as COPY
 * text, streamed through pg-copy-streams on the PostgreSQL server, or handed to PGlite as
 * `/dev/blob`. No ON CONFLICT here — the writer uses it only for heights it has checked are new
 * (see `bulkInsert`'s `copyWhenFresh`), where a unique violation cannot come from a re-write.
 */
const CHUNK_CHARS = 1 << 16;
const SPECIAL_ALL = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function escapeText(s: string): string {
  // four native scans beat one regex test on the long JSON values that make up most of the text
  const special = s.indexOf('\\') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\t') >= 0 || s.indexOf('\r') >= 0;
  return special ? s.replace(SPECIAL_ALL, (c) => ESCAPES[c]!) : s;
}

/** One value in COPY text format; the same values `bulkInsert` would bind, spelled for COPY. */
export function copyField(value: unknown, type: string): string {
  if (value === null || value === undefined) return '\\N';
  switch (typeof value) {
    case 'string':
      return escapeText(value); // text, numeric and timestamp text, and JSON text for json/jsonb columns
    case 'number':
      return type === 'jsonb' || type === 'json' ? escapeText(jsonText(value)) : String(value);
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false'; // boolean input and JSON alike
    default:
      if (value instanceof Date) return value.toISOString();
      return escapeText(jsonText(value));
  }
}

/** The rows as COPY text, in chunks of about 64 KiB (built as they are consumed). */
export function* copyChunks(columns: readonly ColumnSpec[], rows: Iterable<readonly unknown[]>): Generator<string> {
  const types = columns.map((c) => c.type);
  const width = types.length;
  let chunk = '';
  for (const row of rows) {
    let line = copyField(row[0], types[0]!);
    for (let i = 1; i < width; i++) line += '\t' + copyField(row[i], types[i]!);
    chunk += line + '\n';
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

interface PgliteLike {
  waitReady: Promise<void>;
  query(sql: string, params: unknown[], options: { blob: Blob }): Promise<unknown>;
}

interface PgClientLike {
  query(submittable: unknown): unknown;
}

/** COPY `rows` into `target` (`"table" ("col", …)`, columns in `columns` order) through the transaction's own connection. */
export async function copyRows(trx: Knex.Transaction, target: string, columns: readonly ColumnSpec[], rows: Iterable<readonly unknown[]>): Promise<void> {
  const chunks = copyChunks(columns, rows);
  const first = chunks.next();
  if (first.done) return; // no rows: no statement
  const connection = (await trx.client.acquireConnection()) as PgliteLike | PgClientLike;
  if ('waitReady' in connection) {
    // PGlite: one session, so this runs inside the transaction knex opened on it
    await connection.query(`COPY ${target} FROM '/dev/blob'`, [], { blob: new Blob([first.value, ...chunks]) });
    return;
  }
  const stream = copyFrom(`COPY ${target} FROM STDIN`);
  connection.query(stream);
  await pipeline(Readable.from(resume(first.value, chunks), { objectMode: false }), stream);
}

function* resume(first: string, rest: Iterator<string>): Generator<string> {
  yield first;
  for (let next = rest.next(); !next.done; next = rest.next()) yield next.value;
}
