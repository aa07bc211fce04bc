import { z } from 'zod';
import { type ChainIdGuard, type ChainNode, type ChainSimulator, coerceKwargsBySignature, simulationRequestJson } from 'chainhost/chain';
import { addressSchema, contractNameSchema, defineTool, functionNameSchema, intOut, intValue, kwargsSchema, rawOut, type ToolDefinition, toolJson, warningsOut, withExtras } from 'chainhost/plugin';

export interface SimulateToolDeps {
  node: ChainNode;
  simulator: ChainSimulator;
  guard: ChainIdGuard;
  includeRaw: boolean;
}

export function simulateTools(deps: SimulateToolDeps): ToolDefinition[] {
  return [
    defineTool({
      name: 'simulate_transaction',
      title: 'Simulate transaction',
      description:
        "Dry-runs contract.function(**kwargs) as the sender against committed state and discards the writes: status (0 success, 1 failure or refusal), chi_used (the chi estimate), the writes it would make (including the chi fee debit) and the result or error. No key needed; nothing is signed or sent.",
      capability: 'read',
      input: z.object({
        address: addressSchema.describe('the sender to simulate as (an address; no key needed)'),
        contract: contractNameSchema,
        function: functionNameSchema,
        kwargs: kwargsSchema,
      }),
      output: z.object({
        payload: z.unknown().describe('the request as the node normalised it'),
        status: z.number().int().describe('0 success, 1 failure or refusal'),
        success: z.boolean(),
        state: z.array(z.object({ key: z.string(), value: z.unknown() })).describe('writes that would happen, in order; decimals as strings'),
        chi_used: intOut,
        result: z.string().describe('the return value (safe string form) or the failure text'),
        refused: z.enum(['disabled', 'capacity', 'timeout', 'error']).nullable().describe('set when the node did not run the call at all'),
        warnings: warningsOut,
        raw: rawOut,
      }),
      run: async ({ address, contract, function: fn, kwargs }, ctx) => {
        const coerced = await coerceKwargsBySignature(deps.node, contract, fn, kwargs, ctx.signal);
        const request = { sender: address, contract, function: fn, kwargs: coerced };
        const [response, warnings] = await Promise.all([deps.simulator.simulate(request, { signal: ctx.signal }), deps.guard.warnings(ctx.signal)]);
        return withExtras(
          {
            payload: toolJson(response.payload),
            status: response.status,
            success: response.success,
            state: response.state.map((s) => ({ key: s.key, value: toolJson(s.value) })),
            chi_used: intValue(response.chi_used),
            result: response.result,
            refused: response.refusal,
          },
          { warnings, includeRaw: deps.includeRaw, raw: { request_json: simulationRequestJson(request), request_hex: response.hex, abci_query: response.query } },
        );
      },
    }),
  ];
}
