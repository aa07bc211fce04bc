import { createHash } from 'node:crypto';
import { GraphQLError } from 'graphql';
import { quoteIdent } from './sql-fragment.js';
import { upperSnake } from '../catalog/inflection.js';
import type { TableCatalog } from '../catalog/relations.js';
import { columnOf, type ColumnDefinition, type PgColumnType, type TableDefinition } from '../catalog/table-definition.js';
import { AGGREGATE_KINDS } from './aggregates.js';

/**
 * `orderBy: [XxxOrderBy!]` → a total order. Values are PostGraphile's: `NATURAL`,
 * `<COLUMN>_ASC` / `<COLUMN>_DESC` per column, `PRIMARY_KEY_ASC` / `_DESC`; the default is
 * `[PRIMARY_KEY_ASC]`. An order that is not unique gets the primary key appended in the direction of its first
 * column, as PostGraphile 5 does, so cursors are stable. The cursor prefix is the lower-cased enum values.
 */
export interface OrderTerm {
  /** The column, or for an aggregate of a relation a synthetic one (`__o0`) the page selects the value as. */
  column: ColumnDefinition;
  descending: boolean;
  /** SQL of a relation aggregate over the row at `alias` (`(SELECT count(*) FROM … WHERE …)`). */
  expression?: (alias: string) => string;
}

export interface ResolvedOrder {
  terms: OrderTerm[];
  /**
   * PostGraphile 5's cursor digest of this order: the first 10 hex digits of the SHA-256 of the
   * JSON list of the order's column expressions (`__blocks__."height"`); directions are not in it.
   */
  digest: string;
  /** The orderBy values as given (batching key). */
  names: string[];
}

export const DEFAULT_ORDER = ['PRIMARY_KEY_ASC'];

export function orderByValues(table: TableDefinition, catalog: TableCatalog | null = null): string[] {
  const values = ['NATURAL'];
  for (const c of table.columns) values.push(`${upperSnake(c.name)}_ASC`, `${upperSnake(c.name)}_DESC`);
  values.push('PRIMARY_KEY_ASC', 'PRIMARY_KEY_DESC');
  for (const name of relationAggregateOrders(table, catalog).keys()) values.push(`${name}_ASC`, `${name}_DESC`);
  return values;
}

/**
 * pg-aggregates' ordering by an aggregate of a backward relation: `<RELATION>_COUNT` and
 * `<RELATION>_<KIND>_<COLUMN>` (`TRANSACTIONS_BY_BLOCK_HEIGHT_COUNT`,
 * `TRANSACTIONS_BY_BLOCK_HEIGHT_SUM_CHI_USED`), each a correlated subquery over the children.
 */
interface RelationAggregateOrder {
  type: PgColumnType;
  sql(alias: string): string;
}

const orderCache = new WeakMap<TableCatalog, Map<string, Map<string, RelationAggregateOrder>>>();

function relationAggregateOrders(table: TableDefinition, catalog: TableCatalog | null): Map<string, RelationAggregateOrder> {
  if (!catalog) return new Map();
  let byTable = orderCache.get(catalog);
  if (!byTable) orderCache.set(catalog, (byTable = new Map()));
  let orders = byTable.get(table.name);
  if (orders) return orders;
  orders = new Map();
  for (const r of catalog.relationsOf(table)) {
    if (r.direction !== 'backward') continue;
    const prefix = upperSnake(r.field.replace(/([a-z0-9])([A-Z])/g, '$1_$2'));
    const from = `${quoteIdent(catalog.dbSchema)}.${quoteIdent(r.other.name)} AS "ra"`;
    const join = (alias: string) => r.localColumns.map((c, i) => `"ra".${quoteIdent(r.otherColumns[i]!)} = ${quoteIdent(alias)}.${quoteIdent(c)}`).join(' AND ');
    orders.set(`${prefix}_COUNT`, { type: 'bigint', sql: (alias) => `(SELECT count(*) FROM ${from} WHERE ${join(alias)})` });
    for (const kind of AGGREGATE_KINDS) {
      for (const c of r.other.columns) {
        if (!kind.appliesTo(c)) continue;
        orders.set(`${prefix}_${upperSnake(kind.id.replace(/([a-z])([A-Z])/g, '$1_$2'))}_${upperSnake(c.name)}`, {
          type: kind.resultType(c),
          sql: (alias) => `(SELECT ${kind.sql(`"ra".${quoteIdent(c.name)}`)} FROM ${from} WHERE ${join(alias)})`,
        });
      }
    }
  }
  byTable.set(table.name, orders);
  return orders;
}

