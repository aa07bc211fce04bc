import {
  GraphQLError, getArgumentValues, getNamedType, getOperationAST, getVariableValues, isInterfaceType, isObjectType, Kind,
  type DocumentNode, type FieldNode, type FragmentDefinitionNode, type GraphQLField, type GraphQLNamedType, type GraphQLSchema, type SelectionSetNode,
} from 'graphql';
import { pageSizesFor, planConnection, type ConnectionArgs } from '../sql/connection-plan.js';
import type { ConnectionFieldExtension } from '../schema/table-types.js';
import { introspectionFanout } from './introspection-cost.js';
import { findInvalidArgument, argumentError } from './input-errors.js';
import { variableNestingError } from './input-nesting.js';

/**
 * Checks a parsed, valid operation against the server's limits before anything runs, with the
 * request's variables: nesting depth, estimated cost, and every connection's arguments
 * (`first`/`last` cap, list lengths) planned exactly as the resolvers will plan them. Anything
 * refused here is a request error (HTTP 400), never a partial result. Bad argument values (a
 * negative `first`, a foreign cursor) are not refused here: as in PostGraphile they fail their
 * field during execution (input-errors.ts).
 *
 * Cost: every selected field with a selection of its own (objects, lists, connections) counts
 * once per row it is resolved for; a connection's `nodes` and `edges` are resolved for up to
 * `first`/`last` rows (the default page size when neither is given), and nested connections
 * multiply. Scalars are free: their number per row is bounded by the document's token cap.
 * Introspection counts the same way, its lists (`types`, `fields`, `args`…) standing for as
 * many rows as the schema holds (introspection-cost.ts).
 *
 * The walk is linear in the document: a selection set's cost is linear in the rows it is read
 * for, so each fragment is summarised once (cost per row, split into the part that scales with
 * the enclosing page and the part that does not, plus its depth) and every spread of it reuses
 * the summary. Re-walking spreads cost 2^k for k fragments that each spread the next twice.
 */
export interface QueryLimits {
  maxDepth: number;
  maxComplexity: number;
  maxPageSize: number | null;
  relationPageSize: number | null;
}

/** Introspection (GraphiQL's query nests `ofType` ~9 levels) is held to its own fixed depth. */
const INTROSPECTION_MAX_DEPTH = 20;
const MAX_REPORTED = 5;

/** What a selection set costs per row of its parent, independent of where it is spread. */
interface Summary {
  /** Cost per row that does not depend on the enclosing connection's page size. */
  fixed: number;
  /** Cost per row and per page row (`nodes`/`edges` directly under a connection). */
  perPage: number;
  /** Deepest data field below, relative to the set (0: none), with its path and node. */
  depth: number;
  path: string[];
  node: FieldNode | null;
  /** Deepest introspection field below, relative to the set. */
  introspectionDepth: number;
  introspectionPath: string[];
  introspectionNode: FieldNode | null;
}

