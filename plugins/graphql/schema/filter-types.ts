import { GraphQLBoolean, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, GraphQLString, type GraphQLInputFieldConfigMap, type GraphQLInputType, type GraphQLScalarType } from 'graphql';
import { fieldName } from '../catalog/inflection.js';
import type { PgColumnType, TableDefinition } from '../catalog/table-definition.js';
import { operatorsFor, type OperatorInput } from '../sql/filter-operators.js';
import { scalarFor } from './scalars.js';

/**
 * connection-filter's input types: one `<Scalar>Filter` per scalar (`StringFilter`,
 * `BigIntFilter`, `JSONFilter`…) and one `<Type>Filter` per table with a field per column plus
 * `and`, `or`, `not`.
 */
const scalarFilters = new Map<string, GraphQLInputObjectType>();

function operatorType(input: OperatorInput, scalar: GraphQLScalarType): GraphQLInputType {
  switch (input) {
    case 'same': return scalar;
    case 'list': return new GraphQLList(new GraphQLNonNull(scalar));
    case 'boolean': return GraphQLBoolean;
    case 'string': return GraphQLString;
    case 'stringList': return new GraphQLList(new GraphQLNonNull(GraphQLString));
  }
}

export function scalarFilterType(type: PgColumnType): GraphQLInputObjectType {
  const scalar = scalarFor(type);
  const name = `${scalar.name}Filter`;
  let filter = scalarFilters.get(name);
  if (!filter) {
    filter = new GraphQLInputObjectType({
      name,
      description: `A filter to be used against ${scalar.name} fields. All fields are combined with a logical ‘and.’`,
      fields: () => Object.fromEntries(operatorsFor(type).map((op) => [op.name, { type: operatorType(op.input, scalar), description: op.description }])),
    });
    scalarFilters.set(name, filter);
  }
  return filter;
}

export function tableFilterType(table: TableDefinition, name: string): GraphQLInputObjectType {
  const self: GraphQLInputObjectType = new GraphQLInputObjectType({
    name,
    description: `A filter to be used against \`${table.typeName}\` object types. All fields are combined with a logical ‘and.’`,
    fields: (): GraphQLInputFieldConfigMap => {
      const fields: GraphQLInputFieldConfigMap = {};
      for (const c of table.columns) fields[fieldName(c.name)] = { type: scalarFilterType(c.type), description: `Filter by the object’s \`${fieldName(c.name)}\` field.` };
      fields.and = { type: new GraphQLList(new GraphQLNonNull(self)), description: 'Checks for all expressions in this list.' };
      fields.or = { type: new GraphQLList(new GraphQLNonNull(self)), description: 'Checks for any expressions in this list.' };
      fields.not = { type: self, description: 'Negates the expression.' };
      return fields;
    },
  });
  return self;
}
