import {
  GraphQLBoolean, GraphQLEnumType, GraphQLID, GraphQLInputObjectType, GraphQLInt, GraphQLInterfaceType, GraphQLList, GraphQLNonNull,
  GraphQLObjectType, getArgumentValues, type FieldNode, type FragmentDefinitionNode, type GraphQLFieldConfig, type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap, type GraphQLOutputType, type GraphQLScalarType, type SelectionSetNode,
} from 'graphql';
import { backwardRelationName, fieldName, forwardRelationName, typeNames } from '../catalog/inflection.js';
import type { TableCatalog } from '../catalog/relations.js';
import { columnOf, type ForeignKeyDefinition, type TableDefinition } from '../catalog/table-definition.js';
import type { GraphqlRequestContext } from '../execution/request-context.js';
import type { Row } from '../execution/sql-runner.js';
import { findInvalidArgument } from '../execution/input-errors.js';
import { ConnectionValue, readColumns, rowByKey, type InlineRelation, type Page, type RelationKey } from '../execution/table-reader.js';
import { pageSizesFor, planConnection, type ConnectionArgs } from '../sql/connection-plan.js';
import { DEFAULT_ORDER, orderByValues } from '../sql/order-by.js';
import { havingSql } from '../sql/having.js';
import { aggregateTypes, groupByOf, requestedAggregates } from './aggregate-types.js';
import { FilterTypes } from './filter-types.js';
import { encodeNodeId } from './node-id.js';
import { GraphQLCursor, scalarFor } from './scalars.js';
import { selectedFields } from './selection.js';

/**
 * Every GraphQL type PostGraphile derives from one table — the row type (implementing `Node`),
 * `<Types>Connection`, `<Types>Edge`, `<Types>OrderBy`, `<Type>Condition`, `<Type>Filter` and
 * the aggregate types — plus the relation fields that follow from foreign keys in both
 * directions. Field configs of connections carry `extensions.chainhostConnection` so the
 * request limiter can plan them before execution.
 */
export interface ConnectionFieldExtension {
  /** `foreignKey`: the child's key of a backward relation (`Block.transactionsByBlockHeight`). */
  chainhostConnection: { table: TableDefinition; relation: boolean; catalog: TableCatalog; foreignKey?: ForeignKeyDefinition };
}

/** How many relation levels one statement reads below a page (blocks → transactions → events → …). */
const MAX_INLINE_LEVELS = 4;

type Resolver = GraphQLFieldConfig<unknown, GraphqlRequestContext>;

export const PageInfoType = new GraphQLObjectType<ConnectionValue, GraphqlRequestContext>({
  name: 'PageInfo',
  description: 'Information about pagination in a connection.',
  fields: {
    hasNextPage: { type: new GraphQLNonNull(GraphQLBoolean), description: 'When paginating forwards, are there more items?', resolve: (c) => c.hasNextPage() },
    hasPreviousPage: { type: new GraphQLNonNull(GraphQLBoolean), description: 'When paginating backwards, are there more items?', resolve: (c) => c.hasPreviousPage() },
    startCursor: {
      type: GraphQLCursor, description: 'When paginating backwards, the cursor to continue.',
      resolve: async (c) => { const rows = (await c.page()).rows; return rows.length ? c.cursorOf(rows[0]!) : null; },
    },
    endCursor: {
      type: GraphQLCursor, description: 'When paginating forwards, the cursor to continue.',
      resolve: async (c) => { const rows = (await c.page()).rows; return rows.length ? c.cursorOf(rows[rows.length - 1]!) : null; },
    },
  },
});

export class TableTypes {
  readonly tables: readonly TableDefinition[];
  private readonly objects = new Map<string, GraphQLObjectType>();
  private readonly connections = new Map<string, GraphQLObjectType>();
  private readonly args = new Map<string, GraphQLFieldConfigArgumentMap>();
  private readonly byName: Map<string, TableDefinition>;
  private readonly filters: FilterTypes;

  /** @param json the schema's JSON scalar (text by default, values with `dynamicJson`). */
  constructor(readonly catalog: TableCatalog, readonly nodeInterface: GraphQLInterfaceType, readonly json: GraphQLScalarType) {
    const tables = catalog.tables;
    this.tables = tables;
    this.filters = new FilterTypes(catalog, json);
    this.byName = new Map(tables.map((t) => [t.name, t]));
    for (const t of tables) this.build(t);
  }

  table(name: string): TableDefinition {
    const t = this.byName.get(name);
    if (!t) throw new Error(`no GraphQL table ${name}`);
    return t;
  }

