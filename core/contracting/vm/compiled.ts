import type { VmInstance } from './instance.js';
import type { VmValue } from './values.js';

/** The executable form of a module: IR validated and turned into closures once per load. */
export type Scope = Map<string, VmValue>;
export type Expr = (scope: Scope, inst: VmInstance) => VmValue;
/** Statement result: FLOW_NEXT, FLOW_BREAK, FLOW_CONTINUE or FLOW_RETURN (value in `inst.returnValue`). */
export type Stmt = (scope: Scope, inst: VmInstance) => number;
export type Assign = (scope: Scope, inst: VmInstance, value: VmValue, moduleScope: boolean) => void;

export const FLOW_NEXT = 0;
export const FLOW_BREAK = 1;
export const FLOW_CONTINUE = 2;
export const FLOW_RETURN = 3;

export interface CompiledParam {
  name: string;
  kind: 'positional_or_keyword' | 'keyword_only' | 'vararg' | 'kwarg';
  annotation: string | null;
  default: Expr | null;
}

export interface CompiledFunction {
  name: string;
  visibility: string;
  typecheck: boolean;
  params: CompiledParam[];
  returns: string | null;
  body: Stmt;
  /** Function-entry gas, computed once from the IR. */
  entryGas: number;
}

export interface CompiledModule {
  name: string;
  imports: [string, string][];
  declarations: ((inst: VmInstance) => void)[];
  body: Stmt | null;
  functions: Map<string, CompiledFunction>;
}
