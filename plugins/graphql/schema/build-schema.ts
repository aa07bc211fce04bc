import {
  GraphQLID, GraphQLInterfaceType, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, assertValidSchema,
  type GraphQLFieldConfig, type GraphQLFieldConfigMap,
} from 'graphql';
import { camelCase, lookupFieldName, typeNames } from '../catalog/inflection.js';
import { checkTableDefinition, columnOf, type TableDefinition } from '../catalog/table-definition.js';
import type { GraphqlQueryFields, GraphqlSchemaBuild } from '../graphql-contributions.js';
import type { GraphqlRequestContext } from '../execution/request-context.js';
import { rowByKey, tableOfRow } from '../execution/table-reader.js';
import { FOREIGN_FIELD } from '../execution/fast-execute.js';
import { rejectInvalidArguments } from './argument-guard.js';
import { bdsStatusType, type BdsStatusView } from './bds-status-type.js';
import { TableCatalog } from '../catalog/relations.js';
import { quoteIdent, Sql } from '../sql/sql-fragment.js';
import { decodeNodeId, nodeAliasOf } from './node-id.js';
import { GraphQLBigFloat, GraphQLBigInt, GraphQLCursor, GraphQLDatetime, jsonScalar, scalarFor } from './scalars.js';
import { TableTypes } from './table-types.js';

/**
 * The whole schema: PostGraphile's root fields over every table (`query`, `nodeId`, `node`,
 * `all<Plural>`, `<type>By<Key>` lookups, `<type>(nodeId)`), `bdsStatus`, and what other
 * plugins contributed. Query only: no Mutation or Subscription type exists.
 */
export interface SchemaInput {
  tables: readonly TableDefinition[];
  fields?: readonly GraphqlQueryFields[];
  status(ctx: GraphqlRequestContext): Promise<BdsStatusView>;
  /** SQL schema of the tables (relation filters name other tables); default `public`. */
  dbSchema?: string;
  /** JSON as values instead of JSON text (PostGraphile's `dynamicJson`); default false, as upstream. */
  dynamicJson?: boolean;
  /** Table names in the order Query lists their root fields; tables not named follow in definition order. */
  rootOrder?: readonly string[];
}

/** `tables` sorted by their place in `order`; the rest keep their relative order after them. */
function rootOrder(tables: readonly TableDefinition[], order: readonly string[]): TableDefinition[] {
  const rank = (t: TableDefinition) => {
    const i = order.indexOf(t.name);
    return i < 0 ? order.length : i;
  };
  return tables.map((t, i) => ({ t, i })).sort((a, b) => rank(a.t) - rank(b.t) || a.i - b.i).map(({ t }) => t);
}

type RootField = GraphQLFieldConfig<unknown, GraphqlRequestContext>;

