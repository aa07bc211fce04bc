import type { ColumnDefinition, TableDefinition } from '../catalog/table-definition.js';
import { aggregateAlias, type GroupByValue, type RequestedAggregate } from '../sql/aggregates.js';
import type { ConnectionPlan } from '../sql/connection-plan.js';
import type { Sql } from '../sql/sql-fragment.js';
import { aggregatesSql, chainPageSql, COUNT_ALIAS, countSql, firstRowNumber, KEY_PREFIX, levelColumn, levelNames, pageSql, ROW_NUMBER, rowsByKeySql, type InlineLevel, type Partition } from '../sql/connection-sql.js';
import { encodeCursor } from '../sql/cursor.js';
import { BatchLoader, keyId, singleKeyId } from './batch-loader.js';
import type { GraphqlRequestContext } from './request-context.js';
import type { Row } from './sql-runner.js';

/**
 * Reads rows for resolvers through per-request batch loaders. A connection (root or relation)
 * is a `ConnectionValue`: nothing runs until a field asks for it, and then the page, the
 * count, the cursor checks and the aggregates each cost one statement for every parent of the
 * same level together. A chain of relations selected under a page's nodes (blocks →
 * transactions → events) is read in the page's own statement (`chain`, one LEFT JOIN LATERAL
 * per level) and handed to the relations' loaders, so the whole chain costs one statement, as
 * PostGraphile 5 compiles it.
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

/** The columns a connection's rows carry: what the query reads plus the order and key columns (cursors, relations). */
export function readColumns(plan: ConnectionPlan, columns: Iterable<string> | null): ReadonlySet<string> | null {
  if (!columns) return null;
  const set = new Set(columns);
  for (const t of plan.order.terms) if (!t.expression) set.add(t.column.name);
  for (const c of plan.table.primaryKey) set.add(c);
  return set;
}

/** A relation below a connection's nodes, read in that connection's statement. */
export interface InlineRelation extends InlineLevel {
  /** The child's foreign key columns (what its ConnectionValue is keyed on). */
  keyColumns: readonly ColumnDefinition[];
}

export class ConnectionValue {
  private pagePromise: Promise<Page> | null = null;
  private readonly columns: ReadonlySet<string> | null;

  /**
   * @param columns the columns the query reads from the rows (null: all); the order and key
   *   columns are added, since cursors and relations need them.
   * @param chain relations below this page's nodes to read in its statement, top down
   *   (each level's `read` built with `readColumns`).
   */
  constructor(
    readonly ctx: GraphqlRequestContext,
    readonly plan: ConnectionPlan,
    readonly relation: RelationKey | null,
    columns: Iterable<string> | null = null,
    readonly chain: readonly InlineRelation[] = [],
  ) {
    const shape = shapeOf(plan, columns, chain, relation);
    this.columns = shape.columns;
    this.pageId = shape.pageId;
  }

  /** The page loader's id: the columns read, the chain read with them, the plan and the relation's columns. */
  private readonly pageId: string;

  get table(): TableDefinition {
    return this.plan.table;
  }

  page(): Promise<Page> {
    this.pagePromise ??= this.pageLoader().load(this.relation ? this.relation.values : []);
    return this.pagePromise;
  }

  /**
   * The page when it is already read (a parent's statement read it, or an earlier field asked):
   * resolvers answer it without a promise, so a page of rows with relations below them is
   * completed synchronously by graphql-js instead of one promise per row and field.
   */
  pageNow(): Page | undefined {
    return this.pageLoader().peek(this.relation ? this.relation.values : []);
  }

  /**
   * Hands a page read by a parent's statement to this connection's loader, for this
   * connection's parent or (`values`) another parent of the same relation; a page already asked
   * for is kept.
   */
  primePage(page: Page, values: readonly unknown[] = this.relation ? this.relation.values : []): void {
    this.pageLoader().prime(values, page);
  }

  private pageLoaderValue: BatchLoader<readonly unknown[], Page> | null = null;

  private pageLoader(): BatchLoader<readonly unknown[], Page> {
    return (this.pageLoaderValue ??= this.newPageLoader());
  }

  private newPageLoader(): BatchLoader<readonly unknown[], Page> {
    return this.loaderById<Page>(this.pageId, { rows: [], hasMore: false }, (partition) => (this.chain.length ? this.readChain(partition) : this.readPage(partition)));
  }