  objectType(table: TableDefinition): GraphQLObjectType {
    return this.objects.get(table.name)!;
  }

  connectionType(table: TableDefinition): GraphQLObjectType {
    return this.connections.get(table.name)!;
  }

  connectionArgs(table: TableDefinition): GraphQLFieldConfigArgumentMap {
    return this.args.get(table.name)!;
  }

  /**
   * A connection field over `table`; `relation` maps the source row to the child's key
   * (backward relations, whose foreign key is `foreignKey`).
   */
  connectionField(table: TableDefinition, description: string, relation: ((source: Row) => RelationKey) | null, nullable: boolean, foreignKey?: ForeignKeyDefinition): Resolver {
    const type = this.connectionType(table);
    return {
      type: nullable ? type : new GraphQLNonNull(type),
      description,
      args: this.connectionArgs(table),
      extensions: { chainhostConnection: { table, relation: relation !== null, catalog: this.catalog, foreignKey } } satisfies ConnectionFieldExtension,
      resolve: (source, args, ctx, info) => {
        // The same for every parent row of this field in this request: planned once.
        const shape = ctx.memo(info.fieldNodes, () => {
          try {
            return { plan: planConnection(table, args as ConnectionArgs, pageSizesFor(ctx.pageSizes, relation !== null), this.catalog), error: null };
          } catch (error) {
            return { plan: null, error };
          }
        });
        if (!shape.plan) throw shape.error;
        const reading = ctx.memo(shape, () => ({
          columns: this.columnsRead(table, info.fieldNodes, info.fragments),
          chain: this.inlineChain(table, info.fieldNodes, info.fragments, info.variableValues, ctx, MAX_INLINE_LEVELS),
        }));
        return new ConnectionValue(ctx, shape.plan, relation ? relation(source as Row) : null, reading.columns, reading.chain);
      },
    };
  }

  /** The selection sets of a connection's rows: under `nodes` and `edges.node`. */
  private nodeSelections(fieldNodes: readonly FieldNode[], fragments: Readonly<Record<string, FragmentDefinitionNode>>): Array<SelectionSetNode | undefined> {
    const nodeSets: Array<SelectionSetNode | undefined> = [];
    for (const f of selectedFields(fieldNodes.map((n) => n.selectionSet), fragments)) {
      if (f.name.value === 'nodes') nodeSets.push(f.selectionSet);
      else if (f.name.value === 'edges') {
        for (const e of selectedFields([f.selectionSet], fragments)) if (e.name.value === 'node') nodeSets.push(e.selectionSet);
      }
    }
    return nodeSets;
  }

  /**
   * The columns a connection's rows must carry for the fields the query selects under `nodes`
   * and `edges.node`: the column fields, the keys of relations and of `nodeId`.
   */
  columnsRead(table: TableDefinition, fieldNodes: readonly FieldNode[], fragments: Readonly<Record<string, FragmentDefinitionNode>>): string[] {
    const byField = this.fieldColumns.get(table.name)!;
    const out = new Set<string>();
    for (const f of selectedFields(this.nodeSelections(fieldNodes, fragments), fragments)) for (const c of byField.get(f.name.value) ?? []) out.add(c);
    return [...out];
  }

  /**
   * The relations to read in a connection's own statement: the first backward relation under
   * its rows whose page is read (nodes, edges or pageInfo), then the same below that one, up to
   * `levels`. Anything else under the rows (a second relation, a forward lookup, a count) keeps
   * its own batched statement; a relation whose arguments do not plan, or that carries a
   * directive, is left to its resolver, which reports or skips it as usual.
   */
  private inlineChain(
    table: TableDefinition, fieldNodes: readonly FieldNode[], fragments: Readonly<Record<string, FragmentDefinitionNode>>,
    variables: Record<string, unknown>, ctx: GraphqlRequestContext, levels: number,
  ): InlineRelation[] {
    if (levels <= 0) return [];
    const byKey = new Map<string, FieldNode[]>();
    for (const f of selectedFields(this.nodeSelections(fieldNodes, fragments), fragments)) {
      const key = f.alias?.value ?? f.name.value;
      byKey.set(key, [...(byKey.get(key) ?? []), f]);
    }
    const fields = this.objectType(table).getFields();
    for (const nodes of byKey.values()) {
      if (nodes.some((n) => n.directives?.length)) continue;
      const field = fields[nodes[0]!.name.value];
      const connection = (field?.extensions as Partial<ConnectionFieldExtension> | undefined)?.chainhostConnection;
      const fk = connection?.foreignKey;
      if (!field || !connection || !fk) continue;
      if (!selectedFields(nodes.map((n) => n.selectionSet), fragments).some((f) => ['nodes', 'edges', 'pageInfo'].includes(f.name.value))) continue;
      let plan;
      try {
        const args = getArgumentValues(field, nodes[0]!, variables);
        if (findInvalidArgument(args)) continue;
        plan = planConnection(connection.table, args as ConnectionArgs, pageSizesFor(ctx.pageSizes, true), this.catalog);
      } catch {
        continue;
      }
      const child = connection.table;
      return [{
        plan,
        childColumns: fk.columns,
        parentColumns: fk.references.columns,
        keyColumns: fk.columns.map((c) => columnOf(child, c)),
        read: readColumns(plan, this.columnsRead(child, nodes, fragments)),
      }, ...this.inlineChain(child, nodes, fragments, variables, ctx, levels - 1)];
    }
    return [];
  }

