import { GraphQLError } from 'graphql';
import { fieldName } from '../catalog/inflection.js';
import { argumentError } from '../execution/input-errors.js';
import type { TableCatalog, TableRelation } from '../catalog/relations.js';
import type { ColumnDefinition, TableDefinition } from '../catalog/table-definition.js';
import { operatorsFor, trivialOperator, type OperatorSpec } from './filter-operators.js';
import { AGGREGATE_KINDS } from './aggregates.js';
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

/**
 * Operators compile against a column name; a subject with bound values (an aggregate subquery)
 * is spliced in where the marker is. Every operator names its subject once, before its own
 * placeholders, so the subject's values go first.
 */
const SUBJECT = '\u0001subject\u0001';

function withSubject(compiled: Sql, subject: Sql): Sql {
  const at = compiled.text.indexOf(SUBJECT);
  if (at < 0) return compiled;
  const firstValue = compiled.text.indexOf('?');
  if (subject.values.length && firstValue >= 0 && firstValue < at) throw new Error('operator SQL binds a value before its subject');
  return new Sql(compiled.text.replace(SUBJECT, subject.text), [...subject.values, ...compiled.values]);
}

const NULL_LITERAL = 'Null literals are forbidden in filter argument input.';
const EMPTY_OBJECT = 'Empty objects are forbidden in filter argument input.';

/**
 * connection-filter on PostGraphile 5 builds nested condition groups that are dropped when
 * nothing was added to them (@dataplan/pg's PgCondition, `ignoreUnlessAmended`): an empty
 * `or: []` or `and: []`, a `not` or a relation filter over such a group add no condition at
 * all, wherever they stand (`{or: [{or: []}, X]}` is X, `{not: {and: []}}` is every row). So
 * a group compiles to `null` ("no condition"), never to FALSE or TRUE, which would differ
 * inside an `or` or under a `not`.
 */
export function filterSql(table: TableDefinition, alias: string, filter: Record<string, unknown> | null | undefined, catalog: TableCatalog | null = null): Sql {
  if (filter === null || filter === undefined) return TRUE;
  return new FilterCompiler(table, alias, catalog, { next: 0 }).object(filter) ?? TRUE;
}

