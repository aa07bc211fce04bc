import {
  GraphQLError, getArgumentValues, getNamedType, getOperationAST, getVariableValues, isInterfaceType, isObjectType, Kind,
  type DocumentNode, type FieldNode, type FragmentDefinitionNode, type GraphQLField, type GraphQLNamedType, type GraphQLSchema, type SelectionSetNode,
} from 'graphql';
import { pageSizesFor, planConnection, type ConnectionArgs } from '../sql/connection-plan.js';
import type { ConnectionFieldExtension } from '../schema/table-types.js';

/**
 * Checks a parsed, valid operation against the server's limits before anything runs, with the
 * request's variables: nesting depth, estimated cost, and every connection's arguments
 * (`first`/`last` cap, cursors, filter input) planned exactly as the resolvers will plan them.
 * Anything refused here is a request error (HTTP 400), never a partial result.
 *
 * Cost: every selected field with a selection of its own (objects, lists, connections) counts
 * once per row it is resolved for; a connection's `nodes` and `edges` are resolved for up to
 * `first`/`last` rows (the default page size when neither is given), and nested connections
 * multiply. Scalars are free: their number per row is bounded by the document's token cap.
 */
export interface QueryLimits {
  maxDepth: number;
  maxComplexity: number;
  maxPageSize: number;
  relationPageSize: number;
}

/** Introspection (GraphiQL's query nests `ofType` ~9 levels) is held to its own fixed depth. */
const INTROSPECTION_MAX_DEPTH = 20;
const MAX_REPORTED = 5;

export function checkQueryLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  rawVariables: Record<string, unknown> | null | undefined,
  limits: QueryLimits,
): GraphQLError[] {
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation) return [];
  if (operation.operation !== 'query') {
    return [new GraphQLError(`This GraphQL API is read-only: ${operation.operation} operations are not supported (the schema has a Query type only)`, { nodes: operation, extensions: { code: 'READ_ONLY' } })];
  }
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables ?? {}, { maxErrors: 1 });
  if (coerced.errors) return []; // execution reports variable errors itself (answered as 400)
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;

  const errors: GraphQLError[] = [];
  let cost = 0;
  let deepest: { depth: number; path: string[]; node: FieldNode } | null = null;

  const visit = (set: SelectionSetNode, parent: GraphQLNamedType, depth: number, path: string[], multiplier: number, pageSize: number | null, introspection: boolean, seen: Set<string>): void => {
    for (const selection of set.selections) {
      if (errors.length >= MAX_REPORTED) return;
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) ?? parent : parent;
        visit(selection.selectionSet, type, depth, path, multiplier, pageSize, introspection, seen);
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments[selection.name.value];
        if (!fragment || seen.has(fragment.name.value)) continue;
        const type = schema.getType(fragment.typeCondition.name.value) ?? parent;
        visit(fragment.selectionSet, type, depth, path, multiplier, pageSize, introspection, new Set([...seen, fragment.name.value]));
        continue;
      }
      const name = selection.name.value;
      if (name === '__typename') continue;
      const inIntrospection = introspection || name === '__schema' || name === '__type';
      const fieldPath = [...path, selection.alias?.value ?? name];
      const fieldDepth = depth + 1;
      if (inIntrospection) {
        if (fieldDepth > INTROSPECTION_MAX_DEPTH) {
          errors.push(new GraphQLError(`Introspection query is nested ${fieldDepth} levels deep at ${fieldPath.join('.')}; at most ${INTROSPECTION_MAX_DEPTH} are allowed`, { nodes: selection, extensions: { code: 'QUERY_TOO_DEEP' } }));
          return;
        }
      } else if (fieldDepth > limits.maxDepth) {
        if (!deepest) deepest = { depth: fieldDepth, path: fieldPath, node: selection };
        continue;
      }
      const field = fieldOf(schema, parent, name);
      if (!field) continue;
      const rows = pageSize !== null && (name === 'nodes' || name === 'edges') ? multiplier * pageSize : multiplier;
      if (!inIntrospection && selection.selectionSet) cost += rows;
      let childPageSize: number | null = null;
      const connection = (field.extensions as Partial<ConnectionFieldExtension> | undefined)?.chainhostConnection;
      if (connection) {
        try {
          const args = getArgumentValues(field, selection, coerced.coerced) as ConnectionArgs;
          childPageSize = planConnection(connection.table, args, pageSizesFor({ max: limits.maxPageSize, relation: limits.relationPageSize }, connection.relation)).limit;
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          errors.push(new GraphQLError(`${message} (at ${fieldPath.join('.')})`, { nodes: selection, extensions: { code: 'BAD_USER_INPUT' } }));
          continue;
        }
      }
      if (selection.selectionSet) {
        visit(selection.selectionSet, getNamedType(field.type), fieldDepth, fieldPath, rows, childPageSize, inIntrospection, seen);
      }
    }
  };

  visit(operation.selectionSet, schema.getQueryType()!, 0, [], 1, null, false, new Set());
  if (deepest) {
    const d = deepest as { depth: number; path: string[]; node: FieldNode };
    errors.unshift(new GraphQLError(
      `Query is too deep: ${d.path.join('.')} is nested ${d.depth} levels, above the limit of ${limits.maxDepth}; split it into several queries`,
      { nodes: d.node, extensions: { code: 'QUERY_TOO_DEEP', maxDepth: limits.maxDepth } },
    ));
  }
  if (cost > limits.maxComplexity && errors.length < MAX_REPORTED) {
    errors.push(new GraphQLError(
      `Query is too complex: its estimated cost is ${cost}, above the limit of ${limits.maxComplexity}. Each object or connection field counts once per row it is read for; ask for fewer rows with first/last on the connections (nested connections multiply)`,
      { nodes: operation, extensions: { code: 'QUERY_TOO_COMPLEX', cost, maxComplexity: limits.maxComplexity } },
    ));
  }
  return errors;
}

function fieldOf(schema: GraphQLSchema, parent: GraphQLNamedType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (isObjectType(parent) || isInterfaceType(parent)) {
    const field = parent.getFields()[name];
    if (field) return field;
  }
  if (name === '__schema') return schema.getQueryType() ? ({ name, type: schema.getType('__Schema'), args: [], extensions: {} } as unknown as GraphQLField<unknown, unknown>) : undefined;
  if (name === '__type') return ({ name, type: schema.getType('__Type'), args: [], extensions: {} } as unknown as GraphQLField<unknown, unknown>);
  return undefined;
}