  /** Field name → the columns it reads, per table (columns, relation keys, nodeId). */
  private readonly fieldColumns = new Map<string, Map<string, readonly string[]>>();

  private mapFieldColumns(table: TableDefinition): void {
    const map = new Map<string, readonly string[]>([['nodeId', table.primaryKey]]);
    for (const c of table.columns) map.set(fieldName(c.name), [c.name]);
    for (const fk of table.foreignKeys ?? []) {
      const target = this.byName.get(fk.references.table);
      if (target) map.set(forwardRelationName(target, fk), fk.columns);
    }
    for (const child of this.tables) {
      for (const fk of child.foreignKeys ?? []) if (fk.references.table === table.name) map.set(backwardRelationName(child, fk), fk.references.columns);
    }
    this.fieldColumns.set(table.name, map);
  }

  private build(table: TableDefinition): void {
    this.mapFieldColumns(table);
    const orderBy = new GraphQLEnumType({
      name: typeNames.orderBy(table),
      description: `Methods to use when ordering \`${table.typeName}\`.`,
      values: Object.fromEntries(orderByValues(table, this.catalog).map((v) => [v, { value: v }])),
    });
    const condition = new GraphQLInputObjectType({
      name: typeNames.condition(table),
      description: `A condition to be used against \`${table.typeName}\` object types. All fields are tested for equality and combined with a logical ‘and.’`,
      fields: () => Object.fromEntries(table.columns.map((c) => [fieldName(c.name), { type: scalarFor(c.type, this.json), description: `Checks for equality with the object’s \`${fieldName(c.name)}\` field.` }])),
    });
    const filter = this.filters.tableFilter(table, typeNames.filter(table));
    const { aggregates, groupBy, having } = aggregateTypes(table);

    const object = new GraphQLObjectType<Row, GraphqlRequestContext>({
      name: table.typeName,
      description: table.description,
      interfaces: [this.nodeInterface],
      fields: () => this.rowFields(table),
    });
    const edge = new GraphQLObjectType<{ row: Row; connection: ConnectionValue }>({
      name: typeNames.edge(table),
      description: `A \`${table.typeName}\` edge in the connection.`,
      fields: {
        cursor: { type: GraphQLCursor, description: 'A cursor for use in pagination.', resolve: (e) => e.connection.cursorOf(e.row) },
        node: { type: object, description: `The \`${table.typeName}\` at the end of the edge.`, resolve: (e) => e.row },
      },
    });
    const connection = new GraphQLObjectType<ConnectionValue, GraphqlRequestContext>({
      name: typeNames.connection(table),
      description: `A list of \`${table.typeName}\` values.`,
      fields: {
        nodes: {
          type: new GraphQLNonNull(new GraphQLList(object)),
          description: `A list of \`${table.typeName}\` objects.`,
          resolve: (c) => c.pageNow()?.rows ?? c.page().then((p) => p.rows),
        },
        edges: {
          type: new GraphQLNonNull(new GraphQLList(edge)),
          description: `A list of edges which contains the \`${table.typeName}\` and cursor to aid in pagination.`,
          resolve: (c) => {
            const edges = (p: Page) => p.rows.map((row) => ({ row, connection: c }));
            const now = c.pageNow();
            return now ? edges(now) : c.page().then(edges);
          },
        },
        pageInfo: { type: new GraphQLNonNull(PageInfoType), description: 'Information to aid in pagination.', resolve: (c) => c },
        totalCount: { type: new GraphQLNonNull(GraphQLInt), description: `The count of *all* \`${table.typeName}\` you could get from the connection.`, resolve: (c) => c.totalCount() },
        aggregates: {
          type: aggregates,
          description: `Aggregates across the matching connection (ignoring before/after/first/last/offset)`,
          resolve: (c, _args, _ctx, info) => c.aggregates(requestedAggregates(table, info)),
        },
        groupedAggregates: {
          type: new GraphQLList(new GraphQLNonNull(aggregates)),
          description: 'Grouped aggregates across the matching connection (ignoring before/after/first/last/offset)',
          args: {
            groupBy: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(groupBy))), description: 'The method to use when grouping `' + table.typeName + '` for these aggregates.' },
            having: { type: having, description: 'Conditions on the grouped aggregates.' },
          },
          resolve: (c, args: { groupBy: string[]; having?: Record<string, unknown> | null }, _ctx, info) =>
            c.grouped(requestedAggregates(table, info), groupByOf(table, args.groupBy), args.having ? havingSql(table, args.having) : null),
        },
      },
    });
    this.objects.set(table.name, object);
    this.connections.set(table.name, connection);
    this.args.set(table.name, {
      first: { type: GraphQLInt, description: 'Only read the first `n` values of the set.' },
      last: { type: GraphQLInt, description: 'Only read the last `n` values of the set.' },
      offset: { type: GraphQLInt, description: 'Skip the first `n` values from our `after` cursor, an alternative to cursor based pagination. May not be used with `last`.' },
      before: { type: GraphQLCursor, description: 'Read all values in the set before (above) this cursor.' },
      after: { type: GraphQLCursor, description: 'Read all values in the set after (below) this cursor.' },
      condition: { type: condition, description: 'A condition to be used in determining which values should be returned by the collection.' },
      filter: { type: filter, description: 'A filter to be used in determining which values should be returned by the collection.' },
      orderBy: { type: new GraphQLList(new GraphQLNonNull(orderBy)), defaultValue: DEFAULT_ORDER, description: `The method to use when ordering \`${table.typeName}\`.` },
    });
  }

  private rowFields(table: TableDefinition): GraphQLFieldConfigMap<Row, GraphqlRequestContext> {
    const fields: GraphQLFieldConfigMap<Row, GraphqlRequestContext> = {
      nodeId: {
        type: new GraphQLNonNull(GraphQLID),
        description: 'A globally unique identifier. Can be used in various places throughout the system to identify this single value.',
        resolve: (row) => encodeNodeId(table, row),
      },
    };
    const add = (name: string, field: GraphQLFieldConfig<Row, GraphqlRequestContext>) => {
      if (name in fields) throw new Error(`GraphQL type ${table.typeName}: field ${name} would be defined twice (a column and a relation, or two relations, share the name)`);
      fields[name] = field;
    };
    for (const c of table.columns) {
      const scalar = scalarFor(c.type, this.json);
      const name = c.name;
      add(fieldName(c.name), { type: c.nullable ? scalar : new GraphQLNonNull(scalar), description: c.description, resolve: (row) => row[name] });
    }
    for (const fk of table.foreignKeys ?? []) {
      const target = this.byName.get(fk.references.table);
      if (!target) continue;
      add(forwardRelationName(target, fk), this.forwardRelation(table, target, fk));
    }
    for (const child of this.tables) {
      for (const fk of child.foreignKeys ?? []) {
        if (fk.references.table !== table.name) continue;
        const keyColumns = fk.columns.map((c) => columnOf(child, c));
        add(backwardRelationName(child, fk), this.connectionField(
          child,
          `Reads and enables pagination through a set of \`${child.typeName}\`.`,
          (row) => ({ columns: keyColumns, values: fk.references.columns.map((c) => row[c]) }),
          false,
          fk,
        ) as GraphQLFieldConfig<Row, GraphqlRequestContext>);
      }
    }
    return fields;
  }

  private forwardRelation(source: TableDefinition, target: TableDefinition, fk: ForeignKeyDefinition): GraphQLFieldConfig<Row, GraphqlRequestContext> {
    const keyColumns = fk.references.columns.map((c) => columnOf(target, c));
    return {
      type: this.objectType(target) as GraphQLOutputType,
      description: `Reads a single \`${target.typeName}\` that is related to this \`${source.typeName}\`.`,
      resolve: (row, _args, ctx) => rowByKey(ctx, target, keyColumns, fk.columns.map((c) => row[c])),
    };
  }
}
