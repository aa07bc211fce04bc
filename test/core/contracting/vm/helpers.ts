import { runVm, type VmRunResult } from '../../../../core/contracting/vm/index.js';

/** Runs `fn` of the first module with `args`/`kwargs` (fixture encoding) and a plain context. */
export function call(
  modules: Record<string, unknown>[],
  fn: string,
  options: { args?: unknown[]; kwargs?: Record<string, unknown>; observe?: Record<string, unknown>; meter?: Record<string, unknown>; context?: Record<string, unknown>; initial?: Record<string, unknown> } = {},
): VmRunResult {
  const first = modules[0]!;
  return runVm({
    modules: modules.map((ir, i) => ({
      module_name: ir.module_name,
      ir,
      ...(i === 0 && options.initial ? { initial_state: options.initial } : {}),
    })),
    call: { module: first.module_name, function: fn, args: options.args ?? [], kwargs: options.kwargs ?? {} },
    context: options.context ?? { caller: 'alice', signer: 'alice', block_num: 7n, chain_id: 'testnet' },
    ...(options.observe ? { observe: options.observe } : {}),
    ...(options.meter ? { meter: options.meter } : {}),
  });
}
