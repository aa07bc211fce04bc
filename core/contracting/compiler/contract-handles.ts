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

  analyze(functions: FunctionDef[]): void {
    let factories = new Set<string>();
    let parameters = new Map<string, Set<string>>();
    for (;;) {
      const nextFactories = this.discoverFactories(functions, parameters);
      const nextParameters = this.discoverParameters(functions, nextFactories, parameters);
      if (sameSet(nextFactories, factories) && sameParameters(nextParameters, parameters)) {
        this.factories = nextFactories;
        this.parameters = nextParameters;
        return;
      }
      factories = nextFactories;
      parameters = nextParameters;
    }
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

  private discoverFactories(functions: FunctionDef[], parameterHandles: Map<string, Set<string>>): Set<string> {
    const discovered = new Set<string>();
    let changed = true;
    while (changed) {
      changed = false;
      for (const fn of functions) {
        if (discovered.has(fn.name)) continue;
        if (this.returnsHandle(fn, discovered, parameterHandles)) {
          discovered.add(fn.name);
          changed = true;
        }
      }
    }
    return discovered;
  }

  private returnsHandle(fn: FunctionDef, factories: ReadonlySet<string>, parameterHandles: Map<string, Set<string>>): boolean {
    const locals = this.localBindings(fn.body, factories, this.parameterBindings(fn, parameterHandles.get(fn.name)));
    const returns = returnValues(fn.body);
    return returns.length > 0 && returns.every((value) => this.isHandle(value, locals, factories));
  }

  private discoverParameters(
    functions: FunctionDef[],
    factories: ReadonlySet<string>,
    initial: Map<string, Set<string>>,
  ): Map<string, Set<string>> {
    const byName = new Map<string, FunctionDef>();
    for (const fn of functions) byName.set(fn.name, fn);
    const discovered = new Map<string, Set<string>>([...initial].map(([name, set]) => [name, new Set(set)]));
    let changed = true;
    while (changed) {
      changed = false;
      const evidence = new Map<string, Map<string, boolean[]>>();
      for (const caller of functions) {
        const locals = this.localBindings(caller.body, factories, this.parameterBindings(caller, discovered.get(caller.name)));
        for (const call of callExpressions(caller.body)) {
          const calleeName = nameId(call.func);
          if (calleeName === null) continue;
          const callee = byName.get(calleeName);
          if (!callee) continue;
          for (const [parameter, argument] of callArguments(callee, call)) {
            let perFunction = evidence.get(calleeName);
            if (!perFunction) evidence.set(calleeName, (perFunction = new Map()));
            let values = perFunction.get(parameter);
            if (!values) perFunction.set(parameter, (values = []));
            values.push(this.isHandle(argument, locals, factories));
          }
        }
      }
      for (const [fnName, parameters] of evidence) {
        let current = discovered.get(fnName);
        if (!current) discovered.set(fnName, (current = new Set()));
        for (const [parameter, values] of parameters) {
          if (values.length > 0 && values.every(Boolean) && !current.has(parameter)) {
            current.add(parameter);
            changed = true;
          }
        }
      }
    }
    for (const [name, set] of discovered) if (set.size === 0) discovered.delete(name);
    return discovered;
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

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((item) => b.has(item));
}

function sameParameters(a: Map<string, Set<string>>, b: Map<string, Set<string>>): boolean {
  return a.size === b.size && [...a].every(([name, set]) => b.has(name) && sameSet(set, b.get(name)!));
}