  private async readPage(partition: Partition | null): Promise<Map<string, Page>> {
    // The budget counts the rows a page returns, not the one row read past each page to learn
    // whether there is more: `first: 100000` fits `maxRowsRead: 100000`. The statement may read
    // every page's look-ahead row besides the budget and one row more, so reaching its cap means
    // the pages hold more than the budget.
    const lookAheads = this.plan.limit === null ? 0 : partition ? partition.keys.length : 1;
    const rows = await this.ctx.sql.rows(pageSql(this.ctx.dbSchema, this.plan, partition, this.columns, this.ctx.rowBudget.remaining + 1 + lookAheads));
    const groups = new Map<string, Row[]>();
    for (const row of rows) {
      const id = partition ? takeKey(row, partition.columns.length) : ROOT;
      let group = groups.get(id);
      if (!group) groups.set(id, (group = []));
      group.push(tag(this.plan.table, row));
    }
    const limit = this.plan.limit;
    let returned = 0;
    for (const group of groups.values()) returned += limit === null ? group.length : Math.min(group.length, limit);
    this.ctx.rowBudget.take(returned);
    const out = new Map<string, Page>();
    for (const [id, group] of groups) out.set(id, pageOf(this.plan, group));
    return out;
  }

  /**
   * This page and the chain's pages in one statement (chainPageSql): every joined row is split
   * into its levels, each distinct row kept once in the order it first comes, and each level's
   * pages are handed to the loaders its ConnectionValues will ask.
   */
  private async readChain(partition: Partition | null): Promise<Map<string, Page>> {
    // Room for the look-ahead rows (and what hangs below them) besides the budget: they are read, not returned.
    const cap = 2 * this.ctx.rowBudget.remaining + 2;
    const joined = await this.ctx.sql.table(chainPageSql(this.ctx.dbSchema, this.plan, partition, this.columns, this.chain, cap));
    const at = new Map(joined.names.map((n, i) => [n, i]));
    const index = (name: string) => {
      const i = at.get(name);
      if (i === undefined) throw new Error(`relation chain read: no column ${name}`);
      return i;
    };
    const levels = [this.plan, ...this.chain.map((l) => l.plan)].map((plan, l) => ({
      table: plan.table,
      // Its columns (level 0 plain, below `__<level>_<name>` in the joined row) and its primary key's.
      fields: levelNames(plan, l === 0 ? this.columns : this.chain[l - 1]!.read).map((name) => [name, index(l === 0 ? name : levelColumn(l, name))] as const),
      key: plan.table.primaryKey.map((c) => index(l === 0 ? c : levelColumn(l, c))),
      rowNumber: l === 0 ? -1 : index(levelColumn(l, ROW_NUMBER)),
      firstRow: firstRowNumber(plan),
    }));
    const partitionKeys = partition ? partition.columns.map((_c, i) => index(`${KEY_PREFIX}${i}`)) : [];
    // Per level: distinct rows by their primary key, and each parent's children in order.
    const seen = levels.map(() => new Map<string, Row>());
    const children = this.chain.map(() => new Map<Row, Row[]>());
    const groups = new Map<string, Row[]>();
    for (const r of joined.rows) {
      const group = partition ? keyId(partitionKeys.map((k) => r[k])) : ROOT;
      let parent: Row | null = null;
      for (let l = 0; l < levels.length; l++) {
        const level = levels[l]!;
        const first = r[level.key[0]!];
        if (first === null || first === undefined) break; // no row at this level (LEFT JOIN)
        const pk = level.key.length === 1 ? singleKeyId(first) : keyId(level.key.map((k) => r[k]));
        const id = l === 0 && partition ? `${group}|${pk}` : pk;
        let row = seen[l]!.get(id);
        if (!row) {
          // Its columns travel on its first path only (chainPageSql): every level below at its first row, or absent.
          for (let m = l + 1; m < levels.length; m++) {
            const n = r[levels[m]!.rowNumber];
            if (n !== null && n !== undefined && Number(n) !== levels[m]!.firstRow) throw new Error('relation chain rows came out of their page order');
          }
          row = {};
          for (const [name, i] of level.fields) row[name] = r[i];
          tag(level.table, row);
          seen[l]!.set(id, row);
          const list = l === 0 ? groups.get(group) : children[l - 1]!.get(parent!);
          if (list) list.push(row);
          else if (l === 0) groups.set(group, [row]);
          else children[l - 1]!.set(parent!, [row]);
        }
        parent = row;
      }
    }
    // The budget counts the rows the pages return (each page's look-ahead row and what hangs
    // below it are read, not returned). A statement that reached its cap may have been cut
    // short: that is a request past its budget, refused, never a short page.
    this.ctx.rowBudget.take(joined.rows.length >= cap ? this.ctx.rowBudget.remaining + 1 : this.returnedRows(groups.values(), children));
    this.chain.forEach((level, i) => {
      // One ConnectionValue stands for the level's loader; every parent's page is handed to it by key.
      let loader: ConnectionValue | null = null;
      for (const parentRow of seen[i]!.values()) {
        const values = level.parentColumns.map((c) => parentRow[c]);
        if (values.some((v) => v === null || v === undefined)) continue;
        loader ??= new ConnectionValue(this.ctx, level.plan, { columns: level.keyColumns, values }, level.read, this.chain.slice(i + 1));
        loader.primePage(pageOf(level.plan, children[i]!.get(parentRow) ?? []), values);
      }
    });
    const out = new Map<string, Page>();
    for (const [id, group] of groups) out.set(id, pageOf(this.plan, group));
    return out;
  }

