import {
  defaultFieldResolver, execute, getArgumentValues, getNamedType, getOperationAST, getVariableValues, isLeafType, isListType, isNonNullType,
  isObjectType, Kind, type DocumentNode, type ExecutionArgs, type ExecutionResult, type FieldNode, type FragmentDefinitionNode,
  type GraphQLField, type GraphQLFieldResolver, type GraphQLLeafType, type GraphQLObjectType, type GraphQLOutputType, type GraphQLResolveInfo,
  type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode,
} from 'graphql';

/**
 * graphql-js's `execute`, with a shortcut for the plain queries clients send over and over
 * (an explorer's blocks → transactions → events). graphql-js spends, for every field of every
 * row, a resolve-info object, a path entry, the field's arguments coerced again and a walk of
 * the type wrappers; on a page of 300 rows that was most of a request's CPU, several times its
 * SQL. Here a document's operation is compiled once (cached with the document) into a plan per
 * selection set, and a request walks the rows with that plan: arguments and resolve info once
 * per field and request, values completed as graphql-js completes them (same resolvers, same
 * scalar serializers, same call order, so batch loaders batch the same). Result objects are
 * plain objects filled in one key order per selection (graphql-js's have no prototype, which
 * V8 keeps as hash tables: serializing the answer took twice as long); a `__proto__` alias is
 * therefore left to graphql-js.
 *
 * Only what the plan covers exactly takes the shortcut: a query of fields and fragments on the
 * types they select (no directives, no abstract types, no introspection, no field asked twice
 * under one key, nothing contributed by another plugin). Anything else, and any request whose
 * execution meets an error (a resolver that throws, a null where the type forbids it, a value
 * a scalar cannot serialize), is executed by graphql-js from the start with a fresh context,
 * so its answer, errors and partial data included, is graphql-js's own.
 */

/** Marks a field whose resolver is not this plugin's (a contribution): the shortcut leaves it to graphql-js. */
export const FOREIGN_FIELD = 'chainhostForeignResolver';

type Complete = (run: Run, value: unknown) => unknown;

interface FieldPlan {
  key: string;
  /** null: `__typename`. */
  field: GraphQLField<unknown, unknown> | null;
  node: FieldNode;
  fieldNodes: readonly FieldNode[];
  parentType: GraphQLObjectType;
  resolve: GraphQLFieldResolver<unknown, unknown>;
  complete: Complete;
  /** Index of this field's arguments and resolve info in a run. */
  slot: number;
}

interface OperationPlan {
  operation: OperationDefinitionNode;
  root: GraphQLObjectType;
  fields: FieldPlan[];
  slots: FieldPlan[];
  fragments: Record<string, FragmentDefinitionNode>;
}

/** Thrown (and rejected with) when a request leaves the shortcut; never reaches a client. */
const ABANDON = Symbol('chainhost.graphql.abandon');

interface Run {
  schema: GraphQLSchema;
  plan: OperationPlan;
  context: unknown;
  rootValue: unknown;
  variables: Record<string, unknown>;
  args: Array<Record<string, unknown> | undefined>;
  infos: Array<GraphQLResolveInfo | undefined>;
}

const plans = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, OperationPlan | null>>>();

/** The compiled plan of `document`'s operation, null when the shortcut does not cover it (cached either way). */
export function operationPlan(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): OperationPlan | null {
  let bySchema = plans.get(schema);
  if (!bySchema) plans.set(schema, (bySchema = new WeakMap()));
  let byName = bySchema.get(document);
  if (!byName) bySchema.set(document, (byName = new Map()));
  const name = operationName ?? '';
  if (byName.has(name)) return byName.get(name)!;
  const plan = compileOperation(schema, document, operationName);
  byName.set(name, plan);
  return plan;
}

function compileOperation(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): OperationPlan | null {
  const operation = getOperationAST(document, operationName ?? undefined);
  const root = schema.getQueryType();
  if (!operation || operation.operation !== 'query' || operation.directives?.length || !root) return null;
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  const slots: FieldPlan[] = [];
  const fields = compileSet(schema, root, operation.selectionSet, fragments, slots);
  return fields ? { operation, root, fields, slots, fragments } : null;
}

