import type { BdsSource } from './bds-source.js';

/**
 * How many rows each table of the BDS schema holds, for the query cost (query-limits.ts): the
 * planner's estimate (`pg_class.reltuples`, kept by ANALYZE and autovacuum), or for a table
 * never analyzed (-1) a count stopped at `countCap` rows. Read at start and again at most every
 * `ttlMs` in the background; the cost check itself never waits on the database. An estimate
 * may be stale: the cost only judges a query up front, and execution still refuses reading
 * more than `maxRowsRead` rows.
 */
export class TableRowEstimates {
  private rows = new Map<string, number>();
  private loadedAt = Number.NEGATIVE_INFINITY;
  private loading: Promise<void> | null = null;

  constructor(private readonly source: BdsSource, private readonly countCap: number, private readonly ttlMs = 60_000) {}

  /** The table's rows by the last load (null: not known yet); starts a reload when it is stale. */
  get(table: string): number | null {
    if (Date.now() - this.loadedAt > this.ttlMs) void this.refresh();
    return this.rows.get(table) ?? null;
  }

  /** Reloads every table's figure (one load at a time; a failure keeps the previous figures). */
  refresh(): Promise<void> {
    this.loading ??= this.load().catch(() => undefined).finally(() => {
      this.loadedAt = Date.now();
      this.loading = null;
    });
    return this.loading;
  }

  private async load(): Promise<void> {
    const knex = this.source.knex;
    const result = await knex.raw(
      `SELECT c.relname AS name, c.reltuples::float8 AS estimate FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = ? AND c.relkind IN ('r', 'p')`,
      [this.source.schema],
    );
    const rows = new Map<string, number>();
    const unknown: string[] = [];
    for (const r of result.rows as Array<{ name: string; estimate: number | string }>) {
      const estimate = Number(r.estimate);
      if (estimate >= 0) rows.set(r.name, estimate);
      else unknown.push(r.name);
    }
    if (unknown.length) {
      // Tables never analyzed: counted, each stopped at countCap rows, in one statement.
      const counts = unknown.map((name, i) => `SELECT ${i} AS i, count(*)::int AS n FROM (SELECT 1 FROM ${quote(this.source.schema)}.${quote(name)} LIMIT ${this.countCap}) AS s`);
      const counted = await knex.raw(counts.join(' UNION ALL '));
      for (const r of counted.rows as Array<{ i: number; n: number }>) rows.set(unknown[Number(r.i)]!, Number(r.n));
    }
    this.rows = rows;
  }
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