  /** Rows of the pages, level by level: each page's first `limit` rows and, below them, their children's pages. */
  private returnedRows(top: Iterable<Row[]>, children: ReadonlyArray<Map<Row, Row[]>>): number {
    const within = (rows: Row[], limit: number | null) => (limit === null ? rows : rows.slice(0, limit));
    let level = [...top].flatMap((group) => within(group, this.plan.limit));
    let count = level.length;
    this.chain.forEach((chainLevel, i) => {
      level = level.flatMap((parent) => within(children[i]!.get(parent) ?? [], chainLevel.plan.limit));
      count += level.length;
    });
    return count;
  }

  cursorOf(row: Row): string {
    return encodeCursor(this.plan.order, row);
  }

  /** `totalCount`: in the aggregates statement when the same connection asks for `aggregates` too (summary below). */
  async totalCount(): Promise<number> {
    const row = await this.summary().load(this.relation ? this.relation.values : [], null);
    return row ? Number(row[COUNT_ALIAS] ?? 0) : 0;
  }

  /**
   * One statement for a connection's `totalCount` and `aggregates`, as PostGraphile 5 plans
   * them: what its resolvers ask for within one execution step (every parent's, each field's)
   * is collected and read together — `count(*)` beside the aggregates — and a later step's
   * request starts a new batch.
   */
  private summary(): SummaryBatch {
    const id = loaderIdOf('summary', this.plan, this.relation);
    const holder = this.ctx.memo(this.ctx, () => new Map<string, SummaryBatch>());
    let batch = holder.get(id);
    if (!batch || batch.dispatched) {
      const fresh: SummaryBatch = new SummaryBatch((partition, requested, withCount) => this.readSummary(partition, requested, withCount), this.relation);
      holder.set(id, fresh);
      batch = fresh;
    }
    return batch;
  }

