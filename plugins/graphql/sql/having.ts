import { GraphQLError } from 'graphql';
import { fieldName } from '../catalog/inflection.js';
import type { ColumnDefinition, PgColumnType, TableDefinition } from '../catalog/table-definition.js';
import { AGGREGATE_KINDS, aggregateSql, type AggregateKind } from './aggregates.js';
import { TABLE_ALIAS } from './connection-plan.js';
import { Sql } from './sql-fragment.js';

/**
 * pg-aggregates 0.2's `groupedAggregates(having:)`: `<Type>HavingInput { AND OR sum: {col:
 * Having<Spec>Filter} … }`. A column takes part when its type has a having filter (int, bigint,
 * numeric, timestamptz — text, boolean and JSON have none, as upstream) and the kind applies to it.
 */
export const HAVING_OPERATORS: ReadonlyArray<[string, string]> = [
  ['equalTo', '='], ['notEqualTo', '<>'], ['greaterThan', '>'], ['greaterThanOrEqualTo', '>='], ['lessThan', '<'], ['lessThanOrEqualTo', '<='],
];

/** The having filter spec of a column type (`HavingBigintFilter`…), or null when it has none. */
export function havingSpec(type: PgColumnType): 'Int' | 'Bigint' | 'Bigfloat' | 'Datetime' | null {
  switch (type) {
    case 'integer': return 'Int';
    case 'bigint': return 'Bigint';
    case 'numeric': return 'Bigfloat';
    case 'timestamptz': return 'Datetime';
    default: return null;
  }
}

/**
 * Per aggregate kind, the columns its having input offers: every column with a having filter,
 * under every kind (pg-aggregates does not check the kind's suitability for attributes here;
 * `average` of a timestamp is offered, and PostgreSQL refuses it when used).
 */
export function havingColumns(table: TableDefinition): Array<{ kind: AggregateKind; columns: ColumnDefinition[] }> {
  const columns = table.columns.filter((c) => havingSpec(c.type) !== null);
  return columns.length ? AGGREGATE_KINDS.map((kind) => ({ kind, columns })) : [];
}

/**
 * The HAVING condition, or null when the input adds none. As in the filter (where-clause.ts),
 * PostGraphile drops a condition group nothing was added to: `having: {OR: []}` keeps every
 * group, and `{OR: [{OR: []}, X]}` is X.
 */
export function havingSql(table: TableDefinition, having: Record<string, unknown>): Sql | null {
  const parts: Sql[] = [];
  for (const [key, value] of Object.entries(having)) {
    if (value === undefined || value === null) continue;
    if (key === 'AND' || key === 'OR') {
      const items = (value as Array<Record<string, unknown> | null>).flatMap((item) => (item ? [havingSql(table, item)] : [])).filter((p): p is Sql => p !== null);
      if (items.length) parts.push(key === 'AND' ? Sql.and(items) : Sql.or(items));
      continue;
    }
    const kind = AGGREGATE_KINDS.find((k) => k.id === key);
    if (!kind) throw new GraphQLError(`${table.typeName}HavingInput has no field ${key}`);
    for (const [field, filter] of Object.entries(value as Record<string, unknown>)) {
      const column = table.columns.find((c) => fieldName(c.name) === field);
      if (!column || filter === null || filter === undefined) continue;
      const expression = aggregateSql({ kind, column }, TABLE_ALIAS);
      for (const [op, operand] of Object.entries(filter as Record<string, unknown>)) {
        const sqlOp = HAVING_OPERATORS.find(([name]) => name === op)?.[1];
        if (!sqlOp || operand === null || operand === undefined) continue;
        parts.push(Sql.build`${expression} ${sqlOp} ${Sql.value(operand, column.type)}`);
      }
    }
  }
  return parts.length ? Sql.and(parts) : null;
}
