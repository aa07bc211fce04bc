import type { ColumnDefinition, TableDefinition } from '../catalog/table-definition.js';
import { aggregateAlias, type GroupByValue, type RequestedAggregate } from '../sql/aggregates.js';
import type { ConnectionPlan } from '../sql/connection-plan.js';
import type { Sql } from '../sql/sql-fragment.js';
import { aggregatesSql, countSql, KEY_PREFIX, pageSql, rowsByKeySql, type Partition } from '../sql/connection-sql.js';
import { encodeCursor } from '../sql/cursor.js';
import { BatchLoader, keyId } from './batch-loader.js';
import type { GraphqlRequestContext } from './request-context.js';
import type { Row } from './sql-runner.js';

/**
 * Reads rows for resolvers through per-request batch loaders. A connection (root or relation)
 * is a `ConnectionValue`: nothing runs until a field asks for it, and then the page, the
 * count, the cursor checks and the aggregates each cost one statement for every parent of the
 * same level together.
 */

/** Marks which table a row came from (the `Node` interface resolves its type from it). */
export const ROW_TABLE = Symbol('chainhost.graphql.table');

export function tableOfRow(row: unknown): string | undefined {
  return (row as { [ROW_TABLE]?: string } | null)?.[ROW_TABLE];
}

function tag(table: TableDefinition, row: Row): Row {
  (row as { [ROW_TABLE]?: string })[ROW_TABLE] = table.name;
  return row;
}

/** Splits the `__k<i>` key columns off a partitioned row. */
function takeKey(row: Row, width: number): string {
  const key: unknown[] = [];
  for (let i = 0; i < width; i++) {
    key.push(row[`${KEY_PREFIX}${i}`]);
    delete row[`${KEY_PREFIX}${i}`];
  }
  return keyId(key);
}

export interface Page {
  rows: Row[];
  /** More rows exist past the page in the direction of reading. */
  hasMore: boolean;
}

/** The parent side of a relation: which child columns to match, and this parent's values. */
export interface RelationKey {
  columns: readonly ColumnDefinition[];
  values: readonly unknown[];
}

export class ConnectionValue {
  private pagePromise: Promise<Page> | null = null;

  /**
   * @param columns the columns the query reads from the rows (null: all); the order and key
   *   columns are added, since cursors and relations need them.
   */
  constructor(
    readonly ctx: GraphqlRequestContext,
    readonly plan: ConnectionPlan,
    readonly relation: RelationKey | null,
    columns: Iterable<string> | null = null,
  ) {
    if (columns) {
      const set = new Set(columns);
      for (const t of plan.order.terms) set.add(t.column.name);
      for (const c of plan.table.primaryKey) set.add(c);
      this.columns = set;
    }
  }

  private readonly columns: ReadonlySet<string> | null = null;

  get table(): TableDefinition {
    return this.plan.table;
  }

  page(): Promise<Page> {
    const columns = this.columns ? [...this.columns].sort().join(',') : '*';
    this.pagePromise ??= this.load<Page>(`page:${columns}`, { rows: [], hasMore: false }, async (partition) => {
      const rows = await this.ctx.sql.rows(pageSql(this.ctx.dbSchema, this.plan, partition, this.columns, this.ctx.rowBudget.remaining + 1));
      this.ctx.rowBudget.take(rows.length);
      const groups = new Map<string, Row[]>();
      for (const row of rows) {
        const id = partition ? takeKey(row, partition.columns.length) : ROOT;
        let group = groups.get(id);
        if (!group) groups.set(id, (group = []));
        group.push(tag(this.plan.table, row));
      }
      const out = new Map<string, Page>();
      for (const [id, group] of groups) {
        const limit = this.plan.limit;
        const hasMore = limit !== null && group.length > limit;
        let page = hasMore ? group.slice(0, limit!) : group;
        if (this.plan.backward) page.reverse();
        if (this.plan.lastOfFirst !== null) page = page.slice(Math.max(0, page.length - this.plan.lastOfFirst));
        out.set(id, { rows: page, hasMore });
      }
      return out;
    });
    return this.pagePromise;
  }

  cursorOf(row: Row): string {
    return encodeCursor(this.plan.order, row);
  }

