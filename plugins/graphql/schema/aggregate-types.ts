import { GraphQLEnumType, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLFieldConfigMap, type GraphQLInputFieldConfigMap, type GraphQLResolveInfo } from 'graphql';
import { fieldName, typeNames } from '../catalog/inflection.js';
import type { PgColumnType, TableDefinition } from '../catalog/table-definition.js';
import { HAVING_OPERATORS, havingColumns, havingSpec } from '../sql/having.js';
import type { Row } from '../execution/sql-runner.js';
import { AGGREGATE_KINDS, aggregateAlias, groupByValues, type GroupByValue, type RequestedAggregate } from '../sql/aggregates.js';
import { scalarFor } from './scalars.js';
import { selectedFields } from './selection.js';

/**
 * pg-aggregates' types for one table: `<Type>Aggregates { keys sum distinctCount min max
 * average stddevSample … }`, one `<Type><Kind>Aggregates` per kind with a field per suitable
 * column, and the `<Types>GroupBy` enum of `groupedAggregates`. Only the aggregates a query
 * asks for are computed.
 */
export interface AggregateTypes {
  aggregates: GraphQLObjectType;
  groupBy: GraphQLEnumType;
  /** `<Type>HavingInput` of `groupedAggregates(having:)`. */
  having: GraphQLInputObjectType;
}

const havingFilters = new Map<string, GraphQLInputObjectType>();

/** `HavingIntFilter`, `HavingBigintFilter`…: the comparison operators on one aggregate. */
function havingFilterType(type: PgColumnType): GraphQLInputObjectType {
  const spec = havingSpec(type)!;
  let filter = havingFilters.get(spec);
  if (!filter) {
    const scalar = scalarFor(type);
    filter = new GraphQLInputObjectType({
      name: `Having${spec}Filter`,
      fields: Object.fromEntries(HAVING_OPERATORS.map(([name]) => [name, { type: scalar }])),
    });
    havingFilters.set(spec, filter);
  }
  return filter;
}

function havingInputType(table: TableDefinition): GraphQLInputObjectType {
  const self: GraphQLInputObjectType = new GraphQLInputObjectType({
    name: typeNames.having(table),
    description: `Conditions for \`${table.typeName}\` aggregates.`,
    fields: () => {
      const fields: GraphQLInputFieldConfigMap = {
        AND: { type: new GraphQLList(new GraphQLNonNull(self)) },
        OR: { type: new GraphQLList(new GraphQLNonNull(self)) },
      };
      for (const { kind, columns } of havingColumns(table)) {
        fields[kind.id] = {
          type: new GraphQLInputObjectType({
            name: `${table.typeName}Having${kind.id.charAt(0).toUpperCase()}${kind.id.slice(1)}Input`,
            fields: Object.fromEntries(columns.map((c) => [fieldName(c.name), { type: havingFilterType(c.type) }])),
          }),
        };
      }
      return fields;
    },
  });
  return self;
}

export function aggregateTypes(table: TableDefinition): AggregateTypes {
  const kindFields: GraphQLFieldConfigMap<Row, unknown> = {
    keys: {
      type: new GraphQLList(GraphQLString),
      description: 'The values of the `groupBy` expressions of this group (null outside `groupedAggregates`).',
      resolve: (row) => {
        const keys: Array<string | null> = [];
        for (let i = 0; `g${i}` in row; i++) keys.push(row[`g${i}`] === null ? null : String(row[`g${i}`]));
        return keys.length ? keys : null;
      },
    },
  };
  for (const kind of AGGREGATE_KINDS) {
    const columns = table.columns.filter((c) => kind.appliesTo(c));
    if (columns.length === 0) continue;
    const type = new GraphQLObjectType<Row>({
      name: typeNames.aggregateKind(table, kind.id),
      fields: () => Object.fromEntries(columns.map((column) => {
        const scalar = scalarFor(kind.resultType(column));
        return [fieldName(column.name), {
          type: kind.nonNull ? new GraphQLNonNull(scalar) : scalar,
          description: `${kind.description.slice(0, -1)} of ${fieldName(column.name)} across the matching connection`,
          resolve: (row: Row) => row[aggregateAlias({ kind, column })] ?? kind.empty,
        }];
      })),
    });
    kindFields[kind.id] = { type, description: `${kind.description} (per column)`, resolve: (row) => row };
  }
  const aggregates = new GraphQLObjectType<Row>({ name: typeNames.aggregates(table), fields: () => kindFields });
  const groupBy = new GraphQLEnumType({
    name: typeNames.groupBy(table),
    description: `Grouping methods for \`${table.typeName}\` for usage during aggregation.`,
    values: Object.fromEntries(groupByValues(table).map((g) => [g.name, { value: g.name }])),
  });
  return { aggregates, groupBy, having: havingInputType(table) };
}

/** Which (kind, column) pairs the query selects under an aggregates field. */
export function requestedAggregates(table: TableDefinition, info: GraphQLResolveInfo): RequestedAggregate[] {
  const out = new Map<string, RequestedAggregate>();
  const kindNodes = selectedFields(info.fieldNodes.map((n) => n.selectionSet), info.fragments);
  for (const kindNode of kindNodes) {
    const kind = AGGREGATE_KINDS.find((k) => k.id === kindNode.name.value);
    if (!kind) continue;
    for (const columnNode of selectedFields([kindNode.selectionSet], info.fragments)) {
      const column = table.columns.find((c) => fieldName(c.name) === columnNode.name.value);
      if (column && kind.appliesTo(column)) out.set(aggregateAlias({ kind, column }), { kind, column });
    }
  }
  return [...out.values()];
}

export function groupByOf(table: TableDefinition, names: readonly string[]): GroupByValue[] {
  const all = new Map(groupByValues(table).map((g) => [g.name, g]));
  return names.map((n) => all.get(n)!).filter(Boolean);
}