/** Field nodes selected on `type` in document order, fragments on `type` itself expanded; null when that is not all there is. */
function flatten(type: GraphQLObjectType, set: SelectionSetNode, fragments: Record<string, FragmentDefinitionNode>, spreading: Set<string>, out: FieldNode[]): boolean {
  for (const s of set.selections) {
    if (s.directives?.length) return false;
    if (s.kind === Kind.FIELD) out.push(s);
    else if (s.kind === Kind.INLINE_FRAGMENT) {
      if (s.typeCondition && s.typeCondition.name.value !== type.name) return false;
      if (!flatten(type, s.selectionSet, fragments, spreading, out)) return false;
    } else {
      const fragment = fragments[s.name.value];
      // A fragment spread twice in one set, or within itself, is merged by graphql-js: left to it.
      if (!fragment || fragment.directives?.length || fragment.typeCondition.name.value !== type.name || spreading.has(s.name.value)) return false;
      spreading.add(s.name.value);
      if (!flatten(type, fragment.selectionSet, fragments, spreading, out)) return false;
    }
  }
  return true;
}

function compileSet(
  schema: GraphQLSchema, type: GraphQLObjectType, set: SelectionSetNode, fragments: Record<string, FragmentDefinitionNode>, slots: FieldPlan[],
): FieldPlan[] | null {
  if (type.isTypeOf) return null;
  const nodes: FieldNode[] = [];
  if (!flatten(type, set, fragments, new Set(), nodes)) return null;
  const out: FieldPlan[] = [];
  const seen = new Set<string>();
  for (const node of nodes) {
    const key = node.alias?.value ?? node.name.value;
    if (seen.has(key)) return null; // graphql-js merges the two selections: left to it
    if (key === '__proto__') return null; // would set a plain object's prototype
    seen.add(key);
    const name = node.name.value;
    if (name === '__typename') {
      if (node.selectionSet) return null;
      out.push({ key, field: null, node, fieldNodes: [node], parentType: type, resolve: defaultFieldResolver, complete: () => type.name, slot: -1 });
      continue;
    }
    const field = type.getFields()[name];
    if (!field || name.startsWith('__') || (field.extensions as Record<string, unknown> | undefined)?.[FOREIGN_FIELD]) return null;
    const complete = completer(schema, field.type, node, fragments, slots);
    if (!complete) return null;
    const plan: FieldPlan = { key, field, node, fieldNodes: [node], parentType: type, resolve: field.resolve ?? defaultFieldResolver, complete, slot: slots.length };
    slots.push(plan);
    out.push(plan);
  }
  return out;
}