export function buildGraphqlSchema(input: SchemaInput): GraphQLSchema {
  const seen = new Set<string>();
  for (const t of input.tables) {
    checkTableDefinition(t);
    for (const name of [t.name, `type:${t.typeName}`, `type:${t.pluralTypeName}`, `alias:${nodeAliasOf(t)}`]) {
      if (seen.has(name)) throw new Error(`GraphQL table ${t.name}: ${name.replace(/^\w+:/, '')} is already used by another table`);
      seen.add(name);
    }
  }
  const byAlias = new Map(input.tables.map((t) => [nodeAliasOf(t), t]));
  const nodeInterface: GraphQLInterfaceType = new GraphQLInterfaceType({
    name: 'Node',
    description: 'An object with a globally unique `ID`.',
    fields: { nodeId: { type: new GraphQLNonNull(GraphQLID), description: 'A globally unique identifier. Can be used in various places throughout the system to identify this single value.' } },
    resolveType: (value) => {
      const table = tableOfRow(value);
      return table ? types.objectType(types.table(table)).name : 'Query';
    },
  });
  const json = jsonScalar(input.dynamicJson ?? false);
  const types = new TableTypes(new TableCatalog(input.tables, input.dbSchema ?? 'public'), nodeInterface, json);

  const nodeById = async (ctx: GraphqlRequestContext, nodeId: string, expected?: TableDefinition) => {
    if (nodeId === 'query' && !expected) return {};
    const decoded = decodeNodeId(nodeId);
    const table = decoded ? byAlias.get(decoded.alias) : undefined;
    if (!decoded || !table || (expected && table !== expected) || decoded.values.length !== table.primaryKey.length) return null;
    return rowByKey(ctx, table, table.primaryKey.map((c) => columnOf(table, c)), decoded.values);
  };

  const rootFields = (): GraphQLFieldConfigMap<unknown, GraphqlRequestContext> => {
    const fields: GraphQLFieldConfigMap<unknown, GraphqlRequestContext> = {
      query: {
        type: new GraphQLNonNull(queryType),
        description: 'Exposes the root query type nested one level down. This is helpful for Relay 1 which can only query top level fields if they are in a particular form.',
        resolve: () => ({}),
      },
      nodeId: {
        type: new GraphQLNonNull(GraphQLID),
        description: 'The root query type must be a `Node` to work well with Relay 1 mutations. This just resolves to `query`.',
        resolve: () => 'query',
      },
      node: {
        type: nodeInterface,
        description: 'Fetches an object given its globally unique `ID`.',
        args: { nodeId: { type: new GraphQLNonNull(GraphQLID), description: 'The globally unique `ID`.' } },
        resolve: (_s, args: { nodeId: string }, ctx) => nodeById(ctx, args.nodeId),
      },
    };
    // PostGraphile's order: every lookup, then the functions, then every `<type>(nodeId)`, then every `all<Plural>`.
    const ordered = rootOrder(input.tables, input.rootOrder ?? []);
    for (const table of ordered) {
      for (const key of [table.primaryKey, ...(table.uniqueKeys ?? [])]) fields[lookupFieldName(table, key)] = lookupField(table, key);
    }
    // PostGraphile exposes the BDS schema's IMMUTABLE function bds_numeric(jsonb) as a root query.
    fields.bdsNumeric = {
      type: GraphQLBigFloat,
      args: { v: { type: json } },
      resolve: async (_s, args: { v?: unknown }, ctx) => {
        const [row] = await ctx.sql.rows(Sql.build`SELECT ${quoteIdent(ctx.dbSchema)}.bds_numeric(${Sql.value(args.v ?? null, 'jsonb')}) AS "n"`);
        return row?.n ?? null;
      },
    };
    for (const table of ordered) {
      fields[typeNames.byNodeId(table)] = {
        type: types.objectType(table),
        description: `Reads a single \`${table.typeName}\` using its globally unique \`ID\`.`,
        args: { nodeId: { type: new GraphQLNonNull(GraphQLID), description: `The globally unique \`ID\` to be used in selecting a single \`${table.typeName}\`.` } },
        resolve: (_s, args: { nodeId: string }, ctx) => nodeById(ctx, args.nodeId, table),
      };
    }
    for (const table of ordered) {
      fields[typeNames.allRows(table)] = types.connectionField(table, `Reads and enables pagination through a set of \`${table.typeName}\`.`, null, true);
    }
    fields.bdsStatus = {
      type: new GraphQLNonNull(bdsStatusType(json)),
      description: 'How far the BDS index (and so this API) has got; GraphQL is eventually consistent with the chain.',
      resolve: (_s, _a, ctx) => input.status(ctx),
    };
    const build: GraphqlSchemaBuild = {
      tableType: (name) => types.objectType(types.table(name)),
      connectionType: (name) => types.connectionType(types.table(name)),
      connectionField: (name, description) => types.connectionField(types.table(name), description, null, true),
      scalars: { BigInt: GraphQLBigInt, BigFloat: GraphQLBigFloat, Datetime: GraphQLDatetime, JSON: json, Cursor: GraphQLCursor },
    };
    for (const contribution of input.fields ?? []) {
      for (const [name, field] of Object.entries(contribution.fields(build))) {
        if (name in fields) throw new Error(`GraphQL contribution ${contribution.name}: root field ${name} already exists`);
        // Its resolvers are another plugin's: executed by graphql-js itself (fast-execute.ts).
        fields[name] = { ...field, extensions: { ...field.extensions, [FOREIGN_FIELD]: true } };
      }
    }
    return fields;
  };

  const lookupField = (table: TableDefinition, key: readonly string[]): RootField => {
    const columns = key.map((c) => columnOf(table, c));
    return {
      type: types.objectType(table),
      args: Object.fromEntries(columns.map((c) => [camelCase(c.name), { type: new GraphQLNonNull(scalarFor(c.type, json)) }])),
      resolve: (_s, args: Record<string, unknown>, ctx) => rowByKey(ctx, table, columns, columns.map((c) => args[camelCase(c.name)])),
    };
  };

  const queryType: GraphQLObjectType = new GraphQLObjectType<unknown, GraphqlRequestContext>({
    name: 'Query',
    description: 'The root query type which gives access points into the data universe.',
    interfaces: [nodeInterface],
    fields: rootFields,
  });
  const schema = new GraphQLSchema({ query: queryType, types: [...input.tables.map((t) => types.objectType(t))] });
  assertValidSchema(schema);
  rejectInvalidArguments(schema);
  return schema;
}
