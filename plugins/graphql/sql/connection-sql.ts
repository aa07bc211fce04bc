import type { ColumnDefinition, TableDefinition } from '../catalog/table-definition.js';
import { aggregateAlias, aggregateSql, type GroupByValue, type RequestedAggregate } from './aggregates.js';
import { TABLE_ALIAS, type ConnectionPlan } from './connection-plan.js';
import type { OrderTerm } from './order-by.js';
import { col, FALSE, quoteIdent, Sql } from './sql-fragment.js';

/**
 * The SELECT statements behind connections, lookups and relations. A "partition" is the set
 * of parent keys of a batched relation (`Block.transactionsByBlockHeight` for every block of a
 * page): pages come from one LATERAL join over the keys, counts and aggregates from one GROUP
 * BY, so a relation costs one statement per level however many parents there are.
 */
export interface Partition {
  /** Child columns matched against the parent keys (the foreign key). */
  columns: readonly ColumnDefinition[];
  /** Distinct key tuples, one per parent. */
  keys: ReadonlyArray<readonly unknown[]>;
}

const T = TABLE_ALIAS;
export const KEY_PREFIX = '__k';

export function tableRef(schema: string, table: TableDefinition): string {
  return `${quoteIdent(schema)}.${quoteIdent(table.name)}`;
}

/** The columns to read: all of them, or the subset a query needs (in table order). */
export function selectList(table: TableDefinition, alias = T, only: ReadonlySet<string> | null = null): string {
  return table.columns.filter((c) => !only || only.has(c.name)).map((c) => col(alias, c.name)).join(', ');
}

function keyAliases(partition: Partition): string[] {
  return partition.columns.map((_c, i) => quoteIdent(`${KEY_PREFIX}${i}`));
}

/**
 * Key tuples as a relation of one bound parameter (`(SELECT … FROM jsonb_array_elements(?))`):
 * a placeholder per value overflowed PostgreSQL's 65,535 parameters once pages are unbounded.
 * With `withIndex` each row also carries its position in `keys` as `__i`.
 */
export function keyRows(columns: readonly ColumnDefinition[], keys: ReadonlyArray<readonly unknown[]>, withIndex = false): Sql {
  const payload = keys.map((key) => columns.map((c, i) => (key[i] === null || key[i] === undefined ? null : c.type === 'jsonb' ? key[i] : typeof key[i] === 'bigint' ? String(key[i]) : key[i])));
  const fields = columns.map((c, i) => (c.type === 'jsonb' ? `"e"."v"->${i}` : `("e"."v"->>${i})::${c.type}`));
  if (withIndex) fields.unshift(`("e"."n" - 1)::int`);
  return Sql.build`(SELECT ${fields.join(', ')} FROM jsonb_array_elements(${Sql.value(payload, 'jsonb')}) WITH ORDINALITY AS "e"("v", "n"))`;
}

/** `(t."a", t."b") IN (SELECT … key rows …)`. */
export function keyMatch(columns: readonly ColumnDefinition[], keys: ReadonlyArray<readonly unknown[]>, alias = T): Sql {
  if (keys.length === 0) return FALSE;
  const left = `(${columns.map((c) => col(alias, c.name)).join(', ')})`;
  return Sql.build`${left} IN ${keyRows(columns, keys)}`;
}

/** An order term's SQL: its column, or its relation aggregate's subquery. */
function termSql(term: OrderTerm, alias: string): string {
  return term.expression ? term.expression(alias) : col(alias, term.column.name);
}

/** The relation aggregates an order uses, selected as `__o<i>` so cursors can carry them. */
function orderSelects(plan: ConnectionPlan, alias = T): string {
  return plan.order.terms.filter((t) => t.expression).map((t) => `, ${t.expression!(alias)} AS ${quoteIdent(t.column.name)}`).join('');
}

function orderSql(terms: readonly OrderTerm[], reverse: boolean, alias = T): string {
  return terms.map((t) => `${termSql(t, alias)} ${t.descending !== reverse ? 'DESC' : 'ASC'}`).join(', ');
}

/**
 * Rows strictly after `values` in the order (PostgreSQL's default null placement: last when
 * ascending, first when descending). `before` is `after` under the reversed order.
 *
 * A leading run of plain, NOT NULL columns in one direction is compared as one row value,
 * `(a, b) < (x, y)`, as PostGraphile 5 writes it: PostgreSQL takes that as an index condition,
 * so a page deep in the order costs what the first page costs (`a < x OR (a = x AND b < y)` is
 * only a filter: every row before the cursor is read and dropped). When the order goes on in
 * another direction (or over a nullable column or an aggregate), the run's `>=` bound leads
 * as the index range and the rest decides the ties: `(a) <= (x) AND ((a) < (x) OR ((a) = (x)
 * AND b > y))`.
 */
