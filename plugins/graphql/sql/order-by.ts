import { GraphQLError } from 'graphql';
import { upperSnake } from '../catalog/inflection.js';
import { columnOf, type ColumnDefinition, type TableDefinition } from '../catalog/table-definition.js';

/**
 * `orderBy: [XxxOrderBy!]` → a total order. Values are PostGraphile's: `NATURAL`,
 * `<COLUMN>_ASC` / `<COLUMN>_DESC` per column, `PRIMARY_KEY_ASC` / `_DESC`; the default is
 * `[PRIMARY_KEY_ASC]`. An order that is not unique gets the primary key appended ascending, as
 * PostGraphile does, so cursors are stable. The cursor prefix is the lower-cased enum values.
 */
export interface OrderTerm {
  column: ColumnDefinition;
  descending: boolean;
}

export interface ResolvedOrder {
  terms: OrderTerm[];
  /** `["block_height_desc"]`: the first entries of every cursor made under this order. */
  cursorPrefix: string[];
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
    for (const c of table.primaryKey) push(columnOf(table, c), false);
  }
  return { terms, cursorPrefix: names.map((n) => n.toLowerCase()) };
}

/** Unique when the ordered columns cover the primary key or a unique constraint. */
function isUnique(table: TableDefinition, terms: readonly OrderTerm[]): boolean {
  const ordered = new Set(terms.map((t) => t.column.name));
  return [table.primaryKey, ...(table.uniqueKeys ?? [])].some((key) => key.every((c) => ordered.has(c) && !columnOf(table, c).nullable));
}