const EMPTY: Summary = { fixed: 0, perPage: 0, depth: 0, path: [], node: null, introspectionDepth: 0, introspectionPath: [], introspectionNode: null };

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
    // PostGraphile answers this with a masked request error (no location, `extensions: {errorId}`); the message says why.
    return [argumentError(`This GraphQL API is read-only: ${operation.operation} operations are not supported (the schema has a Query type only)`)];
  }
  const tooDeep = variableNestingError(rawVariables);
  if (tooDeep) return [tooDeep];
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables ?? {}, { maxErrors: 1 });
  if (coerced.errors) return []; // execution reports variable errors itself (answered as 400)
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  const fanout = introspectionFanout(schema);

  const errors: GraphQLError[] = [];
  const memo = new Map<string, Summary>();
  const inProgress = new Set<string>();

  // `at` is the path for error messages (a fragment reports the first place it is spread).
  const summarise = (set: SelectionSetNode, parent: GraphQLNamedType, introspection: boolean, at: readonly string[]): Summary => {
    const s: Summary = { ...EMPTY };
    const merge = (child: Summary) => {
      s.fixed += child.fixed;
      s.perPage += child.perPage;
      if (child.depth > s.depth) Object.assign(s, { depth: child.depth, path: child.path, node: child.node });
      if (child.introspectionDepth > s.introspectionDepth) {
        Object.assign(s, { introspectionDepth: child.introspectionDepth, introspectionPath: child.introspectionPath, introspectionNode: child.introspectionNode });
      }
    };
    for (const selection of set.selections) {
      if (errors.length >= MAX_REPORTED) break;
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) ?? parent : parent;
        merge(summarise(selection.selectionSet, type, introspection, at));
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments[selection.name.value];
        if (!fragment) continue;
        const key = `${fragment.name.value}|${introspection}`;
        let summary = memo.get(key);
        if (!summary) {
          if (inProgress.has(key)) continue; // a cycle; validation refuses those before we get here
          inProgress.add(key);
          summary = summarise(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value) ?? parent, introspection, at);
          inProgress.delete(key);
          memo.set(key, summary);
        }
        merge(summary);
        continue;
      }
      const name = selection.name.value;
      if (name === '__typename') continue;
      const inIntrospection = introspection || name === '__schema' || name === '__type';
      const label = selection.alias?.value ?? name;
      const field = fieldOf(schema, parent, name);
      if (!field) continue;
      // This field is read once per row of the set (× the page when it is a connection's nodes/edges).
      const scalesWithPage = name === 'nodes' || name === 'edges';
      const rows = inIntrospection ? fanout(name) : 1;
      let childPage: number | null = null;
      const connection = (field.extensions as Partial<ConnectionFieldExtension> | undefined)?.chainhostConnection;
      if (connection) {
        try {
          const args = getArgumentValues(field, selection, coerced.coerced) as ConnectionArgs;
          if (!findInvalidArgument(args as Record<string, unknown>)) {
            childPage = planConnection(connection.table, args, pageSizesFor({ max: limits.maxPageSize, relation: limits.relationPageSize }, connection.relation), connection.catalog).limit;
          }
        } catch (err) {
          // A bound of this server (LIST_TOO_LONG, PAGE_TOO_LARGE) refuses the request; a bad
          // argument fails its field when it runs, as in PostGraphile (input-errors.ts).
          if (isBoundError(err)) {
            errors.push(boundError(err, [...at, label].join('.'), selection));
            continue;
          }
        }
      }
      const own: Summary = { ...EMPTY };
      if (inIntrospection) Object.assign(own, { introspectionDepth: 1, introspectionPath: [label], introspectionNode: selection });
      else Object.assign(own, { depth: 1, path: [label], node: selection });
      let cost = 0;
      if (selection.selectionSet) {
        const child = summarise(selection.selectionSet, getNamedType(field.type), inIntrospection, [...at, label]);
        // Below a connection field, its nodes/edges are read once per row of its page.
        cost = rows * (1 + child.fixed + child.perPage * (childPage ?? 1));
        if (child.depth > 0) Object.assign(own, { depth: child.depth + 1, path: [label, ...child.path], node: child.node });
        if (child.introspectionDepth > 0) {
          Object.assign(own, { introspectionDepth: child.introspectionDepth + 1, introspectionPath: [label, ...child.introspectionPath], introspectionNode: child.introspectionNode });
        }
      }
      if (scalesWithPage) own.perPage = cost;
      else own.fixed = cost;
      merge(own);
    }
    return s;
  };

  const root = summarise(operation.selectionSet, schema.getQueryType()!, false, []);
  if (root.introspectionDepth > INTROSPECTION_MAX_DEPTH) {
    errors.unshift(new GraphQLError(
      `Introspection query is nested ${root.introspectionDepth} levels deep at ${root.introspectionPath.join('.')}; at most ${INTROSPECTION_MAX_DEPTH} are allowed`,
      { nodes: root.introspectionNode ?? operation, extensions: { code: 'QUERY_TOO_DEEP' } },
    ));
  }
  if (root.depth > limits.maxDepth) {
    errors.unshift(new GraphQLError(
      `Query is too deep: ${root.path.slice(0, limits.maxDepth + 1).join('.')} is nested ${root.depth} levels, above the limit of ${limits.maxDepth}; split it into several queries`,
      { nodes: root.node ?? operation, extensions: { code: 'QUERY_TOO_DEEP', maxDepth: limits.maxDepth } },
    ));
  }
  const cost = root.fixed + root.perPage;
  if (cost > limits.maxComplexity && errors.length < MAX_REPORTED) {
    errors.push(new GraphQLError(
      `Query is too complex: its estimated cost is ${Number.isFinite(cost) && cost < 1e15 ? Math.round(cost) : 'astronomical'}, above the limit of ${limits.maxComplexity}. Each object or connection field counts once per row it is read for; ask for fewer rows with first/last on the connections (nested connections multiply)`,
      { nodes: operation, extensions: { code: 'QUERY_TOO_COMPLEX', cost: Number.isFinite(cost) ? Math.round(cost) : null, maxComplexity: limits.maxComplexity } },
    ));
  }
  return errors;
}

function isBoundError(err: unknown): err is GraphQLError {
  return err instanceof GraphQLError && typeof err.extensions.code === 'string';
}

/** A connection's arguments beyond a bound of this server, with the planner's code and where they are. */
function boundError(err: GraphQLError, path: string, node: FieldNode): GraphQLError {
  return new GraphQLError(`${err.message} (at ${path})`, { nodes: node, extensions: err.extensions });
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
