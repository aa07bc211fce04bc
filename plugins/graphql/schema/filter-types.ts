import { GraphQLBoolean, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, GraphQLString, type GraphQLInputFieldConfigMap, type GraphQLInputType, type GraphQLScalarType } from 'graphql';
import { fieldName } from '../catalog/inflection.js';
import type { TableCatalog } from '../catalog/relations.js';
import type { PgColumnType, TableDefinition } from '../catalog/table-definition.js';
import { AGGREGATE_KINDS } from '../sql/aggregates.js';
import { operatorsFor, type OperatorInput } from '../sql/filter-operators.js';
import { scalarFor } from './scalars.js';

/**
 * connection-filter's input types for one schema: one `<Scalar>Filter` per scalar
 * (`StringFilter`, `BigIntFilter`, `JSONFilter`…) and one `<Type>Filter` per table with a
 * field per column, the relation filters (forward `<type>By<Cols>` with `…Exists` on nullable
 * keys, backward `<types>By<Cols>: <Type>ToMany<Child>Filter { every some none }` with
 * `…Exist`), plus `and`, `or`, `not`.
 */
function operatorType(input: OperatorInput, scalar: GraphQLScalarType): GraphQLInputType {
  switch (input) {
    case 'same': return scalar;
    case 'list': return new GraphQLList(new GraphQLNonNull(scalar));
    case 'boolean': return GraphQLBoolean;
    case 'string': return GraphQLString;
    case 'stringList': return new GraphQLList(new GraphQLNonNull(GraphQLString));
  }
}

export class FilterTypes {
  private readonly scalarFilters = new Map<string, GraphQLInputObjectType>();
  private readonly tableFilters = new Map<string, GraphQLInputObjectType>();
  private readonly toMany = new Map<string, GraphQLInputObjectType>();
  private readonly aggregateFilters = new Map<string, GraphQLInputObjectType>();

  constructor(private readonly catalog: TableCatalog, private readonly json: GraphQLScalarType) {}

  scalarFilter(type: PgColumnType): GraphQLInputObjectType {
    const scalar = scalarFor(type, this.json);
    const name = `${scalar.name}Filter`;
    let filter = this.scalarFilters.get(name);
    if (!filter) {
      filter = new GraphQLInputObjectType({
        name,
        description: `A filter to be used against ${scalar.name} fields. All fields are combined with a logical ‘and.’`,
        fields: () => Object.fromEntries(operatorsFor(type).map((op) => [op.name, { type: operatorType(op.input, scalar), description: op.description }])),
      });
      this.scalarFilters.set(name, filter);
    }
    return filter;
  }

  tableFilter(table: TableDefinition, name: string): GraphQLInputObjectType {
    let filter = this.tableFilters.get(table.name);
    if (filter) return filter;
    const self: GraphQLInputObjectType = new GraphQLInputObjectType({
      name,
      description: `A filter to be used against \`${table.typeName}\` object types. All fields are combined with a logical ‘and.’`,
      fields: (): GraphQLInputFieldConfigMap => {
        const fields: GraphQLInputFieldConfigMap = {};
        for (const c of table.columns) fields[fieldName(c.name)] = { type: this.scalarFilter(c.type), description: `Filter by the object’s \`${fieldName(c.name)}\` field.` };
        for (const r of this.catalog.relationsOf(table)) {
          if (r.direction === 'forward') {
            fields[r.field] = { type: this.tableFilterOf(r.other), description: `Filter by the object’s \`${r.field}\` relation.` };
            if (r.nullable) fields[`${r.field}Exists`] = { type: GraphQLBoolean, description: `A related \`${r.field}\` exists.` };
          } else {
            fields[r.field] = { type: this.toManyFilter(table, r.other), description: `Filter by the object’s \`${r.field}\` relation.` };
            fields[`${r.field}Exist`] = { type: GraphQLBoolean, description: `Some related \`${r.field}\` exist.` };
          }
        }
        fields.and = { type: new GraphQLList(new GraphQLNonNull(self)), description: 'Checks for all expressions in this list.' };
        fields.or = { type: new GraphQLList(new GraphQLNonNull(self)), description: 'Checks for any expressions in this list.' };
        fields.not = { type: self, description: 'Negates the expression.' };
        return fields;
      },
    });
    this.tableFilters.set(table.name, (filter = self));
    return filter;
  }

  /**
   * pg-aggregates' `<Child>AggregatesFilter { filter sum: { col: BigFloatFilter } … }` under a
   * backward relation filter: conditions on aggregates of the related rows (those matching `filter`).
   */
  private aggregatesFilter(child: TableDefinition): GraphQLInputObjectType {
    const name = `${child.typeName}AggregatesFilter`;
    let filter = this.aggregateFilters.get(name);
    if (!filter) {
      filter = new GraphQLInputObjectType({
        name,
        description: `A filter to be used against aggregates of \`${child.typeName}\` object types.`,
        fields: () => {
          const fields: GraphQLInputFieldConfigMap = {
            filter: { type: this.tableFilterOf(child), description: `A filter that must pass for the relevant \`${child.typeName}\` object to be included within the aggregate.` },
          };
          for (const kind of AGGREGATE_KINDS) {
            const columns = child.columns.filter((c) => kind.appliesTo(c));
            if (columns.length === 0) continue;
            fields[kind.id] = {
              type: new GraphQLInputObjectType({
                name: `${child.typeName}${kind.id.charAt(0).toUpperCase()}${kind.id.slice(1)}AggregateFilter`,
                fields: () => Object.fromEntries(columns.map((c) => [fieldName(c.name), { type: this.scalarFilter(kind.resultType(c)) }])),
              }),
              description: `${kind.description.slice(0, -1)} aggregate over matching \`${child.typeName}\` objects.`,
            };
          }
          return fields;
        },
      });
      this.aggregateFilters.set(name, filter);
    }
    return filter;
  }

  private tableFilterOf(table: TableDefinition): GraphQLInputObjectType {
    return this.tableFilter(table, `${table.typeName}Filter`);
  }

  private toManyFilter(parent: TableDefinition, child: TableDefinition): GraphQLInputObjectType {
    const name = `${parent.typeName}ToMany${child.typeName}Filter`;
    let filter = this.toMany.get(name);
    if (!filter) {
      filter = new GraphQLInputObjectType({
        name,
        description: `A filter to be used against many \`${child.typeName}\` object types. All fields are combined with a logical ‘and.’`,
        fields: () => ({
          every: { type: this.tableFilterOf(child), description: 'Every related `' + child.typeName + '` matches the filter criteria. All fields are combined with a logical ‘and.’' },
          some: { type: this.tableFilterOf(child), description: 'Some related `' + child.typeName + '` matches the filter criteria. All fields are combined with a logical ‘and.’' },
          none: { type: this.tableFilterOf(child), description: 'No related `' + child.typeName + '` matches the filter criteria. All fields are combined with a logical ‘and.’' },
          aggregates: { type: this.aggregatesFilter(child), description: `Aggregates across related \`${child.typeName}\` match the filter criteria.` },
        }),
      });
      this.toMany.set(name, filter);
    }
    return filter;
  }
}
