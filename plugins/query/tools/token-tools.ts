import { z } from 'zod';
import { type JsonValue, QueryPath } from 'chainhost/chain';
import { contractNameSchema, defineTool, nodeCall, rawOut, type ToolDefinition, warningsOut, withExtras } from 'chainhost/plugin';
import { abciRead, indexedRead, isObject, listContractNames, mapLimited, readState, valueOf, type ReadDeps } from '../chain-reads.js';

const PAGE = 1_000;
/** Pages of /token_contracts read at most (10,000 tokens). */
const MAX_PAGES = 10;
const FALLBACK_MAX_CONTRACTS = 1_000;
/** Token symbols read from GraphQL: as many as the BDS token list is searched for. */
const GRAPHQL_MAX_SYMBOLS = MAX_PAGES * PAGE;
/** The metadata keys the anchor reads, in its order. */
const ANCHOR_METADATA = ['operator', 'token_logo_url', 'token_name', 'token_symbol', 'token_website'];

export function tokenTools(deps: ReadDeps): ToolDefinition[] {
  return [
    defineTool({
      name: 'get_token_contract_by_symbol',
      title: 'Find token by symbol',
      description:
        'Token contracts whose metadata token_symbol equals the symbol (case-insensitive). Uses the BDS token list when available, else the GraphQL endpoint CHAIN_GRAPHQL, else scans contract metadata in current state. Several tokens may share a symbol: check the contract before sending.',
      capability: 'read',
      timeoutMs: 60_000,
      input: z.object({ token_symbol: z.string().trim().min(1).max(64).describe('token symbol, e.g. TAU (compared upper-cased)') }),
      output: z.object({
        token_symbol: z.string(),
        token_contracts: z.array(z.string()),
        count: z.number().int(),
        source: z.enum(['bds', 'graphql', 'state']),
        message: z.string().optional(),
        warnings: warningsOut,
        raw: rawOut,
      }),
      run: async ({ token_symbol }, ctx) => {
        const wanted = token_symbol.toUpperCase();
        const warnings = await deps.guard.warnings(ctx.signal);
        let source: 'bds' | 'graphql' | 'state' = 'bds';
        let found = await indexedTokensBySymbol(deps, wanted, warnings, ctx.signal);
        if (found === null) {
          const viaGraphql = await deps.graphql.contractStates('.metadata:token_symbol', GRAPHQL_MAX_SYMBOLS, ctx.signal);
          if ('rows' in viaGraphql) {
            source = 'graphql';
            found = viaGraphql.rows.filter((row) => typeof row.value === 'string' && row.value.toUpperCase() === wanted).map((row) => row.contract);
            warnings.push(`BDS token index unavailable; searched the token symbols indexed in GraphQL at ${deps.graphql.shownUrl}${viaGraphql.truncated ? ` (only the first ${GRAPHQL_MAX_SYMBOLS})` : ''}`);
          } else {
            source = 'state';
            const { names, truncated } = await listContractNames(deps, FALLBACK_MAX_CONTRACTS, ctx.signal);
            const symbols = await mapLimited(names, 8, async (c) => (await readState(deps, `${c}.metadata:token_symbol`, ctx.signal)).value, ctx.signal);
            found = names.filter((_, i) => typeof symbols[i] === 'string' && (symbols[i] as string).toUpperCase() === wanted);
            warnings.push(`BDS token index unavailable (${viaGraphql.unavailable}); scanned the metadata of ${names.length} contracts in current state${truncated ? ' (truncated)' : ''}`);
          }
        }
        const token_contracts = [...new Set(found)].sort();
        const message =
          token_contracts.length === 0
            ? `No token found with symbol ${wanted}`
            : token_contracts.length > 1
              ? `Multiple tokens found with symbol ${wanted}; verify the contract before using it`
              : undefined;
        return withExtras(
          { token_symbol: wanted, token_contracts, count: token_contracts.length, source, ...(message ? { message } : {}) },
          { warnings, includeRaw: deps.includeRaw, raw: {} },
        );
      },
    }),
    defineTool({
      name: 'get_token_data_by_contract',
      title: 'Get token metadata',
      description:
        'The metadata of a token contract (name, symbol, logo, website, operator, total supply and any other <contract>.metadata:<key> entries), read from current state. tokenStates keeps the anchor\'s GraphQL-shaped list.',
      capability: 'read',
      input: z.object({ token_contract: contractNameSchema }),
      output: z.object({
        token_contract: z.string(),
        found: z.boolean().describe('the contract has metadata entries'),
        name: z.string().nullable(),
        symbol: z.string().nullable(),
        logo_url: z.string().nullable(),
        website: z.string().nullable(),
        operator: z.string().nullable(),
        total_supply: z.string().nullable().describe('exact decimal string'),
        metadata: z.record(z.string(), z.unknown()).describe('every metadata key and its value (decimals as strings)'),
        tokenStates: z.object({ nodes: z.array(z.object({ key: z.string(), value: z.unknown(), updatedAt: z.string().nullable() })) }),
        warnings: warningsOut,
        raw: rawOut,
      }),
      run: async ({ token_contract }, ctx) => {
        const prefix = `${token_contract}.metadata`;
        const path = QueryPath.keys(prefix, { limit: 200 });
        const [keysQuery, warnings] = await Promise.all([abciRead(deps, path, `listing the metadata of ${token_contract}`, ctx.signal), deps.guard.warnings(ctx.signal)]);
        const page = await nodeCall('listing token metadata', async () => valueOf(keysQuery));
        const scanned = isObject(page) && Array.isArray(page['items']) ? page['items'].map(String) : [];
        const keys = [...new Set([...ANCHOR_METADATA, ...scanned])];
        const values = await mapLimited(keys, 8, async (k) => (await readState(deps, `${prefix}:${k}`, ctx.signal)).value, ctx.signal);
        const metadata: Record<string, JsonValue> = {};
        keys.forEach((k, i) => {
          if (values[i] !== null) metadata[k] = values[i]!;
        });
        const str = (k: string) => (typeof metadata[k] === 'string' ? (metadata[k] as string) : metadata[k] == null ? null : String(metadata[k]));
        return withExtras(
          {
            token_contract,
            found: Object.keys(metadata).length > 0,
            name: str('token_name'),
            symbol: str('token_symbol'),
            logo_url: str('token_logo_url'),
            website: str('token_website'),
            operator: str('operator'),
            total_supply: str('total_supply'),
            metadata,
            tokenStates: { nodes: Object.entries(metadata).map(([k, value]) => ({ key: `${prefix}:${k}`, value, updatedAt: null })) },
          },
          { warnings, includeRaw: deps.includeRaw, raw: { keys_query: keysQuery } },
        );
      },
    }),
  ];
}

/** Tokens with the symbol from the BDS token list (paged); null when the index does not answer. */
async function indexedTokensBySymbol(deps: ReadDeps, wanted: string, warnings: string[], signal?: AbortSignal): Promise<string[] | null> {
  const found: string[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const indexed = await indexedRead(deps, QueryPath.build('token_contracts', [], { limit: PAGE, offset: page * PAGE }), signal);
    if (!indexed.available || !isObject(indexed.json)) {
      if (page === 0) return null;
      warnings.push(`the token index stopped answering after ${page * PAGE} tokens`);
      return found;
    }
    const items = Array.isArray(indexed.json['items']) ? indexed.json['items'] : [];
    for (const item of items) {
      if (isObject(item) && typeof item['symbol'] === 'string' && item['symbol'].toUpperCase() === wanted) found.push(String(item['contract']));
    }
    if (items.length < PAGE) return found;
  }
  warnings.push(`only the first ${MAX_PAGES * PAGE} indexed tokens were searched`);
  return found;
}