export function boundSql(terms: readonly OrderTerm[], values: readonly unknown[], reverse: boolean, alias = T): Sql {
  if (terms.length === 0) return FALSE;
  const descending = terms[0]!.descending !== reverse;
  let run = 0;
  while (run < terms.length && rowComparable(terms[run]!, values[run]) && (terms[run]!.descending !== reverse) === descending) run++;
  if (run === 0) return termStep(terms, values, reverse, alias);
  const rowOf = (sqls: Sql[]) => (sqls.length === 1 ? sqls[0]! : Sql.build`(${Sql.join(sqls, ', ')})`);
  const left = rowOf(terms.slice(0, run).map((t) => Sql.raw(termSql(t, alias))));
  const right = () => rowOf(terms.slice(0, run).map((t, i) => Sql.value(values[i], t.column.type)));
  const strict = Sql.build`${left} ${descending ? '<' : '>'} ${right()}`;
  if (run === terms.length) return strict;
  const rest = boundSql(terms.slice(run), values.slice(run), reverse, alias);
  return Sql.and([
    Sql.build`${left} ${descending ? '<=' : '>='} ${right()}`,
    Sql.or([strict, Sql.and([Sql.build`${left} = ${right()}`, rest])]),
  ]);
}

/** A term a row value can compare: a plain NOT NULL column with a non-null cursor value. */
function rowComparable(term: OrderTerm, value: unknown): boolean {
  return !term.expression && !(term.column.nullable ?? false) && value !== null && value !== undefined;
}

/** The first term on its own (nullable column, null value, aggregate), then the others on its ties. */
function termStep(terms: readonly OrderTerm[], values: readonly unknown[], reverse: boolean, alias: string): Sql {
  const term = terms[0]!;
  const c = termSql(term, alias);
  const v = values[0];
  const descending = term.descending !== reverse;
  const nullable = term.column.nullable ?? false;
  let after: Sql;
  if (v === null) after = descending ? Sql.raw(`${c} IS NOT NULL`) : FALSE;
  else {
    const cmp = Sql.build`${c} ${descending ? '<' : '>'} ${Sql.value(v, term.column.type)}`;
    after = !descending && nullable ? Sql.or([cmp, Sql.raw(`${c} IS NULL`)]) : cmp;
  }
  if (terms.length === 1) return after;
  const equal = v === null ? Sql.raw(`${c} IS NULL`) : Sql.build`${c} = ${Sql.value(v, term.column.type)}`;
  return Sql.or([after, Sql.and([equal, boundSql(terms.slice(1), values.slice(1), reverse, alias)])]);
}

/** condition/filter plus the `after`/`before` cursor bounds. */
function boundedWhere(plan: ConnectionPlan): Sql {
  const parts = [plan.where];
  if (plan.after) parts.push(boundSql(plan.order.terms, plan.after, false));
  if (plan.before) parts.push(boundSql(plan.order.terms, plan.before, true));
  return Sql.and(parts);
}

/**
 * One page (limit + 1 rows, to know whether there is more), read backwards for `last`.
 * Partitioned: the page of every parent key, each row prefixed with its key columns.
 */
export function pageSql(schema: string, plan: ConnectionPlan, partition: Partition | null, columns: ReadonlySet<string> | null = null, cap = Number.MAX_SAFE_INTEGER): Sql {
  const from = tableRef(schema, plan.table);
  const order = orderSql(plan.order.terms, plan.backward);
  // `cap` (the request's remaining row budget + 1) bounds every statement: reading past it is an error, never a short page.
  const limit = plan.limit === null ? cap : Math.min(plan.limit + 1, cap);
  const tail = `ORDER BY ${order} LIMIT ${limit}${plan.offset ? ` OFFSET ${plan.offset}` : ''}`;
  if (!partition) {
    return Sql.build`SELECT ${selectList(plan.table, T, columns)}${orderSelects(plan)} FROM ${from} AS ${quoteIdent(T)} WHERE ${boundedWhere(plan)} ${tail}`;
  }
  const keys = keyAliases(partition);
  const values = keyRows(partition.columns, partition.keys);
  const join = Sql.and([
    ...partition.columns.map((c, i) => Sql.raw(`${col(T, c.name)} = "k".${keys[i]}`)),
    boundedWhere(plan),
  ]);
  return Sql.build`SELECT ${keys.map((k) => `"k".${k}`).join(', ')}, "x".* FROM ${values} AS "k"(${keys.join(', ')}) CROSS JOIN LATERAL (SELECT ${selectList(plan.table, T, columns)}${orderSelects(plan)} FROM ${from} AS ${quoteIdent(T)} WHERE ${join} ${tail}) AS "x" LIMIT ${String(cap)}`;
}

