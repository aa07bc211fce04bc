import { z } from 'zod';
import { decodeValue, type JsonValue, QueryPath } from 'chainhost/chain';
import { addressSchema, contractNameSchema, decimalOut, defineTool, limitSchema, offsetSchema, rawOut, type ToolDefinition, toolJson, warningsOut, withExtras } from 'chainhost/plugin';
import type { IndexedState } from '../graphql-states.js';
import { abciRead, decimalText, indexedRead, isObject, listContractNames, mapLimited, readState, valueOf, type ReadDeps } from '../chain-reads.js';

/**
 * Who holds a balance: an account address, or a contract by its name — contracts hold tokens
 * too (`currency.balances:con_escrow`). Only `con_…` names: a bare word may be a keystore
 * alias, which the tool invoker reads as that account's address.
 */
const holderSchema = z.string().max(200).transform((value, ctx) => {
  if (/^con_[a-z0-9_]{1,60}$/.test(value)) return value;
  const parsed = addressSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  ctx.addIssue({ code: 'custom', message: `${parsed.error.issues[0]?.message ?? 'must be an address'}, or a contract name (con_…)` });
  return z.NEVER;
}).describe('64-hex address, or a contract name (con_…)');

/** Contracts scanned by the state fallback of get_token_balances (no index: one read per contract). */
const FALLBACK_MAX_CONTRACTS = 1_000;
/** Balances read from GraphQL (the anchor's limit: the first 1,000, paged here). */
const GRAPHQL_MAX_ROWS = 1_000;

const tokenBalanceItem = z.object({
  contract: z.string(),
  balance: decimalOut,
  name: z.string().nullable(),
  symbol: z.string().nullable(),
  logo_url: z.string().nullable(),
  last_tx_hash: z.string().nullable(),
  last_block_height: z.union([z.number().int(), z.string()]).nullable(),
  updated_at: z.string().nullable(),
});
type TokenBalanceItem = z.input<typeof tokenBalanceItem>;

/** A contract exists when the node describes its methods (`/contract_methods` is null for unknown names). */
async function contractExists(deps: ReadDeps, name: string, signal?: AbortSignal): Promise<boolean> {
  const query = await abciRead(deps, QueryPath.contractMethods(name), `checking that contract ${name} exists`, signal);
  return query.value !== null && query.value !== undefined && valueOf(query) !== null;
}

