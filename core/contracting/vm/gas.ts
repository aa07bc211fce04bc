/** Per-node and per-operation raw gas of `xvm-gas-1` (xian-vm-core interpreter.rs constants). */
export const GAS_CALL_DISPATCH = 5_000;
export const GAS_EVENT_EMIT = 8_000;
export const GAS_VARIABLE_GET = 1_280;
export const GAS_VARIABLE_SET = 5_120;
export const GAS_HASH_SCAN = 4_096;
export const GAS_FUNCTION_ENTRY_COMPLEXITY_FLOOR = 40;
export const GAS_FUNCTION_ENTRY_EXCESS_NODE = 150;
export const GAS_LOOP_ITERATION = 96;

export const STATEMENT_GAS: Readonly<Record<string, number>> = {
  assign: 64, storage_set: 5_120, storage_mutate: 5_120, aug_assign: 96, return: 32, expr: 32,
  if: 96, while: 96, for: 96, assert: 96, raise: 96, break: 32, continue: 32, pass: 32,
};

/** `compare`, `bool_op` and `f_string` scale with their operand count (see `expressionGas`). */
export const EXPRESSION_GAS: Readonly<Record<string, number>> = {
  name: 64, constant: 32, list: 128, list_comp: 224, dict_comp: 288, tuple: 128, dict: 608,
  attribute: 96, subscript: 96, storage_get: 1_280, slice: 96, call: GAS_CALL_DISPATCH,
  compare: 96, bool_op: 96, bin_op: 96, unary_op: 64, if_expr: 96, f_string: 96, formatted_value: 96,
};

/** Function-entry charge: (IR objects with a `node` key in defaults and body − 40) × 150, floored at 0. */
export function functionEntryGas(complexity: number): number {
  return Math.max(0, complexity - GAS_FUNCTION_ENTRY_COMPLEXITY_FLOOR) * GAS_FUNCTION_ENTRY_EXCESS_NODE;
}

export function irNodeComplexity(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + irNodeComplexity(v), 0);
  if (value && typeof value === 'object') {
    let n = 'node' in value ? 1 : 0;
    for (const v of Object.values(value)) n += irNodeComplexity(v);
    return n;
  }
  return 0;
}