/**
 * A relation read in its parent's statement (an explorer's blocks → transactions → events):
 * the child page of every parent row, matched on the foreign key, as one more LEFT JOIN
 * LATERAL level. `read` is what the child's rows must carry (null: every column).
 */
export interface InlineLevel {
  plan: ConnectionPlan;
  /** The child's foreign key columns… */
  childColumns: readonly string[];
  /** …and the parent columns they reference. */
  parentColumns: readonly string[];
  read: ReadonlySet<string> | null;
}

/** The name a level's column carries in the joined row (`__1_hash`); level 0 keeps plain names. */
export function levelColumn(level: number, name: string): string {
  return `__${level}_${name}`;
}

/** The names a level's subquery yields: its columns (table order) and its order expressions. */
export function levelNames(plan: ConnectionPlan, read: ReadonlySet<string> | null): string[] {
  return [...plan.table.columns.filter((c) => !read || read.has(c.name)).map((c) => c.name), ...plan.order.terms.filter((t) => t.expression).map((t) => t.column.name)];
}

/** A level's position within its parent's page (`row_number()` in the page's order), as named in the joined row. */
export const ROW_NUMBER = '__rn';

/**
 * The row number a level's first row carries: its page's `row_number()` counts from the first
 * row read, before an OFFSET.
 */
export function firstRowNumber(plan: ConnectionPlan): number {
  return plan.offset + 1;
}

/**
 * The page of `plan` (partitioned or not) with every level of `chain` joined below it: one row
 * per path from a top row down to the deepest level that has rows (NULLs below), in the order
 * of each level's page. Each level reads its page per parent (limit + 1 rows, for hasMore);
 * the whole statement is capped at `cap` rows, each of which carries a row no other carries
 * (the deepest one present), so reading past the request's budget is still seen at the cap.
 * A row's columns travel only on its first path (every level below at its first row); the
 * other paths carry its primary key alone, so a parent is not sent and parsed once per child.
 */
export function chainPageSql(schema: string, plan: ConnectionPlan, partition: Partition | null, columns: ReadonlySet<string> | null, chain: readonly InlineLevel[], cap: number): Sql {
  const plans = [plan, ...chain.map((l) => l.plan)];
  // The first path of a level-`l` row: every level below it at its first row, or absent.
  const firstPath = (l: number) => plans.slice(l + 1).map((p, k) => `("l${l + 1 + k}"."${ROW_NUMBER}" IS NULL OR "l${l + 1 + k}"."${ROW_NUMBER}" = ${firstRowNumber(p)})`).join(' AND ');
  const selects: string[] = partition ? partition.columns.map((_c, i) => `"l0".${quoteIdent(`${KEY_PREFIX}${i}`)}`) : [];
  plans.forEach((p, l) => {
    const alias = quoteIdent(`l${l}`);
    const key = new Set(p.table.primaryKey);
    const last = l === plans.length - 1;
    for (const name of levelNames(p, l === 0 ? columns : chain[l - 1]!.read)) {
      const value = `${alias}.${quoteIdent(name)}`;
      selects.push(`${key.has(name) || last ? value : `CASE WHEN ${firstPath(l)} THEN ${value} END`} AS ${quoteIdent(l === 0 ? name : levelColumn(l, name))}`);
    }
    if (l > 0) selects.push(`${alias}."${ROW_NUMBER}" AS ${quoteIdent(levelColumn(l, ROW_NUMBER))}`);
  });
  // A parent's look-ahead row (read past its page to learn whether there is more) is never
  // answered: its children are not read (a pseudo-constant condition, so not even scanned).
  // The top level carries its row number for that unless it is partitioned.
  const numbered = (l: number) => plans[l]!.limit !== null && (l > 0 || !partition);
  const withinPage = (l: number) => (numbered(l) ? [Sql.raw(`"l${l}"."${ROW_NUMBER}" <= ${plans[l]!.offset + plans[l]!.limit!}`)] : []);
  const joins = chain.map((level, i) => {
    const on = level.childColumns.map((c, k) => Sql.raw(`${col(T, c)} = ${col(`l${i}`, level.parentColumns[k]!)}`));
    return Sql.build` LEFT JOIN LATERAL (${pageBody(schema, level.plan, level.read, Sql.and([...on, ...withinPage(i), boundedWhere(level.plan)]), cap)}) AS ${quoteIdent(`l${i + 1}`)} ON TRUE`;
  });
  const top = numbered(0) ? pageBody(schema, plan, columns, boundedWhere(plan), cap) : pageSql(schema, plan, partition, columns, cap);
  return Sql.build`SELECT ${selects.join(', ')} FROM (${top}) AS "l0"${Sql.join(joins, '')} LIMIT ${String(cap)}`;
}

