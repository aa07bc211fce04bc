import { z } from 'zod';
import { QueryPath } from 'chainhost/chain';
import { ApiError, contractNameSchema, defineTool, nodeCall, rawOut, type ToolDefinition, warningsOut, withExtras } from 'chainhost/plugin';
import { abciRead, isObject, valueOf, type ReadDeps } from '../chain-reads.js';

const methodOut = z.object({
  name: z.string(),
  arguments: z.array(z.object({ name: z.string(), type: z.string().nullable() })),
});

export function contractTools(deps: ReadDeps): ToolDefinition[] {
  return [
    defineTool({
      name: 'get_contract_source',
      title: 'Get contract source',
      description: 'The stored canonical source code of a contract (null when the contract does not exist or keeps no source).',
      capability: 'read',
      input: z.object({ contract_name: contractNameSchema }),
      output: z.object({ contract_name: z.string(), source: z.string().nullable(), found: z.boolean(), warnings: warningsOut, raw: rawOut }),
      run: async ({ contract_name }, ctx) => {
        const path = QueryPath.contractSource(contract_name);
        const [query, warnings] = await Promise.all([abciRead(deps, path, `reading the source of ${contract_name}`, ctx.signal), deps.guard.warnings(ctx.signal)]);
        const value = await nodeCall('reading contract source', async () => valueOf(query));
        const source = typeof value === 'string' ? value : null;
        return withExtras({ contract_name, source, found: source !== null }, { warnings, includeRaw: deps.includeRaw, raw: { abci_query: query } });
      },
    }),
    defineTool({
      name: 'get_contract_methods',
      title: 'Get contract methods',
      description: 'The public functions of a contract with their argument names and type annotations (str, float, int, bool, dict, list, Any, datetime.datetime …; null when unannotated).',
      capability: 'read',
      input: z.object({ contract_name: contractNameSchema }),
      output: z.object({ contract_name: z.string(), methods: z.array(methodOut), warnings: warningsOut, raw: rawOut }),
      run: async ({ contract_name }, ctx) => {
        const path = QueryPath.contractMethods(contract_name);
        const [query, warnings] = await Promise.all([abciRead(deps, path, `reading the methods of ${contract_name}`, ctx.signal), deps.guard.warnings(ctx.signal)]);
        const value = await nodeCall('reading contract methods', async () => valueOf(query));
        if (value === null) throw ApiError.notFound(`contract ${contract_name} does not exist (no methods, IR or source stored)`, { contract_name });
        const list = isObject(value) && Array.isArray(value['methods']) ? value['methods'] : [];
        const methods = list.filter(isObject).map((m) => ({
          name: String(m['name'] ?? ''),
          arguments: (Array.isArray(m['arguments']) ? m['arguments'] : []).filter(isObject).map((a) => ({
            name: String(a['name'] ?? ''),
            type: typeof a['type'] === 'string' ? a['type'] : null,
          })),
        }));
        return withExtras({ contract_name, methods }, { warnings, includeRaw: deps.includeRaw, raw: { abci_query: query } });
      },
    }),
  ];
}
