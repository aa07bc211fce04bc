import type { Knex } from 'knex';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { BdsDatabase } from '../plugins/bds/database/bds-database.js';
import { quoteIdent } from '../plugins/bds/writer/bulk-insert.js';

/**
 * The raw COPY baseline of the BDS ingest benchmark: a table's stored rows as COPY text (read
 * back from an index BDS wrote), and COPY FROM STDIN of that text — through pg-copy-streams in
 * 64 KiB messages on the server (as the writer does), through PGlite's `/dev/blob` on PGlite
 * (in PGlite's thread, as the writer's COPY).
 */
function copyEscape(value: string | null): string {
  if (value === null) return '\\N';
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

export async function storedColumns(knex: Knex, table: string): Promise<string[]> {
  const r = await knex.raw(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? AND is_generated <> 'ALWAYS' ORDER BY ordinal_position`,
    [table],
  );
  return (r.rows as Array<{ column_name: string }>).map((c) => c.column_name);
}

/** The table's rows as COPY text, every column cast to text by PostgreSQL. */
export async function copyText(knex: Knex, table: string, columns: string[]): Promise<{ text: string; rows: number }> {
  const r = await knex.raw(`SELECT ${columns.map((c) => `${quoteIdent(c)}::text AS ${quoteIdent(c)}`).join(', ')} FROM ${quoteIdent(table)}`);
  const rows = r.rows as Array<Record<string, string | null>>;
  return { text: rows.map((row) => columns.map((c) => copyEscape(row[c] ?? null)).join('\t')).join('\n') + (rows.length ? '\n' : ''), rows: rows.length };
}

function* chunks(text: string): Generator<Buffer> {
  const buf = Buffer.from(text);
  for (let i = 0; i < buf.length; i += 1 << 16) yield buf.subarray(i, i + (1 << 16));
}

export interface CopyTable {
  table: string;
  columns: string[];
  text: string;
}

/** COPY every table (in order) into the database's schema in one transaction; returns the milliseconds it took. */
export async function copyAll(db: BdsDatabase, tables: readonly CopyTable[]): Promise<number> {
  const target = (t: CopyTable) => `${quoteIdent(db.schema)}.${quoteIdent(t.table)} (${t.columns.map(quoteIdent).join(', ')})`;
  if (db.kind === 'pglite') {
    const pglite = db.pgliteInstance!;
    const started = performance.now();
    // PGlite is one session (in its own thread): a transaction is its statements in a row.
    await pglite.query('BEGIN');
    try {
      for (const t of tables) await pglite.query(`COPY ${target(t)} FROM '/dev/blob'`, [], { blob: new Blob([t.text]) });
      await pglite.query('COMMIT');
    } catch (err) {
      await pglite.query('ROLLBACK');
      throw err;
    }
    return performance.now() - started;
  }
  const client = new pg.Client({ connectionString: db.options.url!, options: '-c TimeZone=UTC' });
  await client.connect();
  try {
    const started = performance.now();
    await client.query('BEGIN');
    for (const t of tables) await pipeline(Readable.from(chunks(t.text), { objectMode: false }), client.query(copyFrom(`COPY ${target(t)} FROM STDIN`)));
    await client.query('COMMIT');
    return performance.now() - started;
  } finally {
    await client.end();
  }
}