/** AND / OR of the groups that add a condition; null when none does. */
function group(parts: ReadonlyArray<Sql | null>, combine: 'and' | 'or'): Sql | null {
  const present = parts.filter((p): p is Sql => p !== null);
  if (present.length === 0) return null;
  return combine === 'and' ? Sql.and(present) : Sql.or(present);
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

  /** The filter object's condition, or null when it adds none (empty `and`/`or` groups). */
  object(filter: Record<string, unknown>): Sql | null {
    if (Object.keys(filter).length === 0) throw argumentError(EMPTY_OBJECT);
    const parts: Array<Sql | null> = [];
    for (const [key, value] of Object.entries(filter)) {
      if (value === undefined) continue;
      if (value === null) throw argumentError(NULL_LITERAL);
      if (key === 'and' || key === 'or') {
        const items = (value as Record<string, unknown>[]).map((item) => {
          if (item === null) throw argumentError(NULL_LITERAL);
          return this.object(item);
        });
        parts.push(group(items, key));
      } else if (key === 'not') {
        const inner = this.object(value as Record<string, unknown>);
        parts.push(inner === null ? null : Sql.build`NOT (${inner})`);
      } else if (this.columns.has(key)) {
        parts.push(this.column(this.columns.get(key)!, value as Record<string, unknown>));
      } else {
        parts.push(this.relation(key, value));
      }
    }
    return group(parts, 'and');
  }

  /**
   * connection-filter's relation filters as EXISTS subqueries over the related table: forward
   * `{…}` (the related row matches) and `…Exists`; backward `{some|every|none}` and `…Exist`.
   */
  private relation(key: string, value: unknown): Sql | null {
    const exists = /Exists?$/.exec(key);
    const relation = this.relations.get(key) ?? (exists ? this.relations.get(key.slice(0, exists.index)) : undefined);
    const wanted = relation && exists && relation.field !== key
      ? (relation.direction === 'forward' ? exists[0] === 'Exists' && relation.nullable : exists[0] === 'Exist')
      : Boolean(relation);
    if (!relation || !wanted || !this.catalog) throw argumentError(`${this.table.typeName}Filter has no field ${key}`);
    const other = `r${++this.aliases.next}`;
    const join = relation.localColumns.map((c, i) => `${col(other, relation.otherColumns[i]!)} = ${col(this.alias, c)}`).join(' AND ');
    const from = `${quoteIdent(this.catalog.dbSchema)}.${quoteIdent(relation.other.name)} AS ${quoteIdent(other)}`;
    const some = (where: Sql) => Sql.build`EXISTS (SELECT 1 FROM ${from} WHERE ${Sql.and([Sql.raw(join), where])})`;
    if (relation.field !== key) return value ? some(TRUE) : Sql.build`NOT ${some(TRUE)}`;
    const inner = (f: unknown) => {
      if (f === null) throw argumentError(NULL_LITERAL);
      return new FilterCompiler(relation.other, other, this.catalog, this.aliases).object(f as Record<string, unknown>);
    };
    // A relation filter whose inner filter adds no condition is dropped, not "a related row exists" (ignoreUnlessAmended).
    const when = (f: unknown, build: (where: Sql) => Sql) => {
      const where = inner(f);
      return where === null ? null : build(where);
    };
    if (relation.direction === 'forward') return when(value, some);
    const quantifiers = value as Record<string, unknown>;
    if (Object.keys(quantifiers).length === 0) throw argumentError(EMPTY_OBJECT);
    const parts: Array<Sql | null> = [];
    for (const [q, f] of Object.entries(quantifiers)) {
      if (f === undefined) continue;
      if (q === 'some') parts.push(when(f, some));
      else if (q === 'none') parts.push(when(f, (w) => Sql.build`NOT ${some(w)}`));
      else if (q === 'every') parts.push(when(f, (w) => Sql.build`NOT ${some(Sql.build`NOT (${w})`)}`));
      else if (q === 'aggregates') parts.push(this.aggregates(relation, other, from, join, f as Record<string, unknown>));
      else throw argumentError(`${key} has no field ${q}`);
    }
    return group(parts, 'and');
  }

  /** `aggregates: {filter, sum: {col: {greaterThan: …}}, …}`: each condition on an aggregate of the related rows that pass `filter`. */
  private aggregates(relation: TableRelation, other: string, from: string, join: string, input: Record<string, unknown>): Sql | null {
    const rowFilter = (input.filter ? new FilterCompiler(relation.other, other, this.catalog, this.aliases).object(input.filter as Record<string, unknown>) : null) ?? TRUE;
    const parts: Sql[] = [];
    for (const [key, value] of Object.entries(input)) {
      if (key === 'filter' || value === null || value === undefined) continue;
      const kind = AGGREGATE_KINDS.find((k) => k.id === key);
      if (!kind) throw argumentError(`${relation.other.typeName}AggregatesFilter has no field ${key}`);
      for (const [field, operators] of Object.entries(value as Record<string, unknown>)) {
        const column = fieldsOf(relation.other).find(([name]) => name === field)?.[1];
        if (!column || operators === null || operators === undefined) continue;
        const aggregate = Sql.build`(SELECT ${kind.sql(col(other, column.name))} FROM ${from} WHERE ${Sql.and([Sql.raw(join), rowFilter])})`;
        const result: ColumnDefinition = { name: column.name, type: kind.resultType(column), nullable: true };
        parts.push(this.operators(result, aggregate, operators as Record<string, unknown>));
      }
    }
    return parts.length ? Sql.and(parts) : null;
  }

  private column(column: ColumnDefinition, operators: Record<string, unknown>): Sql {
    return this.operators(column, Sql.raw(col(this.alias, column.name)), operators);
  }

  /** The operators of `column`'s type applied to `subject` (a column, or an aggregate subquery with its own values). */
  private operators(column: ColumnDefinition, subject: Sql, operators: Record<string, unknown>): Sql {
    if (Object.keys(operators).length === 0) throw argumentError(EMPTY_OBJECT);
    const specs = operatorMap(column);
    const parts: Sql[] = [];
    for (const [name, value] of Object.entries(operators)) {
      if (value === undefined) continue;
      if (value === null) throw argumentError(NULL_LITERAL);
      const spec = specs.get(name);
      if (!spec) throw argumentError(`operator ${name} is not available on ${fieldName(column.name)}`);
      if (Array.isArray(value) && value.length > MAX_LIST_ITEMS) {
        throw new GraphQLError(
          `\`${name}\` list of ${value.length} items on ${fieldName(column.name)}: at most ${MAX_LIST_ITEMS} are allowed; split the query or narrow it with a range (greaterThan/lessThan)`,
          { extensions: { code: 'LIST_TOO_LONG', maxItems: MAX_LIST_ITEMS } },
        );
      }
      parts.push(trivialOperator(name, value) ?? withSubject(spec.compile(SUBJECT, value, column.type), subject));
    }
    return Sql.and(parts);
  }
}