/** How a value of `type` is completed, as graphql-js's completeValue does for the cases the shortcut covers. */
function completer(
  schema: GraphQLSchema, type: GraphQLOutputType, node: FieldNode, fragments: Record<string, FragmentDefinitionNode>, slots: FieldPlan[],
): Complete | null {
  if (isNonNullType(type)) {
    const inner = completer(schema, type.ofType, node, fragments, slots);
    if (!inner) return null;
    return (run, value) => {
      if (value === null || value === undefined) throw ABANDON;
      return inner(run, value);
    };
  }
  const nullable = (complete: Complete): Complete => (run, value) => {
    if (value instanceof Error) throw ABANDON;
    if (value === null || value === undefined) return null;
    return complete(run, value);
  };
  if (isListType(type)) {
    const item = completer(schema, type.ofType, node, fragments, slots);
    if (!item) return null;
    return nullable((run, value) => {
      if (!Array.isArray(value)) throw ABANDON;
      let waiting = false;
      const out = new Array<unknown>(value.length);
      for (let i = 0; i < value.length; i++) {
        const v = value[i];
        const c = isThenable(v) ? guard(v.then((resolved) => item(run, resolved))) : item(run, v);
        if (isThenable(c)) waiting = true;
        out[i] = c;
      }
      return waiting ? guard(Promise.all(out)) : out;
    });
  }
  if (isLeafType(type)) {
    if (node.selectionSet) return null;
    const leaf: GraphQLLeafType = type;
    return nullable((_run, value) => {
      const serialized: unknown = leaf.serialize(value);
      if (serialized === null || serialized === undefined) throw ABANDON;
      return serialized;
    });
  }
  if (isObjectType(type)) {
    if (!node.selectionSet) return null;
    const fields = compileSet(schema, type, node.selectionSet, fragments, slots);
    if (!fields) return null;
    return nullable((run, value) => executeFields(run, fields, value));
  }
  return null; // interfaces and unions: graphql-js resolves the type
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function noop(): void {}

/** A promise whose rejection someone may never wait for (the request was abandoned first): never an unhandled rejection. */
function guard<T>(promise: PromiseLike<T>): Promise<T> {
  const p = Promise.resolve(promise);
  p.catch(noop);
  return p;
}

function argsOf(run: Run, plan: FieldPlan): Record<string, unknown> {
  let args = run.args[plan.slot];
  if (!args) run.args[plan.slot] = args = getArgumentValues(plan.field!, plan.node, run.variables);
  return args;
}

function infoOf(run: Run, plan: FieldPlan): GraphQLResolveInfo {
  let info = run.infos[plan.slot];
  if (!info) {
    // One per field and request: no resolver of this plugin reads `path` (per row in graphql-js), so it is left out.
    run.infos[plan.slot] = info = {
      fieldName: plan.field!.name, fieldNodes: plan.fieldNodes, returnType: plan.field!.type, parentType: plan.parentType,
      path: { prev: undefined, key: plan.key, typename: plan.parentType.name }, schema: run.schema, fragments: run.plan.fragments,
      rootValue: run.rootValue, operation: run.plan.operation, variableValues: run.variables,
    };
  }
  return info;
}

/** An object's fields, in the plan's order: the object itself, or a promise of it when a field waits. */
function executeFields(run: Run, fields: readonly FieldPlan[], source: unknown): unknown {
  const result: Record<string, unknown> = {};
  let waiting: Array<Promise<unknown>> | null = null;
  for (const plan of fields) {
    let value: unknown;
    if (plan.field === null) value = plan.complete(run, null);
    else {
      let resolved: unknown;
      try {
        resolved = plan.resolve(source, argsOf(run, plan), run.context, infoOf(run, plan));
      } catch {
        throw ABANDON;
      }
      value = isThenable(resolved) ? guard(resolved.then((v) => plan.complete(run, v))) : plan.complete(run, resolved);
    }
    if (isThenable(value)) {
      const key = plan.key;
      (waiting ??= []).push(Promise.resolve(value).then((v) => {
        result[key] = v;
      }));
    }
    result[plan.key] = value;
  }
  return waiting ? guard(Promise.all(waiting).then(() => result)) : result;
}

/**
 * Runs `plan` over the request, or answers `null` when it left the shortcut (then graphql-js
 * runs the request from the start).
 */
async function runPlan(args: ExecutionArgs, plan: OperationPlan): Promise<ExecutionResult | null> {
  const coerced = getVariableValues(args.schema, plan.operation.variableDefinitions ?? [], args.variableValues ?? {}, { maxErrors: 1 });
  if (coerced.errors) return null;
  const run: Run = {
    schema: args.schema, plan, context: args.contextValue, rootValue: args.rootValue, variables: coerced.coerced,
    args: new Array(plan.slots.length), infos: new Array(plan.slots.length),
  };
  try {
    const data = await executeFields(run, plan.fields, args.rootValue);
    return { data: data as Record<string, unknown> };
  } catch {
    // ABANDON, or an error a resolver or serializer threw: graphql-js answers it as it does.
    return null;
  }
}

/** Which executor answered a request (for tests and diagnostics). */
export type ExecutedBy = 'plan' | 'graphql-js' | 'graphql-js after leaving the plan';

/**
 * graphql-js's `execute` for a query whose document is already validated; `freshContext`
 * gives graphql-js a context of its own when a request leaves the shortcut (the first
 * attempt's loaders and row budget are spent).
 */
export async function executeQuery(args: ExecutionArgs, freshContext: () => unknown, executedBy?: (by: ExecutedBy) => void): Promise<ExecutionResult> {
  const plan = operationPlan(args.schema, args.document, args.operationName);
  if (!plan) {
    executedBy?.('graphql-js');
    return execute(args);
  }
  const result = await runPlan(args, plan);
  if (result) {
    executedBy?.('plan');
    return result;
  }
  executedBy?.('graphql-js after leaving the plan');
  return execute({ ...args, contextValue: freshContext() });
}