  private async readSummary(partition: Partition | null, requested: readonly RequestedAggregate[], withCount: boolean): Promise<Map<string, Row>> {
    const sql = requested.length === 0
      ? countSql(this.ctx.dbSchema, this.plan, partition)
      : aggregatesSql(this.ctx.dbSchema, this.plan, partition, requested, [], null, withCount);
    const rows = await this.ctx.sql.rows(sql);
    return new Map(rows.map((r) => {
      if (requested.length === 0) r[COUNT_ALIAS] = r.n;
      return [partition ? takeKey(r, partition.columns.length) : ROOT, r];
    }));
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
  async aggregates(requested: readonly RequestedAggregate[]): Promise<Row> {
    const empty = Object.fromEntries(requested.map((a) => [aggregateAlias(a), a.kind.empty]));
    const row = await this.summary().load(this.relation ? this.relation.values : [], requested);
    return row ? { ...empty, ...Object.fromEntries(requested.map((a) => [aggregateAlias(a), row[aggregateAlias(a)] ?? a.kind.empty])) } : empty;
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

  private load<V>(what: string, missing: V, run: (partition: Partition | null) => Promise<Map<string, V>>): Promise<V> {
    return this.loader(what, missing, run).load(this.relation ? this.relation.values : []);
  }

  /**
   * One loader per (what, plan, relation columns): every parent of this execution level with
   * the same arguments joins the batch; its key is the parent's values.
   */
  private loader<V>(what: string, missing: V, run: (partition: Partition | null) => Promise<Map<string, V>>): BatchLoader<readonly unknown[], V> {
    return this.loaderById(loaderIdOf(what, this.plan, this.relation), missing, run);
  }

  private loaderById<V>(loaderId: string, missing: V, run: (partition: Partition | null) => Promise<Map<string, V>>): BatchLoader<readonly unknown[], V> {
    const relation = this.relation;
    return this.ctx.loader<readonly unknown[], V>(loaderId, () =>
      new BatchLoader<readonly unknown[], V>(async (keys) => {
        if (!relation) return run(null);
        const unique = new Map(keys.map((k) => [keyId(k), k]));
        return run({ columns: relation.columns, keys: [...unique.values()] });
      }, keyId, missing),
    );
  }
}

/**
 * The `totalCount`/`aggregates` requests of one connection (plan and relation) within one
 * execution step: the parents' keys and the union of what was asked, read by one statement
 * when the step is done (BatchLoader's dispatch).
 */
class SummaryBatch {
  dispatched = false;
  private readonly requested = new Map<string, RequestedAggregate>();
  private withCount = false;
  private readonly loader: BatchLoader<readonly unknown[], Row | null>;

  constructor(read: (partition: Partition | null, requested: readonly RequestedAggregate[], withCount: boolean) => Promise<Map<string, Row>>, relation: RelationKey | null) {
    this.loader = new BatchLoader<readonly unknown[], Row | null>(async (keys) => {
      this.dispatched = true;
      const requested = [...this.requested.values()];
      if (!relation) return read(null, requested, this.withCount);
      const unique = new Map(keys.map((k) => [keyId(k), k]));
      return read({ columns: relation.columns, keys: [...unique.values()] }, requested, this.withCount);
    }, keyId, null);
  }

  /** `requested` null: the count. */
  load(key: readonly unknown[], requested: readonly RequestedAggregate[] | null): Promise<Row | null> {
    if (requested === null) this.withCount = true;
    else for (const a of requested) this.requested.set(aggregateAlias(a), a);
    return this.loader.load(key);
  }
}

interface Shape {
  plan: ConnectionPlan;
  chain: readonly InlineRelation[];
  columns: ReadonlySet<string> | null;
  relationColumns: readonly ColumnDefinition[] | null;
  pageId: string;
}

function loaderIdOf(what: string, plan: ConnectionPlan, relation: RelationKey | null): string {
  return `${what}|${plan.signature}|${relation ? relation.columns.map((c) => c.name).join(',') : ''}`;
}

/**
 * Every parent row of a relation builds its ConnectionValue from the same (memoised) columns
 * and chain: their read set and loader name are computed once per such object, not per row.
 */
const shapes = new WeakMap<object, Shape>();

function shapeOf(plan: ConnectionPlan, columns: Iterable<string> | null, chain: readonly InlineRelation[], relation: RelationKey | null): Shape {
  const cached = columns ? shapes.get(columns) : undefined;
  if (cached && cached.plan === plan && cached.chain === chain && cached.relationColumns === (relation?.columns ?? null)) return cached;
  const read = readColumns(plan, columns);
  const chainKey = chain.map((l) => `${l.childColumns.join(',')}>${l.plan.signature}>${l.read ? [...l.read].sort().join(',') : '*'}`).join('/');
  const pageWhat = `page:${read ? [...read].sort().join(',') : '*'}|${chainKey}`;
  const shape = { plan, chain, columns: read, relationColumns: relation?.columns ?? null, pageId: loaderIdOf(pageWhat, plan, relation) };
  if (columns) shapes.set(columns, shape);
  return shape;
}

/** A parent's rows (limit + 1 read) as its page: hasMore, read backwards for `last`, `last` of `first`. */
function pageOf(plan: ConnectionPlan, group: Row[]): Page {
  const limit = plan.limit;
  const hasMore = limit !== null && group.length > limit;
  let rows = hasMore ? group.slice(0, limit!) : group;
  if (plan.backward) rows.reverse();
  if (plan.lastOfFirst !== null) rows = rows.slice(Math.max(0, rows.length - plan.lastOfFirst));
  return { rows, hasMore };
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
