/**
 * The `graphql` plugin's public surface: the plugin, its extension point and the types a
 * contributing plugin needs.
 */
export { graphqlPlugin } from './graphql.plugin.js';
export { graphqlContributions } from './graphql-contributions.js';
export type { GraphqlContribution, GraphqlQueryFields, GraphqlRegistrar, GraphqlSchemaBuild } from './graphql-contributions.js';
export type { ColumnDefinition, ForeignKeyDefinition, PgColumnType, TableDefinition } from './catalog/table-definition.js';
export type { GraphqlRequestContext } from './execution/request-context.js';
export type { SqlRunner, Row } from './execution/sql-runner.js';
export { Sql } from './sql/sql-fragment.js';
export type { GraphqlOptions, GraphqlOptionsInput } from './graphql.config.js';
