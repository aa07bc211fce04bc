import { z } from 'zod';
import { abciInt, QueryPath } from 'chainhost/chain';
import { addressSchema, defineTool, intOut, intValue, nodeCall, rawOut, stateKeyPrefixSchema, stateKeySchema, type ToolDefinition, warningsOut, withExtras } from 'chainhost/plugin';
import { abciRead, isObject, readState, valueOf, type ReadDeps } from '../chain-reads.js';

export function stateTools(deps: ReadDeps): ToolDefinition[] {
  return [
    defineTool({
      name: 'get_state',
      title: 'Get state value',
      description:
        'Reads one committed state key, <contract>.<variable>[:<key>…] (e.g. currency.balances:<address>). Authoritative current value; decimals as exact strings, dicts and lists as JSON; null when unset.',
      capability: 'read',
      input: z.object({ state_key: stateKeySchema }),
      output: z.object({
        state_key: z.string(),
        state_value: z.unknown().describe('the value: decimal string, integer, boolean, text, JSON object or list, or null'),
        found: z.boolean(),
        type: z.string().describe('the node\'s type tag: int, decimal, bool, str, dict, list, or "" when unset'),
        height: z.string().describe('committed height the node answered at'),
        warnings: warningsOut,
        raw: rawOut,
      }),
      run: async ({ state_key }, ctx) => {
        const [{ value, query }, warnings] = await Promise.all([readState(deps, state_key, ctx.signal), deps.guard.warnings(ctx.signal)]);
        return withExtras(
          { state_key, state_value: value, found: query.value !== null, type: query.info, height: query.height },
          { warnings, includeRaw: deps.includeRaw, raw: { abci_query: query } },
        );
      },
    }),
    defineTool({
      name: 'list_state_keys',
      title: 'List state keys',
      description:
        'Scans committed state keys by prefix (e.g. currency.balances) in byte order, a page at a time. Items are the keys with the prefix removed; pass next_after back as after for the next page (null when there is no more).',
      capability: 'read',
      input: z.object({
        prefix: stateKeyPrefixSchema,
        limit: z.number().int().min(1).max(200).default(100).describe('keys per page, 1 to 200 (default 100)'),
        after: z
          .string()
          .min(1)
          .max(1024)
          .refine((v) => !v.includes('/'), 'must not contain "/"')
          .optional()
          .describe('cursor: next_after of the previous page (a key suffix or a full key)'),
      }),
      output: z.object({
        prefix: z.string(),
        items: z.array(z.string()),
        has_more: z.boolean(),
        next_after: z.string().nullable(),
        limit: z.number().int(),
        after: z.string().nullable(),
        warnings: warningsOut,
        raw: rawOut,
      }),
      run: async ({ prefix, limit, after }, ctx) => {
        const path = QueryPath.keys(prefix, { limit, after });
        const [query, warnings] = await Promise.all([abciRead(deps, path, `scanning keys under ${prefix}`, ctx.signal), deps.guard.warnings(ctx.signal)]);
        const json = await nodeCall(`scanning keys under ${prefix}`, async () => valueOf(query));
        // Older nodes answer a plain list of every suffix.
        const page = isObject(json) ? json : { items: Array.isArray(json) ? json : [], has_more: false, next_after: null };
        const items = (Array.isArray(page['items']) ? page['items'] : []).map(String);
        const nextAfter = typeof page['next_after'] === 'string' ? page['next_after'] : null;
        return withExtras(
          { prefix, items, has_more: page['has_more'] === true, next_after: nextAfter, limit, after: after ?? null },
          { warnings, includeRaw: deps.includeRaw, raw: { abci_query: query } },
        );
      },
    }),
    defineTool({
      name: 'get_next_nonce',
      title: 'Get next nonce',
      description: 'The nonce the next transaction from this address must carry (pending-aware: counts transactions accepted but not yet in a block; 0 for a new account).',
      capability: 'read',
      input: z.object({ address: addressSchema }),
      output: z.object({ address: z.string(), nonce: intOut, warnings: warningsOut, raw: rawOut }),
      run: async ({ address }, ctx) => {
        const path = QueryPath.nextNonce(address);
        const [query, warnings] = await Promise.all([abciRead(deps, path, `reading the next nonce of ${address}`, ctx.signal), deps.guard.warnings(ctx.signal)]);
        const nonce = await nodeCall('reading the next nonce', async () => abciInt(query) ?? 0n);
        return withExtras({ address, nonce: intValue(nonce) }, { warnings, includeRaw: deps.includeRaw, raw: { abci_query: query } });
      },
    }),
  ];
}