/**
 * Resolved orders per catalog (or none), table and orderBy list: pure, and asked for by every
 * connection of every request (the digest is a SHA-256). Shared read-only.
 */
const resolvedCache = new WeakMap<object, WeakMap<TableDefinition, Map<string, ResolvedOrder>>>();
const NO_CATALOG = {};
const MAX_CACHED_ORDERS = 1_000;

export function resolveOrder(table: TableDefinition, orderBy: readonly string[] | null | undefined, catalog: TableCatalog | null = null): ResolvedOrder {
  let byTable = resolvedCache.get(catalog ?? NO_CATALOG);
  if (!byTable) resolvedCache.set(catalog ?? NO_CATALOG, (byTable = new WeakMap()));
  let cache = byTable.get(table);
  if (!cache) byTable.set(table, (cache = new Map()));
  const key = (orderBy ?? []).join(',');
  let resolved = cache.get(key);
  if (resolved) return resolved;
  resolved = computeOrder(table, orderBy, catalog);
  if (cache.size >= MAX_CACHED_ORDERS) cache.clear();
  cache.set(key, resolved);
  return resolved;
}

function computeOrder(table: TableDefinition, orderBy: readonly string[] | null | undefined, catalog: TableCatalog | null): ResolvedOrder {
  const names = orderBy && orderBy.length ? orderBy : DEFAULT_ORDER;
  const terms: OrderTerm[] = [];
  const seen = new Set<string>();
  const push = (column: ColumnDefinition, descending: boolean) => {
    if (seen.has(column.name)) return; // a later repeat of a column cannot change the order
    seen.add(column.name);
    terms.push({ column, descending });
  };
  for (const name of names) {
    if (name === 'NATURAL') continue;
    if (name === 'PRIMARY_KEY_ASC' || name === 'PRIMARY_KEY_DESC') {
      for (const c of table.primaryKey) push(columnOf(table, c), name === 'PRIMARY_KEY_DESC');
      continue;
    }
    const m = /^(.*)_(ASC|DESC)$/.exec(name);
    const aggregate = m ? relationAggregateOrders(table, catalog).get(m[1]!) : undefined;
    if (m && aggregate) {
      if (seen.has(m[1]!)) continue;
      seen.add(m[1]!);
      terms.push({ column: { name: `__o${terms.length}`, type: aggregate.type, nullable: true }, descending: m[2] === 'DESC', expression: aggregate.sql });
      continue;
    }
    const column = m ? table.columns.find((c) => upperSnake(c.name) === m[1]) : undefined;
    if (!m || !column) throw new GraphQLError(`${name} is not a value of ${table.pluralTypeName}OrderBy`);
    push(column, m[2] === 'DESC');
  }
  if (!isUnique(table, terms)) {
    // PostGraphile 5 appends the primary key in the direction of the first order column.
    const descending = terms[0]?.descending ?? false;
    for (const c of table.primaryKey) push(columnOf(table, c), descending);
  }
  const expressions = terms.map((t) => `__${table.name}__.${quoteIdent(t.column.name)}`);
  return { terms, digest: createHash('sha256').update(JSON.stringify(expressions)).digest('hex').slice(0, 10), names: [...names] };
}

/**
 * PostGraphile 5's test (graphile-build-pg's order-by-attribute plugin): an order is taken as
 * unique when one of its columns is the FIRST column of the primary key or of a unique
 * constraint. `BLOCK_HEIGHT_DESC` on transactions (unique (block_height, tx_index)) gets no
 * tie-break there, so none here either: same rows, same order, same pages.
 */
function isUnique(table: TableDefinition, terms: readonly OrderTerm[]): boolean {
  const ordered = new Set(terms.map((t) => t.column.name));
  return [table.primaryKey, ...(table.uniqueKeys ?? [])].some((key) => ordered.has(key[0]!));
}