/** A level's page per parent, numbered in its order (`__rn`, for firstPath). */
function pageBody(schema: string, plan: ConnectionPlan, columns: ReadonlySet<string> | null, where: Sql, cap: number): Sql {
  const order = orderSql(plan.order.terms, plan.backward);
  const limit = plan.limit === null ? cap : Math.min(plan.limit + 1, cap);
  return Sql.build`SELECT ${selectList(plan.table, T, columns)}${orderSelects(plan)}, row_number() OVER (ORDER BY ${order}) AS "${ROW_NUMBER}" FROM ${tableRef(schema, plan.table)} AS ${quoteIdent(T)} WHERE ${where} ORDER BY ${order} LIMIT ${String(limit)}${plan.offset ? ` OFFSET ${plan.offset}` : ''}`;
}

function partitionSelect(partition: Partition | null): string {
  return partition ? partition.columns.map((c, i) => `${col(T, c.name)} AS ${quoteIdent(`${KEY_PREFIX}${i}`)}`).join(', ') + ', ' : '';
}

function partitionWhere(plan: ConnectionPlan, partition: Partition | null): Sql {
  return partition ? Sql.and([keyMatch(partition.columns, partition.keys), plan.where]) : plan.where;
}

function groupByPartition(partition: Partition | null, extra: string[] = []): string {
  const cols = [...(partition ? partition.columns.map((c) => col(T, c.name)) : []), ...extra];
  return cols.length ? ` GROUP BY ${cols.join(', ')}` : '';
}

/** totalCount: condition and filter only (cursors and page size do not change it, as in PostGraphile). */
export function countSql(schema: string, plan: ConnectionPlan, partition: Partition | null): Sql {
  return Sql.build`SELECT ${partitionSelect(partition)}count(*) AS "n" FROM ${tableRef(schema, plan.table)} AS ${quoteIdent(T)} WHERE ${partitionWhere(plan, partition)}${groupByPartition(partition)}`;
}

/** The alias of the row count an aggregates statement carries along for `totalCount` (aggregatesSql `withCount`). */
export const COUNT_ALIAS = '__n';

/** Aggregates of the matching rows (per group); `withCount` adds `count(*)` so `totalCount` shares the statement. */
export function aggregatesSql(schema: string, plan: ConnectionPlan, partition: Partition | null, requested: readonly RequestedAggregate[], groupBy: readonly GroupByValue[] = [], having: Sql | null = null, withCount = false): Sql {
  const groups = groupBy.map((g, i) => `${g.text ? g.text(T) : `(${g.sql(T)})::text`} AS ${quoteIdent(`g${i}`)}`);
  const aggs = requested.map((a) => `${aggregateSql(a, T)} AS ${quoteIdent(aggregateAlias(a))}`);
  const selected = [...groups, ...aggs, ...(withCount ? [`count(*) AS ${quoteIdent(COUNT_ALIAS)}`] : [])];
  if (selected.length === 0) selected.push('1 AS "one"');
  // No ORDER BY, as pg-aggregates: groups come in the order PostgreSQL's grouping yields them.
  const order = '';
  return Sql.build`SELECT ${partitionSelect(partition)}${selected.join(', ')} FROM ${tableRef(schema, plan.table)} AS ${quoteIdent(T)} WHERE ${partitionWhere(plan, partition)}${groupByPartition(partition, groupBy.map((g) => g.sql(T)))}${having ? Sql.build` HAVING ${having}` : ''}${order}`;
}

/**
 * Rows by a unique key (lookups, forward relations, `node`). Each row comes back with `__i`, the
 * position of its key in `keys`: a key given as `2026-01-01T00:00:00Z` matches a row whatever
 * text form the driver gives its timestamp.
 */
export function rowsByKeySql(schema: string, table: TableDefinition, columns: readonly ColumnDefinition[], keys: ReadonlyArray<readonly unknown[]>): Sql {
  const names = columns.map((_c, i) => quoteIdent(`${KEY_PREFIX}${i}`));
  const on = columns.map((c, i) => `${col(T, c.name)} = "k".${names[i]}`).join(' AND ');
  return Sql.build`SELECT "k"."__i", ${selectList(table)} FROM ${keyRows(columns, keys, true)} AS "k"("__i", ${names.join(', ')}) JOIN ${tableRef(schema, table)} AS ${quoteIdent(T)} ON ${on}`;
}