export function balanceTools(deps: ReadDeps): ToolDefinition[] {
  return [
    defineTool({
      name: 'get_balance',
      title: 'Get token balance',
      description: 'Balance of an address, or of a contract (con_…: what it holds, e.g. an escrow), in one token contract (default currency), read from committed state (<token>.balances:<address>). Exact decimal string; "0" when the address holds none. found is false (with a warning) when no contract of that name exists, so a mistyped token is not read as an empty balance.',
      capability: 'read',
      input: z.object({
        address: holderSchema,
        token_contract: contractNameSchema.default('currency'),
      }),
      output: z.object({
        address: z.string(), token_contract: z.string(), balance: decimalOut,
        found: z.boolean().describe('the token contract exists (false: balance "0" means nothing, check the contract name)'),
        warnings: warningsOut, raw: rawOut,
      }),
      run: async ({ address, token_contract }, ctx) => {
        const key = `${token_contract}.balances:${address}`;
        // Both started before either is awaited; warnings() never rejects.
        const pendingWarnings = deps.guard.warnings(ctx.signal);
        const { value, query } = await readState(deps, key, ctx.signal);
        const warnings = await pendingWarnings;
        const balance = decimalText(value, `the balance at ${key}`);
        // Only an unset balance costs a second read: does the contract exist at all?
        const found = value !== null || (await contractExists(deps, token_contract, ctx.signal));
        if (!found) warnings.push(`no contract named ${token_contract} exists on this chain; check token_contract (get_token_contract_by_symbol finds a token by its symbol)`);
        return withExtras({ address, token_contract, balance, found }, { warnings, includeRaw: deps.includeRaw, raw: { abci_query: query } });
      },
    }),
    defineTool({
      name: 'get_token_balances',
      title: 'List token balances',
      description:
        'Token holdings of an address: from the BDS index (/token_balances) or the GraphQL endpoint CHAIN_GRAPHQL (available: true), else a scan of current state for <token>.balances:<address> (available: false, no history fields).',
      capability: 'read',
      timeoutMs: 60_000,
      input: z.object({
        address: addressSchema,
        limit: limitSchema(1_000, 100),
        offset: offsetSchema,
        include_zero: z.boolean().default(false).describe('include tokens whose balance is 0'),
      }),
      output: z.object({
        available: z.boolean().describe('true when an index (BDS query path or GraphQL) answered'),
        source: z.enum(['bds', 'graphql', 'state']),
        address: z.string(),
        total: z.number().int(),
        limit: z.number().int(),
        offset: z.number().int(),
        items: z.array(tokenBalanceItem),
        warnings: warningsOut,
        raw: rawOut,
      }),
      run: async ({ address, limit, offset, include_zero }, ctx) => {
        const path = QueryPath.build('token_balances', [address], { limit, offset, include_zero: include_zero ? 'true' : undefined });
        const [indexed, warnings] = await Promise.all([indexedRead(deps, path, ctx.signal), deps.guard.warnings(ctx.signal)]);
        if (indexed.available && isObject(indexed.json)) {
          const rows = Array.isArray(indexed.json['items']) ? indexed.json['items'] : [];
          const items: TokenBalanceItem[] = [];
          for (const row of rows.filter(isObject)) {
            const item = indexedItem(row);
            if (item) items.push(item);
            else warnings.push(`skipped ${String(row['contract'])}: its indexed balance is not a number (${JSON.stringify(row['balance']).slice(0, 60)})`);
          }
          const total = typeof indexed.json['total'] === 'number' ? indexed.json['total'] : items.length;
          return withExtras({ available: true, source: 'bds' as const, address, total, limit, offset, items }, { warnings, includeRaw: deps.includeRaw, raw: { abci_query: indexed.raw } });
        }
        const bdsReason = indexed.reason ?? 'no BDS';
        const viaGraphql = await deps.graphql.contractStates(`.balances:${address}`, GRAPHQL_MAX_ROWS, ctx.signal);
        if ('rows' in viaGraphql) {
          const notes = [...warnings, `BDS query paths unavailable (${bdsReason}); read from GraphQL at ${deps.graphql.shownUrl}`];
          if (viaGraphql.truncated) notes.push(`only the first ${GRAPHQL_MAX_ROWS} indexed balances were read`);
          const items: TokenBalanceItem[] = [];
          for (const row of viaGraphql.rows) {
            const { contract } = row;
            const balance = graphqlBalance(row);
            if (balance === null) notes.push(`skipped ${contract}: its indexed balance is not a number`);
            else if (include_zero || !isZero(balance)) {
              items.push({ contract, balance, name: null, symbol: null, logo_url: null, last_tx_hash: row.lastTxHash, last_block_height: row.lastBlockHeight, updated_at: row.updatedAt });
            }
          }
          // Name, symbol and logo as the BDS path gives them: the contracts' metadata states, one more query.
          const page = items.slice(offset, offset + limit);
          const metadata = await deps.graphql.statesByKeys(page.flatMap((i) => TOKEN_METADATA.map((m) => `${i.contract}.metadata:${m}`)), ctx.signal);
          if ('values' in metadata) {
            for (const item of page) {
              const text = (m: string) => { const v = metadata.values.get(`${item.contract}.metadata:${m}`); return typeof v === 'string' ? v : null; };
              Object.assign(item, { name: text('token_name'), symbol: text('token_symbol'), logo_url: text('token_logo_url') });
            }
          } else notes.push(`token names and symbols unavailable (${metadata.unavailable})`);
          return withExtras(
            { available: true, source: 'graphql' as const, address, total: items.length, limit, offset, items: page },
            { warnings: notes, includeRaw: deps.includeRaw, raw: { bds_attempt: indexed.raw } },
          );
        }
        const scanned = await stateBalances(deps, address, include_zero, ctx.signal);
        const notes = [...warnings, `indexed token balances unavailable (${bdsReason}; ${viaGraphql.unavailable}); read from current state across ${scanned.contracts} contracts`];
        if (scanned.truncated) notes.push(`only the first ${FALLBACK_MAX_CONTRACTS} contracts were scanned`);
        const items = scanned.items.slice(offset, offset + limit);
        return withExtras({ available: false, source: 'state' as const, address, total: scanned.items.length, limit, offset, items }, { warnings: notes, includeRaw: deps.includeRaw, raw: { bds_attempt: indexed.raw } });
      },
    }),
  ];
}

