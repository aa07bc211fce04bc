import type { GraphQLFieldConfig, GraphQLFieldConfigMap, GraphQLObjectType, GraphQLScalarType } from 'graphql';
import { createExtensionPoint } from 'chainhost/plugin';
import type { TableDefinition } from './catalog/table-definition.js';
import type { GraphqlRequestContext } from './execution/request-context.js';

/**
 * The GraphQL extension point (design "Extension points"): other plugins add read-only types
 * and root query fields. A table added with `addTable` gets everything PostGraphile would
 * generate for it (type, `all<Plural>` connection with filters, ordering and aggregates,
 * unique lookups, relations both ways); `addQueryFields` adds hand-written root fields that
 * run their SQL through the request context (statement timeout, batching). There are no
 * mutations: the API is read-only.
 */
export interface GraphqlSchemaBuild {
  /** The row type of a table (BDS or contributed), by SQL name. */
  tableType(tableName: string): GraphQLObjectType;
  /** `<Plural>Connection` of a table. */
  connectionType(tableName: string): GraphQLObjectType;
  /**
   * A ready connection field over a table (all PostGraphile arguments, limits, batching); use
   * it to expose a table under another root name.
   */
  connectionField(tableName: string, description: string): GraphQLFieldConfig<unknown, GraphqlRequestContext>;
  scalars: { BigInt: GraphQLScalarType; BigFloat: GraphQLScalarType; Datetime: GraphQLScalarType; JSON: GraphQLScalarType; Cursor: GraphQLScalarType };
}

export interface GraphqlQueryFields {
  /** Unique name of the contribution, e.g. `dex:candles`. */
  name: string;
  fields(build: GraphqlSchemaBuild): GraphQLFieldConfigMap<unknown, GraphqlRequestContext>;
}

export interface GraphqlRegistrar {
  /** Exposes one more table of the BDS database, named and shaped as PostGraphile would. */
  addTable(table: TableDefinition): void;
  addQueryFields(fields: GraphqlQueryFields): void;
}

export type GraphqlContribution = { kind: 'table'; table: TableDefinition } | { kind: 'fields'; fields: GraphqlQueryFields };

export const graphqlContributions = createExtensionPoint<GraphqlRegistrar>('graphql.types');

export function contributionKey(c: GraphqlContribution): string {
  return c.kind === 'table' ? `table:${c.table.name}` : `fields:${c.fields.name}`;
}
