import { GraphQLError } from 'graphql';
import { fieldName } from '../catalog/inflection.js';
import type { TableCatalog, TableRelation } from '../catalog/relations.js';
import type { ColumnDefinition, TableDefinition } from '../catalog/table-definition.js';
import { operatorsFor, trivialOperator, type OperatorSpec } from './filter-operators.js';
import { col, quoteIdent, Sql, TRUE } from './sql-fragment.js';

/**
 * `condition` (exact equality per column; `null` means IS NULL, as in PostGraphile) and
 * `filter` (connection-filter operators with `and`/`or`/`not`) as SQL over one table alias.
 * Null literals and empty objects in a filter are refused with the plugin's own messages.
 */
export function conditionSql(table: TableDefinition, alias: string, condition: Record<string, unknown> | null | undefined): Sql {
  if (!condition) return TRUE;
  const parts: Sql[] = [];
  for (const [key, column] of fieldsOf(table)) {
    if (!(key in condition) || condition[key] === undefined) continue;
    const value = condition[key];
    const c = col(alias, column.name);
    parts.push(value === null ? Sql.raw(`${c} IS NULL`) : Sql.build`${c} = ${Sql.value(value, column.type)}`);
  }
  return Sql.and(parts);
}

const fieldCache = new WeakMap<TableDefinition, Array<[string, ColumnDefinition]>>();

function fieldsOf(table: TableDefinition): Array<[string, ColumnDefinition]> {
  let fields = fieldCache.get(table);
  if (!fields) fieldCache.set(table, (fields = table.columns.map((c) => [fieldName(c.name), c])));
  return fields;
}

/** Items in one `in`/`notIn`/`containsAllKeys`… list: each is one value for PostgreSQL to compare. */
export const MAX_LIST_ITEMS = 10_000;

const NULL_LITERAL = 'Null literals are forbidden in filter argument input.';
const EMPTY_OBJECT = 'Empty objects are forbidden in filter argument input.';

export function filterSql(table: TableDefinition, alias: string, filter: Record<string, unknown> | null | undefined, catalog: TableCatalog | null = null): Sql {
  if (filter === null || filter === undefined) return TRUE;
  return new FilterCompiler(table, alias, catalog, { next: 0 }).object(filter);
}

const operatorCache = new Map<string, Map<string, OperatorSpec>>();

function operatorMap(column: ColumnDefinition): Map<string, OperatorSpec> {
  let map = operatorCache.get(column.type);
  if (!map) {
    map = new Map(operatorsFor(column.type).map((op) => [op.name, op]));
    operatorCache.set(column.type, map);
  }
  return map;
}

class FilterCompiler {
  private readonly columns: Map<string, ColumnDefinition>;
  private readonly relations: Map<string, TableRelation>;

  /** @param aliases numbers the subquery aliases of relation filters (`r1`, `r2`…) across the whole filter. */
  constructor(private readonly table: TableDefinition, private readonly alias: string, private readonly catalog: TableCatalog | null, private readonly aliases: { next: number }) {
    this.columns = new Map(fieldsOf(table));
    this.relations = new Map((catalog?.relationsOf(table) ?? []).map((r) => [r.field, r]));
  }

  object(filter: Record<string, unknown>): Sql {
    if (Object.keys(filter).length === 0) throw new GraphQLError(EMPTY_OBJECT);
    const parts: Sql[] = [];
    for (const [key, value] of Object.entries(filter)) {
      if (value === undefined) continue;
      if (value === null) throw new GraphQLError(NULL_LITERAL);
      if (key === 'and' || key === 'or') {
        const items = (value as Record<string, unknown>[]).map((item) => {
          if (item === null) throw new GraphQLError(NULL_LITERAL);
          return this.object(item);
        });
        parts.push(key === 'and' ? Sql.and(items) : Sql.or(items));
      } else if (key === 'not') {
        parts.push(Sql.build`NOT (${this.object(value as Record<string, unknown>)})`);
      } else if (this.columns.has(key)) {
        parts.push(this.column(this.columns.get(key)!, value as Record<string, unknown>));
      } else {
        parts.push(this.relation(key, value));
      }
    }
    return Sql.and(parts);
  }

  /**
   * connection-filter's relation filters as EXISTS subqueries over the related table: forward
   * `{…}` (the related row matches) and `…Exists`; backward `{some|every|none}` and `…Exist`.
   */
  private relation(key: string, value: unknown): Sql {
    const exists = /Exists?$/.exec(key);
    const relation = this.relations.get(key) ?? (exists ? this.relations.get(key.slice(0, exists.index)) : undefined);
    const wanted = relation && exists && relation.field !== key
      ? (relation.direction === 'forward' ? exists[0] === 'Exists' && relation.nullable : exists[0] === 'Exist')
      : Boolean(relation);
    if (!relation || !wanted || !this.catalog) throw new GraphQLError(`${this.table.typeName}Filter has no field ${key}`);
    const other = `r${++this.aliases.next}`;
    const join = relation.localColumns.map((c, i) => `${col(other, relation.otherColumns[i]!)} = ${col(this.alias, c)}`).join(' AND ');
    const from = `${quoteIdent(this.catalog.dbSchema)}.${quoteIdent(relation.other.name)} AS ${quoteIdent(other)}`;
    const some = (where: Sql) => Sql.build`EXISTS (SELECT 1 FROM ${from} WHERE ${Sql.and([Sql.raw(join), where])})`;
    if (relation.field !== key) return value ? some(TRUE) : Sql.build`NOT ${some(TRUE)}`;
    const inner = (f: unknown) => {
      if (f === null) throw new GraphQLError(NULL_LITERAL);
      return new FilterCompiler(relation.other, other, this.catalog, this.aliases).object(f as Record<string, unknown>);
    };
    if (relation.direction === 'forward') return some(inner(value));
    const quantifiers = value as Record<string, unknown>;
    if (Object.keys(quantifiers).length === 0) throw new GraphQLError(EMPTY_OBJECT);
    const parts: Sql[] = [];
    for (const [q, f] of Object.entries(quantifiers)) {
      if (f === undefined) continue;
      if (q === 'some') parts.push(some(inner(f)));
      else if (q === 'none') parts.push(Sql.build`NOT ${some(inner(f))}`);
      else if (q === 'every') parts.push(Sql.build`NOT ${some(Sql.build`NOT (${inner(f)})`)}`);
      else throw new GraphQLError(`${key} has no field ${q}`);
    }
    return Sql.and(parts);
  }

  private column(column: ColumnDefinition, operators: Record<string, unknown>): Sql {
    if (Object.keys(operators).length === 0) throw new GraphQLError(EMPTY_OBJECT);
    const specs = operatorMap(column);
    const c = col(this.alias, column.name);
    const parts: Sql[] = [];
    for (const [name, value] of Object.entries(operators)) {
      if (value === undefined) continue;
      if (value === null) throw new GraphQLError(NULL_LITERAL);
      const spec = specs.get(name);
      if (!spec) throw new GraphQLError(`operator ${name} is not available on ${fieldName(column.name)}`);
      if (Array.isArray(value) && value.length > MAX_LIST_ITEMS) {
        throw new GraphQLError(
          `\`${name}\` list of ${value.length} items on ${fieldName(column.name)}: at most ${MAX_LIST_ITEMS} are allowed; split the query or narrow it with a range (greaterThan/lessThan)`,
          { extensions: { code: 'LIST_TOO_LONG', maxItems: MAX_LIST_ITEMS } },
        );
      }
      parts.push(trivialOperator(name, value) ?? spec.compile(c, value, column.type));
    }
    return Sql.and(parts);
  }
}
