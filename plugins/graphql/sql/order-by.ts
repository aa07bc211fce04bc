import { createHash } from 'node:crypto';
import { GraphQLError } from 'graphql';
import { quoteIdent } from './sql-fragment.js';
import { upperSnake } from '../catalog/inflection.js';
import { columnOf, type ColumnDefinition, type TableDefinition } from '../catalog/table-definition.js';

/**
 * `orderBy: [XxxOrderBy!]` → a total order. Values are PostGraphile's: `NATURAL`,
 * `<COLUMN>_ASC` / `<COLUMN>_DESC` per column, `PRIMARY_KEY_ASC` / `_DESC`; the default is
 * `[PRIMARY_KEY_ASC]`. An order that is not unique gets the primary key appended in the direction of its first
 * column, as PostGraphile 5 does, so cursors are stable. The cursor prefix is the lower-cased enum values.
 */
export interface OrderTerm {
  column: ColumnDefinition;
  descending: boolean;
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

export function orderByValues(table: TableDefinition): string[] {
  const values = ['NATURAL'];
  for (const c of table.columns) values.push(`${upperSnake(c.name)}_ASC`, `${upperSnake(c.name)}_DESC`);
  values.push('PRIMARY_KEY_ASC', 'PRIMARY_KEY_DESC');
  return values;
}

export function resolveOrder(table: TableDefinition, orderBy: readonly string[] | null | undefined): ResolvedOrder {
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