/** The metadata keys a token's name, symbol and logo come from (bds.md §5.1, as /token_balances reads them). */
const TOKEN_METADATA = ['token_name', 'token_symbol', 'token_logo_url'] as const;

/** A GraphQL `states` row's balance: the numeric projection, else the decoded value; null when not a number. */
function graphqlBalance(row: IndexedState): string | null {
  try {
    return decimalText(row.valueNumeric ?? toolJson(decodeValue(row.value)), 'balance');
  } catch {
    return null;
  }
}

function isZero(balance: string): boolean {
  return /^-?0(\.0+)?$/.test(balance);
}

/** One BDS row; null when its balance is not numeric (BDS then keeps the raw JSON text). */
function indexedItem(row: Record<string, JsonValue>): TokenBalanceItem | null {
  const text = (v: JsonValue | undefined) => (typeof v === 'string' ? v : v === undefined || v === null ? null : String(v));
  const height = row['last_block_height'];
  let balance: string;
  try {
    balance = decimalText(row['balance'] ?? null, 'balance');
  } catch {
    return null;
  }
  return {
    contract: String(row['contract'] ?? ''),
    balance,
    name: text(row['name']),
    symbol: text(row['symbol']),
    logo_url: text(row['logo_url']),
    last_tx_hash: text(row['last_tx_hash']),
    last_block_height: typeof height === 'number' || typeof height === 'string' ? height : null,
    updated_at: text(row['updated_at']),
  };
}

/** Without an index: every contract's `balances:<address>` in current state, then token metadata for the holdings. */
async function stateBalances(deps: ReadDeps, address: string, includeZero: boolean, signal?: AbortSignal) {
  const { names, truncated } = await listContractNames(deps, FALLBACK_MAX_CONTRACTS, signal);
  const balances = await mapLimited(names, 8, async (contract) => {
    const { value } = await readState(deps, `${contract}.balances:${address}`, signal);
    if (value === null) return null;
    let balance: string;
    try {
      balance = decimalText(value, 'balance');
    } catch {
      return null; // a contract whose `balances` is not a token balance
    }
    if (!includeZero && isZero(balance)) return null;
    return { contract, balance };
  }, signal);
  const held = balances.filter((b): b is { contract: string; balance: string } => b !== null);
  const items = await mapLimited(held, 8, async ({ contract, balance }): Promise<TokenBalanceItem> => {
    const [name, symbol, logo] = await Promise.all(
      ['token_name', 'token_symbol', 'token_logo_url'].map(async (k) => (await readState(deps, `${contract}.metadata:${k}`, signal)).value),
    );
    const str = (v: JsonValue | undefined) => (typeof v === 'string' ? v : null);
    return { contract, balance, name: str(name), symbol: str(symbol), logo_url: str(logo), last_tx_hash: null, last_block_height: null, updated_at: null };
  }, signal);
  return { items, contracts: names.length, truncated };
}
