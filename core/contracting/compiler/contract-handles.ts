import type { Expression } from './syntax-tree.js';
import {
  callExpressions, namedAssignments, nameId, returnValues, type CallExpression, type FunctionDef,
} from './syntax-queries.js';

/**
 * Which expressions hold a contract handle, so `handle.f(...)` lowers to a contract export call
 * (upstream C/ir.rs 664-897): static imports, `importlib.import_module(...)` calls, calls of
 * *factories* (functions whose every return is a handle), locals assigned a handle, and parameters
 * that every call site passes a handle. Both factories and handle parameters are fixpoints.
 */
export class ContractHandles {
  factories = new Set<string>();
  parameters = new Map<string, Set<string>>();

  constructor(
    private readonly staticImports: ReadonlySet<string>,
    private readonly isImportCall: (call: CallExpression) => boolean,
  ) {}

  /**
   * Upstream alternates two naive fixpoint loops (factories given handle parameters, then handle
   * parameters given factories) until neither changes — quadratic or worse in the number of
   * functions. Both properties only ever grow as the other grows, so that process ends at the least
   * joint fixpoint; this computes the same fixpoint with a worklist, re-examining a function only
   * when a function it calls became a factory or one of its own parameters became a handle.
   */
  analyze(functions: FunctionDef[]): void {
    const byName = new Map<string, FunctionDef>();
    for (const fn of functions) byName.set(fn.name, fn);
    const sameName = new Map<string, FunctionDef[]>();
    for (const fn of functions) sameName.set(fn.name, [...(sameName.get(fn.name) ?? []), fn]);
    const calls = new Map<FunctionDef, CallExpression[]>();
    const callers = new Map<string, Set<FunctionDef>>();
    for (const fn of functions) {
      const list = callExpressions(fn.body);
      calls.set(fn, list);
      for (const call of list) {
        const callee = nameId(call.func);
        if (callee === null) continue;
        if (!callers.has(callee)) callers.set(callee, new Set());
        callers.get(callee)!.add(fn);
      }
    }
    const factories = new Set<string>();
    const parameters = new Map<string, Set<string>>();
    // Per call site (caller, callee, parameter): whether the argument is a handle, kept so a
    // re-examined caller replaces its own verdicts; `missing` counts the non-handle ones.
    const verdicts = new Map<FunctionDef, { key: string; handle: boolean }[]>();
    const sites = new Map<string, number>();
    const missing = new Map<string, number>();
    const queue: FunctionDef[] = [...functions];
    const queued = new Set<FunctionDef>(functions);
    const enqueue = (fn: FunctionDef) => {
      if (!queued.has(fn)) {
        queued.add(fn);
        queue.push(fn);
      }
    };
    while (queue.length > 0) {
      const fn = queue.shift()!;
      queued.delete(fn);
      const locals = this.localBindings(fn.body, factories, this.parameterBindings(fn, parameters.get(fn.name)));
      if (!factories.has(fn.name)) {
        const returns = returnValues(fn.body);
        if (returns.length > 0 && returns.every((value) => this.isHandle(value, locals, factories))) {
          factories.add(fn.name);
          for (const caller of callers.get(fn.name) ?? []) enqueue(caller);
        }
      }
      for (const old of verdicts.get(fn) ?? []) {
        sites.set(old.key, sites.get(old.key)! - 1);
        if (!old.handle) missing.set(old.key, missing.get(old.key)! - 1);
      }
      const fresh: { key: string; handle: boolean }[] = [];
      const touched = new Set<string>();
      for (const call of calls.get(fn)!) {
        const calleeName = nameId(call.func);
        const callee = calleeName === null ? undefined : byName.get(calleeName);
        if (!callee) continue;
        for (const [parameter, argument] of callArguments(callee, call)) {
          const key = JSON.stringify([calleeName, parameter]);
          const handle = this.isHandle(argument, locals, factories);
          fresh.push({ key, handle });
          sites.set(key, (sites.get(key) ?? 0) + 1);
          if (!handle) missing.set(key, (missing.get(key) ?? 0) + 1);
          touched.add(key);
        }
      }
      verdicts.set(fn, fresh);
      for (const key of touched) {
        if ((sites.get(key) ?? 0) === 0 || (missing.get(key) ?? 0) > 0) continue;
        const [calleeName, parameter] = JSON.parse(key) as [string, string];
        let set = parameters.get(calleeName);
        if (!set) parameters.set(calleeName, (set = new Set()));
        if (set.has(parameter)) continue;
        set.add(parameter);
        for (const target of sameName.get(calleeName) ?? []) enqueue(target);
      }
    }
    this.factories = factories;
    this.parameters = parameters;
  }

  isHandle(e: Expression, locals: ReadonlyMap<string, Expression>, factories: ReadonlySet<string>): boolean {
    if (e.kind === 'Name') return this.staticImports.has(e.id) || locals.has(e.id);
    if (e.kind === 'Call') {
      if (this.isImportCall(e)) return true;
      const callee = nameId(e.func);
      if (callee !== null) return factories.has(callee);
    }
    return false;
  }

  /** Handle parameters of a function as bindings to themselves. */
  parameterBindings(fn: FunctionDef, handles: ReadonlySet<string> | undefined): Map<string, Expression> {
    const bindings = new Map<string, Expression>();
    if (!handles) return bindings;
    for (const parameter of fn.parameters) {
      if (handles.has(parameter.name)) bindings.set(parameter.name, { kind: 'Name', span: parameter.span, id: parameter.name });
    }
    return bindings;
  }

  /** Locals holding a handle, each with the expression that produced it (first one found wins). */
  localBindings(body: FunctionDef['body'], factories: ReadonlySet<string>, initial: Map<string, Expression>): Map<string, Expression> {
    const bindings = initial;
    const pending = namedAssignments(body);
    let changed = true;
    while (changed) {
      changed = false;
      for (const [name, value] of pending) {
        if (bindings.has(name)) continue;
        if (this.isHandle(value, bindings, factories)) {
          bindings.set(name, value);
          changed = true;
        }
      }
    }
    return bindings;
  }
}

/** Which parameter each argument of a call binds (positional by index, keywords by name). */
function callArguments(callee: FunctionDef, call: CallExpression): [string, Expression][] {
  const positional = callee.parameters.filter((p) => p.kind === 'positional_only' || p.kind === 'positional_or_keyword');
  const names = new Set(callee.parameters.map((p) => p.name));
  const out: [string, Expression][] = [];
  call.args.forEach((argument, index) => {
    const parameter = positional[index];
    if (parameter) out.push([parameter.name, argument]);
  });
  for (const keyword of call.keywords) {
    if (keyword.arg !== null && names.has(keyword.arg)) out.push([keyword.arg, keyword.value]);
  }
  return out;
}
