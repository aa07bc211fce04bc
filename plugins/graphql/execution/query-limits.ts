import {
  GraphQLError, getArgumentValues, getNamedType, getOperationAST, getVariableValues, isInterfaceType, isObjectType, Kind,
  type DocumentNode, type FieldNode, type FragmentDefinitionNode, type GraphQLField, type GraphQLNamedType, type GraphQLSchema, type SelectionSetNode,
} from 'graphql';
import { pageSizesFor, planConnection, type ConnectionArgs } from '../sql/connection-plan.js';
import type { ConnectionFieldExtension } from '../schema/table-types.js';
import { introspectionFanout } from './introspection-cost.js';
import { findInvalidArgument, argumentError } from './input-errors.js';
import { variableNestingError } from './input-nesting.js';
import { rowsReadError } from './request-context.js';

/**
 * Checks a parsed, valid operation against the server's limits before anything runs, with the
 * request's variables: nesting depth, estimated cost, and every connection's arguments
 * (`first`/`last` cap, list lengths) planned exactly as the resolvers will plan them. Anything
 * refused here is a request error (HTTP 400) that names the limit and by how much the query
 * exceeds it, never a partial result. Bad argument values (a negative `first`, a foreign
 * cursor) are not refused here: as in PostGraphile they fail their field during execution
 * (input-errors.ts).
 *
 * Cost: every selected field with a selection of its own (objects, lists, connections) counts
 * once per row it is resolved for — every alias and repeated root field on its own. A
 * connection's `nodes` and `edges` are resolved for the rows its pages can hold together: its
 * parents' count times `first`/`last` (every row when neither is given), but never more than
 * its table can return (its row estimate, with a margin: table-row-estimates.ts), than its
 * parents' average children (a backward relation) allow with a margin, nor `maxRowsRead`
 * (execution refuses a query reading more). So `first: 2147483647` on a small table costs that
 * table's rows, and an explicit child cap never costs more than no cap. Scalars are free: their
 * number per row is bounded by the document's token cap. Introspection counts the same way,
 * its lists (`types`, `fields`, `args`…) standing for as many rows as the schema holds
 * (introspection-cost.ts).
 *
 * Depth counts relation levels (a root field, a relation, `node`), not the connection and edge
 * wrappers between them (`nodes`, `edges`, `node` of an edge, `pageInfo`): 16 by default, above
 * the 10 levels an explorer's query (blocks → transactions → events → …) writes on PostGraphile.
 *
 * The walk is linear in the document for a given row count: a fragment is summarised once per
 * (fragment, rows) and every spread reuses it, and the number of summaries is itself bounded, so
 * fragments that spread each other twice cannot make it exponential.
 */
export interface QueryLimits {
  maxDepth: number;
  maxComplexity: number;
  maxPageSize: number | null;
  relationPageSize: number | null;
  /** Rows one request may read (execution refuses past it); bounds every connection's rows here. */
  maxRowsRead: number;
  /** The rows a table holds by the planner's estimate (null: unknown). */
  rowEstimate?: (table: string) => number | null;
}

/** Introspection (GraphiQL's query nests `ofType` ~9 levels) is held to its own fixed depth. */
const INTROSPECTION_MAX_DEPTH = 20;
const MAX_REPORTED = 5;
/** Summaries of (fragment, rows) one check may compute before it calls the document too complex. */
const MAX_SUMMARIES = 20_000;

/** What a selection set costs for a given number of parent rows (and page rows below a connection). */
interface Summary {
  cost: number;
  /** Rows the counts and aggregates below read (`totalCount`, `aggregates`…): each one the rows of its connection. */
  reads: number;
  /** Deepest relation level below, relative to the set (0: none), with its path and node. */
  depth: number;
  path: string[];
  node: FieldNode | null;
  /** Deepest introspection field below, relative to the set. */
  introspectionDepth: number;
  introspectionPath: string[];
  introspectionNode: FieldNode | null;
}

const EMPTY: Summary = { cost: 0, reads: 0, depth: 0, path: [], node: null, introspectionDepth: 0, introspectionPath: [], introspectionNode: null };

/** A table's rows as the cost counts them: the estimate with a margin (it may be stale). */
function tableRowBound(estimate: number): number {
  return Math.ceil(estimate * 1.5) + 100;
}

/** Children per parent row the cost assumes for a relation without `first`/`last`: the tables' average, times this. */
const FANOUT_MARGIN = 4;

