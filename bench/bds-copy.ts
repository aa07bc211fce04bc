import type { Knex } from 'knex';
import pg from 'pg';
import type { BdsDatabase } from '../plugins/bds/database/bds-database.js';
import { quoteIdent } from '../plugins/bds/writer/bulk-insert.js';

/**
 * The raw COPY baseline of the BDS ingest benchmark: a table's stored rows as COPY text (read
 * back from an index BDS wrote), and COPY FROM STDIN of that text — through a minimal
 * node-postgres submittable on the server, through PGlite's `/dev/blob` on PGlite.
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

class CopyFromStdin {
  private resolve!: () => void;
  private reject!: (err: Error) => void;
  private error: Error | null = null;
  readonly done = new Promise<void>((res, rej) => {
    this.resolve = res;
    this.reject = rej;
  });

  constructor(private readonly text: string, private readonly sql: string) {}

  submit(connection: any): void {
    connection.query(this.sql);
  }

  handleCopyInResponse(connection: any): void {
    const buf = Buffer.from(this.text);
    for (let i = 0; i < buf.length; i += 1 << 16) connection.sendCopyFromChunk(buf.subarray(i, i + (1 << 16)));
    connection.endCopyFrom();
  }

  handleCommandComplete(): void {}
  handleReadyForQuery(): void {
    if (this.error) this.reject(this.error);
    else this.resolve();
  }
  handleError(err: Error): void {
    // node-postgres drops the active query on an error, so ReadyForQuery will not reach us
    this.error = err;
    this.reject(err);
  }
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
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
    await pglite.transaction(async (tx) => {
      for (const t of tables) await tx.query(`COPY ${target(t)} FROM '/dev/blob'`, [], { blob: new Blob([t.text]) });
    });
    return performance.now() - started;
  }
  const client = new pg.Client({ connectionString: db.options.url!, options: '-c TimeZone=UTC' });
  await client.connect();
  try {
    const started = performance.now();
    await client.query('BEGIN');
    for (const t of tables) {
      const op = new CopyFromStdin(t.text, `COPY ${target(t)} FROM STDIN`);
      client.query(op as unknown as pg.QueryConfig);
      await op.done;
    }
    await client.query('COMMIT');
    return performance.now() - started;
  } finally {
    await client.end();
  }
}