  async totalCount(): Promise<number> {
    return this.load<number>('count', 0, async (partition) => {
      const rows = await this.ctx.sql.rows(countSql(this.ctx.dbSchema, this.plan, partition));
      return new Map(rows.map((r) => [partition ? takeKey(r, partition.columns.length) : ROOT, Number(r.n)]));
    });
  }

  /**
   * PostGraphile 5's pageInfo: only the side being read is looked at (one row past the page);
   * a cursor on the other side does not make the other flag true.
   */
  async hasNextPage(): Promise<boolean> {
    const p = this.plan;
    if (p.backward || p.limit === 0 || p.lastOfFirst !== null) return false;
    return (await this.page()).hasMore;
  }

  async hasPreviousPage(): Promise<boolean> {
    const p = this.plan;
    if (p.offset > 0) return true;
    if (p.backward) return (await this.page()).hasMore;
    return false;
  }

  /** One row of aggregate values (`sum`, `min`… keyed by `aggregateAlias`); defaults when no row matched. */
  aggregates(requested: readonly RequestedAggregate[]): Promise<Row> {
    const empty = Object.fromEntries(requested.map((a) => [aggregateAlias(a), a.kind.empty]));
    const id = requested.map(aggregateAlias).sort().join(',');
    return this.load<Row>(`aggregates:${id}`, empty, async (partition) => {
      const rows = await this.ctx.sql.rows(aggregatesSql(this.ctx.dbSchema, this.plan, partition, requested));
      return new Map(rows.map((r) => [partition ? takeKey(r, partition.columns.length) : ROOT, r]));
    });
  }

  /** `groupedAggregates`: one row per group, with `g<i>` holding the group keys as text. */
  grouped(requested: readonly RequestedAggregate[], groupBy: readonly GroupByValue[], having: Sql | null = null): Promise<Row[]> {
    const id = `${groupBy.map((g) => g.name).join(',')}|${requested.map(aggregateAlias).sort().join(',')}|${having ? JSON.stringify([having.text, having.values]) : ''}`;
    return this.load<Row[]>(`grouped:${id}`, [], async (partition) => {
      const rows = await this.ctx.sql.rows(aggregatesSql(this.ctx.dbSchema, this.plan, partition, requested, groupBy, having));
      const out = new Map<string, Row[]>();
      for (const r of rows) {
        const key = partition ? takeKey(r, partition.columns.length) : ROOT;
        let list = out.get(key);
        if (!list) out.set(key, (list = []));
        list.push(r);
      }
      return out;
    });
  }

  /**
   * One loader per (what, plan, relation columns): every parent of this execution level with
   * the same arguments joins the batch; its key is the parent's values.
   */
  private load<V>(what: string, missing: V, run: (partition: Partition | null) => Promise<Map<string, V>>): Promise<V> {
    const relation = this.relation;
    const loaderId = `${what}|${this.plan.signature}|${relation ? relation.columns.map((c) => c.name).join(',') : ''}`;
    const loader = this.ctx.loader<readonly unknown[], V>(loaderId, () =>
      new BatchLoader<readonly unknown[], V>(async (keys) => {
        if (!relation) return run(null);
        const unique = new Map(keys.map((k) => [keyId(k), k]));
        return run({ columns: relation.columns, keys: [...unique.values()] });
      }, keyId, missing),
    );
    return loader.load(relation ? relation.values : []);
  }
}

const ROOT = keyId([]);

/** A row by a unique key (lookups, forward relations, `node`); null when absent or when a key value is null. */
export function rowByKey(ctx: GraphqlRequestContext, table: TableDefinition, columns: readonly ColumnDefinition[], values: readonly unknown[]): Promise<Row | null> {
  if (values.some((v) => v === null || v === undefined)) return Promise.resolve(null);
  const loaderId = `row|${table.name}|${columns.map((c) => c.name).join(',')}`;
  const loader = ctx.loader<readonly unknown[], Row | null>(loaderId, () =>
    new BatchLoader<readonly unknown[], Row | null>(async (keys) => {
      const unique = [...new Map(keys.map((k) => [keyId(k), k])).values()];
      const rows = await ctx.sql.rows(rowsByKeySql(ctx.dbSchema, table, columns, unique));
      ctx.rowBudget.take(rows.length);
      const out = new Map<string, Row>();
      for (const r of rows) {
        const at = Number(r.__i);
        delete r.__i;
        out.set(keyId(unique[at]!), tag(table, r));
      }
      return out;
    }, keyId, null),
  );
  return loader.load(values);
}