/**
 * A connection's fields that read every row it matches, whatever its page: `count(*)` or an
 * aggregate over the whole connection. Each counts as reading those rows, so a flood of aliased
 * counts is judged by what the database will scan, not by the few bytes it answers.
 */
const COUNTING_FIELDS: ReadonlySet<string> = new Set(['totalCount', 'aggregates', 'groupedAggregates']);

/** Connection and edge types: their fields (`nodes`, `edges`, `node`, `pageInfo`…) are no relation level. */
function isWrapper(type: GraphQLNamedType): boolean {
  return /(Connection|Edge)$/.test(type.name);
}

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
  const estimate = (table: string) => {
    const n = limits.rowEstimate?.(table);
    return n === null || n === undefined || !Number.isFinite(n) || n < 0 ? null : n;
  };
  /**
   * The rows a connection over `table` yields for `parents` parent rows with pages of `page`
   * rows (null: every row): never more than the table holds, than a backward relation's
   * average children per parent (with a margin) allow, or than a request may read. A table of
   * unknown size (its estimate not loaded yet) counts one row per parent without a page size.
   */
  const connectionRows = (table: string, parentTable: string | null, parents: number, page: number | null): number => {
    let most = limits.maxRowsRead;
    const rows = estimate(table);
    if (rows === null) most = Math.min(most, parents);
    else {
      most = Math.min(most, tableRowBound(rows));
      const parentRows = parentTable === null ? null : estimate(parentTable);
      if (parentRows !== null) most = Math.min(most, parents * Math.max(1, Math.ceil((FANOUT_MARGIN * rows) / Math.max(1, parentRows))));
    }
    return Math.min(parents * (page ?? Number.POSITIVE_INFINITY), most);
  };

  const errors: GraphQLError[] = [];
  const memo = new Map<string, Summary>();
  const inProgress = new Set<string>();
  let summaries = 0;
  let exhausted = false;

  // `rows`: how many times the set is resolved; `pageRows`: rows of the pages when the set is a connection's;
  // `matchRows`: every row the connection matches (what its counts read), 0 outside a connection.
  // `at` is the path for error messages (a fragment reports the first place it is spread).
  const summarise = (set: SelectionSetNode, parent: GraphQLNamedType, introspection: boolean, at: readonly string[], rows: number, pageRows: number, matchRows = 0): Summary => {
    const s: Summary = { ...EMPTY };
    if (++summaries > MAX_SUMMARIES) {
      exhausted = true;
      return s;
    }
    const merge = (child: Summary) => {
      s.cost += child.cost;
      s.reads += child.reads;
      if (child.depth > s.depth) Object.assign(s, { depth: child.depth, path: child.path, node: child.node });
      if (child.introspectionDepth > s.introspectionDepth) {
        Object.assign(s, { introspectionDepth: child.introspectionDepth, introspectionPath: child.introspectionPath, introspectionNode: child.introspectionNode });
      }
    };
    for (const selection of set.selections) {
      if (errors.length >= MAX_REPORTED || exhausted) break;
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) ?? parent : parent;
        merge(summarise(selection.selectionSet, type, introspection, at, rows, pageRows, matchRows));
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments[selection.name.value];
        if (!fragment) continue;
        const key = `${fragment.name.value}|${introspection}|${rows}|${pageRows}|${matchRows}`;
        let summary = memo.get(key);
        if (!summary) {
          if (inProgress.has(key)) continue; // a cycle; validation refuses those before we get here
          inProgress.add(key);
          summary = summarise(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value) ?? parent, introspection, at, rows, pageRows, matchRows);
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
      // A connection's nodes/edges are read once per row of its pages; any other field once per row of the set.
      const fieldRows = inIntrospection ? rows * fanout(name) : isWrapper(parent) && (name === 'nodes' || name === 'edges') ? pageRows : rows;
      let childPageRows = 1;
      let childMatchRows = 0;
      const connection = (field.extensions as Partial<ConnectionFieldExtension> | undefined)?.chainhostConnection;
      if (connection) {
        let page: number | null = null;
        try {
          const args = getArgumentValues(field, selection, coerced.coerced) as ConnectionArgs;
          if (!findInvalidArgument(args as Record<string, unknown>)) {
            page = planConnection(connection.table, args, pageSizesFor({ max: limits.maxPageSize, relation: limits.relationPageSize }, connection.relation), connection.catalog).limit;
          }
        } catch (err) {
          // A bound of this server (LIST_TOO_LONG, PAGE_TOO_LARGE) refuses the request; a bad
          // argument fails its field when it runs, as in PostGraphile (input-errors.ts).
          if (isBoundError(err)) {
            errors.push(boundError(err, [...at, label].join('.'), selection));
            continue;
          }
        }
        // Every parent's page together, but no more than the table holds or a request may read.
        childPageRows = connectionRows(connection.table.name, connection.foreignKey?.references.table ?? null, fieldRows, page);
        childMatchRows = connectionRows(connection.table.name, connection.foreignKey?.references.table ?? null, fieldRows, null);
      }
      const own: Summary = { ...EMPTY };
      if (isWrapper(parent) && COUNTING_FIELDS.has(name)) own.reads = matchRows;
      // A relation level: an object or connection field outside the connection/edge wrappers (scalars are none).
      const level = inIntrospection || (!isWrapper(parent) && selection.selectionSet) ? 1 : 0;
      if (inIntrospection) Object.assign(own, { introspectionDepth: 1, introspectionPath: [label], introspectionNode: selection });
      else if (level) Object.assign(own, { depth: 1, path: [label], node: selection });
      if (selection.selectionSet) {
        const child = summarise(selection.selectionSet, getNamedType(field.type), inIntrospection, [...at, label], fieldRows, childPageRows, childMatchRows);
        own.cost = fieldRows + child.cost;
        own.reads += child.reads;
        if (child.depth > 0) Object.assign(own, { depth: child.depth + level, path: [label, ...child.path], node: child.node });
        if (child.introspectionDepth > 0) {
          Object.assign(own, { introspectionDepth: child.introspectionDepth + 1, introspectionPath: [label, ...child.introspectionPath], introspectionNode: child.introspectionNode });
        }
      }
      merge(own);
    }
    return s;
  };

  const root = summarise(operation.selectionSet, schema.getQueryType()!, false, [], 1, 1);
  if (exhausted) {
    errors.unshift(new GraphQLError(
      `Query is too complex to estimate: its fragments spread into more than ${MAX_SUMMARIES} distinct selections (plugins.graphql.maxComplexity); split it into several queries`,
      { nodes: operation, extensions: { code: 'QUERY_TOO_COMPLEX', maxComplexity: limits.maxComplexity } },
    ));
    return errors;
  }
  if (root.introspectionDepth > INTROSPECTION_MAX_DEPTH) {
    errors.unshift(new GraphQLError(
      `Introspection query is nested ${root.introspectionDepth} levels deep at ${root.introspectionPath.join('.')}, ${root.introspectionDepth - INTROSPECTION_MAX_DEPTH} above the limit of ${INTROSPECTION_MAX_DEPTH}`,
      { nodes: root.introspectionNode ?? operation, extensions: { code: 'QUERY_TOO_DEEP', depth: root.introspectionDepth, maxDepth: INTROSPECTION_MAX_DEPTH } },
    ));
  }
  if (root.depth > limits.maxDepth) {
    errors.unshift(new GraphQLError(
      `Query is too deep: ${root.path.join('.')} nests ${root.depth} relation levels, ${root.depth - limits.maxDepth} above the limit of ${limits.maxDepth} (plugins.graphql.maxDepth); split it into several queries`,
      { nodes: root.node ?? operation, extensions: { code: 'QUERY_TOO_DEEP', depth: root.depth, maxDepth: limits.maxDepth } },
    ));
  }
  if (root.reads > limits.maxRowsRead && errors.length < MAX_REPORTED) {
    const reads = Number.isFinite(root.reads) ? Math.round(root.reads) : Number.MAX_SAFE_INTEGER;
    errors.push(rowsReadError(limits.maxRowsRead, reads, operation, 'each totalCount or aggregate counts every row its connection matches; ask for fewer counts, or narrow them with condition or filter'));
  }
  const cost = root.cost;
  if (cost > limits.maxComplexity && errors.length < MAX_REPORTED) {
    const shown = Number.isFinite(cost) && cost < 1e15 ? Math.round(cost) : null;
    errors.push(new GraphQLError(
      `Query is too complex: its estimated cost is ${shown ?? 'astronomical'}, ${shown === null ? 'far' : shown - limits.maxComplexity} above the limit of ${limits.maxComplexity} (plugins.graphql.maxComplexity). Each object or connection field counts once per row it is read for (every alias on its own); ask for fewer rows with first/last on the connections (nested connections multiply)`,
      { nodes: operation, extensions: { code: 'QUERY_TOO_COMPLEX', cost: shown, maxComplexity: limits.maxComplexity } },
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
