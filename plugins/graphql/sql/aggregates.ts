import { upperSnake } from '../catalog/inflection.js';
import type { ColumnDefinition, PgColumnType, TableDefinition } from '../catalog/table-definition.js';
import { isNumberLike } from '../schema/scalars.js';
import { col } from './sql-fragment.js';

/**
 * pg-aggregates' aggregate kinds (graphql.md §4): which columns each applies to, its SQL, and
 * the PostgreSQL type of its result (sum of integer → bigint, of bigint → numeric; average,
 * standard deviation and variance → numeric; distinct count → bigint).
 */
export interface AggregateKind {
  id: 'sum' | 'distinctCount' | 'min' | 'max' | 'average' | 'stddevSample' | 'stddevPopulation' | 'varianceSample' | 'variancePopulation';
  description: string;
  appliesTo(column: ColumnDefinition): boolean;
  sql(column: string): string;
  resultType(column: ColumnDefinition): PgColumnType;
  /** Value when no row matched (sum is coalesced to 0, counts are 0). */
  empty: string | null;
  nonNull: boolean;
}

const numberLike = (c: ColumnDefinition) => isNumberLike(c.type);
const toNumeric = (): PgColumnType => 'numeric';

export const AGGREGATE_KINDS: readonly AggregateKind[] = [
  {
    id: 'sum', description: 'Sum of the values.', appliesTo: numberLike, sql: (c) => `coalesce(sum(${c}), 0)`,
    resultType: (c) => (c.type === 'integer' ? 'bigint' : 'numeric'), empty: '0', nonNull: true,
  },
  { id: 'distinctCount', description: 'Number of distinct values.', appliesTo: () => true, sql: (c) => `count(distinct ${c})`, resultType: () => 'bigint', empty: '0', nonNull: false },
  { id: 'min', description: 'Minimum value.', appliesTo: numberLike, sql: (c) => `min(${c})`, resultType: (c) => c.type, empty: null, nonNull: false },
  { id: 'max', description: 'Maximum value.', appliesTo: numberLike, sql: (c) => `max(${c})`, resultType: (c) => c.type, empty: null, nonNull: false },
  { id: 'average', description: 'Mean average of the values.', appliesTo: numberLike, sql: (c) => `avg(${c})`, resultType: toNumeric, empty: null, nonNull: false },
  { id: 'stddevSample', description: 'Sample standard deviation.', appliesTo: numberLike, sql: (c) => `stddev_samp(${c})`, resultType: toNumeric, empty: null, nonNull: false },
  { id: 'stddevPopulation', description: 'Population standard deviation.', appliesTo: numberLike, sql: (c) => `stddev_pop(${c})`, resultType: toNumeric, empty: null, nonNull: false },
  { id: 'varianceSample', description: 'Sample variance.', appliesTo: numberLike, sql: (c) => `var_samp(${c})`, resultType: toNumeric, empty: null, nonNull: false },
  { id: 'variancePopulation', description: 'Population variance.', appliesTo: numberLike, sql: (c) => `var_pop(${c})`, resultType: toNumeric, empty: null, nonNull: false },
];

export interface RequestedAggregate {
  kind: AggregateKind;
  column: ColumnDefinition;
}

export function aggregateAlias(a: RequestedAggregate): string {
  return `a_${a.kind.id}_${a.column.name}`;
}

export function aggregateSql(a: RequestedAggregate, alias: string): string {
  return a.kind.sql(col(alias, a.column.name));
}

/** `groupedAggregates(groupBy: [...])` values: every column not unique on its own, plus hour/day truncations of timestamps. */
export interface GroupByValue {
  name: string;
  sql(alias: string): string;
  /** The group key as `keys` shows it: text, timestamps in the Datetime form (`2026-01-01T00:00:00.000000+00:00`). */
  text?(alias: string): string;
}

const datetimeText = (sql: string) => `to_char((${sql}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"')`;

export function groupByValues(table: TableDefinition): GroupByValue[] {
  const out: GroupByValue[] = [];
  // A column that is unique on its own makes one group per row: pg-aggregates leaves it out.
  const alone = new Set([table.primaryKey, ...(table.uniqueKeys ?? [])].filter((k) => k.length === 1).map((k) => k[0]!));
  for (const c of table.columns) {
    if (alone.has(c.name)) continue;
    const text = c.type === 'timestamptz' ? (sql: string) => datetimeText(sql) : null;
    out.push({ name: upperSnake(c.name), sql: (alias) => col(alias, c.name), ...(text ? { text: (alias: string) => text(col(alias, c.name)) } : {}) });
    if (c.type === 'timestamptz') {
      const hour = (alias: string) => `date_trunc('hour', ${col(alias, c.name)}, 'UTC')`;
      const day = (alias: string) => `date_trunc('day', ${col(alias, c.name)}, 'UTC')`;
      out.push({ name: `${upperSnake(c.name)}_TRUNCATED_TO_HOUR`, sql: hour, text: (alias) => datetimeText(hour(alias)) });
      out.push({ name: `${upperSnake(c.name)}_TRUNCATED_TO_DAY`, sql: day, text: (alias) => datetimeText(day(alias)) });
    }
  }
  return out;
}
