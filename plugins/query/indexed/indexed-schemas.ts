import { z } from 'zod';
import type { JsonValue } from 'chainhost/chain';
import { intOut } from 'chainhost/plugin';

/**
 * What the indexed-read tools share: argument schemas with the reference's names and BDS limits
 * (mcp.md §4.6-4.7), and mappers of the BDS query paths' rows (already tool JSON: integers exact,
 * numbers when safe and digit strings beyond 2^53, decimals as strings).
 */
export type Row = Record<string, JsonValue>;

export const bdsLimit = z.number().int().min(0).max(1000).default(100).describe('page size');
export const bdsOffset = z.number().int().min(0).default(0).describe('rows to skip');
export const afterIdArg = z.number().int().min(0).optional().describe('resume after this id (restart-safe cursor; overrides offset)');
export const heightArg = z.number().int().min(0).describe('block height (0 is the genesis pseudo-block)');
export const blockRefArg = z
  .union([z.number().int().min(0), z.string().regex(/^([0-9]+|[0-9a-fA-F]{64})$/, 'must be a block height or a 64-hex block hash')])
  .describe('block height (integer) or 64-hex block hash');
export const tagKindArg = z.enum(['sync_hint', 'discovery_tag']).default('sync_hint').describe('tag kind: sync_hint (per wallet) or discovery_tag (per output)');
/** Free text that becomes one query-path segment: no "/" (a segment separator) and no NUL (PostgreSQL text cannot hold it). */
export const textArg = (what: string) => z.string().min(1, `${what} must not be empty`).max(1024)
  .refine((v) => !v.includes('/'), `${what} must not contain "/"`)
  .refine((v) => !v.includes('\u0000'), `${what} must not contain a NUL character`);

/** The `<height-or-hash>` segment: a 64-hex hash upper-cased as the index stores it, else the height. */
export function blockRefPart(value: number | string): string {
  return typeof value === 'string' && value.length === 64 ? value.toUpperCase() : String(Number(value));
}

/** A path answer that should be a row (or null). */
export function rowOf(value: JsonValue): Row | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Row) : null;
}

/** A path answer that should be a list of rows, or an envelope `{items: […]}`. */
export function rowsOf(value: JsonValue): Row[] {
  const list = Array.isArray(value) ? value : Array.isArray(rowOf(value)?.items) ? (rowOf(value)!.items as JsonValue[]) : [];
  return list.filter((r): r is Row => rowOf(r) !== null);
}

/** `created_at` is `created` in the SDK models (mcp.md §4.6). */
export function withCreated(row: Row): Record<string, unknown> {
  const { created_at, ...rest } = row;
  return { ...rest, created: created_at ?? null };
}

export const blockOut = z.object({
  height: intOut, block_hash: z.string(), block_time: intOut, block_time_iso: z.string(), tx_count: intOut, app_hash: z.string(), created_at: z.string(),
});

export const txOut = z.object({
  tx_hash: z.string(), block_height: intOut, block_hash: z.string(), tx_index: intOut, sender: z.string(), nonce: intOut,
  contract: z.string(), function: z.string(), success: z.boolean(), status_code: intOut, chi_used: intOut,
  result: z.unknown(), created: z.string().nullable(),
});

export const eventOut = z.object({
  id: intOut, tx_hash: z.string(), block_height: intOut, tx_index: intOut, event_index: intOut, contract: z.string(), event: z.string(),
  signer: z.string(), caller: z.string(), data_indexed: z.unknown(), data: z.unknown(), created: z.string().nullable(),
});

export const stateEntryOut = z.object({
  key: z.string(), value: z.unknown(), tx_hash: z.string().nullable().optional(), block_height: intOut.optional(), tx_index: intOut.optional(),
  write_index: intOut.optional(), origin_type: z.string().optional(), created: z.string().nullable().optional(),
});

export function txItem(row: Row): z.input<typeof txOut> {
  const r = withCreated(row);
  return {
    tx_hash: r.tx_hash as string, block_height: r.block_height as number, block_hash: r.block_hash as string, tx_index: r.tx_index as number,
    sender: r.sender as string, nonce: r.nonce as number, contract: r.contract as string, function: r.function as string,
    success: r.success as boolean, status_code: r.status_code as number, chi_used: r.chi_used as number, result: r.result, created: r.created as string | null,
  };
}
